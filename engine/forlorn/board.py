"""Maps: parsing the ASCII map files and the geometry of walls, doors, vents and sight.

A map file draws squares at odd rows/columns of a text grid and the edges between them at the
positions in between (see the legend in each file). Coordinates are `Square(x, y)`; players
type labels such as `J7` (column letter, row number from 1).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources

from engine.core.errors import ContentError
from engine.core.squaregrid import Square

# Edge kinds as stored in `Board.edges`.
WALL = "wall"
DOOR = "door"  # normal door
SECURITY = "security"
AIRLOCK = "airlock"
DOOR_KINDS = (DOOR, SECURITY, AIRLOCK)

_EDGE_CHARS = {"|": WALL, "-": WALL, "d": DOOR, "s": SECURITY, "x": AIRLOCK, " ": None}
OUTSIDE_DELTAS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def label(sq: Square) -> str:
    return f"{chr(ord('A') + sq.x)}{sq.y + 1}"


@lru_cache(maxsize=4096)
def parse_label(text: str) -> Square | None:
    """`J7` -> Square(9, 6); None when it is no label. Cached: every rule reads unit positions
    through it, and the answer is an immutable value."""
    text = text.strip().upper()
    if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
        return None
    return Square(ord(text[0]) - ord("A"), int(text[1:]) - 1)


EdgeKey = tuple[Square, Square]


def edge_key(a: Square, b: Square) -> EdgeKey:
    return (a, b) if a <= b else (b, a)


def door_id(a: Square, b: Square) -> str:
    """A door's name: its two squares' labels (an airlock's outer side is `space`)."""
    lo, hi = edge_key(a, b)
    return f"{label(lo)}-{label(hi)}"


@dataclass
class Board:
    name: str
    width: int
    height: int
    floor: set[Square] = field(default_factory=set)
    vents: dict[int, Square] = field(default_factory=dict)
    setup: list[Square] = field(default_factory=list)
    caches: list[Square] = field(default_factory=list)
    letters: dict[str, Square] = field(default_factory=dict)
    rooms: dict[str, set[Square]] = field(default_factory=dict)
    edges: dict[EdgeKey, str] = field(default_factory=dict)
    airlock_names: dict[str, EdgeKey] = field(default_factory=dict)
    # One step between neighbouring floor squares, keyed (ax, ay, bx, by): always (True), never
    # (False) or only while the named door is open. Built on first use (a parsed board never
    # changes afterwards); ints and strings only, so the garbage collector does not track it.
    _step_rules: dict[tuple[int, int, int, int], bool | str] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    # --- queries -------------------------------------------------------------------------
    def on_board(self, sq: Square) -> bool:
        return sq in self.floor

    def vent_at(self, sq: Square) -> int | None:
        for number, where in self.vents.items():
            if where == sq:
                return number
        return None

    def room_of(self, sq: Square) -> str | None:
        for name, squares in self.rooms.items():
            if sq in squares:
                return name
        return None

    def edge(self, a: Square, b: Square) -> str | None:
        return self.edges.get(edge_key(a, b))

    def doors(self) -> list[EdgeKey]:
        return sorted(k for k, v in self.edges.items() if v in (DOOR, SECURITY))

    def airlocks_of(self, sq: Square) -> list[EdgeKey]:
        return [
            k
            for k, v in self.edges.items()
            if v == AIRLOCK and sq in k and any(s not in self.floor for s in k)
        ]

    def airlocks_of_all(self) -> list[EdgeKey]:
        """Every airlock edge (between a floor square and space)."""
        return [
            k for k, v in self.edges.items() if v == AIRLOCK and any(s not in self.floor for s in k)
        ]

    def door_edges_of(self, sq: Square) -> list[EdgeKey]:
        """Normal and security doors on the border of `sq`."""
        return [k for k, v in self.edges.items() if v in (DOOR, SECURITY) and sq in k]

    def blocking_edges(self, open_doors: frozenset[str]) -> frozenset[EdgeKey]:
        return _blocking(self, open_doors)

    def passable(self, a: Square, b: Square, open_doors: frozenset[str]) -> bool:
        """Can a unit step from `a` to neighbouring `b` as far as walls and doors go?

        Path searches ask this hundreds of thousands of times per phase, so the answer for
        each pair of neighbouring floor squares is precomputed (`_rules`) from the full rule
        in `_passable_rule`; only the door state is looked up per call.
        """
        rules = self._step_rules if self._step_rules is not None else self._rules()
        rule = rules.get((a.x, a.y, b.x, b.y))
        if rule is None:
            return self._passable_rule(a, b, open_doors)
        if isinstance(rule, bool):
            return rule
        return rule in open_doors

    def step_rule(self, a: Square, b: Square) -> bool | str:
        """Whether one step from `a` to neighbouring `b` is passable always (True), never
        (False), or only while the door of that name is open."""
        rules = self._step_rules if self._step_rules is not None else self._rules()
        rule = rules.get((a.x, a.y, b.x, b.y))
        if rule is None:
            return self._passable_rule(a, b, frozenset())
        return rule

    def _rules(self) -> dict[tuple[int, int, int, int], bool | str]:
        rules: dict[tuple[int, int, int, int], bool | str] = {}
        for a in self.floor:
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    b = Square(a.x + dx, a.y + dy)
                    if b == a or b not in self.floor:
                        continue
                    kind = self.edge(a, b) if dx == 0 or dy == 0 else None
                    key = (a.x, a.y, b.x, b.y)
                    if kind in (DOOR, SECURITY):
                        rules[key] = door_id(a, b)
                    else:  # walls, airlocks, open floor and diagonals ignore the doors' state
                        rules[key] = self._passable_rule(a, b, frozenset())
        self._step_rules = rules
        return rules

    def _passable_rule(self, a: Square, b: Square, open_doors: frozenset[str]) -> bool:
        """The rule itself.

        Orthogonal: the edge between them must be open floor or an open door. Diagonal: both
        side squares must be floor and the shared corner must not be the end of any wall or
        door (door frames block too), which is the sight rule applied to one step.
        """
        if b not in self.floor or a not in self.floor:
            return False
        if a.x != b.x and a.y != b.y:
            if Square(a.x, b.y) not in self.floor or Square(b.x, a.y) not in self.floor:
                return False
            corner = (2 * max(a.x, b.x), 2 * max(a.y, b.y))
            return corner not in self.posts(open_doors)
        return edge_key(a, b) not in self.blocking_edges(open_doors)

    def posts(self, open_doors: frozenset[str]) -> frozenset[tuple[int, int]]:
        return _posts(self, open_doors)


def _segment_for(key: EdgeKey) -> tuple[tuple[int, int], tuple[int, int]]:
    """The edge's segment in doubled coordinates (square centres are odd, corners even)."""
    a, b = key
    if a.y == b.y:  # vertical edge between horizontal neighbours
        x = 2 * max(a.x, b.x)
        return (x, 2 * a.y), (x, 2 * a.y + 2)
    y = 2 * max(a.y, b.y)
    return (2 * a.x, y), (2 * a.x + 2, y)


_BLOCK_CACHE: dict[tuple[str, frozenset[str]], frozenset[EdgeKey]] = {}
_POST_CACHE: dict[tuple[str, frozenset[str]], frozenset[tuple[int, int]]] = {}


def _blocking(board: Board, open_doors: frozenset[str]) -> frozenset[EdgeKey]:
    key = (board.name, open_doors)
    if key not in _BLOCK_CACHE:
        _BLOCK_CACHE[key] = frozenset(
            k
            for k, v in board.edges.items()
            if v in (WALL, AIRLOCK) or door_id(*k) not in open_doors
        )
    return _BLOCK_CACHE[key]


def _posts(board: Board, open_doors: frozenset[str]) -> frozenset[tuple[int, int]]:
    """Corner points that block sight: ends of every wall and door (open door frames too)."""
    key = (board.name, open_doors)
    if key not in _POST_CACHE:
        points: set[tuple[int, int]] = set()
        for k in board.edges:
            p, q = _segment_for(k)
            points.add(p)
            points.add(q)
        _POST_CACHE[key] = frozenset(points)
    return _POST_CACHE[key]


def _box_touch(p: tuple[int, int], q: tuple[int, int], x0: int, y0: int) -> bool:
    """Does closed segment pq touch the closed box [x0, x0+2] x [y0, y0+2]? (integers only)"""
    x1, y1 = x0 + 2, y0 + 2
    if max(p[0], q[0]) < x0 or min(p[0], q[0]) > x1:
        return False
    if max(p[1], q[1]) < y0 or min(p[1], q[1]) > y1:
        return False
    # The line misses the box only when all four corners lie strictly on one side of it.
    dx, dy = q[0] - p[0], q[1] - p[1]
    a = dx * (y0 - p[1]) - dy * (x0 - p[0])
    b = dx * (y1 - p[1]) - dy * (x0 - p[0])
    c = dx * (y0 - p[1]) - dy * (x1 - p[0])
    d = dx * (y1 - p[1]) - dy * (x1 - p[0])
    return not ((a > 0 and b > 0 and c > 0 and d > 0) or (a < 0 and b < 0 and c < 0 and d < 0))


def _box_cross(p: tuple[int, int], q: tuple[int, int], x0: int, y0: int) -> bool:
    """Does segment pq pass through the interior of the box (not merely touch a corner)?"""
    x1, y1 = x0 + 2, y0 + 2
    if max(p[0], q[0]) <= x0 or min(p[0], q[0]) >= x1:
        return False
    if max(p[1], q[1]) <= y0 or min(p[1], q[1]) >= y1:
        return False
    dx, dy = q[0] - p[0], q[1] - p[1]
    signs = [
        (dx * (cy - p[1]) - dy * (cx - p[0]) > 0) - (dx * (cy - p[1]) - dy * (cx - p[0]) < 0)
        for cx in (x0, x1)
        for cy in (y0, y1)
    ]
    return 1 in signs and -1 in signs


def crossed_squares(a: Square, b: Square) -> tuple[Square, ...]:
    """Squares strictly between `a` and `b` whose interior the centre-to-centre line crosses."""
    p, q = (2 * a.x + 1, 2 * a.y + 1), (2 * b.x + 1, 2 * b.y + 1)
    return tuple(
        Square(x, y)
        for x in range(min(a.x, b.x), max(a.x, b.x) + 1)
        for y in range(min(a.y, b.y), max(a.y, b.y) + 1)
        if Square(x, y) not in (a, b) and _box_cross(p, q, 2 * x, 2 * y)
    )


def touched_squares(a: Square, b: Square) -> tuple[Square, ...]:
    """Squares whose closed area the centre-to-centre line touches, ordered from `a`.

    Same result as `engine.core.squaregrid.line_squares(touching=True)`, in integer arithmetic.
    """
    p, q = (2 * a.x + 1, 2 * a.y + 1), (2 * b.x + 1, 2 * b.y + 1)
    lo, hi = (p, q) if p[0] <= q[0] else (q, p)  # left end first
    dx, dy = hi[0] - lo[0], hi[1] - lo[1]
    y_first, y_last = min(a.y, b.y) - 1, max(a.y, b.y) + 1
    met = []
    for x in range(min(a.x, b.x) - 1, max(a.x, b.x) + 2):
        # Only boxes in the rows the segment spans within this column can touch it; the
        # exact test stays `_box_touch`, this merely skips boxes it would reject.
        x0, x1 = max(2 * x, lo[0]), min(2 * x + 2, hi[0])
        if x0 > x1:
            continue
        if dx == 0:
            y_low, y_high = min(p[1], q[1]), max(p[1], q[1])
        else:
            ya, yb = lo[1] * dx + (x0 - lo[0]) * dy, lo[1] * dx + (x1 - lo[0]) * dy
            y_low, y_high = min(ya, yb) // dx, -(-max(ya, yb) // dx)  # floor, ceiling
        for y in range(max(y_first, (y_low - 1) // 2), min(y_last, y_high // 2) + 1):
            if _box_touch(p, q, 2 * x, 2 * y):
                met.append(Square(x, y))

    def progress(s: Square) -> tuple[int, int, int]:
        cx, cy = 2 * s.x + 1 - p[0], 2 * s.y + 1 - p[1]
        return (cx * (q[0] - p[0]) + cy * (q[1] - p[1]), s.x, s.y)

    return tuple(sorted(met, key=progress))


def _orient(p: tuple[int, int], q: tuple[int, int], r: tuple[int, int]) -> int:
    v = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    return (v > 0) - (v < 0)


def _on_segment(p: tuple[int, int], q: tuple[int, int], r: tuple[int, int]) -> bool:
    return min(p[0], q[0]) <= r[0] <= max(p[0], q[0]) and min(p[1], q[1]) <= r[1] <= max(p[1], q[1])


def segments_touch(
    p1: tuple[int, int], p2: tuple[int, int], q1: tuple[int, int], q2: tuple[int, int]
) -> bool:
    """Closed segment intersection: touching at an end point counts."""
    d1, d2 = _orient(q1, q2, p1), _orient(q1, q2, p2)
    d3, d4 = _orient(p1, p2, q1), _orient(p1, p2, q2)
    if d1 != d2 and d3 != d4:
        return True
    return (
        (d1 == 0 and _on_segment(q1, q2, p1))
        or (d2 == 0 and _on_segment(q1, q2, p2))
        or (d3 == 0 and _on_segment(p1, p2, q1))
        or (d4 == 0 and _on_segment(p1, p2, q2))
    )


# Sight is asked thousands of times per phase, so the geometry of each line is cached. The
# caches are plain dicts holding only strings and tuples of ints and strings: the garbage
# collector stops tracking such values, so however large the caches grow they add nothing to
# its full collections (an `lru_cache`, or values holding `Square`s, would add several tracked
# objects per entry; issue #10). Each is bounded by the pairs of squares of the two maps.
_LINES: dict[tuple[str, int, int, int, int], tuple[str, ...] | None] = {}
_CROSSED: dict[tuple[int, int, int, int], tuple[str, ...]] = {}


def clear_line(board: Board, a: Square, b: Square, open_doors: frozenset[str]) -> bool:
    """Walls only: does the centre-to-centre line avoid every wall, closed door and frame?"""
    key = (board.name, a.x, a.y, b.x, b.y)
    try:
        doors = _LINES[key]
    except KeyError:
        doors = _LINES[key] = _line_rule(board, a, b)
    return doors is not None and all(door in open_doors for door in doors)


def crossed_labels(a: Square, b: Square) -> tuple[str, ...]:
    """The labels of `crossed_squares(a, b)` (the squares whose units block the line)."""
    key = (a.x, a.y, b.x, b.y)
    try:
        return _CROSSED[key]
    except KeyError:
        found = _CROSSED[key] = tuple(label(s) for s in crossed_squares(a, b))
        return found


def _line_rule(board: Board, a: Square, b: Square) -> tuple[str, ...] | None:
    """The line from `a` to `b` whatever the doors: None when space, a wall, an airlock or a
    door frame blocks it, else the doors it crosses (all must be open for it to be clear).

    Door frames block open or closed because every edge's end points are posts (`_posts`).
    """
    p, q = (2 * a.x + 1, 2 * a.y + 1), (2 * b.x + 1, 2 * b.y + 1)
    touched = touched_squares(a, b)
    for sq in touched:
        if sq not in board.floor:
            return None
    doors: set[str] = set()
    for sq in touched:
        for d in ((1, 0), (0, 1), (-1, 0), (0, -1)):
            other = Square(sq.x + d[0], sq.y + d[1])
            key = edge_key(sq, other)
            kind = board.edges.get(key)
            if kind is None:
                continue
            s1, s2 = _segment_for(key)
            if not segments_touch(p, q, s1, s2):
                continue
            if kind in (WALL, AIRLOCK):
                return None
            for post in (s1, s2):
                if _orient(p, q, post) == 0 and _on_segment(p, q, post):
                    return None
            doors.add(door_id(*key))
    return tuple(sorted(doors))


# --- loading ---------------------------------------------------------------------------------


def parse_map(name: str, text: str) -> Board:
    lines = text.splitlines()
    try:
        start = lines.index("[grid]")
        marks_at = lines.index("[marks]")
    except ValueError as missing:
        raise ContentError(f"map {name}: needs [grid] and [marks] sections") from missing
    grid = lines[start + 1 : marks_at]
    if len(grid) < 3 or len(grid) % 2 == 0:
        raise ContentError(f"map {name}: the grid needs an odd number of text rows")
    width = max(len(row) for row in grid)
    grid = [row.ljust(width) for row in grid]
    if width % 2 == 0:
        raise ContentError(f"map {name}: the grid needs an odd number of text columns")
    board = Board(name=name, width=(width - 1) // 2, height=(len(grid) - 1) // 2)
    for y in range(board.height):
        for x in range(board.width):
            ch = grid[2 * y + 1][2 * x + 1]
            sq = Square(x, y)
            if ch == " ":
                continue
            board.floor.add(sq)
            if ch.isdigit():
                number = int(ch)
                if not 1 <= number <= 6 or number in board.vents:
                    raise ContentError(f"map {name}: bad or repeated vent {ch} at {label(sq)}")
                board.vents[number] = sq
            elif ch == "o":
                board.setup.append(sq)
            elif ch == "c":
                board.caches.append(sq)
            elif ch.isupper():
                board.letters[ch] = sq
            elif ch != ".":
                raise ContentError(f"map {name}: unknown square mark {ch!r} at {label(sq)}")
    for y in range(-1, board.height):
        for x in range(-1, board.width):
            here = Square(x, y)
            for other, ch in (
                (Square(x + 1, y), grid[2 * y + 1][2 * x + 2] if y >= 0 else " "),
                (Square(x, y + 1), grid[2 * y + 2][2 * x + 1] if x >= 0 else " "),
            ):
                if ch not in _EDGE_CHARS:
                    raise ContentError(f"map {name}: unknown edge mark {ch!r} near {label(here)}")
                kind = _EDGE_CHARS[ch]
                if kind is not None and (here in board.floor or other in board.floor):
                    board.edges[edge_key(here, other)] = kind
    _parse_marks(board, lines[marks_at + 1 :])
    _validate(board)
    return board


def _parse_rect(board: Board, text: str) -> set[Square]:
    first, _, last = text.partition("-")
    a, b = parse_label(first), parse_label(last or first)
    if a is None or b is None:
        raise ContentError(f"map {board.name}: bad rectangle {text!r}")
    return {
        Square(x, y)
        for x in range(min(a.x, b.x), max(a.x, b.x) + 1)
        for y in range(min(a.y, b.y), max(a.y, b.y) + 1)
    }


def _parse_marks(board: Board, rows: Iterable[str]) -> None:
    for raw in rows:
        row = raw.split("#", 1)[0].strip()
        if not row:
            continue
        head, _, rest = row.partition(":")
        words = head.split()
        if len(words) != 2:
            raise ContentError(f"map {board.name}: cannot read mark line {raw!r}")
        kind, ident = words
        if kind == "room":
            squares = _parse_rect(board, rest.strip())
            if not squares <= board.floor:
                raise ContentError(f"map {board.name}: room {ident} reaches outside the floor")
            board.rooms[ident] = squares
        elif kind == "airlock":
            parts = rest.split()
            sq = parse_label(parts[0]) if parts else None
            if sq is None or len(parts) != 2 or parts[1] not in OUTSIDE_DELTAS:
                raise ContentError(f"map {board.name}: bad airlock line {raw!r}")
            d = OUTSIDE_DELTAS[parts[1]]
            key = edge_key(sq, Square(sq.x + d[0], sq.y + d[1]))
            if board.edges.get(key) != AIRLOCK:
                raise ContentError(f"map {board.name}: airlock {ident} is not on an airlock")
            board.airlock_names[ident] = key
        else:
            raise ContentError(f"map {board.name}: unknown mark kind {kind!r}")


def _validate(board: Board) -> None:
    if sorted(board.vents) != [1, 2, 3, 4, 5, 6]:
        raise ContentError(f"map {board.name}: needs the six vents 1-6")
    if len(board.setup) < 8:
        raise ContentError(f"map {board.name}: needs at least 8 Marine set-up squares")
    for sq in board.floor:
        for d in ((1, 0), (0, 1), (-1, 0), (0, -1)):
            other = Square(sq.x + d[0], sq.y + d[1])
            if other not in board.floor and board.edge(sq, other) not in (WALL, AIRLOCK):
                raise ContentError(
                    f"map {board.name}: {label(sq)} opens onto space without a wall or airlock"
                )
    for key, kind in board.edges.items():
        inside = [s for s in key if s in board.floor]
        if kind == AIRLOCK and len(inside) != 1:
            raise ContentError(f"map {board.name}: airlock {door_id(*key)} must face space")
        if kind in (DOOR, SECURITY) and len(inside) != 2:
            raise ContentError(f"map {board.name}: door {door_id(*key)} must join two squares")


MAP_FILES = {
    "A": "command-deck.txt",
    "B": "engineering-sublevel.txt",
    "B-solo": "engineering-sublevel-solo.txt",
}


@cache
def load_board(map_key: str) -> Board:
    if map_key not in MAP_FILES:
        raise ContentError(f"unknown map {map_key!r}")
    text = (
        resources.files("engine.forlorn")
        .joinpath("content", "maps", MAP_FILES[map_key])
        .read_text(encoding="utf-8")
    )
    return parse_map(map_key, text)
