"""Unit tests of bot/disclosure.py: the rule of what may be public, piece by piece."""

from __future__ import annotations

import json

from bot.disclosure import (
    held_by,
    invocation_is_public,
    log_line,
    opposed,
    public_buttons,
    seat_conflict,
    shown_command,
    with_holder,
)
from bot.replies import Button
from engine.core.dice import SeededDice
from engine.core.events import Note, dump_events
from engine.registry import get_game


def test_commands_that_may_carry_a_secret_never_show_their_invocation() -> None:
    for text in ("/choose option:swap:m06", "/act what:card card:m03", "/orders order:x", "/hand"):
        assert not invocation_is_public(text)
    for text in ("/move unit:fox to:C4", "/end-turn", "/board", "/campaign begin"):
        assert invocation_is_public(text)


def test_a_log_line_holds_public_events_and_public_options_only() -> None:
    events = json.dumps(
        dump_events(
            [
                Note(text="The Xeno player swaps 1 Mutation card(s) once."),
                Note(text="You drew m07.", visible_to=["xeno"]),
            ]
        )
    )
    swap = '{"verb":"choose","args":{"option":"swap:m06"}}'
    line = log_line(4, "action", "xeno", swap, events, {"xeno": "Xeno"})
    # the seat by its name, the public narration; never the command nor its options
    assert line == "`#4` Xeno: The Xeno player swaps 1 Mutation card(s) once."
    moved = shown_command('{"verb":"move","args":{"unit":"fox","to":"C4"}}')
    assert moved == "/move unit:fox to:C4"  # the export keeps commands
    assert log_line(1, "begin", None, "{}", "[]") == "`#1` the mission begins: -"
    quiet = log_line(5, "action", "marines-2", '{"verb":"orders","args":{}}', "[]")
    assert quiet == "`#5` Marines 2: sets a standing order"


def test_sides_and_holders() -> None:
    assert opposed("forlorn-hope", "xeno", "marines") and opposed(
        "forlorn-hope", "marines-2", "xeno"
    )
    assert not opposed("forlorn-hope", "marines", "marines-2")
    assert not opposed("reichbusters", "sarge", "hans")
    settings = with_holder(with_holder("{}", "u1"), "u2")
    assert held_by(with_holder(settings, "u1")) == ["u1", "u2"]
    seats = [("marines", "u1", "{}"), ("marines-2", "", settings)]
    assert seat_conflict("forlorn-hope", "xeno", "u3", seats) is None
    assert "holds **marines**" in (seat_conflict("forlorn-hope", "xeno", "u1", seats) or "")
    assert "has held **marines-2**" in (seat_conflict("forlorn-hope", "xeno", "u2", seats) or "")
    assert seat_conflict("reichbusters", "hans", "u1", [("sarge", "u1", "{}")]) is None


def test_end_turn_names_only_the_seats_that_may_end_now() -> None:
    """A waiting seat with a pending card effect may not end its turn (Reichbusters): the End
    turn button is not offered to it, only to the seats for which ending is legal."""
    game = get_game("reichbusters")
    state = game.new("radio-silence", ["sarge", "hans"], {"difficulty": "cadet"}, SeededDice(1))
    prompt = game.waiting_on(state)
    assert set(prompt.seats) == {"sarge", "hans"}
    names = {"sarge": "Sarge", "hans": "Hans"}

    def ending(buttons: list[Button]) -> list[str]:
        return [b.label for b in buttons if b.command == "/end-turn"]

    assert ending(public_buttons(game, state, prompt, names=names)) == ["End turn · Sarge, Hans"]
    state.heroes["sarge"].grants = ["lose"]  # a wound's discard, still to be chosen
    assert not any(a.verb == "end-turn" for a in game.legal_actions(state, "sarge"))
    assert ending(public_buttons(game, state, prompt, names=names)) == ["End turn · Hans"]
    state.heroes["hans"].grants = ["lose"]
    assert ending(public_buttons(game, state, prompt, names=names)) == []
