"""The authored BLUE and RED face layouts match the rulebook's symbol table exactly."""

from __future__ import annotations

from engine.galaxy import dice as gdice


def test_symbol_counts_match_rulebook() -> None:
    for color in ("blue", "red"):
        counts = gdice.symbol_counts(color)
        assert dict(counts) == gdice.RULEBOOK_COUNTS[color], color
        assert len(gdice.FACES[color]) == 6


def test_alien_face_is_a_pure_fail() -> None:
    for color in ("blue", "red"):
        alien_faces = [f for f in gdice.FACES[color] if gdice.ALIEN in f]
        assert alien_faces == [(gdice.ALIEN,)]


def test_teleport_symbol_hit_beats_shield() -> None:
    # faces 2, 3 and 6 carry Hit and Shield: the Hit names the Teleport Point
    assert gdice.teleport_symbol(2) == "hit"
    assert gdice.teleport_symbol(3) == "hit"
    assert gdice.teleport_symbol(6) == "hit"
    assert gdice.teleport_symbol(5) == "shield"
    assert gdice.teleport_symbol(1) == "alien"


def test_every_teleport_point_symbol_has_a_face() -> None:
    """Every Point a map can hold comes up: Hit on 3 faces, Shield, Bolt and Alien on one each
    (the odds docs/games/galaxy.md states: 1/2, 1/6, 1/6, 1/6 before re-rolls)."""
    faces = {s: gdice.teleport_faces(s) for s in gdice.TELEPORT_ORDER}
    assert faces == {"hit": [2, 3, 6], "shield": [5], "bolt": [4], "alien": [1]}


def test_a_roll_is_told_by_its_symbols_in_words() -> None:
    """Narration tells a roll as a person would ("2 Hits and a Shield"), never "hit+hit+shield"."""
    assert gdice.said("blue", [2]) == "2 Hits and a Shield"
    assert gdice.said("blue", [4, 1]) == "a Bolt, an Ammo, a Jam and an Alien"
    assert gdice.said("red", [3, 3]) == "2 Hits, 2 GDs and 2 Ammo"
    assert gdice.said("red", []) == "no dice"
    assert gdice.symbol_word("gd") == "GD" and gdice.symbol_word("shield") == "Shield"
