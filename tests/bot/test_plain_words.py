"""Names, never keys (issue #32): whole missions of every game played through the
playground's API, and every text a person reads scanned for engine keys and command syntax
(see `plain_words`: the keys are the game's own, gathered from its states as it runs).

Before issue #32 the scan found 247 distinct keys and bits of command syntax over these five
missions; it must find none. Public text above each turn picture is held to the issue's
targets too: a median of at most 300 characters, none over 800.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from plain_words import AltPictures, Keys, Read, Scan, narration, play_and_scan, stiff

from bot.playground.server import create_app
from bot.storage.db import Database
from bot.table import TableService
from engine.core.dice import SeededDice
from engine.registry import get_game

MEDIAN_POST = 300
LONGEST_POST = 800

# label -> (game, scenario, seats, options)
MISSIONS: dict[str, tuple[str, str, list[str], dict[str, str]]] = {
    "galaxy-m1": ("galaxy-defenders", "m1", ["marine", "sniper", "biotech"], {}),
    "strikeback-os1": ("galaxy-defenders", "os1", ["marine", "sniper", "biotech"], {}),
    "forlorn-op-01": ("forlorn-hope", "op-01", ["marines", "marines-2"], {}),
    "forlorn-op-01-human-xeno": (
        "forlorn-hope",
        "op-01",
        ["marines", "xeno", "marines-2"],
        {"xeno": "human"},
    ),
    "reich-radio-silence": (
        "reichbusters",
        "radio-silence",
        ["sarge", "hans", "claudine"],
        {},
    ),
}


@pytest.fixture
async def api(tmp_path: Path) -> AsyncIterator[tuple[TestClient[Any, Any], TableService]]:
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'words.db'}")
    await db.init()
    service = TableService(db, new_seed=lambda: 20261205, limits=None, pictures=AltPictures())
    async with TestClient(TestServer(create_app(service))) as client:
        yield client, service
    await db.close()


def test_the_detector_finds_the_keys_a_game_holds() -> None:
    """The detector is built from the state, so a key planted in a text is always found."""
    game = get_game("reichbusters")
    state = game.new("radio-silence", ["sarge", "hans"], {}, SeededDice(1))
    keys = Keys()
    keys.learn(game.dump(state), game.view(state, None))
    card = next(k for k in keys.shaped if k.startswith("brawl-"))
    scan = Scan("planted", keys=keys)
    scan.read += [
        Read("post", f"sarge plays {card} (succ:2).", True),
        Read("post", "Sarge plays Brawl: two extra dice.", True),
    ]
    found = scan.findings()
    assert {card, "sarge", "syntax succ:2"} <= set(found), found
    assert not any("Brawl: two" in w for where in found.values() for w in where)


@pytest.mark.slow
@pytest.mark.parametrize("label", sorted(MISSIONS))
async def test_people_read_names_not_keys(
    api: tuple[TestClient[Any, Any], TableService], label: str
) -> None:
    client, service = api
    game_key, scenario, seats, options = MISSIONS[label]
    scan = await play_and_scan(client, service, label, game_key, scenario, seats, options)
    campaign = await service.repo.latest_in_channel("ops")
    assert campaign is not None and campaign.status == "finished"
    assert len(scan.keys.shaped) > 10 and set(seats) <= scan.keys.plain  # the detector is armed
    found = scan.findings()
    median, top = scan.lengths()
    print(f"\n{label}: {scan.steps} steps, {len(scan.read)} texts read, {len(found)} distinct")
    print(f"  public text above the picture: median {median:.0f}, longest {top}")
    for key, where in sorted(found.items()):
        print(f"  {key!r} x{len(where)}: {where[0]}")
    assert not found, sorted(found)
    assert median <= MEDIAN_POST and top <= LONGEST_POST, (median, top)
    steps = [read.text for read in scan.read if read.where == "web step text"]
    assert steps and not stiff(steps), stiff(steps)
    if game_key == "reichbusters":
        check_enemy_numbers(scan)


def check_enemy_numbers(scan: Scan) -> None:
    """Enemies are numbered per type as they appear, as the table would say them (issue #32):
    the third Soldier to appear is "Soldier 3" in the posts, /log, the web steps, the picker
    and on the board, whatever its key; a figure keeps its one name while it is on the board."""
    appeared = scan.appearances()
    print(f"  enemies appearing, per type: {appeared}")
    assert max((len(numbers) for numbers in appeared.values()), default=0) >= 3, appeared
    for kind, numbers in appeared.items():
        assert numbers == list(range(1, len(numbers) + 1)), (kind, numbers)
    for figure, names in scan.enemy_names.items():
        assert len(names) == 1, (figure, names)  # the board label is the name, never the key
    shown = {name for names in scan.enemy_names.values() for name in names}
    for kind, numbers in appeared.items():
        on_board = {name for name in shown if name.startswith(f"{kind} ")}
        assert on_board <= {f"{kind} {n}" for n in numbers}, (kind, on_board)


def test_the_enemy_number_check_catches_a_global_number() -> None:
    """The check above fails on the old naming (the third Soldier called by its global id)."""
    scan = Scan("planted")
    scan.read += [
        Read("web step text", f"Soldier {n} appears in 2B (the Alarm).", True) for n in (1, 2, 20)
    ]
    with pytest.raises(AssertionError):
        check_enemy_numbers(scan)
    scan.read[-1] = Read("web step text", "Soldier 3 appears in 2B (the Alarm).", True)
    check_enemy_numbers(scan)


# Lines in the old wording (most as played missions told them before session 4), and
# what they say now: the detector flags each old one and none of the new.
OLD_LINES = [
    "GREEN Xeno-Beta x1 takes 0 Wound(s) from Chromium (Marine)'s Assault Rifle, 3 HP left.",
    "BLUE Nexus x14 defends with hit+shield, hit+shield, alien.",
    "Archon 1 (NPC) attacks GREEN Xeno-Alpha x11 with the Proton Rifle: hit+jam - 1 Hit(s).",
    "Housekeeping: 2 open door(s) swing shut, flames die down, surges fade.",
    "Claudine draws 1 Action card(s).",
    "Thorium (Biotech) takes 1 Battery(ies): 3.",
    "Chromium (Marine): standing order - Guard fires only at RED aliens.",
]
NEW_LINES = [
    "Green Xeno-Beta 1 takes no Wounds from Chromium (Marine)'s Assault Rifle, 3 HP left.",
    "Blue Nexus 14 defends with 3 dice: 2 Hits, 2 Shields and an Alien.",
    "Archon 1 (NPC) attacks Green Xeno-Alpha 11 with the Proton Rifle: a Hit and a Jam - 1 Hit.",
    "Housekeeping: 2 open doors swing shut, flames die down, surges fade.",
    "Claudine draws 1 Action card.",
    "Thorium (Biotech) takes 1 Battery: 3.",
    "Chromium (Marine): standing order - Guard fires only at red aliens.",
    "Thorium (Biotech) draws Mind Spike: strike an alien within 2 Areas with 3 RED dice.",
]


def test_the_stiff_wording_detector_flags_the_old_narration_only() -> None:
    assert all(stiff([line]) for line in OLD_LINES), [ln for ln in OLD_LINES if not stiff([ln])]
    assert not stiff(NEW_LINES), stiff(NEW_LINES)


# game, scenario, players: a core and two Strikeback missions, Forlorn and Reichbusters
NARRATED = [
    ("galaxy-defenders", "m1", 3),
    ("galaxy-defenders", "os3", 3),
    ("galaxy-defenders", "os6", 3),
    ("forlorn-hope", "op-01", 3),
    ("reichbusters", "radio-silence", 3),
]


@pytest.mark.parametrize(("game_key", "scenario", "players"), NARRATED)
def test_the_story_of_a_played_mission_reads_as_a_person_writes_it(
    game_key: str, scenario: str, players: int
) -> None:
    """No "(s)", no count or token as "x1", no colour in capitals, no "hit+shield": whole
    missions played by the advisor, every line of their story read."""
    lines = [line for seed in (1, 2) for line in narration(game_key, scenario, seed, players)]
    assert len(lines) > 200 and any(char.isdigit() for line in lines for char in line)
    found = stiff(lines)
    assert not found, {word: where[:3] for word, where in found.items()}
