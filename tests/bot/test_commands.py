import contextlib

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.commands import CommandError, parse
from bot.replies import split_message


def test_parse_group_and_options() -> None:
    cmd = parse("/campaign create game:dash scenario:sprint pace:3")
    assert (cmd.name, cmd.sub) == ("campaign", "create")
    assert cmd.options == {"game": "dash", "scenario": "sprint", "pace": "3"}


def test_parse_quoted_values_and_case() -> None:
    cmd = parse('/ACT what:"hold the door" unit:Sgt')
    assert cmd.name == "act" and cmd.options == {"what": "hold the door", "unit": "Sgt"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("move to:A1", "start with '/'"),
        ("/", "Type a command"),
        ("/fly", "Unknown command /fly"),
        ("/campaign", "needs a subcommand"),
        ("/campaign explode", "Unknown /campaign subcommand"),
        ("/move A1", "not an option"),
        ("/move to:A1 to:B2", "given twice"),
        ('/act what:"open', "not closed"),
        ("/move to:" + "x" * 200, "too long"),
        ("/move " + "to:A1 " * 100, "too long"),
    ],
)
def test_bad_commands_explain_themselves(text: str, message: str) -> None:
    with pytest.raises(CommandError, match=message):
        parse(text)


def test_unicode_trickery_is_normalised() -> None:
    # Full-width letters and zero-width spaces become plain text.
    cmd = parse("/\uff4d\uff4f\uff56\uff45 to:\u200b\uff211")
    assert cmd.name == "move" and cmd.options == {"to": "A1"}


def test_partial_parse_for_autocomplete() -> None:
    assert parse("/move to:B", allow_partial=True).partial == "to"
    assert parse("/mo", allow_partial=True).name == "mo"
    assert parse("/move unit:sgt ", allow_partial=True).partial is None


def test_partial_parse_closes_whatever_the_player_left_open() -> None:
    assert parse('/act what:"open door', allow_partial=True).options == {"what": "open door"}
    assert parse("/act what:'open", allow_partial=True).options == {"what": "open"}
    assert parse("/act what:x\\", allow_partial=True).name == "act"
    with pytest.raises(CommandError, match="not closed"):
        parse("/act what:'open")


@settings(max_examples=300, deadline=None)
@example("/'")
@given(st.text(max_size=600))
def test_parse_never_raises_anything_but_command_error(text: str) -> None:
    with contextlib.suppress(CommandError):
        parse(text)
    with contextlib.suppress(CommandError):
        parse(text, allow_partial=True)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=6000))
def test_split_message_respects_the_limit_and_keeps_text(text: str) -> None:
    chunks = split_message(text, limit=200)
    assert all(len(c) <= 200 for c in chunks)
    assert "".join(chunks).replace("\n", "") == "".join(text.splitlines())
