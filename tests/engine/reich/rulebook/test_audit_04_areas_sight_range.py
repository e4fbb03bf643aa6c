"""Rulebook audit, chapters Tiles and Areas, Line of Sight and Range, Area Accessories,
Effect Tokens (Smoke)."""

from __future__ import annotations

from typing import Any

from reich_audit_probe import Data, act, dump, fresh, legal, patch, run, view


def _board(sarge: str, **enemies: str) -> Any:
    """No Enemy tokens; Sarge in `sarge`; Active Soldiers id -> Area."""

    def edit(d: Data) -> None:
        d["enemy_tokens"] = []
        d["heroes"]["sarge"]["area"] = sarge
        for eid, area in enemies.items():
            d["enemies"].append(
                {
                    "id": eid,
                    "type": "soldier",
                    "area": area,
                    "wounds": 0,
                    "behavior": 0,
                    "active": True,
                }
            )

    return patch(fresh(), edit)


def _targets(state: Any) -> set[tuple[str, str]]:
    return {
        (a.args["target"], a.args["weapon"]) for a in legal(state, "sarge") if a.verb == "attack"
    }


def _moves(state: Any, seat: str = "sarge") -> set[str]:
    return {a.args["to"] for a in legal(state, seat) if a.verb == "move"}


def test_a_move_goes_to_an_area_sharing_a_border() -> None:
    """Areas: Areas sharing an Area border are adjacent; a Move goes to an adjacent Area."""
    state = _board("1C")
    assert _moves(state) == {"1A", "1D", "EN"}
    assert _moves(fresh()) == {"1C"}


def test_closed_door_is_not_an_area_border_until_opened() -> None:
    """Areas: only an Open Door creates a border between the Rooms it joins."""
    state = _board("1A")
    assert "3A" not in _moves(state)
    state = act(state, "sarge", "act", unit="sarge", what="open", target="D10")
    assert "3A" in _moves(state)


def test_line_of_sight_along_a_straight_row_of_areas() -> None:
    """Line of Sight / Range: a horizontal line through Area borders gives sight; Range counts
    the borders crossed (2 here: the Machine Gun reaches, the Revolver does not)."""
    state = _board("1C", s1="2C")
    assert _targets(state) == {("s1", "mg")}


def test_no_line_of_sight_on_a_diagonal() -> None:
    """Line of Sight: a diagonal line between two Areas gives no Line of Sight."""
    state = _board("1C", s1="1B")
    assert _targets(state) == set()


def test_closed_door_blocks_line_of_sight() -> None:
    """Line of Sight: a Closed Door blocks the line; once Open, the two Areas see each other."""
    state = _board("1A", s1="3A")
    assert _targets(state) == set()
    state = act(state, "sarge", "act", unit="sarge", what="open", target="D10")
    assert ("s1", "revolver") in _targets(state)


def test_wall_blocks_line_of_sight() -> None:
    """Line of Sight: a black wall blocks the line (1B and 2A meet at a wall and a Closed Door)."""
    state = _board("1B", s1="2A")
    assert _targets(state) == set()


def test_enemy_miniature_blocks_a_heroes_line_of_sight() -> None:
    """Line of Sight: Heroes cannot see through an Area holding an Enemy."""
    state = _board("1C", s1="2C", s2="1D")
    found = _targets(state)
    assert ("s1", "mg") not in found
    assert ("s2", "mg") in found


def test_hero_miniature_does_not_block_a_heroes_line_of_sight() -> None:
    """Line of Sight: Heroes can see through other Heroes."""
    state = patch(_board("1C", s1="2C"), lambda d: d["heroes"]["hans"].update(area="1D"))
    assert ("s1", "mg") in _targets(state)


def test_smoke_blocks_line_of_sight_through_its_area() -> None:
    """Smoke Token: no Line of Sight through an Area with a Smoke token."""
    state = _board("1C", s1="2C")
    state = patch(state, lambda d: d.__setitem__("smoke", ["1D"]))
    assert _targets(state) == set()


def test_smoke_in_the_targets_area_blocks_line_of_sight() -> None:
    """Smoke Token: no Line of Sight when either end Area holds a Smoke token."""
    state = _board("1D", s1="2C")
    assert ("s1", "revolver") in _targets(state)
    state = patch(state, lambda d: d.__setitem__("smoke", ["2C"]))
    assert _targets(state) == set()


def test_smoke_token_is_shown_on_the_board() -> None:
    """Effect Tokens: a Smoke token (here from Claudine's Smokescreen) lies in its Area, in
    view (as a token or a mark on one of the Area's cells)."""
    state = patch(fresh(), lambda d: d.__setitem__("enemy_tokens", []))
    state = act(
        state, "claudine", "act", unit="claudine", what="play", target="smokescreen-claudine5"
    )
    state = act(state, "claudine", "act", unit="claudine", what="smoke", to="1C")
    assert dump(state)["smoke"]
    v = view(state)
    as_token = any(t.coord == "1C" and "smoke" in t.kind.lower() for t in v.tokens)
    as_mark = any(c.area == "1C" and "smoke" in c.marks for c in v.cells)
    assert as_token or as_mark
    assert not any("smoke" in c.marks for c in v.cells if c.area != "1C")


def test_melee_weapon_reaches_only_its_own_area() -> None:
    """Range: Melee weapons have Range 0; only targets in the same Area."""
    state = patch(_board("1D", s1="1B"), lambda d: d["heroes"]["claudine"].update(area="1D"))
    knife = {
        a.args["target"]
        for a in legal(state, "claudine")
        if a.verb == "attack" and a.args.get("weapon") == "knife"
    }
    assert knife == set()
    state = patch(state, lambda d: d["heroes"]["claudine"].update(area="1B"))
    knife = {
        a.args["target"]
        for a in legal(state, "claudine")
        if a.verb == "attack" and a.args.get("weapon") == "knife"
    }
    assert knife == {"s1"}


def test_ranged_weapon_cannot_hit_its_own_area() -> None:
    """Range: Ranged weapons have a minimum Range of 1 (same-Area targets are out)."""
    state = _board("1C", s1="1C")
    assert {w for _, w in _targets(state)} <= {"hands"}


def test_ranged_weapon_cannot_reach_beyond_its_range() -> None:
    """Range: nothing beyond the weapon's Range (the Revolver has Range 1)."""
    state = _board("1C", s1="2C")
    assert ("s1", "revolver") not in _targets(state)
    state = patch(state, lambda d: d["heroes"]["sarge"].update(area="1D"))
    assert ("s1", "revolver") in _targets(state)


def test_first_sight_of_an_area_accessory_turns_it_over() -> None:
    """Area Accessories: the first time a Hero sees the Area, its card is turned over."""
    state = _board("1A")
    hidden = len([t for t in view(state).tokens if t.kind == "accessory"])
    state, events = run(state, "sarge", "act", unit="sarge", what="open", target="D10")
    assert any(e.kind == "revealed" and "3A" in e.text for e in events)
    assert (
        len(
            [
                t
                for t in view(state).tokens
                if t.kind == "accessory" and t.coord == "3A" and t.label == "face down"
            ]
        )
        == 0
    )
    assert (
        len([t for t in view(state).tokens if t.kind == "accessory" and t.label == "face down"])
        == hidden - 1
    )
    assert "3A" not in dump(state)["accessories"] or "3A" in dump(state)["accessories_up"]
