"""Rulebook chapter 7 (Movement), probed through the Game protocol."""

from __future__ import annotations

import pytest
from conftest import bare, put, unit

from engine.core.dice import ScriptedDice
from engine.core.errors import RuleError
from engine.core.game import Action
from engine.forlorn import GAME

SEAL = Action(verb="act", args={"unit": "fox", "what": "unseal", "to": "C9"})


def _seal_cuts(state: object) -> list[Action]:
    return [
        a
        for a in GAME.legal_actions(state, "marines")  # type: ignore[arg-type]
        if a.args.get("what") == "unseal"
    ]


def test_7_3_a_grappled_marine_cannot_cut_a_seal() -> None:
    """7.3: a Marine next to a non-Egg Xeno may not open a Security Door; cutting Solo B's
    seal opens one (Solo B rule 1), so it is forbidden too (issue #30, defect 4)."""
    state = bare("solo-b")
    assert "C9-C10" in state.sealed_doors  # the lab's sealed Security Door
    put(state, "fox", "C10", "N")  # outside the lab, at the door
    put(state, "d1", "B10")  # a Drone beside him: grappled
    assert not _seal_cuts(state)
    with pytest.raises(RuleError, match="grappled"):
        GAME.apply(state, "marines", SEAL, ScriptedDice())
    # Without the Drone the same Marine cuts it (1 AP) and the door opens.
    unit(state, "d1").status, unit(state, "d1").at = "pool", None
    assert [a.args for a in _seal_cuts(state)] == [SEAL.args]
    after = GAME.apply(state, "marines", SEAL, ScriptedDice()).state
    assert "C9-C10" not in after.sealed_doors and "C9-C10" in after.open_doors
    assert after.ap == state.ap - 1


def test_7_3_an_egg_does_not_stop_the_cut() -> None:
    """7.3: Eggs do not grapple, so a Marine next to one still cuts the seal."""
    state = bare("solo-b")
    put(state, "fox", "C10", "N")
    put(state, "h1", "B10", kind="egg")
    assert [a.args for a in _seal_cuts(state)] == [SEAL.args]
