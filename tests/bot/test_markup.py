"""Discord markup is written and read back in one module."""

from __future__ import annotations

from pathlib import Path

from bot.markup import channel_id_in, channel_link, escape, mention, user_id_in

ROOT = Path(__file__).resolve().parents[2]


def test_mentions_and_links_round_trip() -> None:
    assert user_id_in(mention("123")) == "123"
    assert user_id_in("<@!456>") == "456" and user_id_in(" pg:ann ") == "pg:ann"
    assert channel_id_in(channel_link("789")) == "789"
    assert channel_id_in("#stands") == "stands"


def test_user_text_cannot_format_or_mention() -> None:
    shown = escape("**@everyone** <#1>")
    assert "@everyone" not in shown and "<#" not in shown and "**" not in shown


def test_no_markup_is_written_outside_the_markup_module_and_the_discord_shell() -> None:
    offenders = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "bot").rglob("*.py"))
        if path.name != "markup.py"
        and "discord" not in path.parts
        and ("<@" in path.read_text(encoding="utf-8") or "<#" in path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
