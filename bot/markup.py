"""Discord's message markup, in one place: mentions, channel links, escaping user text.

The service speaks of users and channels by id; when a reply names one it asks this module
for the markup, and when an option carries one (`to:@player`, `channel:#spectators`) this
module reads the id back. The playground renders the same markup in its page. A mention in
text pings nobody by itself: only the users in a reply's `mentions` are allowed to be pinged.
"""

from __future__ import annotations

import re

_USER = re.compile(r"<@!?([^<>\s@#]{1,32})>")
_CHANNEL = re.compile(r"<#([^<>\s@#]{1,32})>")
_MARKDOWN = re.compile(r"([\\*_`~|>\[\]()])")
# Anything Discord would turn into a ping, a link or a timestamp.
_MENTIONS = re.compile(r"@everyone|@here|<[@#&/:]|<t:", re.IGNORECASE)


def mention(user_id: str) -> str:
    return f"<@{user_id}>"


def channel_link(channel_id: str) -> str:
    return f"<#{channel_id}>"


def user_id_in(text: str) -> str:
    """The user id a `to:` option names: a mention (`<@id>`, `<@!id>`) or a bare id."""
    text = text.strip()
    found = _USER.fullmatch(text)
    return found.group(1) if found else text


def channel_id_in(text: str) -> str:
    """The channel id a `channel:` option names: a link (`<#id>`) or a bare id or name."""
    text = text.strip()
    found = _CHANNEL.fullmatch(text)
    return found.group(1) if found else text.removeprefix("#")


def has_mentions(text: str) -> bool:
    """Whether text carries mention markup (a user, role or channel, @everyone, @here)."""
    return _MENTIONS.search(text) is not None


def escape(text: str) -> str:
    """User-chosen text (a display name) shown verbatim: no formatting, no mention markup."""
    text = _MARKDOWN.sub(r"\\\1", text)
    return text.replace("@", "@\u200b").replace("<#", "<\u200b#")
