"""The slash syntax shared by Discord and the playground: `/name [sub] key:value ...`.

Values may be quoted to hold spaces (`note:"hold the door"`). Parsing never raises anything
but `CommandError`, whose message tells the player what to fix.
"""

from __future__ import annotations

import shlex
import unicodedata
from dataclasses import dataclass, field

MAX_COMMAND_LENGTH = 500
MAX_VALUE_LENGTH = 100

GROUPS: dict[str, tuple[str, ...]] = {
    "campaign": (
        "create",
        "join",
        "leave",
        "begin",
        "status",
        "settings",
        "end",
        "list",
        "export",
        "rollback",
        "seat",
        "mirror",
    ),
}
PLAY_VERBS = ("move", "attack", "act", "orders", "choose", "end-turn")
TOP_LEVEL = (
    *PLAY_VERBS,
    "undo",
    "board",
    "log",
    "help",
    "prefs",
    "away",
    "vote",
    "hand",
    "rules",
    "sheet",
)


class CommandError(ValueError):
    pass


@dataclass
class Command:
    name: str
    sub: str | None = None
    options: dict[str, str] = field(default_factory=dict)
    # The last option was typed without a closing space: autocomplete completes its value.
    partial: str | None = None


def clean(text: str) -> str:
    """Normalise unicode (NFKC) and drop control and zero-width characters."""
    text = unicodedata.normalize("NFKC", text)
    return "".join(ch for ch in text if unicodedata.category(ch)[0] != "C" or ch in " \t")


def _split(body: str, allow_partial: bool) -> list[str]:
    """Shell-style words; while typing, an open quote or a trailing backslash is closed for us."""
    try:
        return shlex.split(body)
    except ValueError:
        if allow_partial:
            for closing in ('"', "'", "\\", '\\"', "\\'"):
                try:
                    return shlex.split(body + closing)
                except ValueError:
                    continue
        raise CommandError("A quoted value is not closed.") from None


def parse(text: str, allow_partial: bool = False) -> Command:
    text = clean(text)
    trailing_space = text.endswith(" ")
    text = text.strip()
    if len(text) > MAX_COMMAND_LENGTH:
        raise CommandError(f"That command is too long (over {MAX_COMMAND_LENGTH} characters).")
    if not text.startswith("/"):
        raise CommandError("Commands start with '/'. Try /help.")
    tokens = _split(text[1:], allow_partial)
    if not tokens:
        raise CommandError("Type a command after '/'. Try /help.")
    name = tokens.pop(0).lower()
    sub: str | None = None
    if name in GROUPS:
        if not tokens or ":" in tokens[0]:
            raise CommandError(f"/{name} needs a subcommand: {', '.join(GROUPS[name])}.")
        sub = tokens.pop(0).lower()
        if sub not in GROUPS[name] and not (allow_partial and not tokens):
            raise CommandError(f"Unknown /{name} subcommand '{sub}': {', '.join(GROUPS[name])}.")
    elif name not in TOP_LEVEL and not allow_partial:
        raise CommandError(f"Unknown command /{name}. Try /help.")
    options: dict[str, str] = {}
    partial: str | None = None
    for index, token in enumerate(tokens):
        key, sep, value = token.partition(":")
        key = key.strip().lower()
        if not sep or not key:
            if allow_partial and index == len(tokens) - 1:
                partial = key
                break
            raise CommandError(f"'{token}' is not an option: write it as name:value.")
        if len(value) > MAX_VALUE_LENGTH:
            raise CommandError(f"The value of '{key}' is too long (over {MAX_VALUE_LENGTH}).")
        if key in options:
            raise CommandError(f"Option '{key}' is given twice.")
        options[key] = value.strip()
    if allow_partial and options and not trailing_space and partial is None:
        partial = list(options)[-1]
    return Command(name=name, sub=sub, options=options, partial=partial)
