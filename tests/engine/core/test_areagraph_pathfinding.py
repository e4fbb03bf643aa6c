import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.areagraph import AreaGraph
from engine.core.pathfinding import cheapest_path, reachable
from engine.core.squaregrid import Square, is_diagonal, neighbours


def corridor() -> AreaGraph:
    return AreaGraph([("A", "B"), ("B", "C"), ("C", "D"), ("A", "E"), ("E", "D")])


def test_area_distance_in_borders_crossed() -> None:
    g = corridor()
    assert g.distance("A", "D") == 2
    assert g.shortest_path("A", "D") == ["A", "E", "D"]
    closed = {("A", "E"), ("E", "A")}
    assert g.distance("A", "D", lambda a, b: (a, b) not in closed) == 3
    assert g.distance("A", "Z") is None


def grid_steps(walls: set[Square], size: int):  # type: ignore[no-untyped-def]
    def steps(sq: Square):  # type: ignore[no-untyped-def]
        for n in neighbours(sq):
            if 0 <= n.x < size and 0 <= n.y < size and n not in walls:
                yield n, 2 if is_diagonal(sq, n) else 1

    return steps


def test_reachable_respects_costs_budget_and_stops() -> None:
    walls = {Square(1, 0), Square(1, 1)}
    reach = reachable(Square(0, 0), grid_steps(walls, 4), budget=4)
    assert Square(1, 0) not in reach
    assert reach.cost[Square(2, 2)] == 4  # (0,1) -> (1,2) diagonal -> (2,2)
    assert Square(3, 3) not in reach
    path = reach.path(Square(2, 2))
    assert path[0] == Square(0, 0) and path[-1] == Square(2, 2)
    found = cheapest_path(Square(0, 0), lambda s: s == Square(2, 0), grid_steps(walls, 4))
    assert found is not None and found[0] == 6  # round the wall: 1 + 2 + 2 + 1


@settings(max_examples=80, deadline=None)
@given(st.sets(st.builds(Square, st.integers(0, 5), st.integers(0, 5)), max_size=12))
def test_paths_never_cross_a_wall(walls: set[Square]) -> None:
    walls.discard(Square(0, 0))
    reach = reachable(Square(0, 0), grid_steps(walls, 6))
    for node in reach.cost:
        path = reach.path(node)
        assert not walls & set(path)
        total = sum(2 if is_diagonal(a, b) else 1 for a, b in itertools.pairwise(path))
        assert total == reach.cost[node]


@settings(max_examples=80, deadline=None)
@given(
    st.sets(st.builds(Square, st.integers(0, 6), st.integers(0, 6)), max_size=14),
    st.sets(st.builds(Square, st.integers(0, 6), st.integers(0, 6)), max_size=4),
)
def test_stopping_early_settles_the_wanted_nodes_as_a_full_search_does(
    walls: set[Square], wanted: set[Square]
) -> None:
    walls.discard(Square(0, 0))
    full = reachable(Square(0, 0), grid_steps(walls, 7))
    early = reachable(Square(0, 0), grid_steps(walls, 7), until=wanted)
    assert set(early.cost) <= set(full.cost)
    for node in early.cost:  # whatever was settled has the full search's cost and path
        assert early.cost[node] == full.cost[node]
        assert early.path(node) == full.path(node)
    for node in wanted:  # each wanted node is there exactly when a full search reaches it
        assert (node in early) == (node in full)


def test_stopping_early_skips_the_rest_of_the_board() -> None:
    early = reachable(Square(0, 0), grid_steps(set(), 7), until={Square(1, 1)})
    assert Square(1, 1) in early and Square(6, 6) not in early
    assert len(early.cost) < 10


@settings(max_examples=80, deadline=None)
@given(
    st.sets(st.builds(Square, st.integers(0, 6), st.integers(0, 6)), max_size=14),
    st.sets(st.builds(Square, st.integers(0, 6), st.integers(0, 6)), max_size=4),
)
def test_stopping_at_the_nearest_goal_keeps_every_node_as_cheap(
    walls: set[Square], goals: set[Square]
) -> None:
    walls.discard(Square(0, 0))
    full = reachable(Square(0, 0), grid_steps(walls, 7))
    early = reachable(Square(0, 0), grid_steps(walls, 7), nearest=lambda s: s in goals)
    found = [full.cost[g] for g in goals if g in full]
    cap = min(found) if found else None
    for node, cost in full.cost.items():  # everything up to the nearest goal's cost is settled
        assert (node in early) == (cap is None or cost <= cap), node
    for node in early.cost:
        assert early.cost[node] == full.cost[node]
        assert early.path(node) == full.path(node)
