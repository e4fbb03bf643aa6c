"""Marine movement 5.1 (the Movement Point cost chart) and Xeno movement 6.2, as path searches."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

from engine.core.pathfinding import Reach, reachable
from engine.core.squaregrid import Facing, Square, neighbours, step
from engine.forlorn.board import DOOR, Board, door_id, label
from engine.forlorn.state import ForlornState, Unit
from engine.forlorn.world import blockers_for, board_of, has_los, open_doors, sq

Node = tuple[Square, Facing]


def grapple_squares(state: ForlornState) -> set[Square]:
    """Squares where a Marine would be adjacent (in sight) to a non-Egg Xeno (7.3)."""
    board = board_of(state)
    blockers = blockers_for(state, "marines")
    out: set[Square] = set()
    for x in state.active("xenos"):
        if x.kind == "egg" or x.at is None:
            continue
        xs = sq(x.at)
        for n in neighbours(xs):
            if board.on_board(n) and has_los(state, n, xs, "marines", blockers):
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
    through_flames: bool = False,
) -> Reach[Node]:
    """5.1 as a search over (square, facing). A Marine may enter a flame square (8.7, it is
    attacked there); with `through_flames` it may also go on beyond one."""
    board = board_of(state)
    doors = open_doors(state)
    grapple = grapple_squares(state) if grapple is None else grapple
    blocked = marine_blocked(state) if blocked is None else blocked
    flames = set() if through_flames else {sq(f) for f in state.flames}
    friends = {sq(u.at) for u in state.active("marines") if u.at and u.id != marine.id}
    start: Node = (sq(marine.at), Facing(marine.facing or "N"))
    table = _marine_steps(board)

    def steps(node: Node) -> Iterator[tuple[Node, int]]:
        here = node[0]
        turn_left, turn_right, moves, costs, rules = table[node]
        yield turn_left, 1
        yield turn_right, 1
        if here in grapple or (here in flames and node != start):
            return
        for there, cost, rule in zip(moves, costs, rules, strict=True):
            if rule is not True and rule not in doors:
                continue
            if there[0] not in blocked:
                yield there, cost

    def can_stop(node: Node) -> bool:
        return node[0] not in friends

    return reachable(start, steps, budget, can_stop)


# Per node: the two turned nodes, then the moves, their MP costs and their step rules, as
# parallel tuples of shared node objects (few objects for the garbage collector to walk).
_MarineSteps = dict[
    Node, tuple[Node, Node, tuple[Node, ...], tuple[int, ...], tuple[bool | str, ...]]
]
_MARINE_STEPS: dict[str, _MarineSteps] = {}


def _marine_steps(board: Board) -> _MarineSteps:
    """5.1 per board, for each square and facing: the two quarter turns (1 MP each), then the
    moves in a fixed order (it breaks path ties): forward 1 MP; back, sideways and the two
    forward diagonals 2 MP each, keeping the facing. A move carries its `Board` step rule:
    True, or the door that must be open; moves the walls always block are left out."""
    if board.name not in _MARINE_STEPS:
        nodes = {(here, facing): (here, facing) for here in board.floor for facing in Facing}
        table: _MarineSteps = {}
        for node in nodes.values():
            here, facing = node
            fwd, left, right = facing.delta, facing.left.delta, facing.right.delta
            deltas = (
                (fwd, 1),
                (facing.back.delta, 2),
                (left, 2),
                (right, 2),
                ((fwd[0] + left[0], fwd[1] + left[1]), 2),
                ((fwd[0] + right[0], fwd[1] + right[1]), 2),
            )
            moves: list[Node] = []
            costs: list[int] = []
            rules: list[bool | str] = []
            for delta, cost in deltas:
                there = step(here, delta)
                rule = board.step_rule(here, there)
                if rule is not False:  # only floor squares pass, so `there` has a node
                    moves.append(nodes[(there, facing)])
                    costs.append(cost)
                    rules.append(rule)
            table[node] = (
                nodes[(here, facing.left)],
                nodes[(here, facing.right)],
                tuple(moves),
                tuple(costs),
                tuple(rules),
            )
        _MARINE_STEPS[board.name] = table
    return _MARINE_STEPS[board.name]


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
    until: set[Square] | None = None,
    nearest: Callable[[Square], bool] | None = None,
) -> Reach[Square]:
    """6.2: 1 MP orthogonal, 2 MP diagonal, +2 MP to open a closed normal door on the way.

    `until`, `nearest`: stop the search early, as in `reachable`."""
    board = board_of(state)
    doors, sealed = open_doors(state), frozenset(state.sealed_doors)
    blocked = xeno_blocked(state)
    flames = {sq(f) for f in state.flames} if avoid_flames else set()
    start = sq(xeno.at)
    occupied = {sq(u.at) for u in state.active("xenos") if u.at and u.id != xeno.id}

    barred = blocked | flames

    def steps(here: Square) -> Iterator[tuple[Square, int]]:
        return xeno_moves(board, here, doors, sealed, barred)

    def can_stop(s: Square) -> bool:
        return s not in occupied and board.vent_at(s) is None

    if until is not None:  # squares no step enters would keep the search going to the end
        until = {s for s in until if board.on_board(s) and s not in blocked and s not in flames}
    return reachable(start, steps, budget, can_stop if stop_filter else None, until, nearest)


def xeno_moves(
    board: Board,
    here: Square,
    doors: frozenset[str],
    sealed: frozenset[str],
    barred: set[Square] | frozenset[Square] = frozenset(),
) -> Iterator[tuple[Square, int]]:
    """Every Xeno step from `here` onto a square not `barred`, with its MP cost, in
    `neighbours` order (it breaks path ties): a closed normal door not sealed costs +2 MP.

    Nothing is cached per door state: door states are many and a cache of them kept hundreds
    of thousands of objects alive for the garbage collector to walk (issue #10)."""
    for there, cost, rule, door in _xeno_steps(board).get(here, ()):
        if there in barred:
            continue
        if rule is True or (rule is not False and rule in doors):
            yield there, cost
        elif door is not None and door not in sealed:
            yield there, cost + 2


_XenoStep = tuple[Square, int, bool | str, str | None]
_STEPS: dict[str, dict[Square, list[_XenoStep]]] = {}


def _xeno_steps(board: Board) -> dict[Square, list[_XenoStep]]:
    """Per board, in `neighbours` order: each step onto the floor with its MP cost, its
    `Board.step_rule` and the normal door it may open, if any."""
    if board.name not in _STEPS:
        floor = {s: s for s in board.floor}  # shared Square objects: fewer for the collector
        steps: dict[Square, list[_XenoStep]] = {}
        for here in board.floor:
            out: list[_XenoStep] = []
            for there in neighbours(here):
                if there not in floor:
                    continue
                there = floor[there]
                diagonal = there.x != here.x and there.y != here.y
                door = (
                    door_id(here, there)
                    if not diagonal and board.edge(here, there) == DOOR
                    else None
                )
                rule = board.step_rule(here, there)
                if rule is not False or door is not None:
                    out.append((there, 2 if diagonal else 1, rule, door))
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
