"""Saves made before each mission kept its own state (commit b7b0e0e: the mission's fires,
probes, bombs, tokens and hunt were fields of StrikebackState) still load: the mission's
fields move into its own part, nothing else changes, the loaded state saves and loads back
the same, and the game plays on to its end. Each file: the seed and step of the self-play it
was taken from, and the old `game.dump`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.core.dice import SeededDice, derive_seed
from engine.galaxy import GAME
from engine.galaxy.state import GalaxyState, Pending
from engine.galaxy.strikeback.mission_rules import rules_for
from engine.galaxy.strikeback.status import StrikebackState, sb_state
from engine.galaxy.world import mission_key
from engine.selfplay import choose_action

SAVES = sorted((Path(__file__).parent / "saves").glob("*.json"))
MOVED = ("flames", "flames_from", "firefighters", "pieces", "flags", "tokens", "hunt")
FOLDED = {"keep-jet-boots"}  # mission 3's old counter, a class rule now (`kept_devices`)


def moved_fields(old: dict[str, Any], kind: type[Any]) -> dict[str, Any]:
    """What the older save held for the mission, where its part now keeps it."""
    source = old.get(kind.legacy_group) or {} if kind.legacy_group else old
    found = {k: source[k] for k in kind.legacy_fields if k in source}
    if isinstance(found.get("flags"), dict):
        found["flags"] = {k: v for k, v in found["flags"].items() if k not in FOLDED}
    return found


def play_on(state: GalaxyState, seed: int) -> GalaxyState:
    """Random self-play from the loaded state to the end."""
    policy = SeededDice(derive_seed(seed, "on"))
    patience = 0
    for step_no in range(3000):
        dice = SeededDice(derive_seed(seed, f"on-{step_no}"))
        state = GAME.advance(state, dice).state
        prompt = GAME.waiting_on(state)
        if prompt.finished:
            return state
        seat = prompt.seats[0]
        action = choose_action(GAME.legal_actions(state, seat), policy, patience)
        patience = 0 if action.verb == "end-turn" else patience + 1
        state = GAME.apply(state, seat, action, dice).state
    raise AssertionError("the loaded game did not finish")


@pytest.mark.parametrize("path", SAVES, ids=[p.stem for p in SAVES])
def test_an_older_save_loads_into_the_missions_own_part(path: Path) -> None:
    saved: dict[str, Any] = json.loads(path.read_text())
    old_state = saved["state"]
    old = old_state["strikeback"]
    assert any(key in old for key in MOVED)  # the file is of the older shape
    state = GAME.load(json.loads(json.dumps(old_state)))
    kind = rules_for(mission_key(state)).state
    part = sb_state(state).mission_state
    assert kind is not None and isinstance(part, kind)
    assert not set(MOVED) & set(StrikebackState.model_fields)
    mine = part.model_dump(mode="json")
    for field, value in moved_fields(old, kind).items():
        assert mine[field] == value, field
    dumped = GAME.dump(state)
    both = [k for k in dumped["strikeback"] if k in old]  # the rest as it was
    assert [dumped["strikeback"][k] for k in both] == [old[k] for k in both]
    both = [k for k in dumped if k in old_state and k not in ("strikeback", "pending")]
    assert len(both) > 20 and [dumped[k] for k in both] == [old_state[k] for k in both]
    assert json.dumps(GAME.dump(GAME.load(dumped)), sort_keys=True) == json.dumps(
        dumped, sort_keys=True
    )
    assert play_on(state, saved["seed"]).outcome is not None


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
