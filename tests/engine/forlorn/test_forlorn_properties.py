"""Property tests: invariants hold through random play, state round-trips, replays repeat."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.dice import SeededDice, derive_seed
from engine.forlorn import GAME
from engine.forlorn.board import parse_label
from engine.forlorn.content import cards
from engine.forlorn.state import ForlornState
from engine.forlorn.world import board_of, max_hits
from engine.selfplay import choose_action

SCENARIOS = ["solo-a", "solo-b", "op-01", "op-02", "op-03", "op-04"]


def check(state: ForlornState) -> None:
    board = board_of(state)
    seen: dict[str, int] = {}
    for u in state.active():
        assert u.at is not None
        s = parse_label(u.at)
        assert s is not None and board.on_board(s)
        assert 0 <= u.hits < max_hits(u)
        seen[u.at] = seen.get(u.at, 0) + 1
        if u.side == "marines":
            assert board.vent_at(s) is None
    for where, count in seen.items():
        s = parse_label(where)
        assert s is not None
        if board.vent_at(s) is None:
            assert count == 1, f"{count} units on {where}"
    assert state.ap >= 0 and state.grenades >= 0 and state.flame_supply >= 0
    if state.xeno_human:
        mut = state.mutation
        deck = [*mut.hand, *mut.draw_pile, *mut.played, *mut.set_aside, *mut.discarded]
        assert sorted(deck) == sorted(cards()), "Mutation cards are conserved"
    assert GAME.load(GAME.dump(state)) == state


def play(scenario: str, seed: int, steps: int, seats: list[str]) -> ForlornState:
    state = GAME.new(
        scenario, seats, {"difficulty": "standard"}, SeededDice(derive_seed(seed, "setup"))
    )
    policy = SeededDice(derive_seed(seed, "policy"))
    patience = 0
    for n in range(steps):
        dice = SeededDice(derive_seed(seed, n))
        state = GAME.advance(state, dice).state
        check(state)
        prompt = GAME.waiting_on(state)
        if prompt.finished:
            break
        seat = prompt.seats[0]
        action = choose_action(GAME.legal_actions(state, seat), policy, patience)
        patience = 0 if action.verb == "end-turn" else patience + 1
        state = GAME.apply(state, seat, action, dice).state
        check(state)
    return state


@settings(max_examples=6, deadline=None)
@given(st.sampled_from(SCENARIOS), st.integers(0, 10_000))
def test_invariants_through_random_play(scenario: str, seed: int) -> None:
    seats = ["marines", "xeno"] if scenario.startswith("op-") and seed % 2 else ["marines"]
    play(scenario, seed, 40, seats)


@settings(max_examples=3, deadline=None)
@given(st.integers(0, 10_000))
def test_replay_with_the_same_seed_repeats(seed: int) -> None:
    a = play("solo-a", seed, 30, ["marines"])
    b = play("solo-a", seed, 30, ["marines"])
    assert GAME.dump(a) == GAME.dump(b)
