"""Content loading: both maps, the unit profiles, the operations, validation errors."""

from __future__ import annotations

import pytest

from engine.core.errors import ContentError
from engine.core.squaregrid import Square
from engine.forlorn.board import DOOR, SECURITY, clear_line, load_board, parse_map
from engine.forlorn.content import scenarios, units


@pytest.mark.parametrize("key", ["A", "B"])
def test_maps_have_what_the_operations_need(key: str) -> None:
    board = load_board(key)
    assert sorted(board.vents) == [1, 2, 3, 4, 5, 6]
    assert len(board.setup) == 8
    assert len(board.caches) >= 3
    kinds = set(board.edges.values())
    assert {DOOR, SECURITY, "airlock", "wall"} <= kinds
    assert "A" in board.rooms
    assert board.letters


def test_lettered_places() -> None:
    a, b = load_board("A"), load_board("B")
    assert "A" in a.letters and "B" in a.airlock_names
    assert {"A", "B", "C"} <= set(b.rooms) and "C" in b.letters and "C" in b.airlock_names


def test_walls_and_doors_block_sight() -> None:
    a = load_board("A")
    # I4 and I5 are split by the command room's north door: closed blocks, open does not.
    assert not clear_line(a, Square(8, 3), Square(8, 4), frozenset())
    assert clear_line(a, Square(8, 3), Square(8, 4), frozenset({"I4-I5"}))
    # Along an open corridor.
    assert clear_line(a, Square(0, 4), Square(5, 4), frozenset())


def test_profiles_and_operations_load() -> None:
    assert units().marines["bates"].mp == 6 and units().marines["fox"].defence == 3
    assert units().xenos["warrior"].mp == 8 and units().xenos["warrior"].hits == 2
    assert set(scenarios()) == {"solo-a", "solo-b", "op-01", "op-02", "op-03", "op-04"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("no sections here", "needs \\[grid\\]"),
        ("[grid]\n+-+\n|.|\n+-+\n[marks]\n", "six vents"),
        ("[grid]\n+-+-+\n|1 ?|\n+-+-+\n[marks]\n", "unknown square mark"),
        ("[grid]\n+-+\n|. \n+-+\n[marks]\n", "six vents|space"),
    ],
)
def test_bad_maps_are_rejected(text: str, message: str) -> None:
    with pytest.raises(ContentError, match=message):
        parse_map("broken", text)
