"""The rule systems Sortie knows, by game key.

Games register themselves when their package is imported; `games()` imports the shipped ones
on first use so the CLI, the bot and the benchmarks all see the same list.
"""

from __future__ import annotations

import importlib
from typing import Any, TypeVar

from engine.core.game import Game

G = TypeVar("G", bound=Game[Any])

SHIPPED = ("engine.forlorn", "engine.galaxy", "engine.reich")

_GAMES: dict[str, Game[Any]] = {}
_loaded = False


def register(game: G) -> G:
    """Add `game` to the registry and hand it back with its own type (not just a `Game`)."""
    _GAMES[game.key] = game
    return game


def unregister(key: str) -> None:
    _GAMES.pop(key, None)


def games() -> dict[str, Game[Any]]:
    global _loaded
    if not _loaded:
        _loaded = True
        for module in SHIPPED:
            try:
                importlib.import_module(module)
            except ModuleNotFoundError as missing:
                if missing.name != module:
                    raise
    return dict(sorted(_GAMES.items()))


def get_game(key: str) -> Game[Any]:
    known = games()
    if key not in known:
        names = ", ".join(known) or "none installed"
        raise ValueError(f"Unknown game '{key}'. Games: {names}.")
    return known[key]
