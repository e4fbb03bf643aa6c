"""Content loads, validates, and bad content is refused with a clear message."""

from __future__ import annotations

import pytest

from engine.core.errors import ContentError
from engine.reich.board import build_board
from engine.reich.content import load_content, parse_cards, parse_tile


def test_content_sizes() -> None:
    content = load_content()
    assert len(content.heroes) >= 8
    assert len([t for t in content.tiles if t != "EN"]) >= 10
    assert len(content.missions) >= 4
    teams = {h.team for h in content.heroes.values()}
    assert teams == {"alpha", "bravo", "charlie", "delta"}


def test_every_mission_board_is_connected_from_the_start() -> None:
    content = load_content()
    for key, mission in content.missions.items():
        board = build_board(key)
        every_door = list(board.doors)
        reach = board.graph(every_door).distances(mission.start)
        assert set(reach) == set(board.areas), key


def test_bad_tile_is_refused() -> None:
    with pytest.raises(ContentError, match="not in one piece"):
        parse_tile("tile 99\ngrid\nAB\nBA\nrooms\nAB\n", "bad.txt")
    with pytest.raises(ContentError, match="rooms must list"):
        parse_tile("tile 98\ngrid\nAB\nAB\nrooms\nA\n", "bad.txt")


def test_bad_card_is_refused() -> None:
    with pytest.raises(ContentError, match="unknown effect"):
        parse_cards("x | X | fly | 0 | immediate | succ:1 | text\n")
