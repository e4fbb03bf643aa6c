"""Rulebook chapter 8 (Combat), probed through the Game protocol with scripted dice.

8.5 Plasma grenades: the Marine player places one on any square within line of sight of any
Marine, at any range, the line passing over enemy units. 8.1's facing limit ("a Marine unit
cannot attack squares to its side or rear") is not part of line of sight (8.1's own example
tells the squares blocked by sight from those ruled out by facing), and 8.5 asks for sight only:
a toss is not limited by facing (docs/games/forlorn.md, fidelity table, 8.5).
"""

from __future__ import annotations

import pytest
from conftest import bare, put, unit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.dice import ScriptedDice
from engine.core.errors import RuleError
from engine.core.game import Action
from engine.forlorn import GAME
from engine.forlorn.board import label
from engine.forlorn.state import ForlornState
from engine.forlorn.world import board_of, has_los, sq


def toss(uid: str, to: str) -> Action:
    return Action(verb="act", args={"unit": uid, "what": "grenade", "to": to})


def targets(state: ForlornState, uid: str) -> set[str]:
    return {
        a.args["to"]
        for a in GAME.legal_actions(state, "marines")
        if a.args.get("what") == "grenade" and a.args.get("unit") == uid and "surge" not in a.args
    }


def test_8_5_an_empty_square_is_a_target_and_the_blast_decides_who_is_hit() -> None:
    """An empty I7 catches the Drones on H7 and J7 (orthogonal: hit on 4+) and spares Bates
    two squares away on I9 (issue #30, defect 5)."""
    state = bare()
    put(state, "bates", "I9", "N")
    put(state, "d1", "H7")
    put(state, "d2", "J7")
    assert "I7" in targets(state, "bates")
    dice = ScriptedDice([4, 1, 1, 5])  # two dice per unit in the blast: d1, then d2
    after = GAME.apply(state, "marines", toss("bates", "I7"), dice).state
    assert dice.remaining == 0  # nobody else was rolled for: Bates is outside the blast
    assert unit(after, "d1").status == "pool" and unit(after, "d2").status == "pool"
    assert unit(after, "bates").status == "active" and after.grenades == 2


def test_8_5_facing_does_not_limit_a_toss() -> None:
    """A Drone beside Sgt. Fox, out of his front arc but in clear sight: he may lob at it."""
    state = bare()
    put(state, "fox", "J9", "N")
    put(state, "d1", "K9")  # to his right: he cannot shoot it (8.1), he may toss at it
    assert not any(
        a.verb == "attack" and a.args.get("unit") == "fox"
        for a in GAME.legal_actions(state, "marines")
    )
    assert "K9" in targets(state, "fox")
    after = GAME.apply(state, "marines", toss("fox", "K9"), ScriptedDice([3, 1, 1, 1])).state
    assert unit(after, "d1").status == "pool"


def test_8_5_any_marines_sight_will_do() -> None:
    """Bates in the docking room cannot see K9; Fox can, so the squad may place a grenade
    there, and Bates may be the one who spends the AP."""
    state = bare()
    put(state, "bates", "C3", "E")
    put(state, "fox", "J9", "N")
    put(state, "d1", "K9")
    board = board_of(state)
    assert not has_los(state, sq("C3"), sq("K9"), "marines")
    assert "K9" in targets(state, "bates")
    after = GAME.apply(state, "marines", toss("bates", "K9"), ScriptedDice([3, 1, 1, 1])).state
    assert unit(after, "d1").status == "pool"
    # A square no Marine sees stays refused, and unlisted.
    hidden = next(
        label(s)
        for s in sorted(board.floor)
        if not any(has_los(state, s, sq(m.at or ""), "marines", set()) for m in after.active())
        and s != sq("C3")
        and s != sq("J9")
    )
    assert hidden not in targets(state, "bates")
    with pytest.raises(RuleError, match="line of sight"):
        GAME.apply(state, "marines", toss("bates", hidden), ScriptedDice([1] * 20))


def test_8_5_the_toss_lobs_over_enemy_units_eggs_too() -> None:
    """The toss line ignores enemy units: behind a Drone, and behind an Egg (a Xeno unit)."""
    state = bare()
    put(state, "fox", "J9", "N")
    put(state, "d1", "J8")
    put(state, "h1", "I8", kind="egg")
    assert {"J7", "H7", "J6"} <= targets(state, "fox")


def _sighted(state: ForlornState) -> set[str]:
    """The rule itself: squares on the map in 8.1 sight of some Marine, no unit blocking."""
    marines = [sq(m.at) for m in state.active("marines") if m.at]
    return {
        label(s)
        for s in board_of(state).floor
        if any(s != m and has_los(state, m, s, "marines", set()) for m in marines)
    }


SPOTS = ["B2", "C3", "H9", "J9", "I6", "K7", "B13", "N2", "O12", "G11", "Q8", "M10"]


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    marine_spots=st.lists(st.sampled_from(SPOTS), min_size=1, max_size=3, unique=True),
    facings=st.lists(st.sampled_from("NESW"), min_size=3, max_size=3),
    xeno_spots=st.lists(st.sampled_from(SPOTS), max_size=3, unique=True),
    open_first=st.booleans(),
)
def test_8_5_listed_tosses_are_exactly_the_rule_and_apply_agrees(
    marine_spots: list[str], facings: list[str], xeno_spots: list[str], open_first: bool
) -> None:
    """Every grenade square listed is one the rule allows, every square the rule allows is
    listed, and `apply` accepts exactly the listed ones (for a Marine, any square)."""
    state = bare()
    ids = ["bates", "fox", "ortiz"]
    for uid, at, f in zip(ids, marine_spots, facings, strict=False):
        put(state, uid, at, f)
    for i, at in enumerate(s for s in xeno_spots if s not in marine_spots):
        put(state, f"d{i + 1}", at)
    if open_first:
        state.open_doors.append("J4-J5")  # the command room's north door (if it is one)
    thrower = ids[0]
    listed = targets(state, thrower)
    assert listed == _sighted(state)
    for s in sorted(board_of(state).floor):
        to = label(s)
        dice = ScriptedDice([1] * 40)
        if to in listed:
            GAME.apply(state, "marines", toss(thrower, to), dice)
        else:
            with pytest.raises(RuleError):
                GAME.apply(state, "marines", toss(thrower, to), dice)
