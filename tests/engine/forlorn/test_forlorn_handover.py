"""Several Marine seats: a seat that loses its last Marine is told and may ask for another
seat's Marine (that seat's player agrees) or watch; the shared AP pool says who spent what."""

from __future__ import annotations

import pytest
from conftest import bare, put

from engine.core.dice import SeededDice
from engine.core.errors import RuleError
from engine.core.events import Event, Note, SeatTold
from engine.core.game import Action
from engine.forlorn import GAME
from engine.forlorn.state import ForlornState


def two_seats() -> ForlornState:
    """Op 01 with two Marine seats: Fox and Zac for the first, Bates (by an airlock) the second."""
    state = bare("op-01", ["marines", "marines-2"])
    for uid, at, seat in (
        ("fox", "H9", "marines"),
        ("zac", "H7", "marines"),
        ("bates", "A2", "marines-2"),
    ):
        put(state, uid, at, "W" if uid == "bates" else "N").seat = seat
    return state


def act(state: ForlornState, seat: str, verb: str, **args: str) -> tuple[ForlornState, list[Event]]:
    step = GAME.apply(state, seat, Action(verb=verb, args=args), SeededDice(3))
    return step.state, step.events


def choose(state: ForlornState, seat: str, option: str) -> tuple[ForlornState, list[Event]]:
    return act(state, seat, "choose", option=option)


def test_a_seat_losing_its_last_marine_is_told_in_public_and_in_private() -> None:
    state, events = act(two_seats(), "marines-2", "act", unit="bates", what="exit")
    public = [e.text for e in events if isinstance(e, Note)]
    assert any("Marines (2) has no Marine left" in t for t in public)
    told = [e for e in events if isinstance(e, SeatTold)]
    assert [e.seat for e in told] == ["marines-2"]
    assert "Your last Marine is gone" in told[0].message
    assert "marines-2" not in GAME.waiting_on(state).seats
    # told once: the next step says nothing more about it
    _, later = act(state, "marines", "move", unit="fox", to="H8")
    assert not any(isinstance(e, SeatTold) for e in later)


def test_the_seat_asks_for_a_marine_and_the_other_seat_agrees() -> None:
    state, _ = act(two_seats(), "marines-2", "act", unit="bates", what="exit")
    offered = {a.args["option"]: a.label for a in GAME.legal_actions(state, "marines-2")}
    assert set(offered) == {"ask:fox", "ask:zac", "watch"}
    assert offered["ask:fox"].startswith("Ask Marines to hand you ")
    assert offered["watch"] == "Watch the rest of the operation"
    state, events = choose(state, "marines-2", "ask:zac")
    assert [e.seat for e in events if isinstance(e, SeatTold)] == ["marines"]
    answers = [a.args.get("option") for a in GAME.legal_actions(state, "marines")]
    assert {"hand:zac", "refuse:zac"} <= set(answers)
    state, events = choose(state, "marines", "hand:zac")
    zac = state.unit("zac")
    assert zac is not None and zac.seat == "marines-2"
    assert "marines-2" in GAME.waiting_on(state).seats  # commands Zac now, in this Marine phase
    assert [e.seat for e in events if isinstance(e, SeatTold)] == ["marines-2"]
    state, _ = act(state, "marines-2", "move", unit="zac", to="H6")
    assert state.unit("zac").at == "H6"  # type: ignore[union-attr]


def test_the_other_seat_may_keep_its_marine_and_the_seat_may_watch() -> None:
    state, _ = act(two_seats(), "marines-2", "act", unit="bates", what="exit")
    state, _ = choose(state, "marines-2", "ask:fox")
    state, events = choose(state, "marines", "refuse:fox")
    fox = state.unit("fox")
    assert fox is not None and fox.seat == "marines"
    assert not [a for a in GAME.legal_actions(state, "marines") if a.verb == "choose"]
    state, events = choose(state, "marines-2", "watch")
    assert any("watches the rest of the operation" in e.text for e in events)
    assert "watch" not in [a.args.get("option") for a in GAME.legal_actions(state, "marines-2")]


def test_only_the_asked_seat_answers_and_only_an_out_seat_asks() -> None:
    state = two_seats()
    assert not [a for a in GAME.legal_actions(state, "marines-2") if a.verb == "choose"]
    state, _ = act(state, "marines-2", "act", unit="bates", what="exit")
    state, _ = choose(state, "marines-2", "ask:fox")
    with pytest.raises(RuleError, match="Only Marines answers"):
        choose(state, "marines-2", "hand:fox")
    with pytest.raises(RuleError, match="still commands a Marine"):
        choose(state, "marines", "ask:zac")


def test_the_shared_pool_says_who_spent_what() -> None:
    state = two_seats()
    state, _ = act(state, "marines", "move", unit="fox", to="H8")
    state, _ = act(state, "marines-2", "act", unit="bates", what="exit")
    prompt = GAME.waiting_on(state)
    assert "3 AP left in the shared pool; spent this turn: Marines 1, Marines (2) 2" in prompt.text
    header = GAME.view(state, None).header
    assert header["ap"] == "3 left (shared pool)"
    assert header["AP spent"] == "Marines 1, Marines (2) 2"
