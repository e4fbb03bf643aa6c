"""Map tiles: the readable `.map` text format, its validation, and the board geometry.

A `.map` file has a `grid:` block drawn in odd-r offset rows (odd rows are indented half a
hex): each token is one hex, `.` an Edge Hex (never used), a lower-case letter a hex of that
Area and the upper-case letter the Area's centre hex (the sight symbol). Every Area must be
exactly a centre and its six neighbours. Lines after the grid add features; hexes are named by
their labels (column letter + row number, e.g. `C4`):

    wall a|b            every hex side between Areas a and b is blocked
    wall C4 D4          one blocked hex side
    door C4 D4          a door on that side (overrides a wall); `locked` for a locked door
    window C4 D4        a window on that side (overrides a wall)
    tp hit E3           a Teleport Point with its BLUE die symbol (hit, shield, bolt, alien)
    start B2            a GD Start Hex
    room lab a b        a Room made of Areas a and b
    search a            a Search Area
    exit a              an extraction Area (missions that need one)
    mark F4 terminal    a mission hex (terminal, civilian, nest ...)
    barrier C4 D4       an Operation Strikeback Barrier side (5.1); `barrier a|b` for every
                        side between two Areas: only Flying or Burrowing figures cross it,
                        sight passes and the hexes stay adjacent
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from engine.core.areagraph import AreaGraph
from engine.core.errors import ContentError
from engine.core.hexgrid import Hex, line, neighbours

MAP_DIR = Path(__file__).parent / "content" / "maps"

Side = frozenset[Hex]


def side(a: Hex, b: Hex) -> Side:
    return frozenset((a, b))


def to_offset(h: Hex) -> tuple[int, int]:
    return h.q + (h.r - (h.r & 1)) // 2, h.r


def from_offset(col: int, row: int) -> Hex:
    return Hex(col - (row - (row & 1)) // 2, row)


def col_name(col: int) -> str:
    return chr(ord("A") + col) if col < 26 else "A" + chr(ord("A") + col - 26)


def label(h: Hex) -> str:
    col, row = to_offset(h)
    return f"{col_name(col)}{row + 1}"


def parse_label(text: str) -> Hex | None:
    text = text.strip().upper()
    letters = "".join(ch for ch in text if ch.isalpha())
    digits = text[len(letters) :]
    if not letters or not digits.isdigit() or len(letters) > 2:
        return None
    col = ord(letters[-1]) - ord("A") + (26 if len(letters) == 2 else 0)
    return from_offset(col, int(digits) - 1)


@dataclass
class Board:
    """Static geometry of one map: Areas, centres and hex-side features."""

    name: str
    area_of: dict[Hex, str] = field(default_factory=dict)
    centres: dict[str, Hex] = field(default_factory=dict)
    walls: set[Side] = field(default_factory=set)
    doors: set[Side] = field(default_factory=set)
    locked_doors: set[Side] = field(default_factory=set)
    windows: set[Side] = field(default_factory=set)
    barriers: set[Side] = field(default_factory=set)
    teleports: dict[str, Hex] = field(default_factory=dict)
    starts: list[Hex] = field(default_factory=list)
    rooms: dict[str, set[str]] = field(default_factory=dict)
    search_areas: set[str] = field(default_factory=set)
    exit_areas: set[str] = field(default_factory=set)
    marks: dict[Hex, str] = field(default_factory=dict)
    width: int = 0
    height: int = 0
    _sight: AreaGraph | None = None
    _walk: dict[tuple[frozenset[Side], str], AreaGraph] = field(default_factory=dict)
    _ranges: dict[str, dict[str, int]] = field(default_factory=dict)
    _los: dict[tuple[Hex, Hex, frozenset[Side]], bool] = field(default_factory=dict)

    # -- geometry ----------------------------------------------------------------------------
    @property
    def areas(self) -> list[str]:
        return sorted(self.centres)

    def hexes(self) -> list[Hex]:
        return sorted(self.area_of, key=lambda h: (h.r, h.q))

    def area_hexes(self, area: str) -> list[Hex]:
        centre = self.centres[area]
        return [centre, *neighbours(centre)]

    def on_map(self, h: Hex) -> bool:
        return h in self.area_of

    def side_kind(self, a: Hex, b: Hex, locked: set[Side]) -> str:
        """'open', 'wall', 'door', 'locked', 'window' or 'barrier' for the side a-b."""
        s = side(a, b)
        if s in self.doors:
            return "locked" if s in locked else "door"
        if s in self.windows:
            return "window"
        if s in self.walls:
            return "wall"
        if s in self.barriers:
            return "barrier"
        return "open"

    def step_ok(self, a: Hex, b: Hex, locked: set[Side], walker: str) -> bool:
        """Can a figure cross from a to b? Agents need an Action to leap windows; only a
        `flyer` (Flying or Burrowing) crosses a Barrier side."""
        if not self.on_map(b):
            return False
        kind = self.side_kind(a, b, locked)
        if kind in ("wall", "locked") or (kind == "barrier" and walker != "flyer"):
            return False
        return not (kind == "window" and walker == "agent")

    def adjacent(self, a: Hex, b: Hex, locked: set[Side]) -> bool:
        """Hexes separated by a blocked side are not adjacent."""
        return (
            b in neighbours(a)
            and self.on_map(a)
            and self.on_map(b)
            and self.side_kind(a, b, locked) not in ("wall", "locked")
        )

    def sight_blocked_side(self, a: Hex, b: Hex, viewer: Hex, locked: set[Side]) -> bool:
        kind = self.side_kind(a, b, locked)
        if kind in ("wall", "locked"):
            return True
        # A door blocks sight unless the viewer stands in one of its two hexes.
        return kind == "door" and viewer not in (a, b)

    def los(self, a: Hex, b: Hex, locked: set[Side]) -> bool:
        """Centre-to-centre line of sight. A step running along a side is blocked only when
        every way through it is blocked (both hexes off the map, or every crossing walled)."""
        key = (a, b, frozenset(locked))
        cached = self._los.get(key)
        if cached is None:
            cached = self._los[key] = self._trace(a, b, locked)
        return cached

    def _trace(self, a: Hex, b: Hex, locked: set[Side]) -> bool:
        steps = line(a, b)
        for index, step in enumerate(steps):
            if not any(self.on_map(h) for h in step):
                return False
            if index == 0:
                continue
            before = steps[index - 1]
            crossings = [(x, y) for x in before for y in step if y in neighbours(x)]
            if not crossings:
                continue
            if all(
                not self.on_map(x) or not self.on_map(y) or self.sight_blocked_side(x, y, a, locked)
                for x, y in crossings
            ):
                return False
        return True

    def sight_graph(self) -> AreaGraph:
        """Areas touching each other (for ranges), regardless of walls (computed once)."""
        if self._sight is not None:
            return self._sight
        graph = AreaGraph(areas=self.areas)
        for h, area in self.area_of.items():
            for n in neighbours(h):
                other = self.area_of.get(n)
                if other is not None and other != area:
                    graph.connect(area, other)
        self._sight = graph
        return graph

    def walk_graph(self, locked: set[Side], walker: str = "alien") -> AreaGraph:
        """Areas joined by at least one side an alien or Signal (`alien`) or a Flying or
        Burrowing alien (`flyer`) may cross (cached per locks and walker)."""
        key = (frozenset(locked), walker)
        cached = self._walk.get(key)
        if cached is not None:
            return cached
        graph = AreaGraph(areas=self.areas)
        for h, area in self.area_of.items():
            for n in neighbours(h):
                other = self.area_of.get(n)
                if other is not None and other != area and self.step_ok(h, n, locked, walker):
                    graph.connect(area, other)
        self._walk[key] = graph
        return graph

    def area_distance(self, a: Hex, b: Hex) -> int:
        """Range in Areas: 0 in the same Area, else the Area borders crossed."""
        start = self.area_of[a]
        table = self._ranges.get(start)
        if table is None:
            table = dict(self.sight_graph().distances(start))
            self._ranges[start] = table
        return table.get(self.area_of[b], 99)


def _parse_pair(board: Board, words: list[str], lineno: int) -> Side:
    if len(words) != 2:
        raise ContentError(f"{board.name}.map line {lineno}: expected two hex labels")
    a, b = (parse_label(w) for w in words)
    if a is None or b is None or not board.on_map(a) or not board.on_map(b):
        raise ContentError(f"{board.name}.map line {lineno}: {words} are not hexes on the map")
    if b not in neighbours(a):
        raise ContentError(
            f"{board.name}.map line {lineno}: {words[0]} and {words[1]} not adjacent"
        )
    return side(a, b)


def _one_hex(board: Board, word: str, lineno: int) -> Hex:
    h = parse_label(word)
    if h is None or not board.on_map(h):
        raise ContentError(f"{board.name}.map line {lineno}: {word} is not a hex on the map")
    return h


def _between_areas(
    board: Board, members: dict[str, list[Hex]], pair: str, lineno: int
) -> set[Side]:
    """Every hex side between the two Areas of `a|b`."""
    a, b = pair.split("|")
    if a not in board.centres or b not in board.centres:
        raise ContentError(f"{board.name}.map line {lineno}: unknown Area in {pair}")
    return {side(h, n) for h in members[a] for n in neighbours(h) if board.area_of.get(n) == b}


def parse_map(name: str, text: str) -> Board:
    board = Board(name=name)
    lines = text.splitlines()
    try:
        start = next(i for i, raw in enumerate(lines) if raw.strip() == "grid:")
    except StopIteration:
        raise ContentError(f"{name}.map has no 'grid:' block") from None
    row = 0
    members: dict[str, list[Hex]] = {}
    index = start + 1
    while index < len(lines) and lines[index].strip() and not lines[index].startswith("#"):
        tokens = lines[index].split()
        board.width = max(board.width, len(tokens))
        for col, token in enumerate(tokens):
            if token == ".":
                continue
            if len(token) != 1 or not token.isalpha():
                raise ContentError(f"{name}.map grid row {row + 1}: bad token {token!r}")
            h = from_offset(col, row)
            area = token.lower()
            board.area_of[h] = area
            members.setdefault(area, []).append(h)
            if token.isupper():
                if area in board.centres:
                    raise ContentError(f"{name}.map: Area {area} has two centre hexes")
                board.centres[area] = h
        row += 1
        index += 1
    board.height = row
    for area, hexes in members.items():
        centre = board.centres.get(area)
        if centre is None:
            raise ContentError(f"{name}.map: Area {area} has no centre hex (upper-case letter)")
        if sorted(hexes) != sorted([centre, *neighbours(centre)]):
            raise ContentError(f"{name}.map: Area {area} is not a centre and its six neighbours")
    for lineno, raw in enumerate(lines[index:], start=index + 1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        verb, rest = words[0], words[1:]
        if verb == "wall" and len(rest) == 1 and "|" in rest[0]:
            board.walls |= _between_areas(board, members, rest[0], lineno)
        elif verb == "wall":
            board.walls.add(_parse_pair(board, rest, lineno))
        elif verb in ("door", "locked"):
            s = _parse_pair(board, rest, lineno)
            board.doors.add(s)
            if verb == "locked":
                board.locked_doors.add(s)
        elif verb == "window":
            board.windows.add(_parse_pair(board, rest, lineno))
        elif verb == "barrier" and len(rest) == 1 and "|" in rest[0]:
            board.barriers |= _between_areas(board, members, rest[0], lineno)
        elif verb == "barrier":
            board.barriers.add(_parse_pair(board, rest, lineno))
        elif verb == "tp" and len(rest) == 2:
            if rest[0] not in ("hit", "shield", "bolt", "alien"):
                raise ContentError(f"{name}.map line {lineno}: bad Teleport symbol {rest[0]}")
            board.teleports[rest[0]] = _one_hex(board, rest[1], lineno)
        elif verb == "start" and rest:
            board.starts.extend(_one_hex(board, w, lineno) for w in rest)
        elif verb == "room" and len(rest) >= 2:
            board.rooms[rest[0]] = set(rest[1:])
        elif verb in ("search", "exit") and rest:
            for area in rest:
                if area not in board.centres:
                    raise ContentError(f"{name}.map line {lineno}: unknown Area {area}")
            (board.search_areas if verb == "search" else board.exit_areas).update(rest)
        elif verb == "mark" and len(rest) == 2:
            board.marks[_one_hex(board, rest[0], lineno)] = rest[1]
        else:
            raise ContentError(f"{name}.map line {lineno}: cannot read {raw.strip()!r}")
    if not board.teleports:
        raise ContentError(f"{name}.map has no Teleport Point")
    if not board.starts:
        raise ContentError(f"{name}.map has no GD Start Hex")
    return board


@cache
def load_map(name: str) -> Board:
    path = MAP_DIR / f"{name}.map"
    if not path.exists():  # an Operation Strikeback map
        path = MAP_DIR.parent.parent / "strikeback" / "content" / "maps" / f"{name}.map"
    if not path.exists():
        raise ContentError(f"no map file {path.name}")
    return parse_map(name, path.read_text())
