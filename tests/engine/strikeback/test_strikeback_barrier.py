"""Barrier Hex Sides (5.1) in the map format and in movement: only Flying or Burrowing figures
cross them, sight passes, the hexes stay adjacent (so range is counted as usual)."""

from __future__ import annotations

from engine.core.hexgrid import neighbours
from engine.galaxy.board import load_map, parse_map
from engine.galaxy.state import AlienState

CRATER = """name: Crater Test
grid:
. . . . . . . . . . .
 a a . . . . . b b . .
a A a c c . . b B b .
 a a c C c d d b b . .
. . . c c d D d . . .
 . . . . . d d . . . .

barrier c|d
barrier a|c
tp hit B3
start A3 A2 B2 A4 B4
"""


def test_barrier_sides_stop_walkers_and_let_flyers_and_sight_through() -> None:
    board = parse_map("crater-test", CRATER)
    c, d = board.centres["c"], board.centres["d"]
    pairs = [
        (h, n) for h in board.area_hexes("c") for n in neighbours(h) if board.area_of.get(n) == "d"
    ]
    assert pairs and all(board.side_kind(h, n, set()) == "barrier" for h, n in pairs)
    h, n = pairs[0]
    assert not board.step_ok(h, n, set(), "agent")
    assert not board.step_ok(h, n, set(), "alien")
    assert board.step_ok(h, n, set(), "flyer")
    assert board.adjacent(h, n, set())  # still adjacent: range and melee reach across
    assert board.los(c, d, set())  # sight passes
    assert board.walk_graph(set(), "alien").distance("c", "d") is None
    assert board.walk_graph(set(), "flyer").distance("c", "d") == 1
    assert board.area_distance(c, d) == 1


def test_flying_and_burrowing_aliens_are_flyers_others_walk() -> None:
    from engine.galaxy.aliens import walker

    def alien(card: str) -> AlienState:
        return AlienState(id="x1", card=card, hex=(0, 0), controller="marine")

    assert walker(alien("xeno-delta-green")) == "flyer"
    assert walker(alien("diggers-blue")) == "flyer"  # Burrowing
    assert walker(alien("crimson-nightmare-green")) == "alien"
    assert walker(alien("xeno-beta-green-1")) == "alien"  # a core card


def test_the_shipped_maps_stop_agents_on_foot_at_their_barrier_sides() -> None:
    """Crater rims on maps B1 (missions 1-3), B1+X1 (4) and O6 (6): an agent on foot cannot
    step across, a Flying figure can, and the hexes stay adjacent."""
    for name in ("b1", "b1m1", "b1x1", "o6"):
        board = load_map(name)
        assert board.barriers, name
        h, n = sorted(next(iter(board.barriers)))
        assert not board.step_ok(h, n, set(), "agent"), name
        assert board.step_ok(h, n, set(), "flyer"), name
        assert board.adjacent(h, n, set()), name
