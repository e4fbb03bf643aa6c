"""The Diggers in play: Burrowing (7.2, 7.2.1), Prime Swarm units (11.6) and their Poison
(9.3.2), through the engine's own attack, activation and legal-action code, with scripted
dice. The rulebook's two Burrowing examples are reproduced on the map."""

from __future__ import annotations

from engine.core.deck import Deck
from engine.core.dice import ScriptedDice, SeededDice
from engine.core.events import Event
from engine.core.hexgrid import neighbours
from engine.galaxy import GAME, agent, attack, lifecycle, phases
from engine.galaxy.board import parse_label
from engine.galaxy.legal import legal
from engine.galaxy.state import AlienState, GalaxyState
from engine.galaxy.strikeback import burrowing, masters, swarm
from engine.galaxy.strikeback.status import StrikebackState, sb_state
from engine.galaxy.world import adjacent, area_of, co, engaged, hx


def at(text: str) -> tuple[int, int]:
    h = parse_label(text)
    assert h is not None
    return co(h)


def layered(seats: list[str], places: list[str]) -> GalaxyState:
    state = GAME.new("m1", seats, {"human-view": "off"}, SeededDice(7))
    state.expansion = StrikebackState()
    state.signals, state.aliens, state.pending = [], [], None
    state.phase, state.alpha = "agent", seats[0]
    state.turn_order, state.turn_index = list(seats), 0
    for seat, place in zip(seats, places, strict=True):
        state.agents[seat].hex = at(place)
        state.agents[seat].energy = 0
    return state


def diggers(state: GalaxyState, place: str, card_id: str = "diggers-green") -> list[AlienState]:
    first = lifecycle.place_alien(state, card_id, hx(at(place)), [], "digs up")
    return swarm.figures(state, first)


def top_discard(state: GalaxyState, card_id: str) -> None:
    state.ce_deck.discard_pile.append(card_id)


def attack_actions(state: GalaxyState, seat: str) -> set[str]:
    return {a.args["target"] for a in legal(state, state.agents[seat]) if a.verb == "attack"}


# 11.6 Prime Swarm -----------------------------------------------------------------------------


def test_a_prime_swarm_card_enters_as_two_linked_figures_and_counts_as_one_card() -> None:
    state = layered(["marine", "hulk"], ["G5", "F5"])
    pair = diggers(state, "C3")
    assert [a.card for a in pair] == ["diggers-green", "diggers-green"]
    one, two = pair
    assert adjacent(state, one.hex, two.hex)
    assert one.controller == two.controller == "marine"
    assert state.expansion is not None
    assert sb_state(state).swarms == {one.id: two.id, two.id: one.id}
    # Alien Assignment counts the card once: the next new card goes to the Hulk (fewest: 0)
    beta = lifecycle.place_alien(state, "xeno-beta-green-1", hx(at("J9")), [], "lands")
    assert beta.controller == "hulk"
    sentinels = lifecycle.place_alien(state, "sentinels-green", hx(at("I3")), [], "lands")
    assert sentinels.controller == "marine"  # a tie of one card each: the Alpha Agent's player


def test_each_figure_defends_alone_and_the_card_goes_only_with_the_last_figure() -> None:
    state = layered(["marine"], ["G5"])
    one, two = diggers(state, "C3")
    marine = state.agents["marine"]
    kills = state.kills
    events: list[Event] = []
    # 2 Hits on the first figure (2 HP, no shields): one BLUE defend die, a blank
    top_discard(state, "ce28")  # all aliens: exposed
    attack.resolve_defence(
        state, marine, [one.id], 2, 0, "ranged", "", ScriptedDice([1, 1]), events, "rifle"
    )
    assert one not in state.aliens and two in state.aliens
    assert state.kills == kills and "diggers-green" not in state.alien_deck.discard_pile
    assert state.expansion is not None and sb_state(state).swarms == {}
    attack.resolve_defence(
        state, marine, [two.id], 2, 0, "ranged", "", ScriptedDice([1, 1]), events, "rifle"
    )
    assert two not in state.aliens
    assert state.kills == kills + 1
    assert state.alien_deck.discard_pile.count("diggers-green") == 1


def test_the_unit_activates_once_the_closest_figure_acts_and_the_other_follows() -> None:
    state = layered(["marine"], ["J9"])
    one, two = diggers(state, "C3")
    state.phase = "aliens"
    state.ce_deck = Deck(name="Close Encounter", draw_pile=["ce28"])  # activate all aliens
    events: list[Event] = []
    before = {one.id: one.hex, two.id: two.hex}
    phases.aliens_turn(state, SeededDice(5), events)
    activations = [e.text for e in events if "activates" in e.text]
    assert len(activations) == 1  # one unit, one activation
    moved = [a for a in (one, two) if a.hex != before[a.id]]
    assert moved == [one, two] or moved == [two, one]
    assert adjacent(state, one.hex, two.hex)
    assert any("follows its Prime Swarm" in e.text for e in events)


def test_area_damage_hits_every_exposed_figure_in_the_area() -> None:
    state = layered(["marine"], ["G5"])
    one, two = diggers(state, "C3")
    top_discard(state, "ce11")  # green aliens: the green Diggers are on the surface
    ids = attack.targets_of(state, one, True, state.agents["marine"])
    here = area_of(state, one.hex)
    assert ids == [a.id for a in state.aliens if area_of(state, a.hex) == here]
    assert one.id in ids
    assert (two.id in ids) == (area_of(state, two.hex) == here)


# 7.2 Burrowing -------------------------------------------------------------------------------


def test_burrowers_never_engage_the_agent_may_walk_away() -> None:
    state = layered(["marine"], ["G5"])
    marine = state.agents["marine"]
    assert marine.hex is not None
    spot = next(h for h in neighbours(hx(marine.hex)) if lifecycle.nearest_free(state, h) == h)
    dig = lifecycle.place_alien(state, "diggers-green", spot, [], "digs up")
    assert adjacent(state, dig.hex, marine.hex)
    assert not engaged(state, marine)
    agent.start_turn(state, marine)
    assert agent.move_problem(state, marine) is None
    beta = lifecycle.place_alien(state, "xeno-beta-green-1", hx(at("A1")), [], "lands")
    beta.hex = next(
        co(h) for h in neighbours(hx(marine.hex)) if lifecycle.nearest_free(state, h) == h
    )
    assert engaged(state, marine)  # a walking alien still engages


def test_an_underground_burrower_is_not_offered_as_a_target_until_a_card_matches_it() -> None:
    state = layered(["marine"], ["G5"])
    one, two = diggers(state, "F4")
    assert not burrowing.exposed(state, one)  # an empty discard pile
    assert not {one.id, two.id} & attack_actions(state, "marine")
    top_discard(state, "ce14")  # blue aliens: no match for green Diggers
    assert not {one.id, two.id} & attack_actions(state, "marine")
    top_discard(state, "os-28a")  # flying aliens: no
    assert not burrowing.exposed(state, one)
    top_discard(state, "ce12")  # green aliens: a clear match
    assert burrowing.exposed(state, one)
    assert {one.id, two.id} <= attack_actions(state, "marine")
    marine = state.agents["marine"]
    rifle = 0
    top_discard(state, "ce17")  # wounded aliens: full-health Diggers stay underground
    problem = attack.weapon_problem(state, marine, rifle, one)
    assert problem is not None and "Burrowing" in problem


def test_burrowing_example_1_in_play_only_the_wounded_wormoon_is_hit_even_by_area() -> None:
    state = layered(["hulk"], ["G5"])
    worm = AlienState(id="x9", card="wormoon-1", hex=at("D4"), controller="hulk", energy=4)
    state.aliens.append(worm)
    masters.arrived(state, worm, [])
    worm.wounds = 3
    pair = diggers(state, "C4")
    same_area = [d for d in pair if area_of(state, d.hex) == area_of(state, worm.hex)]
    assert same_area  # at least one Digger shares the Wormoon's Area
    top_discard(state, "ce17")  # activate wounded aliens
    hulk = state.agents["hulk"]
    ids = attack.targets_of(state, worm, True, hulk)
    assert ids == [worm.id]
    for d in pair:
        assert d.id not in attack_actions(state, "hulk")


def test_burrowing_example_2_in_play_the_check_made_before_the_roll_holds() -> None:
    """The Hulk's Vulcan locks its targets when he fires; the discard pile then changes (the
    Descent ability in the example) before the Hits are applied: the attack still lands."""
    state = layered(["hulk"], ["F5"])
    worm = AlienState(id="x9", card="wormoon-1", hex=at("D4"), controller="hulk", energy=0)
    state.aliens.append(worm)
    masters.arrived(state, worm, [])
    assert state.expansion is not None
    sb_state(state).stacks[worm.id] = [0, 0]
    top_discard(state, "ce16")  # wrong colour
    hulk = state.agents["hulk"]
    vulcan = next(i for i, w in enumerate(hulk.weapons) if w.key == "vulcan")
    assert attack.weapon_problem(state, hulk, vulcan, worm) is not None
    top_discard(state, "ce28")  # activate all aliens: the Wormoon is on the surface
    assert attack.weapon_problem(state, hulk, vulcan, worm) is None
    events: list[Event] = []
    # Vulcan 3 RED: three hit faces (2 = hit+hit+bolt? use 3: a single hit each)
    attack.agent_attack(state, hulk, vulcan, worm, False, ScriptedDice([3, 3, 3]), events)
    assert state.pending is not None and state.pending.kind == "boost"
    assert state.pending.data["targets"] == [worm.id]
    top_discard(state, "ce16")  # the pile changes mid-attack
    agent.finish_boost(state, 0, ScriptedDice([1, 1, 1, 1, 1, 1]), events)
    assert worm.wounds > 0


# 9.3.2 Poison from the Diggers -----------------------------------------------------------------


def test_the_diggers_venom_spit_poisons_on_a_bolt_and_the_refresh_wounds() -> None:
    state = layered(["marine"], ["G5"])
    one, _ = diggers(state, "F4")
    marine = state.agents["marine"]
    events: list[Event] = []
    # Venom Spit 2 BLUE: hit+hit+shield and bolt+ammo+jam: 2 Hits and a Bolt (Poison 1);
    # the Marine's defend dice show the alien face (no Shield).
    attack.alien_attack(state, one, marine, "ranged", ScriptedDice([2, 4, 1, 1]), events, "test")
    assert state.expansion is not None
    assert sb_state(state).figures["marine"].poison == 1
    wounds = marine.wounds
    phases.refresh(state, events, SeededDice(1))
    assert marine.wounds == wounds + 1
    assert sb_state(state).figures["marine"].poison == 0
