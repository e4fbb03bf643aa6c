"""Energy Batteries (9.4), Power Suits (9.5), Free Actions (6.2.1.1) and agents seizing from a
suit (7.3), through the engine's own commands and Refresh, on scenario states set up directly
(no shipped mission places a suit yet)."""

from __future__ import annotations

import pytest
from galaxy_contract import check_contract

from engine.core.dice import ScriptedDice, SeededDice
from engine.core.errors import RuleError
from engine.core.events import Event
from engine.core.game import Action
from engine.core.hexgrid import Hex, distance, neighbours
from engine.galaxy import GAME, attack, lifecycle, phases
from engine.galaxy.agent import reach, start_turn
from engine.galaxy.board import label
from engine.galaxy.state import GalaxyState
from engine.galaxy.strikeback import free, layer, lookups, suits
from engine.galaxy.strikeback.status import sb_state
from engine.galaxy.world import board_of, co, hx
from engine.galaxy.world import free as free_hex


def suited(
    seats: list[str], options: dict[str, str] | None = None, scenario: str = "m1"
) -> GalaxyState:
    """A core mission with the layer on (Fighting Poses), no Signals or aliens, agent turn of
    the first seat."""
    state = GAME.new(
        scenario,
        seats,
        {"human-view": "off", "fighting-poses": "on", **(options or {})},
        SeededDice(7),
    )
    assert state.expansion is not None
    state.signals, state.aliens, state.pending = [], [], None
    state.phase, state.alpha = "agent", seats[0]
    state.turn_order, state.turn_index = list(seats), 0
    for i, seat in enumerate(seats):
        state.agents[seat].hex = co(board_of(state).starts[i])
    start_turn(state, state.agents[seats[0]])
    return state


def hex_at(state: GalaxyState, seat: str, steps: int) -> Hex:
    """A free hex exactly `steps` walking steps from the agent."""
    agent = state.agents[seat]
    found = reach(state, agent)
    return next(h for h, c in sorted(found.cost.items()) if c == steps and free_hex(state, h))


def do(state: GalaxyState, seat: str, action: Action, dice: object = None) -> GalaxyState:
    listed = GAME.legal_actions(state, seat)
    assert any(a.matches(action) for a in listed), (action, [a.args for a in listed])
    new = GAME.apply(state, seat, action, dice or SeededDice(1)).state  # type: ignore[arg-type]
    assert isinstance(new, GalaxyState)
    return new


def act(seat: str, what: str, **args: str) -> Action:
    return Action(verb="act", args={"unit": seat, "what": what, **args})


def test_suit_sections_are_built() -> None:
    for section in (
        "6.1 Refresh phase: Power Suit energy",
        "6.2.1.1 Free Action activity",
        "7.3 Seize by agents",
        "9.4 Energy Batteries",
        "9.5 Power Suit",
    ):
        assert layer.supported(section), section


def test_empty_suit_occupies_its_hex_can_be_crossed_and_is_equipped_with_the_action() -> None:
    state = suited(["marine"])
    marine = state.agents["marine"]
    spot = hex_at(state, "marine", 2)
    events: list[Event] = []
    suit = suits.place_suit(state, 1, 3, spot, events)
    assert suit.id == "suit-1" and suit.shields == 3
    view = GAME.view(state, None)
    assert any(t.kind == "power-suit" and t.coord == label(spot) for t in view.tokens)
    assert "power-suit" in view.header
    # The header names the suit as players do, never by its key.
    assert view.header["power-suit"] == f"Power Suit Mark I at {label(spot)}, 3 Batteries"
    # No plain move may stop on the suit's hex, but he may walk through it.
    moves = {a.args["to"] for a in GAME.legal_actions(state, "marine") if a.verb == "move"}
    assert label(spot) not in moves
    with pytest.raises(RuleError):
        GAME.apply(
            state,
            "marine",
            Action(verb="move", args={"unit": "marine", "to": label(spot)}),
            SeededDice(1),
        )
    # Equip: walk the 2 hexes, spend the Action, keep moving with +2 (Mark I).
    assert marine.mp_left == 4
    state = do(state, "marine", act("marine", suits.EQUIP, target="suit-1"))
    marine = state.agents["marine"]
    assert marine.hex == co(spot)
    assert marine.action_used and marine.movement == "open"
    assert marine.mp_left == 4 - 2 + 2
    assert lookups.worn(state, "marine") is not None
    assert [w.key for w in marine.weapons][-1] == "suit-autocannon"
    view = GAME.view(state, None)
    worn_by = view.header["power-suit"]
    assert worn_by.startswith("Power Suit Mark I worn by Chromium (Marine),"), worn_by
    assert "suit-1" not in worn_by and "marine" not in worn_by
    assert not any(t.kind == "power-suit" for t in view.tokens)
    me = next(f for f in view.figures if f.id == "marine")
    assert {"power-suit:mk1", "battery:3", "suit-shield:3"} <= set(me.conditions)
    # The next turn he has 4 + 2 Movement points.
    start_turn(state, state.agents["marine"])
    assert state.agents["marine"].mp_left == 6


def test_the_agent_walks_through_the_empty_suit() -> None:
    state = suited(["marine"])
    marine = state.agents["marine"]
    assert marine.hex is not None
    # a suit on a neighbour; the hex beyond it (2 steps straight on) stays reachable through it
    me = hx(marine.hex)
    board = board_of(state)
    n, beyond = next(
        (n, n + (n - me))
        for n in neighbours(me)
        if free_hex(state, n)
        and free_hex(state, n + (n - me))
        and board.step_ok(me, n, set(), "agent")
        and board.step_ok(n, n + (n - me), set(), "agent")
    )
    suits.place_suit(state, 1, 3, n, [])
    found = reach(state, marine)
    assert n not in found.cost  # he may not stop there
    assert found.cost[beyond] == 2  # straight through it


def test_leaving_puts_the_agent_next_to_the_suit_and_takes_the_bonus_away() -> None:
    state = suited(["hulk"])
    hulk = state.agents["hulk"]
    assert hulk.hex is not None
    suit = suits.place_suit(state, 2, 3, hx(hulk.hex), [])  # taken: the closest free hex
    assert suit.hex != hulk.hex
    state = do(state, "hulk", act("hulk", suits.EQUIP, target=suit.id))
    assert state.agents["hulk"].mp_left == 3 - 1 + 3
    start_turn(state, state.agents["hulk"])
    leaves = [a for a in GAME.legal_actions(state, "hulk") if a.args.get("what") == suits.LEAVE]
    assert leaves
    spot = leaves[0].args["to"]
    inside = state.agents["hulk"].hex
    state = do(state, "hulk", leaves[0])
    hulk = state.agents["hulk"]
    assert label(hx(hulk.hex or (0, 0))) == spot
    assert state.expansion is not None and sb_state(state).suits[suit.id].hex == inside
    assert hulk.mp_left == 3  # the Mark II's +3 is gone with the suit
    assert "suit-plasma-array" not in [w.key for w in hulk.weapons]
    # a separate Action: no second Action to get back in this turn
    assert not [a for a in GAME.legal_actions(state, "hulk") if a.args.get("what") == suits.EQUIP]


def test_refresh_spends_a_battery_from_every_suit_and_removes_one_that_cannot_pay() -> None:
    state = suited(["marine", "sniper"])
    worn_one = suits.place_suit(state, 1, 1, hex_at(state, "marine", 1), [])
    empty = suits.place_suit(state, 2, 0, hex_at(state, "marine", 3), [])
    state = do(state, "marine", act("marine", suits.EQUIP, target=worn_one.id))
    worn_one = lookups.worn(state, "marine")  # type: ignore[assignment]
    assert worn_one is not None
    worn_one.shields = 1
    events: list[Event] = []
    phases.refresh(state, events, SeededDice(1))
    assert state.expansion is not None
    assert empty.id not in sb_state(state).suits  # no Battery to pay: back to the Warehouse
    kept = sb_state(state).suits[worn_one.id]
    assert kept.batteries == 0 and kept.shields == 3  # paid its last one; shields refilled
    state.pending = None
    phases.refresh(state, events, SeededDice(1))
    assert worn_one.id not in sb_state(state).suits
    marine = state.agents["marine"]
    assert marine.hex is not None  # he stays where the suit stood, at no cost
    assert "suit-autocannon" not in [w.key for w in marine.weapons]
    assert any("Warehouse" in e.text for e in events)


def test_suit_shields_override_the_agents_own_and_are_used_first() -> None:
    state = suited(["marine"])
    suit = suits.place_suit(state, 1, 3, hex_at(state, "marine", 1), [])
    state = do(state, "marine", act("marine", suits.EQUIP, target=suit.id))
    marine = state.agents["marine"]
    marine.energy = 1  # an Elite shield he has besides
    taken = {a.hex for a in state.agents.values()}
    assert marine.hex is not None
    spot = next(h for h in neighbours(hx(marine.hex)) if co(h) not in taken and free_hex(state, h))
    alien = lifecycle.place_alien(state, "xeno-beta-blue-1", spot, [], "is placed")
    worn_suit = lookups.worn(state, "marine")
    assert worn_suit is not None
    # Rifle Butt, 2 BLUE dice: hit+hit+shield and an Alien face = 2 Hits. The suit's 3 shields
    # absorb both; his own shield is untouched and nothing is rolled to defend.
    attack.alien_attack(state, alien, marine, "melee", ScriptedDice([2, 1]), [], "test")
    assert worn_suit.shields == 1 and marine.energy == 1 and marine.wounds == 0
    # 2 more Hits: the suit's last shield takes 1, the other is rolled (an Alien face: a wound)
    # and his own shield is bypassed, not spent.
    attack.alien_attack(state, alien, marine, "melee", ScriptedDice([2, 1, 1]), [], "test")
    assert worn_suit.shields == 0 and marine.energy == 1 and marine.wounds == 1
    # With the suit's shields gone his own shield works again: 1 absorbed, 1 rolled.
    attack.alien_attack(state, alien, marine, "melee", ScriptedDice([2, 1, 1]), [], "test")
    assert marine.energy == 0 and marine.wounds == 2


def test_pilot_death_destroys_the_suit() -> None:
    state = suited(["marine"])
    suit = suits.place_suit(state, 1, 3, hex_at(state, "marine", 1), [])
    state = do(state, "marine", act("marine", suits.EQUIP, target=suit.id))
    marine = state.agents["marine"]
    marine.bleeding = True
    from engine.galaxy import combat

    events: list[Event] = []
    combat.wound_agent(state, marine, 1, events, "test")
    assert marine.dead
    assert state.expansion is not None and not sb_state(state).suits


def test_recall_from_headquarters_with_the_alpha_agents_agreement() -> None:
    state = suited(["marine", "sniper"])
    suits.stock_headquarters(state, 2, 5, [])
    state.alpha = "sniper"
    recall = act("marine", suits.RECALL, target="suit-1")
    state = do(state, "marine", recall)
    assert state.pending is not None and state.pending.kind == "sb-recall"
    assert state.pending.seat == "sniper"
    refused = GAME.apply(
        state, "sniper", Action(verb="choose", args={"option": "refuse"}), SeededDice(1)
    ).state
    assert isinstance(refused, GalaxyState)
    assert lookups.worn(refused, "marine") is None
    assert not refused.agents["marine"].action_used
    assert not any(a.matches(recall) for a in GAME.legal_actions(refused, "marine"))
    agreed = GAME.apply(
        state, "sniper", Action(verb="choose", args={"option": "agree"}), SeededDice(1)
    ).state
    assert isinstance(agreed, GalaxyState)
    suit = lookups.worn(agreed, "marine")
    assert suit is not None and suit.mark == 2 and suit.batteries == 5 and suit.recalled
    marine = agreed.agents["marine"]
    assert marine.action_used and marine.mp_left == 4 + 3
    # He may not leave before the next Refresh.
    start_turn(agreed, marine)
    assert suits.leave_problem(agreed, marine, "A1") is not None
    assert "recalled" in (suits.leave_problem(agreed, marine, "A1") or "")
    phases.refresh(agreed, [], SeededDice(1))
    assert not suit.recalled and suit.batteries == 4


def test_the_alpha_agent_recalls_without_asking() -> None:
    state = suited(["marine"])
    suits.stock_headquarters(state, 1, 5, [])
    state = do(state, "marine", act("marine", suits.RECALL, target="suit-1"))
    assert state.pending is None and lookups.worn(state, "marine") is not None


def test_a_pilot_stands_and_cannot_change_pose_and_must_stand_to_get_in() -> None:
    state = suited(["marine"])
    suit = suits.place_suit(state, 1, 3, hex_at(state, "marine", 2), [])
    assert state.expansion is not None
    sb_state(state).poses["marine"] = "crouching"
    assert not any(a.args.get("what") == suits.EQUIP for a in GAME.legal_actions(state, "marine"))
    sb_state(state).poses.pop("marine")
    state = do(state, "marine", act("marine", suits.EQUIP, target=suit.id))
    orders = [a.args["order"] for a in GAME.legal_actions(state, "marine") if a.verb == "orders"]
    assert not [o for o in orders if o.startswith("pose-")]


def test_seize_example_2_a_pilot_drags_one_bleeding_agent_as_a_free_action() -> None:
    """7.3: he moves, seizes a bleeding adjacent teammate as a Free Action, moves on, and the
    teammate is put down next to him when the Movement ends (one agent per turn)."""
    state = suited(["hulk", "biotech"])
    hulk, biotech = state.agents["hulk"], state.agents["biotech"]
    suit = suits.place_suit(state, 1, 3, hex_at(state, "hulk", 1), [])
    state = do(state, "hulk", act("hulk", suits.EQUIP, target=suit.id))
    hulk, biotech = state.agents["hulk"], state.agents["biotech"]
    assert hulk.hex is not None
    spot = next(h for h in neighbours(hx(hulk.hex)) if free_hex(state, h))
    biotech.hex = co(spot)
    biotech.bleeding = True
    biotech.wounds = 5
    seize = act("hulk", suits.SEIZE, target="biotech")
    mp = hulk.mp_left
    state = do(state, "hulk", seize)
    hulk, biotech = state.agents["hulk"], state.agents["biotech"]
    assert biotech.hex is None and hulk.mp_left == mp  # a Free Action: no points, no Action
    assert any("seizing:biotech" in c for f in GAME.view(state, None).figures for c in f.conditions)
    # move 1 more hex; he still has points, so he is still carrying
    dest = hex_at(state, "hulk", 1)
    state = do(state, "hulk", Action(verb="move", args={"unit": "hulk", "to": label(dest)}))
    hulk, biotech = state.agents["hulk"], state.agents["biotech"]
    assert state.expansion is not None
    if hulk.mp_left:
        assert biotech.hex is None
        drops = [a for a in GAME.legal_actions(state, "hulk") if a.args.get("what") == suits.DROP]
        assert drops
        state = do(state, "hulk", drops[-1])
        hulk, biotech = state.agents["hulk"], state.agents["biotech"]
        assert label(hx(biotech.hex or (0, 0))) == drops[-1].args["to"]
    assert biotech.hex is not None and hulk.hex is not None
    assert distance(hx(biotech.hex), hx(hulk.hex)) == 1
    assert state.expansion is not None and not sb_state(state).carrying
    # one agent per turn
    assert suits.seize_problem(state, hulk, {"target": "biotech"}) is not None


def test_a_seized_agent_is_put_down_when_the_carrier_ends_his_turn() -> None:
    state = suited(["hulk", "biotech"])
    suit = suits.place_suit(state, 2, 3, hex_at(state, "hulk", 1), [])
    state = do(state, "hulk", act("hulk", suits.EQUIP, target=suit.id))
    hulk, biotech = state.agents["hulk"], state.agents["biotech"]
    assert hulk.hex is not None
    biotech.hex = co(next(h for h in neighbours(hx(hulk.hex)) if free_hex(state, h)))
    biotech.conditions = ["immobilize"]
    state = do(state, "hulk", act("hulk", suits.SEIZE, target="biotech"))
    state = do(state, "hulk", Action(verb="end-turn", args={"unit": "hulk"}))
    hulk, biotech = state.agents["hulk"], state.agents["biotech"]
    assert biotech.hex is not None and hulk.hex is not None
    assert distance(hx(biotech.hex), hx(hulk.hex)) == 1


def test_a_mark_ii_pilot_flies_over_barrier_sides() -> None:
    state = suited(["marine"], scenario="os1")
    board = board_of(state)
    marine = state.agents["marine"]
    # put him beside a Barrier side, with its other hex free
    a, b = next(
        (x, y)
        for x, y in (tuple(s) for s in board.barriers)
        if free_hex(state, x) and free_hex(state, y)
    )
    marine.hex = co(a)
    start_turn(state, marine)
    assert b not in reach(state, marine).cost or reach(state, marine).cost[b] > 1
    suit = suits.place_suit(
        state,
        2,
        3,
        next(
            n
            for n in neighbours(a)
            if free_hex(state, n) and n != b and board.step_ok(a, n, set(), "agent")
        ),
        [],
    )
    state = do(state, "marine", act("marine", suits.EQUIP, target=suit.id))
    marine = state.agents["marine"]
    marine.hex = co(a)
    assert reach(state, marine).cost.get(b) == 1


def test_free_actions_are_listed_applied_and_refused_exactly() -> None:
    assert free.is_free(suits.SEIZE) and free.is_free(suits.DROP)
    assert not free.is_free("search")
    state = suited(["marine"])
    assert not [a for a in free.legal(state, state.agents["marine"])]
    with pytest.raises(RuleError):
        GAME.apply(state, "marine", act("marine", suits.SEIZE, target="marine"), SeededDice(1))


def test_the_legal_actions_contract_holds_with_suits_on_the_map() -> None:
    state = suited(["hulk", "biotech", "marine"])
    suit = suits.place_suit(state, 1, 3, hex_at(state, "hulk", 2), [])
    suits.stock_headquarters(state, 2, 3, [])
    check_contract(state)
    state = do(state, "hulk", act("hulk", suits.EQUIP, target=suit.id))
    hulk, biotech = state.agents["hulk"], state.agents["biotech"]
    assert hulk.hex is not None
    biotech.hex = co(next(h for h in neighbours(hx(hulk.hex)) if free_hex(state, h)))
    biotech.bleeding = True
    check_contract(state)
    # an alien in reach and an added die: the RED+BLUE suit weapon offers BLUE dice (9.2)
    spot = next(h for h in neighbours(hx(hulk.hex)) if free_hex(state, h))
    lifecycle.place_alien(state, "aracnos-green-1", spot, [], "is placed")
    hulk.bonus_dice["ranged"] = 1
    assert any(a.args.get("mode") == "blue-dice" for a in GAME.legal_actions(state, "hulk"))
    check_contract(state)
    state = do(state, "hulk", act("hulk", suits.SEIZE, target="biotech"))
    check_contract(state)
    state.alpha = "marine"
    state.turn_index = 2
    start_turn(state, state.agents["marine"])
    check_contract(state)


def test_special_event_effects_drop_a_suit_on_a_mark_beside_the_alpha_or_at_headquarters() -> None:
    from engine.galaxy.strikeback import play

    state = suited(["marine", "hulk"], scenario="os1")
    events: list[Event] = []
    play.apply_effect(
        state, {"sb": "power-suit", "mark": 1, "batteries": 3, "at": "m1"}, SeededDice(1), events
    )
    assert state.expansion is not None
    first = sb_state(state).suits["suit-1"]
    assert first.hex == co(play.mark_hex(state, "m1")) and first.batteries == 3
    play.apply_effect(state, {"sb": "power-suit", "mark": 1, "batteries": 4}, SeededDice(1), events)
    second = sb_state(state).suits["suit-2"]
    alpha = state.agents[state.alpha]
    assert second.hex is not None and alpha.hex is not None
    assert distance(hx(second.hex), hx(alpha.hex)) == 1 and second.batteries == 4
    play.apply_effect(
        state, {"sb": "power-suit-hq", "mark": 2, "batteries": 5}, SeededDice(1), events
    )
    assert [(s.id, s.mark, s.batteries) for s in sb_state(state).headquarters] == [("suit-3", 2, 5)]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_contract_holds_in_random_play_with_suits_in_play(seed: int) -> None:
    """Random play from a mission where every agent has an empty suit within reach and one
    waits at Headquarters: equip, leave, recall, seize and put down all come up; the contract
    is checked every few decisions."""
    from engine.core.dice import derive_seed, pick

    seats = ["hulk", "biotech", "marine"]
    state = GAME.new("m1", seats, {"human-view": "off", "fighting-poses": "on"}, SeededDice(seed))
    state = GAME.advance(state, SeededDice(derive_seed(seed, "start"))).state
    assert state.expansion is not None
    for seat in seats:
        agent = state.agents[seat]
        if agent.hex is not None:
            suits.place_suit(state, 1 + len(sb_state(state).suits) % 2, 2, hx(agent.hex), [])
    suits.stock_headquarters(state, 2, 3, [])
    policy = SeededDice(derive_seed(seed, "policy"))
    checked = 0
    for n in range(120):
        dice = SeededDice(derive_seed(seed, n))
        state = GAME.advance(state, dice).state
        prompt = GAME.waiting_on(state)
        if prompt.finished:
            break
        if n % 7 == 0:
            check_contract(state)
            checked += 1
        seat = prompt.seats[0]
        actions = GAME.legal_actions(state, seat)
        suited_acts = [a for a in actions if str(a.args.get("what", "")).startswith("suit-")]
        others = [a for a in actions if a.verb != "end-turn"]
        if suited_acts and policy.randrange(2):
            chosen = pick(policy, suited_acts)
        elif others and policy.randrange(4):
            chosen = pick(policy, others)
        else:
            chosen = actions[-1]
        state = GAME.apply(state, seat, chosen, dice).state
    assert checked >= 3


def test_every_word_a_suit_shows_has_a_help_entry() -> None:
    from bot.guide import describe
    from bot.guide.glossary import is_coordinate, terms_in_view

    state = suited(["hulk", "biotech"])
    suits.place_suit(state, 1, 3, hex_at(state, "hulk", 2), [])
    suits.place_suit(state, 2, 3, hex_at(state, "hulk", 3), [])
    suits.stock_headquarters(state, 2, 3, [])
    met = terms_in_view(GAME.view(state, None))
    met |= {str(a.args.get("what")) for a in GAME.legal_actions(state, "hulk") if a.verb == "act"}
    state = do(state, "hulk", act("hulk", suits.EQUIP, target="suit-1"))
    hulk, biotech = state.agents["hulk"], state.agents["biotech"]
    assert hulk.hex is not None
    biotech.hex = co(next(h for h in neighbours(hx(hulk.hex)) if free_hex(state, h)))
    biotech.bleeding = True
    state = do(state, "hulk", act("hulk", suits.SEIZE, target="biotech"))
    met |= terms_in_view(GAME.view(state, None))
    for a in GAME.legal_actions(state, "hulk"):
        met |= {a.args[k] for k in ("what", "weapon", "mode") if k in a.args}
    for term in sorted(t for t in met if not is_coordinate(t)):
        assert describe("galaxy-defenders", term), term
    assert {"power-suit", "battery", "suit-shield", "seizing", "suit-drop"} <= met


def test_seize_example_2_the_seized_biotech_leaves_the_alien_without_evading() -> None:
    """7.3, the text's walk-through and Seize example 2: the pilot moves 2 hexes, seizes the
    Immobilized and Bleeding Biotech (Engaged with an alien), moves 1 more hex and puts him
    down on an adjacent empty hex: the Biotech never had to Evade."""
    state = suited(["hulk", "biotech"])
    suits.stock_headquarters(state, 1, 3, [])
    state = do(state, "hulk", act("hulk", suits.RECALL, target="suit-1"))
    hulk, biotech = state.agents["hulk"], state.agents["biotech"]
    start_turn(state, hulk)  # a fresh turn in the suit: 3 + 2 Movement points
    assert hulk.hex is not None and hulk.mp_left == 5
    board = board_of(state)
    found = reach(state, hulk)
    # a hex two steps away, a hex next to it for the Biotech, an alien next to the Biotech
    # but not next to the pilot's stop, and a hex one step on, away from the alien
    plan = None
    for two in sorted(h for h, c in found.cost.items() if c == 2):
        for bio in neighbours(two):
            if not free_hex(state, bio) or not board.adjacent(two, bio, set()):
                continue
            for foe in neighbours(bio):
                if (
                    foe == two
                    or not free_hex(state, foe)
                    or distance(foe, two) < 2
                    or distance(foe, hx(hulk.hex)) < 2
                ):
                    continue
                for three in neighbours(two):
                    if (
                        three not in (bio, foe)
                        and free_hex(state, three)
                        and board.step_ok(two, three, set(), "agent")
                        and distance(three, foe) >= 3
                    ):
                        plan = (two, bio, foe, three)
                        break
                if plan:
                    break
            if plan:
                break
        if plan:
            break
    assert plan is not None
    two, bio, foe, three = plan
    biotech.hex = co(bio)
    biotech.bleeding, biotech.wounds, biotech.conditions = True, 5, ["immobilize"]
    lifecycle.place_alien(state, "aracnos-green-1", foe, [], "is placed")
    state = do(state, "hulk", Action(verb="move", args={"unit": "hulk", "to": label(two)}))
    assert state.agents["hulk"].mp_left == 3
    state = do(state, "hulk", act("hulk", suits.SEIZE, target="biotech"))
    state = do(state, "hulk", Action(verb="move", args={"unit": "hulk", "to": label(three)}))
    drops = [a for a in GAME.legal_actions(state, "hulk") if a.args.get("what") == suits.DROP]
    away = next(a for a in drops if distance(hx_label(a.args["to"]), foe) >= 2)
    state = do(state, "hulk", away)
    biotech = state.agents["biotech"]
    assert biotech.hex is not None and distance(hx(biotech.hex), foe) >= 2
    assert biotech.bleeding and "immobilize" in biotech.conditions  # still hurt, but safe


def hx_label(text: str) -> Hex:
    from engine.galaxy.board import parse_label

    found = parse_label(text)
    assert found is not None
    return found
