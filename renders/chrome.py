"""Header band, side panel and legend: the text around the board, wrapped to fit."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from string import ascii_letters

from engine.core.events import Event
from engine.core.view import FigureView, View
from renders import paint, theme
from renders.figures import HIDDEN_TOKENS, badges, conditions_of, rank_tag, token_text
from renders.symbols import marks_of, tokens_of
from renders.terrain import HEX_MARK_FORMS, edge_base
from renders.words import phase_words, seat_words

GAME_NAMES = {
    "forlorn-hope": "Forlorn: Hope",
    "galaxy-defenders": "Galaxy Defenders",
    "reichbusters": "Reichbusters",
}
HEADER_PAD = 10
TITLE_SIZE = theme.MIN_TEXT + 4
LINE_SIZE = theme.MIN_TEXT
# Header keys already shown elsewhere in the header line (title, round, phase).
SKIP_HEADER = frozenset({"phase", "mission", "round"})


def deadline_text(deadline: datetime | str | None) -> str:
    """ "Deadline Fri 04 Dec 18:00 UTC" from a datetime (or ready-made text); empty for none."""
    if deadline is None or deadline == "":
        return ""
    if isinstance(deadline, datetime):
        if deadline.tzinfo is not None:
            deadline = deadline.astimezone(UTC)
        return "Deadline " + deadline.strftime("%a %d %b %H:%M UTC")
    return f"Deadline {deadline}"


def header_lines(view: View, deadline: datetime | str | None = None) -> tuple[str, list[str]]:
    """The title and the facts of the header band, most important first."""
    facts: list[str] = []
    round_text = view.header.get("round") or (str(view.round) if view.round else "")
    if round_text:
        facts.append(f"Round {round_text}")
    due = deadline_text(deadline)
    if due and not view.finished:
        facts.append(due)
    if view.phase:
        facts.append(f"Phase: {phase_words(view.phase)}")
    if view.finished:
        facts.append(f"MISSION OVER: {(view.outcome or 'ended').upper()}")
    elif view.waiting:
        facts.append("Turn: " + ", ".join(seat_words(s) for s in view.waiting))
    for key, value in view.header.items():
        if key in SKIP_HEADER or not value:
            continue
        facts.append(f"{key.replace('_', ' ')}: {value}")
    title = view.title
    game = GAME_NAMES.get(view.game, view.game.replace("-", " ").title())
    if game.split(":")[0].lower() not in title.lower():
        title = f"{game} · {title}"
    mission = view.header.get("mission", "")
    if mission and mission.split(":")[-1].strip().lower() not in title.lower():
        title = f"{title} · {mission}"
    return title, facts


def header_height(view: View, width: int, deadline: datetime | str | None = None) -> int:
    return _header_layout(view, width, deadline)[0]


TITLE_LINES = 2  # a long title (a mission named with its expansion) wraps before it is cut


def title_lines(title: str, width: int) -> list[str]:
    """The title wrapped to the header's width on at most TITLE_LINES lines; only what
    still does not fit is cut, at the end of the last line."""
    room = width - 2 * HEADER_PAD
    wrapped: list[str] = []
    current = ""
    for part in title.split(" · "):  # break between the title's parts before inside one
        trial = f"{current} · {part}" if current else part
        if theme.text_width(trial, TITLE_SIZE, True) <= room:
            current = trial
            continue
        if current:
            wrapped.append(current)
        *full, current = paint.wrap(part, TITLE_SIZE, room, True) or [""]
        wrapped.extend(full)
    wrapped.append(current)
    if len(wrapped) > TITLE_LINES:
        rest = " ".join(wrapped[TITLE_LINES - 1 :])
        wrapped = [*wrapped[: TITLE_LINES - 1], paint.ellipsize(rest, TITLE_SIZE, room, True)]
    return wrapped


def _header_layout(
    view: View, width: int, deadline: datetime | str | None = None
) -> tuple[int, list[str], list[str]]:
    title, facts = header_lines(view, deadline)
    titles = title_lines(title, width)
    lines = paint.wrap("  ·  ".join(facts), LINE_SIZE, width - 2 * HEADER_PAD)
    # Facts are joined with separators, so wrapping may split inside one; good enough.
    lines = lines[:4]
    height = HEADER_PAD * 2 + len(titles) * (TITLE_SIZE + 6) + len(lines) * (LINE_SIZE + 4)
    return height, lines, titles


def draw_header(
    draw: paint.Draw, view: View, width: int, deadline: datetime | str | None = None
) -> int:
    height, lines, titles = _header_layout(view, width, deadline)
    draw.rectangle((0, 0, width, height), fill=theme.HEADER)
    y = HEADER_PAD
    for title in titles:
        paint.text(draw, (HEADER_PAD, y), title, TITLE_SIZE, theme.TEXT, True)
        y += TITLE_SIZE + 6
    for line in lines:
        paint.text(draw, (HEADER_PAD, y), line, LINE_SIZE, theme.MUTED)
        y += LINE_SIZE + 4
    return height


BANNER_SIZE = theme.MIN_TEXT + 9
WINS = frozenset({"victory", "accomplished", "won", "win"})
LOSSES = frozenset({"defeat", "failed", "lost", "loss"})


def banner(view: View) -> tuple[str, theme.RGB, theme.RGB]:
    """The end-of-mission banner's word, plate colour and ink ("" while the mission runs)."""
    if not view.finished:
        return "", theme.PANEL, theme.TEXT
    outcome = (view.outcome or "").lower()
    if outcome in WINS:
        return "VICTORY", theme.GREEN, theme.INK
    if outcome in LOSSES:
        return "DEFEAT", theme.VERMILION, theme.WHITE
    if outcome == "partial":
        return "PARTIAL SUCCESS", theme.ORANGE, theme.INK
    return f"MISSION OVER: {outcome.upper()}" if outcome else "MISSION OVER", theme.MUTED, theme.INK


def banner_height(view: View) -> int:
    return BANNER_SIZE + 24 if view.finished else 0


def draw_banner(draw: paint.Draw, view: View, width: int, top: int) -> None:
    """A full-width band under the header once the mission is over."""
    word, fill, ink = banner(view)
    if not word:
        return
    height = banner_height(view)
    draw.rectangle((0, top, width, top + height), fill=fill)
    paint.text(draw, (width / 2, top + height / 2), word, BANNER_SIZE, ink, True, "mm")


@dataclass
class Section:
    title: str
    lines: list[str] = field(default_factory=list)
    accent: theme.RGB = theme.TEXT


def figure_line(f: FigureView, label: str) -> str:
    tag = rank_tag(f.rank)
    parts = [label, _short_name(f, label, bool(tag)), f"@{f.coord}"]
    if tag:
        parts.append(f"[{tag}]")
    if f.health is not None and f.max_health:
        parts.append(f"{max(0, f.health)}/{f.max_health}")
    if f.facing:
        parts.append(f"facing {f.facing}")
    marks = [b[0] for b in badges(f)]
    if marks:
        parts.append(" ".join(marks))
    return " ".join(parts)


def _short_name(f: FigureView, label: str, tagged: bool) -> str:
    """The figure's name without what its line already says: its label (`x3`, or the label's
    number a name ends with) and, when the rank tag follows, the rank word (`Green Xeno-Delta 3`
    -> `Xeno-Delta`)."""
    name = f.name.removesuffix(f" {label}").removesuffix(f" {f.id}")
    number = label.lstrip(ascii_letters)
    if number.isdigit():
        name = name.removesuffix(f" {number}")
    if tagged and f.rank and name.lower().startswith(f"{f.rank.lower()} "):
        name = name[len(f.rank) + 1 :]
    return name or f.name


def _plain(f: FigureView) -> bool:
    full = f.health is None or not f.max_health or f.health >= f.max_health
    return full and not badges(f) and not f.facing


def figure_lines(
    figs: list[FigureView], labels: dict[str, str], grouped: bool, compact: bool = False
) -> list[str]:
    """One line per figure; with `grouped`, unhurt figures of a kind share one line (with
    `compact`, whatever the count: the full view's strip under the board)."""
    if not grouped or (len(figs) <= 8 and not compact):
        return [figure_line(f, labels.get(f.id, f.label)) for f in figs]
    lines: list[str] = []
    kinds: dict[str, list[FigureView]] = {}
    for f in figs:
        if _plain(f):
            kinds.setdefault(f.kind or f.name, []).append(f)
        else:
            lines.append(figure_line(f, labels.get(f.id, f.label)))
    for kind, members in kinds.items():
        tag = rank_tag(members[0].rank) if all(m.rank == members[0].rank for m in members) else ""
        head = f"{len(members)} {kind.replace('-', ' ').title()}{f' [{tag}]' if tag else ''}: "
        lines.append(head + ", ".join(f"{labels.get(m.id, m.label)} {m.coord}" for m in members))
    return lines


IMPORTANT = ("attacked", "killed", "wounded", "spawned", "revealed", "ended")


def story_lines(events: list[Event], limit: int = 7) -> list[str]:
    """The step's narration, keeping attacks, deaths, spawns and reveals when it must cut."""
    texts = [(e.kind in IMPORTANT, i, e.text) for i, e in enumerate(events) if e.text]
    if len(texts) <= limit:
        return [t for _, _, t in texts]
    keep = sorted(texts, key=lambda t: (not t[0], -t[1]))[:limit]
    dropped = len(texts) - limit
    return [t for _, _, t in sorted(keep, key=lambda t: t[1])] + [f"(+{dropped} more in the log)"]


def panel_sections(
    view: View, labels: dict[str, str], events: list[Event] | None = None, legend: bool = True
) -> list[Section]:
    """Everything the side panel shows. Private lines appear only when the view carries them,
    which a spectator's view never does."""
    sections = [Section(p.title, list(p.lines)) for p in view.panels]
    if view.private:
        sections.append(Section("Only you can see", list(view.private), theme.YELLOW))
    for side, title in (("player", "Players"), ("enemy", "Enemies"), ("neutral", "Others")):
        figs = [f for f in view.figures if f.side == side]
        if figs:
            sections.append(Section(title, figure_lines(figs, labels, grouped=side != "player")))
    story = story_lines(events or [])
    if story:
        sections.append(Section("This step", story, theme.YELLOW))
    if legend:
        items = legend_items(view)
        if items:
            sections.append(Section("Legend", items, theme.MUTED))
    return sections


def legend_items(view: View) -> list[str]:
    """Only the symbols this board uses, and every token text it shows."""
    items: list[str] = []
    sides = {f.side for f in view.figures}
    if "player" in sides:
        items.append("● circle: player figure")
    if "enemy" in sides:
        items.append("◆ diamond: enemy")
    if "neutral" in sides:
        items.append("■ square: neutral")
    if any(f.facing for f in view.figures):
        items.append("▲ pointer: facing")
    if any(f.max_health for f in view.figures):
        items.append("pips: health left")
    codes: dict[str, str] = {}
    for f in view.figures:
        for key in conditions_of(f):
            if key in theme.QUIET_CONDITIONS:
                continue
            badge = theme.CONDITION_BADGES.get(key, (key[:2].title(), theme.MUTED))
            codes.setdefault(badge[0], key.replace("-", " "))
    if codes:
        items.append("badges: " + ", ".join(f"{k} {v}" for k, v in sorted(codes.items())))
    ranks = {rank_tag(f.rank): f.rank or "" for f in view.figures if f.rank}
    if ranks:
        named = [k if k == v else f"{k} {v}" for k, v in sorted(ranks.items()) if k]
        items.append("rank: " + ", ".join(named))
    kinds = {edge_base(e.kind) for e in view.edges}
    doors = []
    if any("door" in k and k.endswith("open") for k in kinds):
        doors.append("gap = open door")
    if any("door" in k and not k.endswith("open") for k in kinds):
        doors.append("bar = closed door (K key, C code, L locked, X sealed, S security)")
    if "window" in kinds:
        doors.append("blue line = window")
    if "airlock" in kinds:
        doors.append("blue bar = airlock")
    if "barrier" in kinds:
        doors.append("striped line = barrier (only flyers cross, sight passes)")
    items += doors
    marks = {m.split(":")[0] for c in view.cells for m in c.marks}
    names = {
        "vent": "V# vent",
        "cache": "IT item cache",
        "setup": "green corner: setup square",
        "letter": "big letter: objective",
        "centre": "ring: Area centre",
        "teleport": "purple ring: Teleport Point (its symbol below)",
        "start": "S: start hex",
        "barracks": "BK: barracks",
        "exit": "EX: exit",
        "search": "search Area",
        "airlock": "AL: airlock",
        "entrance": "IN: entrance",
        "blocked": "BLOCK: blocked hex",
        "civilian": "CIVIL: civilian",
        "smoke": "hatched, SM: smoke",
        "suppressing-fire": "SF: suppressing fire",
        "accessory": "ACC, AC: accessory",
    }
    brought = marks_of(view)  # the marks the game or its mission brings, by their symbols
    names |= {k: s.legend for k, s in brought.items() if s.legend and not s.numbered}
    items += [names[m] for m in sorted(marks) if m in names]
    if view.board == "hex":  # numbered marks (Waypoints, hex marks) in their short forms
        stems = {m.rstrip("0123456789") for m in marks if m[-1:].isdigit()}
        forms = {k: f[1] for k, f in HEX_MARK_FORMS.items()}
        forms |= {k: s.legend for k, s in brought.items() if s.legend and s.numbered}
        items += [forms[s] for s in sorted(stems) if s in forms]
    items += token_legend(view)
    return items


TOKEN_NAMES = {
    "signal": "purple hexagon s#: Signal",
    "enemy-token": "hexagon L#: Enemy token by level",
    "corpse": "✝: corpse",
    "loot": "Lt: loot",
    "accessory": "Ac: accessory",
    "blocked-vent": "X: blocked vent",
    "egg": "Eg: egg",
    "smoke": "Sm: smoke",
    "power-suit": "grey square P#: empty Power Suit",
}


def token_legend(view: View) -> list[str]:
    """One entry per kind of token on the board; mission tokens by their own text (M1 keys)."""
    items: list[str] = []
    seen: set[str] = set()
    brought = tokens_of(view)
    for t in view.tokens:
        kind = t.kind.split(":")[0]
        if kind in HIDDEN_TOKENS:
            continue
        if kind in TOKEN_NAMES:
            entry = TOKEN_NAMES[kind]
        elif kind in brought and brought[kind].legend:
            entry = brought[kind].legend
        elif kind == "item":
            entry = f"{token_text(t, brought)}: {t.label or 'item'}"
        else:
            entry = f"{token_text(t, brought)}: {kind.replace('-', ' ')}"
        if entry not in seen:
            seen.add(entry)
            items.append(entry)
    return items


SECTION_TITLE = theme.MIN_TEXT + 1
SECTION_LINE = theme.MIN_TEXT


def layout_sections(sections: list[Section], width: int) -> list[tuple[str, list[str], theme.RGB]]:
    out = []
    for s in sections:
        lines: list[str] = []
        for line in s.lines:
            wrapped = paint.wrap(line, SECTION_LINE, width - 22) or [""]
            lines.append(wrapped[0])
            lines += ["  " + w for w in wrapped[1:8]]
        out.append((paint.ellipsize(s.title, SECTION_TITLE, width - 16, True), lines, s.accent))
    return out


def section_height(lines: list[str]) -> int:
    return SECTION_TITLE + 6 + len(lines) * (SECTION_LINE + 3) + 10


def panel_columns(
    sections: list[Section], column_width: int, max_height: int, max_columns: int = 3
) -> list[list[tuple[str, list[str], theme.RGB]]]:
    """Flow sections into columns no taller than `max_height` (the last column takes the rest)."""
    columns: list[list[tuple[str, list[str], theme.RGB]]] = [[]]
    used = 10
    for title, lines, accent in layout_sections(sections, column_width):
        h = section_height(lines)
        if used + h > max_height and columns[-1] and len(columns) < max_columns:
            columns.append([])
            used = 10
        columns[-1].append((title, lines, accent))
        used += h
    return columns


def columns_height(columns: list[list[tuple[str, list[str], theme.RGB]]]) -> int:
    return max(
        (10 + sum(section_height(lines) for _, lines, _ in col) for col in columns), default=0
    )


def draw_columns(
    draw: paint.Draw,
    columns: list[list[tuple[str, list[str], theme.RGB]]],
    left: int,
    top: int,
    column_width: int,
    bottom: int,
) -> None:
    for i, column in enumerate(columns):
        x = left + i * column_width
        draw.rectangle((x, top, x + column_width, bottom), fill=theme.PANEL)
        if i:
            draw.line((x, top, x, bottom), fill=theme.GRID, width=1)
        y = top + 10
        for title, lines, accent in column:
            paint.text(draw, (x + 10, y), title, SECTION_TITLE, accent, True)
            y += SECTION_TITLE + 6
            for line in lines:
                paint.text(draw, (x + 12, y), line, SECTION_LINE, theme.MUTED)
                y += SECTION_LINE + 3
            y += 10
