"""Words for players who cannot see the image: alt text and a text-only board.

`alt_text` is the attachment description (Discord allows 1024 characters): the mission, the
turn and every figure, compacted step by step so that every figure stays named.
`text_board` is a compact grid in a code block (at most 2000 characters, one Discord message),
falling back to a list by coordinate when the grid would not fit.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core.events import Event
from engine.core.view import CellView, FigureView, View
from renders.figures import short_labels
from renders.words import phase_words, seat_words

ALT_LIMIT = 1000
TEXT_LIMIT = 2000


def _health(f: FigureView) -> str:
    return f"{max(0, f.health)}/{f.max_health}" if f.health is not None and f.max_health else ""


def _full(f: FigureView) -> str:
    text = f"{f.name} ({f.side}) at {f.coord}"
    if _health(f):
        text += f", {_health(f)} health"
    if f.conditions:
        text += ", " + ", ".join(c.split(":")[0] for c in f.conditions[:3])
    return text


def _short(f: FigureView) -> str:
    return f"{f.name} {f.coord}" + (f" {_health(f)}" if _health(f) else "")


def _tiny(f: FigureView) -> str:
    return f"{f.name} {f.coord}"


def _figures(view: View, describe: Callable[[FigureView], str]) -> str:
    parts = []
    for side, title in (("player", "Players"), ("enemy", "Enemies"), ("neutral", "Others")):
        figs = [describe(f) for f in view.figures if f.side == side]
        if figs:
            parts.append(f"{title}: " + "; ".join(figs) + ".")
    return " ".join(parts)


def alt_text(view: View, events: list[Event] | None = None, limit: int = ALT_LIMIT) -> str:
    """The mission, the turn and every figure on the board, within Discord's alt text limit."""
    turn = [f"round {view.round}" if view.round else "", phase_words(view.phase)]
    if view.finished:
        turn.append(f"mission over: {view.outcome or 'ended'}")
    elif view.waiting:
        # the seats as words ("marines-2" -> "Marines 2"): alt text has no scenario to ask
        seats = [seat_words(s) for s in view.waiting]
        turn.append("waiting on " + ", ".join(seats))
    head = f"{view.title}: {', '.join(t for t in turn if t)}."
    last = next((e.text for e in reversed(events or []) if e.text), "")
    for describe in (_full, _short, _tiny):
        body = _figures(view, describe)
        text = f"{head} {body}".strip()
        if last and len(text) + len(last) + 8 <= limit:
            text += f" Last: {last}"
        if len(text) <= limit:
            return text
    labels = short_labels(view)
    body = _figures(view, lambda f: f"{labels[f.id]} {f.coord}")
    return f"{head} {body}"[:limit]


def _marker(f: FigureView, label: str) -> str:
    ch = label[:1] or "?"
    return ch.upper() if f.side == "player" else ch.lower()


def _grid(view: View) -> list[str]:
    by_coord: dict[str, list[FigureView]] = {}
    for f in view.figures:
        by_coord.setdefault(f.coord.upper(), []).append(f)
    labels = short_labels(view)
    tokens = {t.coord.upper() for t in view.tokens}

    def cell_char(coord: str, terrain: str) -> str:
        figs = by_coord.get(coord.upper())
        if figs:
            return _marker(figs[0], labels[figs[0].id]) if len(figs) == 1 else "+"
        if terrain in ("wall", "space", "void"):
            return "#"
        if coord.upper() in tokens:
            return "*"
        return "v" if terrain == "vent" else "."

    if view.board == "area":
        cols = sorted({c.col for c in view.cells})
        rows = sorted({c.row for c in view.cells})
        at = {(c.col, c.row): c for c in view.cells}
        width = max((len(c.area or "") for c in view.cells), default=2)
        lines = []
        for r in rows:
            line = ""
            for q in cols:
                c = at.get((q, r))
                line += ((c.area or "?") if c else "").ljust(width) + " "
            lines.append(line.rstrip())
        return lines
    if view.board == "hex":
        xs = [2 * c.col + c.row for c in view.cells]
        min_x = min(xs, default=0)
        lines = []
        for r in sorted({c.row for c in view.cells}):
            row = sorted((c for c in view.cells if c.row == r), key=lambda c: c.col)
            slots = [" "] * (max(xs) - min_x + 1)
            for c in row:
                slots[2 * c.col + c.row - min_x] = cell_char(c.coord, c.terrain)
            first = row[0].coord if row else ""
            lines.append(f"{first:>4} " + "".join(slots).rstrip())
        return lines
    cols = sorted({c.col for c in view.cells})
    rows = sorted({c.row for c in view.cells})
    grid = {(c.col, c.row): c for c in view.cells}
    letters = "".join(_column_name(grid, q, rows) for q in cols)
    out = ["    " + letters]
    for r in rows:
        row_cells = [grid.get((q, r)) for q in cols]
        chars = "".join(cell_char(c.coord, c.terrain) if c else " " for c in row_cells)
        out.append(f"{_row_name(row_cells):>3} {chars}")
    return out


def _column_name(grid: dict[tuple[int, int], CellView], q: int, rows: list[int]) -> str:
    for r in rows:
        cell = grid.get((q, r))
        coord = cell.coord if cell else ""
        if coord and coord[0].isalpha():
            return coord[0]
    return " "


def _row_name(row: list[CellView | None]) -> str:
    for cell in row:
        coord = cell.coord if cell else ""
        digits = coord.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        if digits:
            return digits
    return ""


def _legend(view: View) -> list[str]:
    labels = short_labels(view)
    lines = []
    for f in view.figures:
        extra = " ".join(
            x
            for x in (
                _health(f),
                f"facing {f.facing}" if f.facing else "",
                ",".join(c.split(":")[0] for c in f.conditions if not c.startswith("stack"))[:30],
            )
            if x
        )
        key = _marker(f, labels[f.id]) if view.board != "area" else ""
        lines.append(
            f"{key + '=' if key else ''}{labels[f.id]} {f.name} @{f.coord} {extra}".rstrip()
        )
    by_coord: dict[str, list[str]] = {}
    for t in view.tokens:
        by_coord.setdefault(t.coord, []).append(t.label or t.kind)
    if by_coord:
        lines.append("Tokens: " + "; ".join(f"{k}: {', '.join(v)}" for k, v in by_coord.items()))
    return lines


def text_board(view: View, limit: int = TEXT_LIMIT) -> str:
    """A compact text board in a code block, never longer than `limit` characters."""
    turn = f"Round {view.round}" if view.round else ""
    head = " · ".join(x for x in (view.title, turn, phase_words(view.phase)) if x)
    if view.finished:
        head += f" · over: {view.outcome or 'ended'}"
    elif view.waiting:
        head += " · turn: " + ", ".join(seat_words(s) for s in view.waiting)
    key = {
        "square": "UPPER player, lower enemy, + several, * token, v vent, # no floor",
        "hex": "UPPER player, lower enemy, + several, * token; rows start with their first hex",
        "area": "each square shows its Area id; figures listed by Area below",
    }[view.board]
    legend = _legend(view)
    for grid in (_grid(view), []):
        body = [head, *grid, key if grid else "", *legend]
        text = "```\n" + "\n".join(line for line in body if line is not None) + "\n```"
        if len(text) <= limit:
            return text
    lines = [head]
    budget = limit - 8 - len(head)
    for i, line in enumerate(legend):
        if len(line) + 1 > budget - 20:
            lines.append(f"... {len(legend) - i} more")
            break
        lines.append(line)
        budget -= len(line) + 1
    return "```\n" + "\n".join(lines) + "\n```"
