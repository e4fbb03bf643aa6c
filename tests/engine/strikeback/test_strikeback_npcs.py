"""NPCs (section 10) in a core mission through rule 10.5 (option `npc-signals`): the NPC
Signal, assignment, activation before the agent's activities or at the end of his turn, the
A.I. with the controller's standing orders, combat, health without Bleeding."""

from __future__ import annotations

import pytest

from engine.core.dice import ScriptedDice, SeededDice
from engine.core.errors import RuleError
from engine.core.events import Event
from engine.core.game import Action
from engine.core.hexgrid import neighbours
from engine.galaxy import GAME, combat, lifecycle, signals
from engine.galaxy.agent import start_turn
from engine.galaxy.state import GalaxyState, SignalState
from engine.galaxy.strikeback import npc
from engine.galaxy.strikeback.status import sb_state
from engine.galaxy.world import adjacent, board_of, co, free, hx


def with_npcs(seats: list[str]) -> GalaxyState:
    state = GAME.new("m1", seats, {"human-view": "off", "npc-signals": "on"}, SeededDice(7))
    state.signals, state.aliens, state.pending = [], [], None
    state.phase, state.alpha = "agent", seats[0]
    state.turn_order, state.turn_index = list(seats), 0
    for i, agent in enumerate(state.agents.values()):
        agent.hex = co(board_of(state).starts[i])
    start_turn(state, state.agents[seats[0]])
    return state


def reveal_npc(state: GalaxyState, near: str) -> str:
    agent = state.agents[near]
    assert agent.hex is not None and state.expansion is not None
    spot = next(h for h in neighbours(hx(agent.hex)) if free(state, h))
    signal = SignalState(id="s9", token="npc-1", hex=co(spot))
    state.signals.append(signal)
    first = sb_state(state).npc_deck[0]
    signals.reveal(state, signal, SeededDice(1), [])
    return first


def do(state: GalaxyState, seat: str, verb: str, **args: str) -> GalaxyState:
    new = GAME.apply(state, seat, Action(verb=verb, args={"unit": seat, **args}), SeededDice(3))
    assert isinstance(new.state, GalaxyState)
    return new.state


def test_one_human_signal_becomes_an_npc_signal_and_the_deck_holds_four_cards() -> None:
    state = GAME.new("m1", ["marine"], {"npc-signals": "on"}, SeededDice(1))
    assert state.expansion is not None
    tokens = state.signal_reserve
    assert tokens.count("npc-1") == 1
    core = GAME.new("m1", ["marine"], {}, SeededDice(1))
    humans = [t for t in core.signal_reserve if t.startswith("human")]
    assert len([t for t in tokens if t.startswith("human")]) == len(humans) - 1
    assert sorted(sb_state(state).npc_deck) == ["archon-1", "archon-2", "knight-1", "knight-2"]
    assert len(sb_state(state).npc_tactics) == 5


def test_revealed_npc_signal_brings_the_top_card_to_the_player_with_fewest() -> None:
    state = with_npcs(["marine", "sniper"])
    first = reveal_npc(state, "marine")
    assert state.expansion is not None
    assert sb_state(state).npcs[first].controller == "marine"  # Alpha Agent, tie
    second = reveal_npc(state, "sniper")
    assert sb_state(state).npcs[second].controller == "sniper"
    assert state.agents[first].drone_of == "marine" and state.agents[first].hex is not None


def test_npc_activates_before_activities_or_by_itself_at_the_end_of_the_turn() -> None:
    state = with_npcs(["marine"])
    figure = reveal_npc(state, "marine")
    listed = GAME.legal_actions(state, "marine")
    assert any(a.args.get("what") == "npc" and a.args.get("target") == figure for a in listed)
    state = do(state, "marine", "act", what="npc", target=figure)
    assert state.expansion is not None and sb_state(state).npcs[figure].activated
    with pytest.raises(RuleError, match="already activated"):
        do(state, "marine", "act", what="npc", target=figure)
    state = do(state, "marine", "end-turn")
    assert state.expansion is not None and not sb_state(state).npcs[figure].activated


def test_npc_cannot_be_activated_after_the_agent_has_begun() -> None:
    state = with_npcs(["marine"])
    figure = reveal_npc(state, "marine")
    marine = state.agents["marine"]
    marine.action_used = True
    assert npc.activation_problem(state, marine, figure) is not None
    events: list[Event] = []
    npc.end_of_turn(state, marine, SeededDice(2), events)
    assert any(figure.split("-")[0].title() in e.text for e in events)


def test_npc_ai_attacks_the_adjacent_alien_its_standing_order_picks() -> None:
    state = with_npcs(["marine"])
    figure = reveal_npc(state, "marine")
    body = state.agents[figure]
    assert body.hex is not None
    spots = [
        h for h in neighbours(hx(body.hex)) if free(state, h) and adjacent(state, body.hex, co(h))
    ]
    weak = lifecycle.place_alien(state, "xeno-beta-green-1", spots[0], [], "is placed")
    strong = lifecycle.place_alien(state, "xeno-beta-blue-1", spots[1], [], "is placed")
    weak.wounds = 1
    events: list[Event] = []
    dice = SeededDice(11)
    npc.activate(state, body, dice, events)
    attacked = [e.text for e in events if "attacks" in e.text]
    assert attacked and f"Green Xeno-Beta {weak.id[1:]} with" in attacked[0]
    assert state.expansion is not None
    sb_state(state).npcs[figure].target = "strongest"
    sb_state(state).npcs[figure].activated = False
    assert strong in state.aliens
    if weak in state.aliens:
        events = []
        npc.activate(state, body, SeededDice(12), events)
        attacked = [e.text for e in events if "attacks" in e.text]
        assert attacked and f"Blue Xeno-Beta {strong.id[1:]} with" in attacked[0]


def test_npc_standing_orders_are_listed_and_change_its_choices() -> None:
    state = with_npcs(["marine"])
    figure = reveal_npc(state, "marine")
    orders = [a.args["order"] for a in GAME.legal_actions(state, "marine") if a.verb == "orders"]
    assert f"{figure}-target-nearest" in orders and f"{figure}-target-weakest" not in orders
    state = do(state, "marine", "orders", order=f"{figure}-target-nearest")
    assert state.expansion is not None and sb_state(state).npcs[figure].target == "nearest"
    assert f"{figure}-tactic-on" in orders


def test_npc_dies_at_zero_hp_without_bleeding_and_its_card_is_discarded() -> None:
    state = with_npcs(["marine"])
    figure = reveal_npc(state, "marine")
    body = state.agents[figure]
    combat.wound_agent(state, body, 99, [], "test")
    assert figure not in state.agents
    assert npc.in_play(state) == []
    assert state.expansion is not None and sb_state(state).npc_discard == [figure]


def test_npc_tactic_overcharge_adds_two_dice_once() -> None:
    state = with_npcs(["marine"])
    figure = reveal_npc(state, "marine")
    assert state.expansion is not None
    info = sb_state(state).npcs[figure]
    info.tactic, info.use_tactic = "overcharge", True
    body = state.agents[figure]
    assert body.hex is not None
    spot = next(h for h in neighbours(hx(body.hex)) if free(state, h))
    lifecycle.place_alien(state, "xeno-beta-green-1", spot, [], "is placed")
    card = npc.cards()[figure]
    weapon = npc.npc_weapon(card.melee if card.ai[0].do[0] == "melee" else card.ranged)
    rolls = [1] * (weapon.dice + 2)  # every die an Alien face: no Hit, no Defend roll
    events: list[Event] = []
    npc.activate(state, body, ScriptedDice(rolls), events)
    assert info.tactic is None and not info.use_tactic
    assert any("Overcharge" in e.text for e in events)


def test_a_bleeding_or_immobilized_agent_may_still_activate_his_npc_first() -> None:
    state = with_npcs(["marine"])
    figure = reveal_npc(state, "marine")
    marine = state.agents["marine"]
    marine.bleeding, marine.wounds = True, 6
    marine.conditions.append("immobilize")
    start_turn(state, marine)
    assert marine.combat_used and marine.movement == "closed"
    assert npc.activation_problem(state, marine, figure) is None


def test_npc_ai_leaves_an_underground_burrower_alone_until_a_card_matches_it() -> None:
    """7.2.1 for NPCs: a Digger next to the NPC is no target while the top Close Encounter
    discard does not clearly match it; a green-aliens card on the discard pile exposes it."""
    state = with_npcs(["marine"])
    figure = reveal_npc(state, "marine")
    body = state.agents[figure]
    assert body.hex is not None
    spot = next(
        h for h in neighbours(hx(body.hex)) if free(state, h) and adjacent(state, body.hex, co(h))
    )
    digger = lifecycle.place_alien(state, "diggers-green", spot, [], "digs up")
    state.ce_deck.discard_pile.append("ce14")  # blue aliens: no match
    events: list[Event] = []
    npc.activate(state, body, SeededDice(11), events)
    assert not [e.text for e in events if "attacks" in e.text]
    assert state.expansion is not None
    sb_state(state).npcs[figure].activated = False
    state.ce_deck.discard_pile.append("ce12")  # green aliens: a clear match
    events = []
    npc.activate(state, body, SeededDice(11), events)
    attacked = [e.text for e in events if "attacks" in e.text]
    figures = {digger.id} | {d.id for d in state.aliens if d.card == "diggers-green"}
    assert attacked and any(f"Diggers {i.removeprefix('x')} with" in attacked[0] for i in figures)
