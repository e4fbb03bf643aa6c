"""The precomputed step and sight rules (issue #10) agree with the rules they replace.

`Board.passable`, `clear_line` and the Xeno steps are precomputed per board instead of per door
state; each is checked here against a direct evaluation of the rule for random door states.
"""

from __future__ import annotations

import gc

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.squaregrid import Square, neighbours
from engine.forlorn.board import (
    _CROSSED,
    _LINES,
    DOOR,
    Board,
    _box_touch,
    _on_segment,
    _orient,
    _segment_for,
    clear_line,
    crossed_labels,
    door_id,
    edge_key,
    load_board,
    segments_touch,
    touched_squares,
)
from engine.forlorn.movement import _marine_steps, _xeno_steps, xeno_moves

BOARDS = ("A", "B")


def door_names(board: Board) -> list[str]:
    return sorted(door_id(*k) for k in board.doors())


def reference_clear_line(board: Board, a: Square, b: Square, open_doors: frozenset[str]) -> bool:
    """The sight test as it was written before the cache: walls and closed doors block when
    touched, and so does any door frame post the line runs through."""
    p, q = (2 * a.x + 1, 2 * a.y + 1), (2 * b.x + 1, 2 * b.y + 1)
    touched = touched_squares(a, b)
    if any(s not in board.floor for s in touched):
        return False
    blocking = board.blocking_edges(open_doors)
    posts = board.posts(open_doors)
    for s in touched:
        for d in ((1, 0), (0, 1), (-1, 0), (0, -1)):
            key = edge_key(s, Square(s.x + d[0], s.y + d[1]))
            if board.edges.get(key) is None:
                continue
            s1, s2 = _segment_for(key)
            if key in blocking:
                if segments_touch(p, q, s1, s2):
                    return False
            else:
                for post in (s1, s2):
                    if post in posts and _orient(p, q, post) == 0 and _on_segment(p, q, post):
                        return False
    return True


def reference_box_touch(p: tuple[int, int], q: tuple[int, int], x0: int, y0: int) -> bool:
    """Segment pq against the closed box [x0, x0+2] x [y0, y0+2], as first written."""
    x1, y1 = x0 + 2, y0 + 2
    if max(p[0], q[0]) < x0 or min(p[0], q[0]) > x1:
        return False
    if max(p[1], q[1]) < y0 or min(p[1], q[1]) > y1:
        return False
    dx, dy = q[0] - p[0], q[1] - p[1]
    signs = {
        (dx * (cy - p[1]) - dy * (cx - p[0]) > 0) - (dx * (cy - p[1]) - dy * (cx - p[0]) < 0)
        for cx in (x0, x1)
        for cy in (y0, y1)
    }
    return not (signs == {1} or signs == {-1})


points = st.tuples(st.integers(-3, 14), st.integers(-3, 14))


@settings(max_examples=300, deadline=None)
@given(p=points, q=points, x0=st.integers(-4, 14), y0=st.integers(-4, 14))
def test_box_touch_matches_the_first_version(
    p: tuple[int, int], q: tuple[int, int], x0: int, y0: int
) -> None:
    assert _box_touch(p, q, x0, y0) == reference_box_touch(p, q, x0, y0)


def reference_touched_squares(a: Square, b: Square) -> tuple[Square, ...]:
    """Every box around the line tested, as first written (no pruning of rows)."""
    p, q = (2 * a.x + 1, 2 * a.y + 1), (2 * b.x + 1, 2 * b.y + 1)
    met = [
        Square(x, y)
        for x in range(min(a.x, b.x) - 1, max(a.x, b.x) + 2)
        for y in range(min(a.y, b.y) - 1, max(a.y, b.y) + 2)
        if _box_touch(p, q, 2 * x, 2 * y)
    ]

    def progress(s: Square) -> tuple[int, int, int]:
        cx, cy = 2 * s.x + 1 - p[0], 2 * s.y + 1 - p[1]
        return (cx * (q[0] - p[0]) + cy * (q[1] - p[1]), s.x, s.y)

    return tuple(sorted(met, key=progress))


squares = st.builds(Square, st.integers(-1, 30), st.integers(-1, 30))


@settings(max_examples=400, deadline=None)
@given(a=squares, b=squares)
def test_touched_squares_match_the_unpruned_search(a: Square, b: Square) -> None:
    assert touched_squares(a, b) == reference_touched_squares(a, b)


def door_states(board_key: str) -> st.SearchStrategy[frozenset[str]]:
    return st.sets(st.sampled_from(door_names(load_board(board_key)))).map(frozenset)


@settings(max_examples=15, deadline=None)
@given(data=st.data(), board_key=st.sampled_from(BOARDS))
def test_passable_matches_the_rule(data: st.DataObject, board_key: str) -> None:
    board = load_board(board_key)
    doors = data.draw(door_states(board_key))
    for a in sorted(board.floor):
        for b in neighbours(a):
            assert board.passable(a, b, doors) == board._passable_rule(a, b, doors), (a, b)


@settings(max_examples=40, deadline=None)
@given(data=st.data(), board_key=st.sampled_from(BOARDS))
def test_clear_line_matches_the_rule(data: st.DataObject, board_key: str) -> None:
    board = load_board(board_key)
    floor = sorted(board.floor)
    doors = data.draw(door_states(board_key))
    a = data.draw(st.sampled_from(floor))
    for b in floor[:: max(1, len(floor) // 60)]:
        assert clear_line(board, a, b, doors) == reference_clear_line(board, a, b, doors), (a, b)


def test_clear_line_through_doors_needs_every_door_open() -> None:
    board = load_board("A")
    seen_door = False
    for a in sorted(board.floor)[::7]:
        for b in sorted(board.floor)[::5]:
            shut = clear_line(board, a, b, frozenset())
            wide = clear_line(board, a, b, frozenset(door_names(board)))
            assert not shut or wide  # opening doors never blocks a line
            seen_door |= wide and not shut
    assert seen_door  # the sample does include lines that only an open door lets through


@settings(max_examples=10, deadline=None)
@given(data=st.data(), board_key=st.sampled_from(BOARDS))
def test_xeno_moves_match_the_rule(data: st.DataObject, board_key: str) -> None:
    board = load_board(board_key)
    names = door_names(board)
    doors = data.draw(door_states(board_key))
    sealed = data.draw(st.sets(st.sampled_from(names)).map(frozenset))
    for here in board.floor:
        expected = []
        for there in neighbours(here):
            if there not in board.floor:
                continue
            diagonal = there.x != here.x and there.y != here.y
            cost = 2 if diagonal else 1
            if board._passable_rule(here, there, doors):
                expected.append((there, cost))
            elif (
                not diagonal
                and board.edge(here, there) == DOOR
                and door_id(here, there) not in sealed
            ):
                expected.append((there, cost + 2))
        assert list(xeno_moves(board, here, doors, sealed)) == expected, here
        barred = {there for there, _ in expected[::2]}
        kept = [(there, cost) for there, cost in expected if there not in barred]
        assert list(xeno_moves(board, here, doors, sealed, barred)) == kept, here


def tracked(obj: object, seen: set[int]) -> int:
    """Objects the garbage collector tracks in `obj`, walking tuples, lists and dicts."""
    if id(obj) in seen:
        return 0
    seen.add(id(obj))
    count = 1 if gc.is_tracked(obj) else 0
    if isinstance(obj, dict):
        return count + sum(tracked(k, seen) + tracked(v, seen) for k, v in obj.items())
    if isinstance(obj, tuple | list):
        return count + sum(tracked(item, seen) for item in obj)
    return count


def test_geometry_caches_give_the_collector_little_to_walk() -> None:
    """A full collection walks every tracked object; caches that grew per door state or held a
    `Square` per entry once made it take ~90 ms inside a Xeno phase (issue #10)."""
    board = load_board("A")
    floor = sorted(board.floor)
    for b in floor[::3]:
        clear_line(board, floor[0], b, frozenset())
        crossed_labels(floor[0], b)
    gc.collect()
    for cache in (_LINES, _CROSSED, board._step_rules):
        assert cache
        assert tracked(cache, set()) <= 1  # at most the dict itself
    seen: set[int] = set()
    tables = tracked(_marine_steps(board), seen) + tracked(_xeno_steps(board), seen)
    nodes = 4 * len(board.floor)  # a square and a facing
    assert tables < 6 * nodes  # about 5 now; about 19 with a tuple and a Square per step
