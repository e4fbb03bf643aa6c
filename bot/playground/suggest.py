"""Autocomplete for the playground's command box.

Discord lists subcommands and option names by itself and only asks the bot for option values.
The playground has a plain text box instead, so it fills those two gaps here and hands every
other case to `TableService.autocomplete`.
"""

from __future__ import annotations

from bot.commands import GROUPS, TOP_LEVEL, allowed_keys
from bot.schema import spec_of
from bot.table import MAX_AUTOCOMPLETE, Caller, Suggestion, TableService
from engine.core.game import scenario_info
from engine.registry import games


def split_tokens(text: str) -> tuple[list[str], str]:
    """The finished tokens and the one being typed (empty after a trailing space).

    Double quotes group words, as in the command syntax, so `what:"hold the` is one token.
    """
    tokens: list[str] = []
    current = ""
    quoted = False
    for ch in text:
        if ch == '"':
            quoted = not quoted
            current += ch
        elif ch.isspace() and not quoted:
            if current:
                tokens.append(current)
            current = ""
        else:
            current += ch
    return tokens, current


async def suggest(service: TableService, caller: Caller, text: str) -> list[Suggestion]:
    done, typing = split_tokens(text.lstrip())
    if not done:
        # Still typing the command name: the service lists matching commands.
        return (await service.autocomplete(caller, text))[:MAX_AUTOCOMPLETE]
    name = done[0].lstrip("/").lower()
    if name not in GROUPS and name not in TOP_LEVEL:
        return []
    if ":" in typing:
        found = await service.autocomplete(caller, text)
        # The service falls back to command names when it cannot place the option.
        return [s for s in found if not s.value.startswith("/")][:MAX_AUTOCOMPLETE]
    if name in GROUPS and len(done) == 1:
        subs = [s for s in GROUPS[name] if s.startswith(typing.lower())]
        return [Suggestion(s, s) for s in subs][:MAX_AUTOCOMPLETE]
    sub = done[1].lower() if name in GROUPS else None
    given = {t.partition(":")[0].lower(): t.partition(":")[2] for t in done[1:] if ":" in t}
    spec = spec_of(name, sub)
    if spec is None:
        return []
    keys = allowed_keys(name, sub)
    known = list(spec.text_options if keys is None else keys)
    if spec.text_keys == "scenario":
        known += _scenario_options(given.get("game", ""), given.get("scenario", ""))
    names = [n for n in known if n not in given and n.startswith(typing.lower())]
    return [Suggestion(f"{n}:", f"{n}:") for n in names][:MAX_AUTOCOMPLETE]


def _scenario_options(game_key: str, scenario_key: str) -> list[str]:
    """The extra options a scenario takes (`pace`, `difficulty`...), once both are named."""
    game = games().get(game_key.lower())
    if game is None:
        return []
    try:
        return [option.key for option in scenario_info(game, scenario_key.lower()).options]
    except ValueError:
        return []
