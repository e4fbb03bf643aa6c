"""Alien A.I.: the rulebook's movement examples, target choice, assignment, activation."""

from __future__ import annotations

from galaxy_helpers import at, blank, put_agent, put_alien

from engine.core.dice import ScriptedDice
from engine.core.events import Attacked, Event, Moved
from engine.core.hexgrid import Hex
from engine.galaxy.aliens import activate, activation_order, pick_target
from engine.galaxy.lifecycle import assign_controller, place_alien
from engine.galaxy.world import adjacent, area_distance, area_of, sees


def test_xeno_beta_one_area_away_shoots_then_moves_away() -> None:
    state = blank(["infiltrator"])
    put_agent(state, "infiltrator", "D4")
    beta = put_alien(state, "xeno-beta-blue-1", "B3")
    assert area_distance(state, beta.hex, at("D4")) == 1 and sees(state, beta.hex, at("D4"))
    events: list[Event] = []
    activate(state, beta, ScriptedDice([1, 1]), events)  # the Blaster misses: no Defend roll
    kinds = [type(e) for e in events if isinstance(e, Attacked | Moved)]
    assert kinds == [Attacked, Moved]  # shoots first, then moves away
    assert area_of(state, beta.hex) != "a"
    assert area_distance(state, beta.hex, at("D4")) >= 1


def test_aracnos_walks_two_areas_through_the_door_to_the_wounded_biotech() -> None:
    state = blank(["marine", "biotech"])
    put_agent(state, "biotech", "G5", wounds=1)  # inside the shuttle, out of sight
    put_agent(state, "marine", "J9")
    aracnos = put_alien(state, "aracnos-green-1", "B3")
    assert not sees(state, aracnos.hex, at("G5"))
    events: list[Event] = []
    activate(state, aracnos, ScriptedDice([]), events)
    assert area_of(state, aracnos.hex) == "d"  # a -> c -> d through the hatch: 2 Areas
    assert adjacent(state, aracnos.hex, at("G5"))
    assert not any(isinstance(e, Attacked) for e in events)  # only the movement rule applies


def test_xeno_beta_moves_toward_unseen_biotech_and_steps_next_to_him() -> None:
    state = blank(["biotech"])
    put_agent(state, "biotech", "F4")
    beta = put_alien(state, "xeno-beta-blue-1", "D4")
    assert not sees(state, beta.hex, at("F4"))
    activate(state, beta, ScriptedDice([]), [])
    assert area_of(state, beta.hex) == "d" and adjacent(state, beta.hex, at("F4"))


def test_aracnos_picks_biotech_with_fewest_hps_when_nobody_is_wounded() -> None:
    state = blank(["hulk", "biotech"])
    put_agent(state, "biotech", "G5")
    put_agent(state, "hulk", "I6")
    aracnos = put_alien(state, "aracnos-green-1", "B3")
    target = pick_target(state, aracnos, [state.agents["hulk"], state.agents["biotech"]])
    assert target.id == "biotech"
    activate(state, aracnos, ScriptedDice([]), [])
    assert adjacent(state, aracnos.hex, at("G5"))


def test_target_most_wounded_then_fewest_hps() -> None:
    state = blank(["marine", "sniper"])
    put_agent(state, "marine", "D4", wounds=2)
    put_agent(state, "sniper", "C3", wounds=1)
    beta = put_alien(state, "xeno-beta-green-1", "B3")
    agents = [state.agents["marine"], state.agents["sniper"]]
    assert pick_target(state, beta, agents).id == "marine"  # most wounded
    state.agents["marine"].wounds = 1
    assert pick_target(state, beta, agents).id == "sniper"  # tie: 4 HPs left beats 5


def test_alien_assignment_fewest_cards_clockwise_from_alpha() -> None:
    state = blank(["marine", "biotech", "sniper"])
    state.alpha = "biotech"
    first = place_alien(state, "aracnos-green-1", Hex(1, 2), [], "test")
    assert first.controller == "biotech"  # all tied: the Alpha Agent
    second = place_alien(state, "xeno-beta-green-1", Hex(2, 2), [], "test")
    assert second.controller == "sniper"  # next clockwise with none
    third = place_alien(state, "spine-critter-green-1", Hex(3, 2), [], "test")
    assert third.controller == "marine"
    assert assign_controller(state, "xeno-alpha-green-1")[0] == "biotech"  # tie again
    # A second copy of a card goes to whoever holds the first one.
    assert assign_controller(state, "xeno-beta-green-2")[0] == "sniper"


def test_activation_order_alpha_first_then_clockwise() -> None:
    state = blank(["marine", "biotech", "sniper"])
    state.alpha = "biotech"
    a = put_alien(state, "aracnos-green-1", "B3", controller="marine")
    b = put_alien(state, "xeno-beta-green-1", "J9", controller="sniper")
    c = put_alien(state, "xeno-beta-green-2", "C9", controller="biotech")
    assert [x.id for x in activation_order(state, [a, b, c])] == [c.id, b.id, a.id]
