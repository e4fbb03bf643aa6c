"""Master Aliens (11.2, 11.3), the Menace token (11.3.1), multi-hex aliens (11.8), rank and
"activate X" Close Encounter cards (11.1, 11.5) and the 6.3 Event balancers, inside real
Galaxy play with the Operation Strikeback layer on and scripted dice."""

from __future__ import annotations

from engine.core.deck import Deck
from engine.core.dice import ScriptedDice, SeededDice
from engine.core.events import Event, Killed
from engine.core.game import Action
from engine.core.words import counted
from engine.galaxy import GAME, aliens, attack, lifecycle, phases
from engine.galaxy.board import parse_label
from engine.galaxy.state import AlienState, GalaxyState
from engine.galaxy.strikeback import bodies, masters
from engine.galaxy.strikeback.cards import cards
from engine.galaxy.strikeback.menace import Menace
from engine.galaxy.strikeback.status import StrikebackState, sb_state, sb_state_or_none
from engine.galaxy.world import alien_at, alien_hexes, area_of, board_of, co, hx, occupant


def at(text: str) -> tuple[int, int]:
    h = parse_label(text)
    assert h is not None
    return co(h)


def layered(seats: list[str], places: list[str]) -> GalaxyState:
    state = GAME.new("m1", seats, {"human-view": "off"}, SeededDice(7))
    state.expansion = StrikebackState()
    state.signals, state.aliens, state.pending = [], [], None
    state.phase, state.alpha = "aliens", seats[0]
    state.turn_order, state.turn_index = list(seats), 0
    for seat, place in zip(seats, places, strict=True):
        state.agents[seat].hex = at(place)
        state.agents[seat].energy = 0
    return state


def wormoon(state: GalaxyState, place: str, card_id: str = "wormoon-2") -> AlienState:
    events: list[Event] = []
    if card_id == "wormoon-2":  # Stage II has no Burrowing: it enters play like any alien
        return lifecycle.place_alien(state, card_id, hx(at(place)), events, "erupts")
    # Stage I burrows (7.2 in play is not ours): set its card on the map directly
    alien = AlienState(id="x9", card=card_id, hex=at(place), controller=state.alpha, energy=4)
    state.aliens.append(alien)
    masters.arrived(state, alien, events)
    return alien


def test_a_master_goes_to_the_alpha_agent_with_the_menace_token_and_stands_on_two_hexes() -> None:
    state = layered(["marine", "hulk"], ["G5", "F5"])
    state.alpha = "hulk"
    worm = wormoon(state, "D4")
    assert worm.controller == "hulk"  # not the normal assignment (the Marine holds fewer)
    assert state.expansion is not None and sb_state(state).menace == Menace(owner="hulk")
    body = alien_hexes(state, worm)
    assert len(body) == 2 and body[0] == at("D4")
    tail = hx(body[1])
    assert occupant(state, tail) == worm.id and alien_at(state, tail) is worm
    assert area_of(state, body[1]) == "c"  # the rest of the base stays in its Area


def test_menace_moves_with_wounds_in_play() -> None:
    state = layered(["marine", "hulk"], ["G5", "F5"])
    worm = wormoon(state, "D4")
    sb = sb_state_or_none(state)
    assert sb is not None and sb.menace is not None
    sb.stacks[worm.id] = [0, 0]
    marine, hulk = state.agents["marine"], state.agents["hulk"]
    events: list[Event] = []
    # 2 Hits on the Wormoon, 2 BLUE Alien faces: 2 wounds by the Menacing Marine -> Level 2
    attack.resolve_defence(
        state, marine, [worm.id], 2, 0, "ranged", "", ScriptedDice([1, 1]), events, "rifle"
    )
    assert (sb.menace.owner, sb.menace.level, worm.wounds) == ("marine", 2, 2)
    # the Hulk wounds it: the token drops to Level 1 and stays with the Marine
    attack.resolve_defence(
        state, hulk, [worm.id], 1, 0, "melee", "", ScriptedDice([1]), events, "fists"
    )
    assert (sb.menace.owner, sb.menace.level) == ("marine", 1)
    # again: at Level 1 it passes to the Hulk
    attack.resolve_defence(
        state, hulk, [worm.id], 1, 0, "melee", "", ScriptedDice([1]), events, "fists"
    )
    assert (sb.menace.owner, sb.menace.level) == ("hulk", 1)
    # a shot that is all parried moves nothing (face 6: Hit and Shield)
    attack.resolve_defence(
        state, marine, [worm.id], 1, 0, "ranged", "", ScriptedDice([6]), events, "rifle"
    )
    assert (sb.menace.owner, sb.menace.level) == ("hulk", 1)


def test_menace_example_in_play_the_marines_guard_takes_the_token_but_the_hulk_is_bitten() -> None:
    """11.3.1's example: the Hulk is the Menacing Agent; the Master moves next to him, the
    Marine's Guard wounds it and takes the token, and the Master still attacks the Hulk."""
    state = layered(["marine", "hulk"], ["C6", "E7"])
    worm = wormoon(state, "D4")
    sb = sb_state_or_none(state)
    assert sb is not None
    sb.menace = Menace(owner="hulk")
    sb.stacks[worm.id] = [0, 0]
    worm.energy = 0
    marine, hulk = state.agents["marine"], state.agents["hulk"]
    events: list[Event] = []
    guard = [4, 4, 4]  # Guard: the Marine's assault rifle, 3 RED hit+jam = 3 Hits
    parry = [1, 1, 1]  # the Wormoon defends with 3 BLUE Alien faces: 3 wounds
    bite = [4, 4, 4, 4]  # its Tearing Maw, 4 RED hit+jam: 4 Hits, no Bolt
    hulk_defends = [1, 1, 1, 1]  # the Hulk's 4 BLUE dice: no Shield
    dice = ScriptedDice([*guard, *parry, *bite, *hulk_defends])
    aliens.activate(state, worm, dice, events)
    assert worm.wounds == 3
    assert sb.menace.owner == "marine"  # he wounded it: the token passed at Level 1
    assert hulk.wounds == 4 and marine.wounds == 0  # the target chosen at activation
    assert any("Archenemy" in e.text and "Hulk" in e.text for e in events)


def test_without_archenemy_or_without_the_menacing_agent_the_normal_ai_targets() -> None:
    state = layered(["marine", "hulk"], ["F5", "G5"])
    worm = wormoon(state, "D4")
    sb = sb_state_or_none(state)
    assert sb is not None and sb.menace is not None
    hulk = state.agents["hulk"]
    sb.menace.owner = "hulk"
    assert masters.hunted(state, worm, [state.agents["marine"], hulk], []) == [hulk]
    hulk.hex = None  # the Menacing Agent leaves the battlefield: the token goes to the Alpha
    events: list[Event] = []
    assert masters.hunted(state, worm, [state.agents["marine"]], events) == [state.agents["marine"]]
    assert sb.menace.owner == "marine" and sb.menace.level == 1


def test_menace_actions_are_listed_and_applied() -> None:
    state = layered(["marine", "hulk"], ["F5", "G5"])
    wormoon(state, "D4")
    state.phase, state.turn_index = "agent", 1
    sb = sb_state_or_none(state)
    assert sb is not None and sb.menace is not None
    whats = {a.args["what"] for a in GAME.legal_actions(state, "hulk") if a.verb == "act"}
    assert "menace-take" in whats and "menace-up" not in whats
    state = GAME.apply(
        state, "hulk", Action(verb="act", args={"what": "menace-take"}), SeededDice(1)
    ).state
    sb = sb_state_or_none(state)
    assert sb is not None and sb.menace is not None
    assert sb.menace.owner == "hulk" and state.agents["hulk"].action_used
    whats = {a.args["what"] for a in GAME.legal_actions(state, "hulk") if a.verb == "act"}
    assert not whats & set(masters.ACTIONS)  # his Action is spent


def test_stage_one_at_zero_turns_to_stage_two_and_does_not_die() -> None:
    state = layered(["marine"], ["F5"])
    worm = wormoon(state, "D4", "wormoon-1")
    sb = sb_state_or_none(state)
    assert sb is not None
    sb.stacks[worm.id] = [0, 0]
    worm.wounds = cards()["wormoon-1"].hp - 2  # 2 Health points left
    events: list[Event] = []
    attack.resolve_defence(
        state,
        state.agents["marine"],
        [worm.id],
        3,
        0,
        "ranged",
        "",
        ScriptedDice([1, 1, 1]),
        events,
        "rifle",
    )
    assert worm in state.aliens and worm.card == "wormoon-2" and worm.wounds == 0
    assert not any(isinstance(e, Killed) for e in events)
    assert state.kills == 0


def test_a_mission_can_hold_the_fallen_stage_one_until_its_special_event() -> None:
    state = layered(["marine"], ["F5"])
    worm = wormoon(state, "D4", "wormoon-1")
    sb = sb_state_or_none(state)
    assert sb is not None
    sb.master_down = "os6-a"
    sb.stacks[worm.id] = [0, 0]
    hp = cards()["wormoon-1"].hp
    worm.wounds = hp - 1  # 1 Health point left
    events: list[Event] = []
    marine = state.agents["marine"]
    attack.resolve_defence(
        state, marine, [worm.id], 1, 0, "ranged", "", ScriptedDice([1]), events, "rifle"
    )
    assert worm in state.aliens and worm.card == "wormoon-1" and worm.wounds == hp
    assert state.event_deck.draw_pile[-1] == "os6-a"  # on top of the Event deck
    attack.resolve_defence(
        state, marine, [worm.id], 1, 0, "ranged", "", ScriptedDice([1]), events, "rifle"
    )
    assert worm in state.aliens and state.event_deck.draw_pile.count("os6-a") == 1
    phases.refresh(state, events, SeededDice(1))  # not taken away by the event: Stage II
    assert worm.card == "wormoon-2" and worm.wounds == 0


def test_stage_two_at_zero_dies_and_the_menace_token_leaves() -> None:
    state = layered(["marine"], ["F5"])
    worm = wormoon(state, "D4")
    sb = sb_state_or_none(state)
    assert sb is not None
    sb.stacks[worm.id] = [0, 0]
    worm.wounds = cards()["wormoon-2"].hp - 1  # 1 Health point left
    events: list[Event] = []
    attack.resolve_defence(
        state,
        state.agents["marine"],
        [worm.id],
        1,
        0,
        "ranged",
        "",
        ScriptedDice([1]),
        events,
        "rifle",
    )
    assert worm not in state.aliens and state.kills == 1
    assert sb.menace is None and worm.id not in sb.bodies


def test_a_master_ignores_paralyze_and_its_critical() -> None:
    state = layered(["marine"], ["F5"])
    worm = wormoon(state, "D4")
    sb = sb_state_or_none(state)
    assert sb is not None
    sb.stacks[worm.id] = [0, 0]
    events: list[Event] = []
    attack.resolve_defence(
        state,
        state.agents["marine"],
        [worm.id],
        1,
        0,
        "ranged",
        "paralyze",
        ScriptedDice([1]),
        events,
        "stun",
    )
    assert worm.wounds == 1 and "paralyze" not in worm.conditions
    attack.resolve_defence(  # the Flash-Bang's Immobilize is a stun it ignores too
        state,
        state.agents["marine"],
        [worm.id],
        1,
        0,
        "ranged",
        "immobilize",
        ScriptedDice([1]),
        events,
        "flash",
    )
    assert worm.wounds == 2 and worm.conditions == []
    from engine.galaxy.strikeback import combat
    from engine.galaxy.strikeback.status import CriticalPile

    sb.piles["1"] = CriticalPile(level=1, draw=["c1-paralyze", "c1-def"])
    combat.critical(state, worm, 1, SeededDice(1), events)
    assert sb.figures[worm.id].criticals == ["c1-def"]


def test_multi_hex_targeting_area_damage_and_movement_keep_the_base_whole() -> None:
    state = layered(["marine", "hulk"], ["F5", "G5"])
    worm = wormoon(state, "D4")
    tail = alien_hexes(state, worm)[1]
    marine = state.agents["marine"]
    # stand next to the tail only: melee is allowed (any hex of the base counts)
    from engine.core.hexgrid import neighbours

    head = hx(worm.hex)
    spot = next(
        n
        for n in neighbours(hx(tail))
        if n not in neighbours(head)
        and n != head
        and board_of(state).on_map(n)
        and occupant(state, n) is None
    )
    marine.hex = co(spot)
    fists = next(i for i, w in enumerate(marine.weapons) if w.key == "service-pistol")
    assert attack.weapon_problem(state, marine, fists, worm) is None
    # Area Damage on the tail's Area hits the Wormoon once
    ids = attack.targets_of(state, worm, True, marine)
    assert ids.count(worm.id) == 1
    # it moves: the head goes on an Area centre, the base stays whole and off other figures
    events: list[Event] = []
    assert aliens.move_toward(state, worm, at("J9"), 2, None, events)
    head2, tail2 = alien_hexes(state, worm)
    assert hx(tail2) in neighbours(hx(head2))
    assert occupant(state, hx(tail2)) == worm.id
    assert bodies.tail_for(state, worm, hx(head2)) != []


def test_activation_order_puts_the_higher_rank_first() -> None:
    state = layered(["marine"], ["F5"])
    green = lifecycle.place_alien(state, "xeno-beta-green-1", hx(at("B3")), [], "lands")
    red = lifecycle.place_alien(state, "xeno-delta-blue", hx(at("I3")), [], "lands")
    worm = wormoon(state, "J9")
    order = aliens.activation_order(state, [green, red, worm])
    assert order == [worm, red, green]


def _aliens_turn_with(state: GalaxyState, card: str) -> list[Event]:
    state.ce_deck = Deck(name="Close Encounter", draw_pile=[card])
    state.phase = "aliens"
    events: list[Event] = []
    phases.advance(state, SeededDice(3), events)
    return events


def test_activate_one_alien_asks_the_alpha_agent_to_break_a_tie_then_activates_his_pick() -> None:
    state = layered(["marine", "hulk"], ["G5", "F5"])
    a = lifecycle.place_alien(state, "xeno-beta-green-1", hx(at("B3")), [], "lands")
    b = lifecycle.place_alien(state, "xeno-beta-green-2", hx(at("I3")), [], "lands")
    a.controller = b.controller = "marine"
    _aliens_turn_with(state, "os-22")
    assert state.pending is not None and state.pending.kind == "sb-activate"
    assert state.pending.seat == "marine" and state.pending.options == [a.id, b.id]
    listed = [x.args["option"] for x in GAME.legal_actions(state, "marine") if x.verb == "choose"]
    assert listed == [a.id, b.id]
    before = (a.hex, b.hex)
    state = GAME.apply(
        state, "marine", Action(verb="choose", args={"option": b.id}), SeededDice(4)
    ).state
    state = GAME.advance(state, SeededDice(4)).state  # the Aliens turn resumes
    assert state.pending is None or state.pending.kind != "sb-activate"
    moved = {x.id: x.hex for x in state.aliens}
    assert moved[a.id] == before[0] and moved[b.id] != before[1]  # only his pick moved
    assert state.expansion is not None and sb_state(state).activating is None


def test_activate_two_takes_the_alphas_then_the_next_players_without_a_question() -> None:
    state = layered(["marine", "hulk"], ["G5", "F5"])
    a = lifecycle.place_alien(state, "xeno-beta-green-1", hx(at("B3")), [], "lands")
    b = lifecycle.place_alien(state, "spine-critter-green-1", hx(at("I3")), [], "lands")
    c = lifecycle.place_alien(state, "aracnos-green-1", hx(at("J9")), [], "lands")
    a.controller, b.controller, c.controller = "marine", "hulk", "hulk"
    c.conditions.append("paralyze")  # never chosen while others are in play
    start = (a.hex, b.hex, c.hex)
    events = _aliens_turn_with(state, "os-23")
    assert state.pending is None or state.pending.kind != "sb-activate"
    assert a.hex != start[0] and b.hex != start[1] and c.hex == start[2]
    assert any("Activate 2 alien" in e.text for e in events)


def test_the_alpha_agents_aliens_card() -> None:
    state = layered(["marine", "hulk"], ["G5", "F5"])
    a = lifecycle.place_alien(state, "xeno-beta-green-1", hx(at("B3")), [], "lands")
    b = lifecycle.place_alien(state, "spine-critter-green-1", hx(at("I3")), [], "lands")
    a.controller, b.controller = "hulk", "marine"
    start = (a.hex, b.hex)
    _aliens_turn_with(state, "os-14")
    assert a.hex == start[0] and b.hex != start[1]


def test_event_balancers_in_play_count_real_agents_aliens_and_signals() -> None:
    state = layered(["marine", "hulk", "sniper"], ["G5", "F5", "G4"])
    lifecycle.place_alien(state, "xeno-beta-green-1", hx(at("B3")), [], "lands")
    state.event_deck = Deck(name="Event", draw_pile=["os-g1"])
    events: list[Event] = []
    phases.event_phase(state, SeededDice(5), events)
    assert any("3 agents - 1 alien = 2 Signals" in e.text for e in events)
    threats = len(state.aliens) + len(state.signals)
    state.event_deck = Deck(name="Event", draw_pile=["os-h1"])
    events = []
    phases.event_phase(state, SeededDice(5), events)
    left = max(0, 3 - threats)
    assert any(e.text.endswith(f"= {counted(left, 'Signal')} to teleport.") for e in events)
    state.agents["sniper"].dead = True  # only operative agents count
    state.event_deck = Deck(name="Event", draw_pile=["os-g1"])
    events = []
    phases.event_phase(state, SeededDice(5), events)
    assert any(e.text.startswith("Event balancer: 2 agents") for e in events)
