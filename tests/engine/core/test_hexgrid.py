import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.hexgrid import (
    Hex,
    direction_to,
    distance,
    line,
    line_hexes,
    neighbours,
    ring,
    within,
)

coords = st.integers(min_value=-12, max_value=12)
hexes = st.builds(Hex, coords, coords)


def test_neighbours_are_at_distance_one() -> None:
    origin = Hex(2, -1)
    assert len(set(neighbours(origin))) == 6
    assert all(distance(origin, n) == 1 for n in neighbours(origin))
    assert all(direction_to(origin, n) == i for i, n in enumerate(neighbours(origin)))


def test_within_and_ring_sizes() -> None:
    assert len(list(within(Hex(0, 0), 1))) == 7  # an Area: a centre hex and its six neighbours
    assert len(list(within(Hex(0, 0), 3))) == 37
    assert len(ring(Hex(0, 0), 2)) == 12


def test_straight_line_through_centres() -> None:
    assert line(Hex(0, 0), Hex(3, 0)) == [(Hex(0, 0),), (Hex(1, 0),), (Hex(2, 0),), (Hex(3, 0),)]


def test_line_exactly_along_a_hex_side_reports_both_hexes() -> None:
    # From (0,0) to (1,1) the line runs along the side shared by (1,0) and (0,1).
    steps = line(Hex(0, 0), Hex(1, 1))
    assert steps[0] == (Hex(0, 0),) and steps[-1] == (Hex(1, 1),)
    assert steps[1] == tuple(sorted((Hex(1, 0), Hex(0, 1))))


@settings(max_examples=200, deadline=None)
@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    assert distance(a, b) == distance(b, a) >= 0
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@settings(max_examples=200, deadline=None)
@given(hexes, hexes)
def test_line_steps_are_contiguous(a: Hex, b: Hex) -> None:
    steps = line(a, b)
    assert len(steps) == distance(a, b) + 1
    for before, after in itertools.pairwise(steps):
        for x in before:
            assert any(distance(x, y) == 1 for y in after)
    assert set(line_hexes(a, b)) == set(line_hexes(b, a))
