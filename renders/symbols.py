"""The marks and tokens a view brings with it (`View.symbols`): a game's or a mission's own
and looked up by name, so the renderers need not know a game's or a mission's own marks."""

from __future__ import annotations

from engine.core.view import SymbolView, View
from renders import theme

Symbols = dict[str, SymbolView]


def marks_of(view: View) -> Symbols:
    return {s.kind: s for s in view.symbols if s.on == "mark"}


def tokens_of(view: View) -> Symbols:
    return {s.kind: s for s in view.symbols if s.on == "token"}


def named_colour(name: str) -> theme.RGB:
    """A symbol's colour; an unknown name is muted grey."""
    return theme.NAMED.get(name, theme.MUTED)


def stem_of(name: str, symbols: Symbols) -> SymbolView | None:
    """The numbered-mark symbol for `name` (`u3` -> the `u` stem), if the view brings one."""
    stem = name.rstrip("0123456789")
    found = symbols.get(stem)
    return found if found is not None and found.numbered and stem != name else None
