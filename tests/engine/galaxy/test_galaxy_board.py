"""Map geometry: labels, Areas, adjacency across sides, line of sight and ranges."""

from __future__ import annotations

from engine.core.hexgrid import Hex, neighbours
from engine.galaxy.board import label, load_map, parse_label, side

BOARD = load_map("crash-site")


def h(text: str) -> Hex:
    found = parse_label(text)
    assert found is not None
    return found


def test_labels_round_trip() -> None:
    for hex_ in BOARD.hexes():
        assert parse_label(label(hex_)) == hex_
    assert parse_label("g5") == h("G5")
    assert parse_label("5G") is None


def test_every_area_is_a_flower_of_seven() -> None:
    for area in BOARD.areas:
        hexes = BOARD.area_hexes(area)
        assert len(hexes) == 7 and all(BOARD.area_of[x] == area for x in hexes)
        assert all(n in hexes for n in neighbours(BOARD.centres[area]))


def test_walls_doors_and_windows() -> None:
    assert BOARD.side_kind(h("E4"), h("F4"), set()) == "wall"
    assert not BOARD.adjacent(h("E4"), h("F4"), set())
    assert BOARD.side_kind(h("E5"), h("F5"), set()) == "door"
    assert BOARD.step_ok(h("E5"), h("F5"), set(), "agent")
    assert BOARD.side_kind(h("H5"), h("I5"), set()) == "window"
    assert not BOARD.step_ok(h("H5"), h("I5"), set(), "agent")
    assert BOARD.step_ok(h("H5"), h("I5"), set(), "alien")
    locked = {side(h("E5"), h("F5"))}
    assert not BOARD.step_ok(h("E5"), h("F5"), locked, "alien")


def test_line_of_sight_rules() -> None:
    assert not BOARD.los(h("D4"), h("F4"), set())  # a wall
    assert BOARD.los(h("F5"), h("D5"), set())  # from the door hex
    assert not BOARD.los(h("D4"), h("G5"), set())  # through the closed hatch
    assert BOARD.los(h("G4"), h("I6"), set())  # through the window
    assert BOARD.los(h("B3"), h("D4"), set())  # open ground


def test_ranges_in_areas() -> None:
    assert BOARD.area_distance(h("B3"), h("C3")) == 0
    assert BOARD.area_distance(h("B3"), h("D4")) == 1
    assert BOARD.area_distance(h("B3"), h("G5")) == 2
    graph = BOARD.walk_graph(set())
    assert graph.distance("a", "d") == 2  # through c and the hatch
