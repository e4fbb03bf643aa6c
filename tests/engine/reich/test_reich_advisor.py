"""The advisor: purposeful, deterministic, and only ever one of the legal actions."""

from __future__ import annotations

from reich_helpers import GAME, act, bare, give_card, put

from engine.core.dice import ScriptedDice, SeededDice
from engine.registry import get_game
from engine.reich.advisor import advise
from engine.reich.state import GroundItem
from engine.selfplay import play_one


def test_advice_is_legal_and_deterministic_over_a_whole_mission() -> None:
    state = GAME.new("radio-silence", ["sarge", "hans"], {"difficulty": "cadet"}, SeededDice(4))
    for step in range(400):
        dice = SeededDice(1000 + step)
        state = GAME.advance(state, dice).state
        prompt = GAME.waiting_on(state)
        if prompt.finished:
            break
        seat = prompt.seats[0]
        actions = GAME.legal_actions(state, seat)
        choice = advise(state, seat, actions)
        assert choice is not None and any(choice.matches(a) for a in actions)
        assert advise(state, seat, actions) == choice
        state = GAME.apply(state, seat, choice, dice).state
    assert GAME.waiting_on(state).finished


def test_the_advisor_wins_the_easiest_mission_where_random_play_does_not() -> None:
    game = get_game("reichbusters")
    advised = play_one(game, "radio-silence", 2, players=2, policy_name="advisor")
    assert advised.error is None and advised.outcome == "victory"
    assert play_one(game, "radio-silence", 2, players=2).outcome != "victory"


def test_it_completes_the_objective_where_it_stands() -> None:
    state = bare(["sarge"], area="7B")
    state.ground = [GroundItem(id="M2", area="7B", kind="objective")]
    choice = advise(state, "sarge", GAME.legal_actions(state, "sarge"))
    assert choice is not None and choice.args.get("what") == "sabotage"


def test_it_recovers_when_wounded_and_safe_and_ends_the_turn_when_done() -> None:
    state = bare(["sarge"], area="EN")
    state.heroes["sarge"].wounds = ["scratch", "nasty_hit"]
    choice = advise(state, "sarge", GAME.legal_actions(state, "sarge"))
    assert choice is not None and choice.args == {
        "unit": "sarge",
        "what": "recover",
        "target": "nasty_hit+scratch",
    }
    for hero in state.heroes.values():
        hero.tokens = 0
    assert (
        advise(state, "sarge", GAME.legal_actions(state, "sarge"))
        == GAME.legal_actions(state, "sarge")[-1]
    )


def test_it_accepts_a_team_mates_request_and_fires_when_asked() -> None:
    state = bare(["sarge", "hans"], area="1C")
    state.heroes["hans"].loot = ["helmet"]
    state, _ = act(
        state,
        "sarge",
        "act",
        ScriptedDice([]),
        unit="sarge",
        what="take",
        target="helmet",
        to="hans",
    )
    choice = advise(state, "hans", GAME.legal_actions(state, "hans"))
    assert choice is not None and choice.args == {"option": "accept"}
    state = bare(["irena"], area="1C")
    put(state, "soldier", "1D", "s1")
    give_card(state, "irena", "lookout-irena9")
    state.heroes["irena"].orders["react"] = "ask"
    state, _ = act(state, "irena", "end-turn", ScriptedDice([]))
    state = GAME.advance(state, SeededDice(7)).state
    choice = advise(state, "irena", GAME.legal_actions(state, "irena"))
    assert choice is not None and choice.args == {"option": "fire:s1"}
