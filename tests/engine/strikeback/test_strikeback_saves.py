"""Saves made before each mission kept its own state (commit b7b0e0e: the mission's fires,
probes, bombs, tokens and hunt were fields of StrikebackState) still load: the mission's fields
move into the mission's own part with their values, and nothing else of the save is lost or
changed (later code may add fields with their defaults). Each file: seed, step and the old
`game.dump`, exactly as b7b0e0e wrote it. The check reads the save against itself, not against
a replay under today's rules, so a later rule or content change does not touch these files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.galaxy import GAME
from engine.galaxy.state import Pending
from engine.galaxy.strikeback.mission_rules import rules_for
from engine.galaxy.strikeback.status import StrikebackState, sb_state
from engine.galaxy.world import mission_key

SAVES = sorted((Path(__file__).parent / "saves").glob("*.json"))
MOVED = ("flames", "flames_from", "firefighters", "pieces", "flags", "tokens", "hunt")
# what the migration drops on purpose: os3 kept the Jet Boots rule as a counter (now a ClassVar)
RETIRED_FLAGS = ("keep-jet-boots",)
EMPTY: tuple[Any, ...] = (None, [], {}, 0, "")


def empty(value: Any) -> bool:
    """A default value: nothing to carry (a group of defaults counts as empty)."""
    if isinstance(value, dict) and value:
        return all(empty(v) for v in value.values())
    return value in EMPTY


def contains(new: Any, old: Any, where: str = "state") -> None:
    """Every value of `old` is in `new` unchanged (`new` may hold more keys)."""
    if isinstance(old, dict):
        assert isinstance(new, dict), where
        for key, value in old.items():
            assert key in new, f"{where}.{key} lost"
            contains(new[key], value, f"{where}.{key}")
    elif isinstance(old, list):
        assert isinstance(new, list) and len(new) == len(old), where
        for i, (a, b) in enumerate(zip(new, old, strict=True)):
            contains(a, b, f"{where}[{i}]")
    else:
        assert new == old, f"{where}: {old!r} became {new!r}"


@pytest.mark.parametrize("path", SAVES, ids=[p.stem for p in SAVES])
def test_an_older_save_loads_into_the_missions_own_part(path: Path) -> None:
    saved: dict[str, Any] = json.loads(path.read_text())
    old = saved["state"]["strikeback"]
    assert any(key in old for key in MOVED)  # the file is of the older shape
    state = GAME.load(json.loads(json.dumps(saved["state"])))
    kind = rules_for(mission_key(state)).state
    part = sb_state(state).mission_state
    assert kind is not None and isinstance(part, kind)
    assert not set(MOVED) & set(StrikebackState.model_fields)

    # the mission's fields, with their values, in the mission's part
    # (read off the save, not off the migration: a field the migration forgot must fail)
    if kind.legacy_group:
        moved = {k: v for k, v in (old.get(kind.legacy_group) or {}).items() if not empty(v)}
    else:
        moved = {k: old[k] for k in MOVED if not empty(old.get(k))}
    assert moved, "the save holds none of the mission's fields"
    if isinstance(moved.get("flags"), dict):
        moved["flags"] = {k: v for k, v in moved["flags"].items() if k not in RETIRED_FLAGS}
    contains(part.model_dump(mode="json"), moved, f"{kind.__name__}")

    # everything else of the save, unchanged
    dumped = GAME.dump(state)
    rest = dict(saved["state"])
    rest["strikeback"] = {k: v for k, v in old.items() if k not in MOVED}
    if state.pending is not None and "question" in state.pending.data:
        dumped["pending"]["data"].pop("question")  # issue #31: a device prompt names its device
    contains(dumped, rest)

    again = GAME.load(GAME.dump(state))
    assert GAME.dump(again) == GAME.dump(state)


def test_a_saved_prompt_of_a_folded_kind_is_asked_as_the_missions_own() -> None:
    """Mission 1 once asked for a Firefighter with a kind of its own (`sb-firefighter`)."""
    saved = {
        "kind": "sb-firefighter",
        "seat": "marine",
        "options": ["marine"],
        "data": {"ask": "x"},
    }
    assert Pending.model_validate(saved).kind == "sb-mission"
    with pytest.raises(ValueError):
        Pending.model_validate(saved | {"kind": "firefighter"})  # core kinds stay checked
