"""Rulebook, Enemy Wounds and Vrilmeister: General Wolff's second Behaviour adds Ruthless to
what he has, so he stays Cautious (and Armored, with Area Attack)."""

from __future__ import annotations

from reich_probe import GAME, act, put, quiet

from engine.core.dice import ScriptedDice
from engine.reich.content import load_content


def test_wolffs_second_behaviour_keeps_cautious() -> None:
    state = quiet(["quentin"], mission="wolffs-lair", area="6B")
    put(state, "wolff", "6C", "w1")
    dice = ScriptedDice([6, 5, 5])
    state, _ = act(state, "quentin", "attack", dice, unit="quentin", target="w1", weapon="bow")
    state, _ = act(state, "quentin", "choose", dice, option="roll")
    state, _ = act(state, "quentin", "choose", dice, option="extra")
    state, _ = act(state, "quentin", "choose", dice, option="done")
    assert state.enemies[0].behavior == 1  # wounded: his second Behaviour card
    state, events = act(state, "quentin", "move", ScriptedDice([]), unit="quentin", to="6C")
    wolff = next(f for f in GAME.view(state, None).figures if f.id == "w1")
    assert wolff.coord != "6C"  # Cautious: he steps away when a Hero enters his Area
    assert "Cautious" in " ".join(e.text for e in events)


def test_every_keyword_of_wolffs_first_behaviour_stays_with_ruthless_added() -> None:
    first, second = load_content().enemies["wolff"].behaviors
    assert set(second.keywords) == set(first.keywords) | {"ruthless"}
