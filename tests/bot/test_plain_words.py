"""Names, never keys (issue #32): whole missions of every game played through the
playground's API, and every text a person reads scanned for engine keys and command syntax
(see `plain_words`: the keys are the game's own, gathered from its states as it runs).

The table does not speak plain words everywhere yet: each mission's distinct findings are held
at or under the count pinned here (a ratchet: lower it as sources are fixed, never raise it),
and the test prints what it found. Public text above each turn picture is measured too.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from plain_words import AltPictures, Keys, Read, Scan, play_and_scan

from bot.playground.server import create_app
from bot.storage.db import Database
from bot.table import TableService
from engine.core.dice import SeededDice
from engine.registry import get_game

# label -> (game, scenario, seats, options, most distinct findings, longest public post)
MISSIONS: dict[str, tuple[str, str, list[str], dict[str, str], int, int]] = {
    "galaxy-m1": ("galaxy-defenders", "m1", ["marine", "sniper", "biotech"], {}, 4, 1583),
    "strikeback-os1": ("galaxy-defenders", "os1", ["marine", "sniper", "biotech"], {}, 28, 1555),
    "forlorn-op-01": ("forlorn-hope", "op-01", ["marines", "marines-2"], {}, 10, 1150),
    "forlorn-op-01-human-xeno": (
        "forlorn-hope",
        "op-01",
        ["marines", "xeno", "marines-2"],
        {"xeno": "human"},
        28,
        1009,
    ),
    "reich-radio-silence": (
        "reichbusters",
        "radio-silence",
        ["sarge", "hans", "claudine"],
        {},
        87,
        1780,
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
    game_key, scenario, seats, options, most, longest = MISSIONS[label]
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
    assert len(found) <= most, sorted(found)
    assert top <= longest
