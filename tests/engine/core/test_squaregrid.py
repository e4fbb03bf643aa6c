import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.squaregrid import (
    Facing,
    Square,
    chebyshev,
    facing_towards,
    in_front_arc,
    is_diagonal,
    line_squares,
    manhattan,
    neighbours,
)

coords = st.integers(min_value=-15, max_value=15)
squares = st.builds(Square, coords, coords)


def test_eight_neighbours_orthogonal_first() -> None:
    n = neighbours(Square(3, 3))
    assert len(set(n)) == 8
    assert not any(is_diagonal(Square(3, 3), s) for s in n[:4])
    assert all(is_diagonal(Square(3, 3), s) for s in n[4:])


def test_facing_turns() -> None:
    assert Facing.N.right is Facing.E and Facing.N.left is Facing.W and Facing.E.back is Facing.W
    assert Facing.W.turned(5) is Facing.N


def test_front_arc_is_every_row_ahead() -> None:
    sgt = Square(5, 5)
    assert in_front_arc(sgt, Facing.N, Square(5, 4))
    assert in_front_arc(sgt, Facing.N, Square(0, 1))  # far off to the side, but ahead
    assert not in_front_arc(sgt, Facing.N, Square(4, 5))  # beside
    assert not in_front_arc(sgt, Facing.N, Square(5, 6))  # behind


def test_range_does_not_count_diagonals() -> None:
    assert manhattan(Square(0, 0), Square(1, 1)) == 2
    assert chebyshev(Square(0, 0), Square(1, 1)) == 1
    assert facing_towards(Square(0, 0), Square(0, -3)) is Facing.N
    assert facing_towards(Square(0, 0), Square(1, 1)) is None


def test_diagonal_line_touches_corners_only_when_strict() -> None:
    strict = line_squares(Square(0, 0), Square(2, 2), touching=True)
    loose = line_squares(Square(0, 0), Square(2, 2), touching=False)
    assert loose == [Square(0, 0), Square(1, 1), Square(2, 2)]
    # The exact diagonal passes through corners shared with (1,0), (0,1), (2,1), (1,2).
    assert {Square(1, 0), Square(0, 1), Square(2, 1), Square(1, 2)} <= set(strict)


def test_straight_line_grazes_nothing() -> None:
    assert line_squares(Square(0, 0), Square(3, 0)) == [Square(x, 0) for x in range(4)]


@settings(max_examples=150, deadline=None)
@given(squares, squares)
def test_lines_are_ordered_contiguous_and_symmetric(a: Square, b: Square) -> None:
    met = line_squares(a, b, touching=False)
    assert met[0] == a and met[-1] == b
    for before, after in itertools.pairwise(met):
        assert chebyshev(before, after) == 1
    assert set(met) == set(line_squares(b, a, touching=False))
    assert set(met) <= set(line_squares(a, b, touching=True))
