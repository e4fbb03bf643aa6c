"""Content refuses what it does not know (issue #29): a misspelt key in any shipped content file
stops the load with a `ContentError` naming the file and the key.

Each case reads every game's content with one file changed on the way in (a key
`zz_mispelt_key` added at its top level, or to its first record), through the one reader every
loader uses (`engine.core.content.read_json`). Before the content base model existed, 36 of
the 39 files took such a key without a word.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.core import content as files
from engine.core.errors import ContentError
from engine.forlorn import content as forlorn
from engine.galaxy import content as galaxy
from engine.galaxy.strikeback import arsenal, cards, criticals, decks, devices, missions, npc
from engine.galaxy.strikeback import powers as sb_powers
from engine.reich import content as reich

ENGINE = Path(engine.__file__).resolve().parent
DATA = (".json", ".toml", ".yaml", ".yml")
SHIPPED = sorted(
    p for p in ENGINE.rglob("*") if "content" in p.relative_to(ENGINE).parts and p.suffix in DATA
)
TYPO = "zz_mispelt_key"

# Everything each game loads from its content files, through its public readers.
LOADERS: list[Callable[[], Any]] = [
    galaxy.content,
    missions.missions,
    missions.close_encounters,
    cards.cards,
    cards.mission_cards,
    decks.events,
    criticals.tokens,
    devices.catalogue,
    npc.cards,
    arsenal.weapons,
    sb_powers.skills,
    forlorn.units,
    forlorn.scenarios,
    forlorn.cards,
    reich.load_content,
]


def clear_caches() -> None:
    """Forget every cached load in the engine, so the next call reads the files again."""
    for name, module in list(sys.modules.items()):
        if name == "engine" or name.startswith("engine."):
            for value in list(vars(module).values()):
                clear = getattr(value, "cache_clear", None)
                if callable(clear):
                    clear()


def load_everything() -> None:
    for loader in LOADERS:
        loader()


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """Loads from the files within the test, and again from the real ones after it."""
    clear_caches()
    yield monkeypatch
    clear_caches()


def first_record(data: dict[str, Any]) -> dict[str, Any] | None:
    """The first record inside a file: the first object of its first list or map of objects."""
    for value in data.values():
        items = list(value.values()) if isinstance(value, dict) else value
        if not isinstance(items, list):
            continue
        for item in items:
            if isinstance(item, dict):
                return item
            if isinstance(item, list) and item and isinstance(item[0], dict):
                return item[0]  # a map of lists of records (Critical token piles)
    return None


def short(path: Path) -> str:
    return path.relative_to(ENGINE.parent).as_posix()


def test_the_shipped_content_files_are_the_39_the_issue_counts() -> None:
    assert len(SHIPPED) == 39, [short(p) for p in SHIPPED]
    assert {p.suffix for p in SHIPPED} == {".json"}


def test_every_shipped_file_is_read_through_the_checked_reader(fresh: pytest.MonkeyPatch) -> None:
    read: set[Path] = set()
    real = files.read_json

    def spy(path: Path) -> Any:
        read.add(path.resolve())
        return real(path)

    fresh.setattr(files, "read_json", spy)
    load_everything()
    assert sorted(read) == SHIPPED


CASES = [(p, "top") for p in SHIPPED] + [
    (p, "record") for p in SHIPPED if first_record(json.loads(p.read_text("utf-8")))
]


@pytest.mark.parametrize(
    ("path", "where"), CASES, ids=lambda v: short(v) if isinstance(v, Path) else v
)
def test_a_misspelt_key_is_refused_naming_file_and_key(
    fresh: pytest.MonkeyPatch, path: Path, where: str
) -> None:
    real = files.read_json
    changed: list[bool] = []

    def misspelt(read_path: Path) -> Any:
        data = real(read_path)
        if read_path.resolve() == path:
            target = data if where == "top" else first_record(data)
            assert target is not None
            target[TYPO] = True
            changed.append(True)
        return data

    fresh.setattr(files, "read_json", misspelt)
    with pytest.raises(ContentError) as raised:
        load_everything()
    assert changed, f"{short(path)} was not read"
    message = str(raised.value)
    assert short(path) in message and f"unknown key {TYPO!r}" in message, message


def test_the_error_names_the_record_by_its_key(fresh: pytest.MonkeyPatch) -> None:
    real = files.read_json
    weapons = ENGINE / "galaxy" / "content" / "weapons.json"

    def misspelt(read_path: Path) -> Any:
        data = real(read_path)
        if read_path.resolve() == weapons:
            data["weapons"][2][TYPO] = 1
        return data

    fresh.setattr(files, "read_json", misspelt)
    first_key = real(weapons)["weapons"][2]["key"]
    with pytest.raises(ContentError) as raised:
        galaxy.content()
    assert str(raised.value) == (
        f"engine/galaxy/content/weapons.json: unknown key {TYPO!r} in weapons[2] ({first_key})"
    )


def test_a_misspelt_weapon_in_an_alien_cards_effects_is_refused(fresh: pytest.MonkeyPatch) -> None:
    """Keys of a map (not a record) are checked by the loader: Strikeback card effects are by
    weapon, melee or ranged; any other key was silently never triggered."""
    real = files.read_json
    aliens = ENGINE / "galaxy" / "strikeback" / "content" / "aliens.json"

    def misspelt(read_path: Path) -> Any:
        data = real(read_path)
        if read_path.resolve() == aliens:
            card = next(c for c in data["cards"] if c.get("effects"))
            card["effects"] = {
                "ranegd" if k == "ranged" else "mele": v for k, v in card["effects"].items()
            }
        return data

    fresh.setattr(files, "read_json", misspelt)
    with pytest.raises(ContentError, match="effects are by weapon, melee or ranged"):
        cards.cards()
