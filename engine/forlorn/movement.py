"""Marine movement 5.1 (the Movement Point cost chart) and Xeno movement 6.2, as path searches."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from engine.core.pathfinding import Reach, reachable
from engine.core.squaregrid import Facing, Square, neighbours, step
from engine.forlorn.board import DOOR, Board, door_id, label
from engine.forlorn.state import ForlornState, Unit
from engine.forlorn.world import board_of, has_los, open_doors, sq

Node = tuple[Square, Facing]


def grapple_squares(state: ForlornState) -> set[Square]:
    """Squares where a Marine would be adjacent (in sight) to a non-Egg Xeno (7.3)."""
    board = board_of(state)
    out: set[Square] = set()
    for x in state.active("xenos"):
        if x.kind == "egg" or x.at is None:
            continue
        xs = sq(x.at)
        for n in neighbours(xs):
            if board.on_board(n) and has_los(state, n, xs, "marines"):
                out.add(n)
    return out


def marine_blocked(state: ForlornState) -> set[Square]:
    """Squares a Marine may not enter: Xenos (Eggs too) and vents."""
    board = board_of(state)
    out = {sq(u.at) for u in state.active("xenos") if u.at}
    out |= set(board.vents.values())
    return out


def marine_reach(
    state: ForlornState,
    marine: Unit,
    budget: int,
    grapple: set[Square] | None = None,
    blocked: set[Square] | None = None,
) -> Reach[Node]:
    board = board_of(state)
    doors = open_doors(state)
    grapple = grapple_squares(state) if grapple is None else grapple
    blocked = marine_blocked(state) if blocked is None else blocked
    flames = {sq(f) for f in state.flames}
    friends = {sq(u.at) for u in state.active("marines") if u.at and u.id != marine.id}
    start: Node = (sq(marine.at), Facing(marine.facing or "N"))

    def steps(node: Node) -> Iterator[tuple[Node, int]]:
        here, facing = node
        yield (here, facing.left), 1
        yield (here, facing.right), 1
        if here in grapple or (here in flames and node != start):
            return
        fwd, left, right = facing.delta, facing.left.delta, facing.right.delta
        moves = (
            (fwd, 1),
            (facing.back.delta, 2),
            (left, 2),
            (right, 2),
            ((fwd[0] + left[0], fwd[1] + left[1]), 2),
            ((fwd[0] + right[0], fwd[1] + right[1]), 2),
        )
        for delta, cost in moves:
            there = step(here, delta)
            if there in blocked or not board.passable(here, there, doors):
                continue
            yield (there, facing), cost

    def can_stop(node: Node) -> bool:
        return node[0] not in friends

    return reachable(start, steps, budget, can_stop)


def xeno_blocked(state: ForlornState) -> set[Square]:
    """Squares a Xeno may not enter: Marines and vents (it may leave the vent it stands on)."""
    board = board_of(state)
    out = {sq(u.at) for u in state.active("marines") if u.at}
    out |= set(board.vents.values())
    return out


def xeno_reach(
    state: ForlornState,
    xeno: Unit,
    budget: int | None,
    avoid_flames: bool = True,
    stop_filter: bool = True,
) -> Reach[Square]:
    """6.2: 1 MP orthogonal, 2 MP diagonal, +2 MP to open a closed normal door on the way."""
    board = board_of(state)
    table = _xeno_table(board, open_doors(state), frozenset(state.sealed_doors))
    blocked = xeno_blocked(state)
    flames = {sq(f) for f in state.flames} if avoid_flames else set()
    start = sq(xeno.at)
    occupied = {sq(u.at) for u in state.active("xenos") if u.at and u.id != xeno.id}

    def steps(here: Square) -> Iterator[tuple[Square, int]]:
        for there, cost in table.get(here, ()):
            if there not in blocked and there not in flames:
                yield there, cost

    def can_stop(s: Square) -> bool:
        return s not in occupied and board.vent_at(s) is None

    return reachable(start, steps, budget, can_stop if stop_filter else None)


_TABLES: dict[
    tuple[str, frozenset[str], frozenset[str]], dict[Square, list[tuple[Square, int]]]
] = {}


def _xeno_table(
    board: Board, doors: frozenset[str], sealed: frozenset[str]
) -> dict[Square, list[tuple[Square, int]]]:
    """Every Xeno step from each square with its MP cost (cached per door state)."""
    key = (board.name, doors, sealed)
    if key not in _TABLES:
        table: dict[Square, list[tuple[Square, int]]] = {}
        for here, options in _xeno_steps(board).items():
            out = []
            for there, cost, door in options:
                if board.passable(here, there, doors):
                    out.append((there, cost))
                elif door is not None and door not in sealed:
                    out.append((there, cost + 2))
            table[here] = out
        if len(_TABLES) > 512:
            _TABLES.clear()
        _TABLES[key] = table
    return _TABLES[key]


_STEPS: dict[str, dict[Square, list[tuple[Square, int, str | None]]]] = {}


def _xeno_steps(board: Board) -> dict[Square, list[tuple[Square, int, str | None]]]:
    """Per board, in `neighbours` order (it breaks path ties): each step onto the floor with
    its MP cost and the closed normal door it may open (+2 MP), if any."""
    if board.name not in _STEPS:
        steps: dict[Square, list[tuple[Square, int, str | None]]] = {}
        for here in board.floor:
            out: list[tuple[Square, int, str | None]] = []
            for there in neighbours(here):
                if not board.on_board(there):
                    continue
                diagonal = there.x != here.x and there.y != here.y
                door = (
                    door_id(here, there)
                    if not diagonal and board.edge(here, there) == DOOR
                    else None
                )
                out.append((there, 2 if diagonal else 1, door))
            steps[here] = out
        _STEPS[board.name] = steps
    return _STEPS[board.name]


def doors_on_path(state: ForlornState, path: list[Square]) -> list[str]:
    """Closed normal doors a Xeno path opens."""
    board = board_of(state)
    out = []
    for a, b in itertools.pairwise(path):
        if board.edge(a, b) == DOOR and door_id(a, b) not in state.open_doors:
            out.append(door_id(a, b))
    return out


def labels(path: list[Square]) -> list[str]:
    return [label(s) for s in path]
