"""The slash syntax shared by Discord and the playground: `/name [sub] key:value ...`.

Values may be quoted to hold spaces (`note:"hold the door"`). Parsing never raises anything
but `CommandError`, whose message tells the player what to fix.
"""

from __future__ import annotations

import difflib
import shlex
import unicodedata
from dataclasses import dataclass, field

from bot.schema import GROUPS, PLAY_VERBS, TOP_LEVEL, spec_of

__all__ = ["GROUPS", "PLAY_VERBS", "TOP_LEVEL", "Command", "CommandError", "clean", "parse"]

MAX_COMMAND_LENGTH = 500
MAX_VALUE_LENGTH = 100


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
    if not allow_partial:
        check_option_names(name, sub, options)
    return Command(name=name, sub=sub, options=options, partial=partial)


def allowed_keys(name: str, sub: str | None) -> tuple[str, ...] | None:
    """The option names the command's typed text takes; None when the command checks them."""
    spec = spec_of(name, sub)
    if spec is None:
        return ()
    if spec.text_keys == "scenario":
        return None  # the scenario's own options: `/campaign create` names them when refusing
    if spec.text_keys == "settings":
        from bot.pacing import CAMPAIGN_SETTINGS

        return tuple(CAMPAIGN_SETTINGS)
    return spec.text_options


def check_option_names(name: str, sub: str | None, options: dict[str, str]) -> None:
    """Refuse an option the command does not take, naming the ones it does."""
    allowed = allowed_keys(name, sub)
    if allowed is None:
        return
    shown = f"/{name} {sub}" if sub else f"/{name}"
    for key in options:
        if key in allowed:
            continue
        if not allowed:
            raise CommandError(f"{shown} takes no options ('{key}' given).")
        close = difflib.get_close_matches(key, allowed, n=1)
        hint = f" Did you mean {close[0]}?" if close else ""
        raise CommandError(
            f"{shown} has no option '{key}'.{hint} Its options: {', '.join(allowed)}."
        )
