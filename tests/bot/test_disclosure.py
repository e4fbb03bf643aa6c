"""Unit tests of bot/disclosure.py: the rule of what may be public, piece by piece."""

from __future__ import annotations

import json

from bot.disclosure import (
    held_by,
    invocation_is_public,
    log_line,
    opposed,
    seat_conflict,
    shown_command,
    with_holder,
)
from engine.core.events import Note, dump_events


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
