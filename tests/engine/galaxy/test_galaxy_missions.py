"""Content validation, mission special actions and the Objectives table."""

from __future__ import annotations

import pytest
from galaxy_helpers import blank, put_agent

from engine.core.dice import ScriptedDice
from engine.core.errors import ContentError
from engine.core.events import Event
from engine.core.game import Action
from engine.galaxy import GAME
from engine.galaxy.board import parse_map
from engine.galaxy.content import content
from engine.galaxy.objectives import condition_met, mission_status


def test_content_counts() -> None:
    c = content()
    assert len(c.agents) == 5
    assert len(c.aliens) == 22 and len(c.species) == 7
    assert {a.species for a in c.aliens.values()} == set(c.species)
    assert len(c.close_encounters) == 32 and len(c.events) == 22
    assert [m.key for m in c.missions.values()] == ["m1", "m2", "m3", "m4", "m5", "m6"]
    decks = [len(m.alien_deck) for m in c.missions.values()]
    assert decks == sorted(decks)  # rising difficulty


def test_campaign_chain() -> None:
    chain, key = [], "m1"
    while key:
        chain.append(key)
        key = content().missions[key].next or ""
    assert chain == ["m1", "m2", "m3", "m4", "m5", "m6"]


@pytest.mark.parametrize(
    "grid",
    [
        "grid:\n. a a\n a A a\n. a .\n\ntp hit B2\nstart B2\n",  # missing hex of Area a
        "grid:\n. a a\n a a a\n. a a\n\ntp hit B2\nstart B2\n",  # no centre
        "grid:\n. a a\n a A a\n. a a\n\nwall B2 D9\ntp hit B2\nstart B2\n",  # not a hex
        "grid:\n. a a\n a A a\n. a a\n\nstart B2\n",  # no Teleport Point
    ],
)
def test_bad_maps_are_refused(grid: str) -> None:
    with pytest.raises(ContentError):
        parse_map("bad", grid)


def test_wreck_teleport_point_in_m2() -> None:
    state = blank(["marine"], "m2")
    put_agent(state, "marine", "I4")  # next to the hit Point at I3
    whats = {a.args.get("what") for a in GAME.legal_actions(state, "marine")}
    assert "destroy-tp" in whats
    step = GAME.apply(
        state,
        "marine",
        Action(verb="act", args={"unit": "marine", "what": "destroy-tp"}),
        ScriptedDice([]),
    )
    assert step.state.destroyed_tps == ["hit"]
    assert condition_met(step.state, "destroyed>=1")


def test_wreck_is_refused_elsewhere_and_in_other_missions() -> None:
    from engine.core.errors import RuleError

    state = blank(["marine"], "m2")
    put_agent(state, "marine", "C9")
    with pytest.raises(RuleError):
        GAME.apply(
            state,
            "marine",
            Action(verb="act", args={"unit": "marine", "what": "destroy-tp"}),
            ScriptedDice([]),
        )
    state = blank(["marine"], "m1")
    put_agent(state, "marine", "B4")
    with pytest.raises(RuleError):
        GAME.apply(
            state,
            "marine",
            Action(verb="act", args={"unit": "marine", "what": "destroy-tp"}),
            ScriptedDice([]),
        )


def test_rescue_and_extraction_in_m3() -> None:
    state = blank(["infiltrator"], "m3")
    put_agent(state, "infiltrator", "I7")  # next to the civilian at I6
    step = GAME.apply(
        state,
        "infiltrator",
        Action(verb="act", args={"unit": "infiltrator", "what": "rescue"}),
        ScriptedDice([]),
    )
    assert step.state.rescued == 1
    state = step.state
    state.rescued = 3
    assert not condition_met(state, "extracted")
    put_agent(state, "infiltrator", "B6")
    assert condition_met(state, "extracted")
    events: list[Event] = []
    # a lone agent owes no kill (1.6 - 2 is below zero): rescued and back is enough
    assert mission_status(state, events)
    assert state.outcome == "accomplished"
    assert GAME.waiting_on(state).finished


def test_objectives_first_matching_row_wins() -> None:
    state = blank(["marine", "sniper"], "m1")
    put_agent(state, "marine", "G5")
    state.round = 9
    state.kills = 3  # time up with 2+ kills (2 agents: 4 would be accomplished)
    assert mission_status(state, [])
    assert state.outcome == "partial"
    fresh = blank(["marine", "sniper"], "m1")
    put_agent(fresh, "marine", "G5")
    fresh.round = 9
    fresh.kills = 7
    mission_status(fresh, [])
    assert fresh.outcome == "accomplished"


def test_objective_counts_may_grow_with_the_team() -> None:
    from engine.galaxy.notation import parse_count
    from engine.galaxy.objectives import threshold

    assert parse_count("4") == (4, 0) and parse_count("2+1/agent") == (2, 1)
    assert threshold(blank(["marine", "sniper", "hulk"]), "1+1.5/agent") == 5  # 1 + 4.5
    with pytest.raises(ValueError):
        parse_count("2+1/round")
    two = blank(["marine", "sniper"])
    five = blank(["marine", "biotech", "infiltrator", "sniper", "hulk"])
    assert threshold(two, "2+1/agent") == 4 and threshold(five, "2+1/agent") == 7
    two.kills = 4
    assert condition_met(two, "kills>=2+1/agent")
    five.kills = 6
    assert not condition_met(five, "kills>=2+1/agent")
