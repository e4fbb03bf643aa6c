"""Saves made before each mission kept its own state (commit b7b0e0e: the mission's fires,
probes, bombs, tokens and hunt were fields of StrikebackState) still load, into the mission's
part, and equal what the current code reaches by replaying the same self-play to that step
(the check an archive import makes). Each file: seed, step and the old `game.dump`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.core.dice import SeededDice, derive_seed
from engine.core.game import scenario_info
from engine.galaxy import GAME
from engine.galaxy.state import GalaxyState, Pending
from engine.galaxy.strikeback.mission_rules import rules_for
from engine.galaxy.strikeback.status import StrikebackState, sb_state
from engine.galaxy.world import mission_key
from engine.selfplay import choose_action, default_seats

SAVES = sorted((Path(__file__).parent / "saves").glob("*.json"))
MOVED = ("flames", "flames_from", "firefighters", "pieces", "flags", "tokens", "hunt")


def replay(scenario: str, seed: int, step: int) -> GalaxyState:
    """The self-play the old save was taken from, played again up to its step."""
    options: dict[str, str] = {"expansion": "strikeback"} if scenario == "campaign" else {}
    seats = default_seats(GAME, scenario, None)
    resolved = scenario_info(GAME, scenario).resolve_options(options)
    state = GAME.new(scenario, seats, resolved, SeededDice(derive_seed(seed, "setup")))
    policy = SeededDice(derive_seed(seed, "policy"))
    patience = 0
    for step_no in range(step + 1):
        dice = SeededDice(derive_seed(seed, step_no))
        state = GAME.advance(state, dice).state
        seat = GAME.waiting_on(state).seats[0]
        action = choose_action(GAME.legal_actions(state, seat), policy, patience)
        patience = 0 if action.verb == "end-turn" else patience + 1
        state = GAME.apply(state, seat, action, dice).state
    return state


def canonical(state: GalaxyState) -> str:
    return json.dumps(GAME.dump(state), sort_keys=True)


@pytest.mark.parametrize("path", SAVES, ids=[p.stem for p in SAVES])
def test_an_older_save_loads_into_the_missions_own_part(path: Path) -> None:
    saved: dict[str, Any] = json.loads(path.read_text())
    old = saved["state"]["strikeback"]
    assert any(key in old for key in MOVED)  # the file is of the older shape
    state = GAME.load(json.loads(json.dumps(saved["state"])))
    part = sb_state(state).mission_state
    kind = rules_for(mission_key(state)).state
    assert kind is not None and isinstance(part, kind)
    assert not set(MOVED) & set(StrikebackState.model_fields)
    assert canonical(state) == canonical(
        replay(path.stem.split("-")[0], saved["seed"], saved["step"])
    )
    again = GAME.load(GAME.dump(state))
    assert canonical(again) == canonical(state)


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
