"""The board of a mission: cells on a grid, each in an Area and a Room, with walls and doors.

Built once per mission from the tile files and cached. Door states live in the game state, so
every query that depends on them takes the set of open door ids.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache

from engine.core.areagraph import AreaGraph
from engine.core.errors import ContentError
from engine.reich.content import MissionDef, load_content

Cell = tuple[int, int]
DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1))


@dataclass(frozen=True)
class Door:
    id: str
    a: Cell
    b: Cell
    areas: tuple[str, str]
    lock: str | None


@dataclass(frozen=True)
class Line:
    """A straight horizontal or vertical run between two Areas."""

    between: frozenset[str]
    doors: frozenset[str]


@dataclass
class Board:
    mission: str
    area_of: dict[Cell, str] = field(default_factory=dict)
    room_of: dict[Cell, str] = field(default_factory=dict)
    tile_of: dict[Cell, str] = field(default_factory=dict)
    cells_of: dict[str, list[Cell]] = field(default_factory=dict)
    borders: set[frozenset[str]] = field(default_factory=set)
    open_edges: set[frozenset[Cell]] = field(default_factory=set)
    doors: dict[str, Door] = field(default_factory=dict)
    door_at: dict[frozenset[Cell], str] = field(default_factory=dict)
    lines: dict[tuple[str, str], list[Line]] = field(default_factory=dict)
    _across: dict[str, list[str]] | None = field(
        default=None, init=False, repr=False, compare=False
    )
    _graphs: dict[tuple[str, ...], AreaGraph] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    @property
    def areas(self) -> list[str]:
        return sorted(self.cells_of)

    def capacity(self, area: str) -> int:
        """How many miniature bases an Area holds: two per grid cell (our measure)."""
        return 2 * len(self.cells_of[area])

    def across_borders(self, area: str) -> list[str]:
        """Areas sharing an open border (no door) with `area`, in name order: a fixed order,
        because path ties are broken by discovery order and a set's order is not fixed."""
        if self._across is None:
            across: dict[str, set[str]] = {}
            for border in self.borders:
                a, b = sorted(border)
                across.setdefault(a, set()).add(b)
                across.setdefault(b, set()).add(a)
            self._across = {k: sorted(v) for k, v in across.items()}
        return self._across.get(area, [])

    def doors_of(self, area: str) -> list[Door]:
        return [d for d in self.doors.values() if area in d.areas]

    def door_between(self, a: str, b: str) -> Door | None:
        for door in self.doors.values():
            if set(door.areas) == {a, b}:
                return door
        return None

    def graph(self, open_doors: Iterable[str]) -> AreaGraph:
        """The movement graph with these doors open; cached per door list (never mutate it)."""
        key = tuple(open_doors)
        found = self._graphs.get(key)
        if found is None:
            pairs = [tuple(sorted(p)) for p in self.borders]
            pairs += [self.doors[d].areas for d in key]
            found = self._graphs[key] = AreaGraph(((a, b) for a, b in pairs), areas=self.areas)
        return found

    def sight(self, a: str, b: str, open_doors: set[str], blocked: Callable[[str], bool]) -> bool:
        """Line of Sight between Areas `a` and `b` along a row or column of cells.

        `blocked(area)` says whether an Area stops sight (smoke, opposing miniatures). The two
        end Areas are only checked by the caller (smoke); adjacency through an open border or
        door always gives sight.
        """
        if a == b:
            return True
        for line in self.lines.get((a, b), ()):
            if line.doors <= open_doors and not any(blocked(x) for x in line.between):
                return True
        return False

    def tile_name(self, area: str) -> str:
        return self.tile_of[self.cells_of[area][0]]


def _edge_kind(board: Board, a: Cell, b: Cell) -> str:
    key = frozenset((a, b))
    if key in board.door_at:
        return "door"
    if key in board.open_edges:
        return "open"
    return "wall"


@cache
def build_board(mission_key: str) -> Board:
    content = load_content()
    mission: MissionDef = content.missions[mission_key]
    board = Board(mission=mission_key)
    for place in mission.tiles:
        tile = content.tiles[place.tile]
        room_index = {ch: i for i, room in enumerate(tile.rooms) for ch in room}
        for r, row in enumerate(tile.grid):
            for c, ch in enumerate(row):
                cell = (place.col + c, place.row + r)
                if cell in board.area_of:
                    raise ContentError(f"mission {mission_key}: tiles overlap at {cell}")
                label = tile.label(ch)
                board.area_of[cell] = label
                board.room_of[cell] = f"{tile.key}:{room_index[ch]}"
                board.tile_of[cell] = tile.key
                board.cells_of.setdefault(label, []).append(cell)
    open_pairs = {frozenset(p) for p in mission.open}
    for cell, area in board.area_of.items():
        for dc, dr in ((1, 0), (0, 1)):
            other = (cell[0] + dc, cell[1] + dr)
            if other not in board.area_of:
                continue
            there = board.area_of[other]
            same_room = board.room_of[cell] == board.room_of[other]
            if same_room or frozenset((area, there)) in open_pairs:
                board.open_edges.add(frozenset((cell, other)))
                if area != there:
                    board.borders.add(frozenset((area, there)))
    for pair in open_pairs:
        if pair not in board.borders:
            raise ContentError(f"mission {mission_key}: {sorted(pair)} do not touch")
    for index, door in enumerate(mission.doors, 1):
        a, b = door.between
        walls = sorted(
            (cell, (cell[0] + dc, cell[1] + dr))
            for cell in board.cells_of.get(a, [])
            for dc, dr in DIRS
            if board.area_of.get((cell[0] + dc, cell[1] + dr)) == b
            and frozenset((cell, (cell[0] + dc, cell[1] + dr))) not in board.open_edges
        )
        if not walls:
            raise ContentError(f"mission {mission_key}: no wall between {a} and {b} for a door")
        ca, cb = walls[len(walls) // 2]
        did = f"D{index}"
        board.doors[did] = Door(did, ca, cb, (a, b), door.lock)
        board.door_at[frozenset((ca, cb))] = did
    for area in [mission.start, *mission.exits, *mission.barracks.values()]:
        if area not in board.cells_of:
            raise ContentError(f"mission {mission_key}: unknown Area {area}")
    _trace_lines(board)
    return board


def _trace_lines(board: Board) -> None:
    found: dict[tuple[str, str], set[Line]] = {}
    for start, origin in board.area_of.items():
        for dc, dr in DIRS:
            here = start
            between: list[str] = []
            doors: set[str] = set()
            while True:
                nxt = (here[0] + dc, here[1] + dr)
                if nxt not in board.area_of:
                    break
                kind = _edge_kind(board, here, nxt)
                if kind == "wall":
                    break
                if kind == "door":
                    doors.add(board.door_at[frozenset((here, nxt))])
                prev_area = board.area_of[here]
                if prev_area != origin and prev_area not in between:
                    between.append(prev_area)
                here = nxt
                target = board.area_of[here]
                if target != origin:
                    mids = frozenset(x for x in between if x != target)
                    found.setdefault((origin, target), set()).add(
                        Line(between=mids, doors=frozenset(doors))
                    )
    board.lines = {key: sorted(v, key=lambda ln: len(ln.between)) for key, v in found.items()}
