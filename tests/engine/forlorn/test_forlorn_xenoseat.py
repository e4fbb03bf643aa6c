"""Operation 01 with a human Xeno seat: hidden Mutation cards, the mulligan, activations."""

from __future__ import annotations

import pytest
from conftest import unit, xeno_plays

from engine.core.dice import ScriptedDice, SeededDice
from engine.core.errors import RuleError
from engine.core.game import Action
from engine.forlorn import GAME
from engine.forlorn.content import cards
from engine.forlorn.state import ForlornState, Order

SEATS = ["marines", "xeno"]


def opening() -> ForlornState:
    return GAME.new("op-01", SEATS, {"difficulty": "standard", "xeno": "human"}, SeededDice(11))


def eggs_down(state: ForlornState) -> ForlornState:
    """2.0: after the card swap the Xeno player puts the dropped Eggs down (here by policy)."""
    if state.phase == "xeno-place" and state.placements[0].kind == "egg":
        auto = Action(verb="choose", args={"option": "auto"})
        state = GAME.apply(state, "xeno", auto, SeededDice(8)).state
    return state


def place_auto(state: ForlornState) -> ForlornState:
    """Let the placement policy place every pending Xeno, then run on to the next decision."""
    if state.phase == "xeno-place":
        auto = Action(verb="choose", args={"option": "auto"})
        state = GAME.apply(state, "xeno", auto, SeededDice(9)).state
    return GAME.advance(state, SeededDice(10)).state


def test_xeno_player_places_the_room_a_drones() -> None:
    state = opening()
    keep = Action(verb="choose", args={"option": "keep"})
    state = eggs_down(GAME.apply(state, "xeno", keep, ScriptedDice()).state)
    state = GAME.apply(state, "marines", Action(verb="end-turn"), ScriptedDice()).state
    state = GAME.advance(state, SeededDice(4)).state
    assert [p.zone for p in state.placements] == ["room:A", "room:A"]
    options = xeno_plays(state)
    squares = [a.args["option"] for a in options if a.args["option"] != "auto"]
    assert squares and all("G" <= sq[0] <= "L" and 5 <= int(sq[1:]) <= 10 for sq in squares)
    state = GAME.apply(
        state, "xeno", Action(verb="choose", args={"option": "h6"}), ScriptedDice()
    ).state
    assert any(u.at == "H6" and u.kind == "drone" for u in state.active("xenos"))
    with pytest.raises(RuleError, match="must go on one of"):
        GAME.apply(state, "xeno", Action(verb="choose", args={"option": "B2"}), ScriptedDice())


def test_deck_has_twenty_own_cards() -> None:
    deck = cards()
    assert len(deck) == 20
    assert all(c.text and c.title for c in deck.values())


def test_mutation_hand_is_hidden_from_marines_and_spectators() -> None:
    state = opening()
    assert state.phase == "mulligan" and len(state.mutation.hand) == 3
    prompt = GAME.waiting_on(state)
    assert prompt.seats == ["xeno"] and prompt.kind == "choice"
    assert GAME.view(state, None).private == []
    assert GAME.view(state, "marines").private == []
    secret = GAME.view(state, "xeno").private
    assert len(secret) == 4 and secret[-1].startswith("Standing reactions: you are asked")
    dumped = GAME.view(state, None).model_dump_json()
    for card in state.mutation.hand:
        assert cards()[card].title not in dumped


def test_mulligan_once_then_play() -> None:
    state = opening()
    options = xeno_plays(state)
    assert len(options) == 7  # keep, three single swaps, three double swaps
    hand = list(state.mutation.hand)
    swap = Action(verb="choose", args={"option": f"swap:{hand[0]}+{hand[1]}"})
    step = GAME.apply(state, "xeno", swap, SeededDice(3))
    after = step.state
    assert len(after.mutation.hand) == 3 and hand[2] in after.mutation.hand
    assert hand[0] not in after.mutation.hand and hand[1] not in after.mutation.hand
    drawn = [e for e in step.events if e.kind == "card"]
    assert drawn and all(e.visible_to == ["xeno"] for e in drawn)
    after = eggs_down(after)
    assert after.phase == "deploy"
    assert xeno_plays(after) == []
    assert GAME.waiting_on(after).seats == ["marines"]
    after = GAME.apply(after, "marines", Action(verb="end-turn"), ScriptedDice()).state
    placing = GAME.advance(after, SeededDice(4)).state
    assert placing.phase == "xeno-place" and GAME.waiting_on(placing).seats == ["xeno"]
    running = place_auto(placing)
    assert GAME.waiting_on(running).seats == ["marines"]
    assert GAME.advance(running, SeededDice(5)).events == []  # idempotent while waiting


def test_xeno_phase_waits_for_the_xeno_seat_and_interrupt_orders_fire() -> None:
    state = opening()
    keep = Action(verb="choose", args={"option": "keep"})
    state = eggs_down(GAME.apply(state, "xeno", keep, ScriptedDice()).state)
    state = GAME.apply(state, "marines", Action(verb="end-turn"), ScriptedDice()).state
    state = place_auto(GAME.advance(state, SeededDice(4)).state)
    state = GAME.apply(
        state,
        "marines",
        Action(verb="orders", args={"unit": "zac", "order": "interrupt", "aps": "2", "range": "6"}),
        ScriptedDice(),
    ).state
    view = GAME.view(state, None)
    zac = next(f for f in view.figures if f.id == "zac")
    assert any(c.startswith("order:interrupt") for c in zac.conditions)
    state = GAME.apply(state, "marines", Action(verb="end-turn"), ScriptedDice()).state
    state = GAME.advance(state, SeededDice(6)).state
    assert state.phase == "xeno" and GAME.waiting_on(state).seats == ["xeno"]
    actions = GAME.legal_actions(state, "xeno")
    assert any(a.verb == "move" for a in actions)
    assert actions[-1].verb == "end-turn"
    for action in actions:
        if action.verb == "move":
            GAME.apply(state, "xeno", action, SeededDice(1))  # every listed move is accepted
    done = GAME.apply(state, "xeno", Action(verb="end-turn"), ScriptedDice()).state
    spawning = GAME.advance(done, SeededDice(8)).state
    assert spawning.phase == "xeno-place" and spawning.turn == 1
    vents = xeno_plays(spawning)
    assert vents[0].verb == "choose" and vents[-1].args == {"option": "auto"}
    placed = GAME.apply(spawning, "xeno", vents[0], SeededDice(1)).state
    assert len(placed.placements) == len(spawning.placements) - 1 or placed.placements == []
    nxt = place_auto(placed)
    assert nxt.turn == 2 and nxt.phase == "marine"


def test_automatic_xeno_option_uses_the_solitaire_ai() -> None:
    state = GAME.new("op-01", SEATS, {"difficulty": "standard", "xeno": "automatic"}, SeededDice(2))
    assert not state.xeno_human and state.phase == "deploy"
    state = GAME.apply(state, "marines", Action(verb="end-turn"), ScriptedDice()).state
    state = GAME.advance(state, SeededDice(1)).state
    state = GAME.apply(state, "marines", Action(verb="end-turn"), ScriptedDice()).state
    assert xeno_plays(state) == []
    state = GAME.advance(state, SeededDice(2)).state
    assert state.turn == 2 or state.phase == "over"


def test_marines_choose_their_set_up_squares_and_facings() -> None:
    state = GAME.new("solo-a", ["marines"], {"difficulty": "standard"}, SeededDice(1))
    assert state.phase == "deploy" and GAME.waiting_on(state).seats == ["marines"]
    lt = state.unit("lt")
    assert lt is not None and lt.at == "J6"
    moves = [a for a in GAME.legal_actions(state, "marines") if a.verb == "move"]
    assert {a.args["to"] for a in moves if a.args["unit"] == "lt"} >= {"I6", "E", "S", "W"}
    state = GAME.apply(
        state, "marines", Action(verb="move", args={"unit": "lt", "to": "I6"}), ScriptedDice()
    ).state
    state = GAME.apply(
        state, "marines", Action(verb="move", args={"unit": "lt", "to": "S"}), ScriptedDice()
    ).state
    lt = state.unit("lt")
    assert lt is not None and (lt.at, lt.facing) == ("I6", "S")
    state = GAME.apply(state, "marines", Action(verb="end-turn"), ScriptedDice()).state
    state = GAME.advance(state, SeededDice(2)).state
    assert state.phase == "marine" and state.turn == 1


def test_op02_marines_may_reroll_the_ap_dice_once() -> None:
    state = GAME.new("op-02", ["marines"], {"difficulty": "standard"}, SeededDice(1))
    state = GAME.apply(state, "marines", Action(verb="end-turn"), ScriptedDice()).state
    state = GAME.advance(state, ScriptedDice([1, 2])).state
    reroll = Action(verb="act", args={"what": "reroll-ap"})
    assert any(a.matches(reroll) for a in GAME.legal_actions(state, "marines"))
    after = GAME.apply(state, "marines", reroll, ScriptedDice([6, 6])).state
    assert after.ap == 6 + 1 + 1 and not after.marine_reroll  # doubles, Sgt Fox
    assert not any(a.matches(reroll) for a in GAME.legal_actions(after, "marines"))


def test_swapped_cards_stay_secret() -> None:
    state = opening()
    hand = list(state.mutation.hand)
    swap = Action(verb="choose", args={"option": f"swap:{hand[0]}"})
    after = GAME.apply(state, "xeno", swap, SeededDice(3)).state
    public = GAME.view(after, "marines").model_dump_json()
    assert cards()[hand[0]].title not in public
    for card in after.mutation.hand:
        assert cards()[card].title not in public


def test_standing_orders_interrupt_a_human_xeno_move_once_per_square() -> None:
    from conftest import bare, put

    state = bare("op-01", ["marines", "xeno"], xeno="human")
    state.phase, state.ap = "xeno", 3
    put(state, "zac", "J9", "N")
    put(state, "d1", "J5")
    state.orders = [Order(unit="zac", aps=2, range=6)]
    dice = ScriptedDice([1, 2, 1, 2, 1, 2])  # two interrupts of 3 dice (4 - 1), all misses
    step = GAME.apply(state, "xeno", Action(verb="move", args={"unit": "d1", "to": "J7"}), dice)
    shots = [e for e in step.events if e.kind == "attacked"]
    assert len(shots) == 2 and all(len(s.faces) == 3 for s in shots)  # type: ignore[attr-defined]
    assert step.state.ap == 1 and unit(step.state, "d1").at == "J7"
    assert dice.remaining == 0


def test_blaster_beam_or_claws() -> None:
    from conftest import bare, put

    state = bare("op-01", ["marines", "xeno"], xeno="human")
    state.phase = "xeno"
    put(state, "bates", "J9", "N")
    put(state, "b1", "J8")
    claws = Action(verb="attack", args={"unit": "b1", "target": "bates", "weapon": "claws"})
    beam = Action(verb="attack", args={"unit": "b1", "target": "bates"})
    listed = GAME.legal_actions(state, "xeno")
    assert any(a.matches(claws) for a in listed) and any(a.matches(beam) for a in listed)
    melee = GAME.apply(state, "xeno", claws, ScriptedDice([2])).events
    assert "needs 3+" in melee[0].text and len(melee[0].faces) == 1  # type: ignore[attr-defined]
    ranged = GAME.apply(state, "xeno", beam, ScriptedDice([4, 4])).events
    assert "5+ (sniper)" in ranged[0].text
