"""Death: the lost rank takes what it gave, and revival is the Inoperative player's choice."""

from __future__ import annotations

import pytest
from galaxy_helpers import at, blank, put_agent

from engine.core.dice import SeededDice
from engine.core.errors import RuleError
from engine.core.events import Event
from engine.core.game import Action
from engine.galaxy import GAME
from engine.galaxy.combat import wound_agent
from engine.galaxy.ranks import grant_power, rank_up
from engine.galaxy.state import GalaxyState


def kill(state: GalaxyState, seat: str) -> None:
    state.agents[seat].bleeding = True
    wound_agent(state, state.agents[seat], 1, [], "test")
    assert state.agents[seat].dead


def test_death_takes_back_the_elite_side() -> None:
    state = blank(["hulk", "marine"])
    put_agent(state, "hulk", "D4")
    hulk = state.agents["hulk"]
    hulk.rank = 3
    rank_up(state, hulk, [])
    assert hulk.elite and hulk.energy == 2
    events: list[Event] = []
    hulk.bleeding = True
    wound_agent(state, hulk, 1, events, "test")
    assert hulk.dead and hulk.rank == 3
    assert not hulk.elite and hulk.energy == 0
    assert any("Elite" in e.text for e in events)


def test_death_takes_back_the_power_of_the_lost_rank() -> None:
    state = blank(["sniper", "marine"])
    put_agent(state, "sniper", "D4")
    sniper = state.agents["sniper"]
    sniper.rank = 2
    grant_power(sniper, "focus-fire", 1)
    grant_power(sniper, "marksman", 2)
    sniper.used_skills = ["marksman"]
    kill(state, "sniper")
    assert sniper.rank == 1
    assert sniper.skills == [] and sniper.used_skills == []
    assert sniper.tactics == ["focus-fire"]  # Bronze's tactic stays with the Bronze rank


def test_copper_agent_loses_nothing() -> None:
    state = blank(["sniper", "marine"])
    put_agent(state, "sniper", "D4")
    kill(state, "sniper")
    assert state.agents["sniper"].rank == 0


def dead_sniper_in_strategy(fragments: int) -> GalaxyState:
    state = blank(["marine", "sniper"])
    put_agent(state, "marine", "D4")
    put_agent(state, "sniper", "C4")
    kill(state, "sniper")
    state.alien_tech = fragments
    state.phase = "strategy"
    state.strategy_step = 1
    return GAME.advance(state, SeededDice(1)).state


def test_revival_is_the_inoperative_players_choice_of_hex() -> None:
    state = dead_sniper_in_strategy(2)
    prompt = GAME.waiting_on(state)
    assert prompt.seats == ["sniper"] and prompt.kind == "choice"
    options = [a.args["option"] for a in GAME.legal_actions(state, "sniper")]
    assert options[-1] == "stay-out" and len(options) >= 2
    chosen = options[1] if len(options) > 2 else options[0]
    state = GAME.apply(
        state, "sniper", Action(verb="choose", args={"option": chosen}), SeededDice(2)
    ).state
    sniper = state.agents["sniper"]
    assert not sniper.dead and sniper.hex == at(chosen)
    assert state.alien_tech == 1


def test_the_team_may_save_its_fragments() -> None:
    state = dead_sniper_in_strategy(4)
    state = GAME.apply(
        state, "sniper", Action(verb="choose", args={"option": "stay-out"}), SeededDice(2)
    ).state
    state = GAME.advance(state, SeededDice(3)).state
    assert state.agents["sniper"].dead
    # the 4 fragments still buy Reinforcements, asked of the Alpha Agent next
    assert state.pending is not None and state.pending.kind == "reinforce"
    assert state.alien_tech == 4


def test_revival_default_comes_back_on_the_first_free_start_hex() -> None:
    state = dead_sniper_in_strategy(1)
    prompt = GAME.waiting_on(state)
    assert prompt.default is not None
    assert prompt.default.args["option"] == state.pending.options[0] != "stay-out"  # type: ignore[union-attr]


def test_no_revival_offer_without_a_fragment_and_no_bad_hex() -> None:
    state = dead_sniper_in_strategy(0)
    assert state.pending is None or state.pending.kind != "revive"
    offered = dead_sniper_in_strategy(1)
    with pytest.raises(RuleError, match="not an option"):
        GAME.apply(offered, "sniper", Action(verb="choose", args={"option": "Z99"}), SeededDice(2))
