"""GD-Wings ranks, tactic and skill choices, and their use with the Action."""

from __future__ import annotations

from galaxy_helpers import blank, put_agent

from engine.core.dice import ScriptedDice, SeededDice
from engine.core.events import Event
from engine.core.game import Action
from engine.galaxy import GAME
from engine.galaxy.phases import gd_wings, offer_promotion
from engine.galaxy.state import GalaxyState


def settle(state: GalaxyState, choices: list[str]) -> GalaxyState:
    for option in choices:
        state = GAME.advance(state, SeededDice(1)).state
        prompt = GAME.waiting_on(state)
        assert prompt.kind in ("choice", "vote"), prompt
        state = GAME.apply(
            state, prompt.seats[0], Action(verb="choose", args={"option": option}), SeededDice(2)
        ).state
    return GAME.advance(state, SeededDice(3)).state


def test_start_rank_silver_asks_for_a_tactic_and_a_skill() -> None:
    state = GAME.new("m1", ["sniper"], {"start-rank": "silver"}, SeededDice(5))
    state = settle(state, ["focus-fire", "marksman"])  # a lone agent leads without a vote
    sniper = state.agents["sniper"]
    assert sniper.rank == 2 and sniper.tactics == ["focus-fire"] and sniper.skills == ["marksman"]
    assert GAME.waiting_on(state).kind == "turn"


def test_palladium_makes_an_elite_agent_with_energy_shield() -> None:
    state = blank(["hulk"])
    hulk = state.agents["hulk"]
    hulk.rank = 3
    events: list[Event] = []
    gd_wings(state, hulk, ScriptedDice([3, 6, 3]), events)  # 3 GD results
    assert hulk.rank == 4 and hulk.elite and hulk.energy == 2
    assert not offer_promotion(state, events)


def test_failed_gd_wings_roll() -> None:
    state = blank(["hulk"])
    gd_wings(state, state.agents["hulk"], ScriptedDice([1, 2, 4]), [])
    assert state.agents["hulk"].rank == 0


def test_tactic_once_per_mission_skill_once_per_round() -> None:
    state = blank(["marine"])
    put_agent(state, "marine", "D4")
    marine = state.agents["marine"]
    marine.tactics = ["adrenaline"]
    marine.skills = ["sprint"]
    step = GAME.apply(
        state,
        "marine",
        Action(verb="act", args={"unit": "marine", "what": "adrenaline"}),
        ScriptedDice([]),
    )
    assert step.state.agents["marine"].mp_left == 6
    assert step.state.agents["marine"].used_tactics == ["adrenaline"]
    whats = {a.args.get("what") for a in GAME.legal_actions(step.state, "marine")}
    assert "sprint" not in whats  # the Action is spent
    again = step.state.model_copy(deep=True)
    again.agents["marine"].action_used = False
    whats = {a.args.get("what") for a in GAME.legal_actions(again, "marine")}
    assert "adrenaline" not in whats and "sprint" in whats


def test_reinforcements_with_four_fragments() -> None:
    state = blank(["marine", "hulk"])
    put_agent(state, "marine", "D4")
    put_agent(state, "hulk", "C4")
    state.phase = "strategy"
    state.alien_tech = 4
    state.strategy_step = 1
    state = GAME.advance(state, SeededDice(1)).state
    assert state.pending is not None and state.pending.kind == "reinforce"
    assert state.pending.seat == "marine" and "weapon" in state.pending.options
    state = GAME.apply(
        state,
        "marine",
        Action(verb="choose", args={"option": "weapon"}),
        ScriptedDice([], picks=[1]),
    ).state
    assert state.alien_tech == 0
    # a Generic weapon: the Alpha Agent hands it to any agent on the map (rulebook)
    assert state.pending is not None and state.pending.kind == "deliver"
    assert state.pending.seat == "marine" and state.pending.options == ["marine", "hulk"]
    assert GAME.waiting_on(state).default == Action(verb="choose", args={"option": "marine"})
    state = GAME.apply(
        state, "marine", Action(verb="choose", args={"option": "hulk"}), ScriptedDice([])
    ).state
    assert state.pending is not None and state.pending.kind == "accept"
    assert state.pending.seat == "hulk"
    default = GAME.waiting_on(state).default
    assert default is not None
    state = GAME.apply(state, "hulk", default, ScriptedDice([])).state
    assert "heavy-pistol" in {w.key for w in state.agents["hulk"].weapons}


def test_a_reinforcement_device_goes_to_the_agent_the_alpha_agent_names() -> None:
    state = blank(["marine", "hulk"])
    put_agent(state, "marine", "D4")
    put_agent(state, "hulk", "C4")
    state.phase = "strategy"
    state.alien_tech = 4
    state.strategy_step = 1
    state = GAME.advance(state, SeededDice(1)).state
    state = GAME.apply(
        state, "marine", Action(verb="choose", args={"option": "medkit"}), ScriptedDice([])
    ).state
    assert state.pending is not None and state.pending.kind == "deliver"
    state = GAME.apply(
        state, "marine", Action(verb="choose", args={"option": "hulk"}), ScriptedDice([])
    ).state
    assert "medkit" in state.agents["hulk"].devices
    assert "medkit" not in state.agents["marine"].devices


def test_campaign_rank_limit_one_per_mission() -> None:
    state = blank(["hulk"])
    state.options["rank-limit"] = "campaign"
    hulk = state.agents["hulk"]
    gd_wings(state, hulk, ScriptedDice([3, 1, 1]), [])
    assert hulk.rank == 1
    gd_wings(state, hulk, ScriptedDice([3, 6, 3]), [])
    assert hulk.rank == 1  # no second rank this mission
