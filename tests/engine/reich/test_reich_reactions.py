"""Reactions on demand: `react:ask` pauses the Enemies' Turn for the player's answer."""

from __future__ import annotations

import pytest
from reich_helpers import GAME, act, bare, give_card, put, texts

from engine.core.dice import ScriptedDice, SeededDice
from engine.core.errors import RuleError
from engine.reich.state import EnemyToken, ReichState


def paused(order: str = "ask") -> ReichState:
    """Irena (one seat, the whole commando) holds Lookout; a Soldier moves in sight of her."""
    state = bare(["irena"], area="1C")
    put(state, "soldier", "1D", "s1")
    give_card(state, "irena", "lookout-irena9")
    state.heroes["irena"].orders["react"] = order
    state, _ = act(state, "irena", "end-turn", ScriptedDice([]))
    return GAME.advance(state, SeededDice(7)).state


def test_ask_pauses_the_enemies_turn_with_a_hold_default() -> None:
    state = paused()
    assert state.phase == "enemies" and state.reaction is not None
    assert state.enemy_progress is not None and state.enemy_progress.stage == "react"
    prompt = GAME.waiting_on(state)
    assert prompt.seats == ["irena"] and prompt.kind == "choice"
    assert prompt.default is not None and prompt.default.args == {"option": "hold"}
    options = [a.args["option"] for a in GAME.legal_actions(state, "irena")]
    assert options == ["fire:s1", "hold"]
    assert GAME.advance(state, SeededDice(1)).state is state  # waits for the answer


def test_firing_on_demand_shoots_then_the_turn_goes_on() -> None:
    state, ev = act(paused(), "irena", "choose", ScriptedDice([5, 5, 1]), option="fire:s1")
    assert "Irena reacts with Lookout: a shot at Soldier s1" in texts(ev)
    assert not state.enemies and state.reacted == ["irena"] and state.reaction is None
    assert "lookout-irena9" not in state.heroes["irena"].hand
    state = GAME.advance(state, SeededDice(3)).state
    assert state.phase == "heroes" and state.round == 2 and state.enemy_progress is None


def test_holding_keeps_the_card_and_the_soldier_attacks() -> None:
    state, ev = act(paused(), "irena", "choose", ScriptedDice([]), option="hold")
    assert "irena holds the Reaction card" in texts(ev)
    assert "lookout-irena9" in state.heroes["irena"].hand and state.reacted == []
    step = GAME.advance(state, SeededDice(3))
    assert "s1" in texts(step.events)  # the Soldier's Attack step runs after the pause
    assert step.state.phase == "heroes" and step.state.round == 2


def test_the_window_default_holds() -> None:
    state = paused()
    default = GAME.waiting_on(state).default
    assert default is not None
    state = GAME.apply(state, "irena", default, ScriptedDice([])).state
    assert state.reaction is None and "lookout-irena9" in state.heroes["irena"].hand


def test_bad_answers_change_nothing() -> None:
    state = paused()
    before = state.model_dump()
    with pytest.raises(RuleError, match=r"in sight: s1"):
        act(state, "irena", "choose", ScriptedDice([]), option="fire:zz")
    with pytest.raises(RuleError, match="First answer the Reaction"):
        act(state, "irena", "move", ScriptedDice([]), unit="irena", to="1D")
    assert state.model_dump() == before


def test_a_paused_turn_survives_a_save_and_resumes_identically() -> None:
    state, _ = act(paused(), "irena", "choose", ScriptedDice([]), option="hold")
    reloaded = GAME.load(GAME.dump(state))
    a = GAME.advance(state, SeededDice(5))
    b = GAME.advance(reloaded, SeededDice(5))
    assert GAME.dump(a.state) == GAME.dump(b.state)
    assert texts(a.events) == texts(b.events)


def test_fire_and_hold_orders_never_ask() -> None:
    fired = paused("fire")
    assert fired.reaction is None and fired.phase == "heroes" and fired.reacted == ["irena"]
    assert "lookout-irena9" not in fired.heroes["irena"].hand
    held = paused("hold")
    assert held.reaction is None and "lookout-irena9" in held.heroes["irena"].hand


def test_orders_accept_ask() -> None:
    state = bare(["irena"], area="1C")
    state, _ = act(state, "irena", "orders", ScriptedDice([]), unit="irena", order="react:ask")
    assert state.heroes["irena"].orders["react"] == "ask"


def spotted_by_sarge() -> ReichState:
    """Sally (whose seat also commands Sarge) waits in 1C with Quick Draw; Sarge walks into
    1C and a Soldier token in 1D turns over."""
    state = bare(["sally"], area="EN")
    state.heroes["sally"].area = "1C"
    give_card(state, "sally", "quick_draw-sally8")
    state.enemy_tokens = [EnemyToken(id="T9", area="1D", level=1, letters="D")]
    state, ev = act(state, "sally", "move", ScriptedDice([]), unit="sarge", to="1C")
    assert "turns over" in texts(ev)
    return state


def reacts(state: ReichState) -> list[str]:
    return [
        a.args["to"] for a in GAME.legal_actions(state, "sally") if a.args.get("what") == "react"
    ]


def test_a_heroes_turn_reaction_answers_enemies_that_just_showed_up() -> None:
    state = spotted_by_sarge()
    soldier = state.enemies[0].id
    assert state.spotted == [soldier] and reacts(state) == [soldier]
    weapon = next(
        a.args["weapon"]
        for a in GAME.legal_actions(state, "sally")
        if a.args.get("what") == "react"
    )
    state, ev = act(
        state,
        "sally",
        "act",
        ScriptedDice([]),
        unit="sally",
        what="react",
        target="quick_draw-sally8",
        to=soldier,
        weapon=weapon,
    )
    assert "Sally reacts with Quick Draw" in texts(ev)
    assert state.pending is not None and state.pending.hero == "sally"
    assert "quick_draw-sally8" in state.heroes["sally"].deck.discard_pile
    assert state.heroes["sally"].tokens == 2  # a card, not a Basic Action
    assert state.spotted == []


def test_the_moment_passes_with_the_next_action() -> None:
    state = spotted_by_sarge()
    soldier = state.enemies[0].id
    state, _ = act(state, "sally", "act", ScriptedDice([]), unit="sarge", what="draw")
    assert state.spotted == [] and reacts(state) == []
    with pytest.raises(RuleError, match="can react only right after"):
        act(
            state,
            "sally",
            "act",
            ScriptedDice([]),
            unit="sally",
            what="react",
            target="quick_draw-sally8",
            to=soldier,
            weapon="rifle",
        )


def test_quick_draw_is_not_an_enemies_turn_reaction_nor_a_normal_card() -> None:
    from engine.reich.reactions import reaction_cards

    state = bare(["sally"], area="1C")
    give_card(state, "sally", "quick_draw-sally8")
    assert reaction_cards(state.heroes["sally"]) == []
    plays = [a.args.get("target") for a in GAME.legal_actions(state, "sally")]
    assert "quick_draw-sally8" not in plays
