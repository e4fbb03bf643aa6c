"""Rulebook chapter "Terrain Structure": Hexes, Areas, blocked sides, doors, windows, line of
sight and the optional Human View rule.

Positions use Mission 1 (Crash Site): the shuttle is a room walled on most sides, with a door
between E5 and F5, a door between G6 and G7 and a window between H5 and I5. Figures are placed
by editing the dumped state (one position per probe); results are read from `legal_actions`.
"""

from __future__ import annotations

from typing import Any

from galaxy_probe import area, can, fig, find, legal, marks, stage, view

HV_OFF = {"human-view": "off"}


def move_cost(state: Any, to: str, seat: str = "marine") -> int | None:
    """MP the move to `to` costs as `legal_actions` labels it, None when not offered."""
    for a in legal(state, seat):
        if a.verb == "move" and a.args.get("to") == to:
            return int(a.label.split(" - ")[1].split()[0])
    return None


def weapons_at(state: Any, target: str = "x1") -> set[str]:
    return {
        a.args["weapon"]
        for a in legal(state)
        if a.verb == "attack" and a.args.get("target") == target
    }


def test_area_is_seven_hexes_with_one_centre() -> None:
    """Terrain: an Area groups 7 Hexes and its centre Hex carries the sight symbol."""
    state = stage(options=HV_OFF)
    cells = view(state).cells
    shuttle = [c for c in cells if c.area == area(state, "G5")]
    assert len(shuttle) == 7
    assert [c.coord for c in shuttle if "centre" in c.marks] == ["G5"]


def test_blocked_hex_side_is_not_crossed() -> None:
    """Blocked Hex side: a wall cannot be crossed, so hexes on either side are not adjacent."""
    state = stage(agents={"marine": "G4"}, options=HV_OFF)
    # G4 and H3 touch across a wall: reaching H3 must take a detour, never a single step.
    cost = move_cost(state, "H3")
    assert cost is None or cost > 1
    assert move_cost(state, "G5") == 1


def test_door_is_crossed_normally() -> None:
    """Door: an (unlocked) door side is crossed like open ground, one MP per Hex."""
    state = stage(agents={"marine": "F5"}, options=HV_OFF)
    assert move_cost(state, "E5") == 1


def test_window_is_not_walked_through() -> None:
    """Window: crossing it takes the Leap Through Window action, not Movement."""
    state = stage(agents={"marine": "H5"}, options=HV_OFF)
    cost = move_cost(state, "I5")
    assert cost is None or cost > 1


def test_leap_through_window_offered_next_to_window() -> None:
    """Leap Through Window [Action]: an agent adjacent to the Window can use his Action to cross."""
    state = stage(agents={"marine": "H5"}, options=HV_OFF)
    leaps = [a for a in legal(state) if a.verb == "act" and "leap" in a.args.get("what", "")]
    assert leaps, [a.args for a in legal(state) if a.verb == "act"]


def test_leap_through_window_not_offered_away_from_window() -> None:
    """Leap Through Window: the agent must be adjacent to the Window."""
    state = stage(agents={"marine": "F4"}, options=HV_OFF)
    assert not [a for a in legal(state) if a.verb == "act" and "leap" in a.args.get("what", "")]


def test_door_blocks_line_of_sight_from_afar() -> None:
    """L.O.S.: a line crossing a Door is blocked when the attacker is not next to the door."""
    state = stage(
        agents={"marine": "G5"}, aliens=[("x1", "xeno-beta-green-1", "G8")], options=HV_OFF
    )
    assert weapons_at(state) == set()


def test_door_does_not_block_attacker_next_to_it() -> None:
    """L.O.S.: an attacker in the Hex adjacent to the door sees (and shoots) through it."""
    state = stage(
        agents={"marine": "G6"}, aliens=[("x1", "xeno-beta-green-1", "G8")], options=HV_OFF
    )
    assert "assault-rifle" in weapons_at(state)


def test_window_does_not_block_line_of_sight() -> None:
    """Window: a window never blocks L.O.S. (the Marine in the shuttle shoots out through it)."""
    state = stage(
        agents={"marine": "G5"}, aliens=[("x1", "xeno-beta-green-1", "J5")], options=HV_OFF
    )
    assert "assault-rifle" in weapons_at(state)


def test_human_view_limits_attacks_to_front_arc() -> None:
    """Human View (default on): agents trace L.O.S. only through their 3 front Hexes."""
    seen = []
    for facing in range(6):
        state = stage(
            agents={"marine": "I3"},
            aliens=[("x1", "xeno-beta-green-1", "I6")],
            facing={"marine": facing},
        )
        seen.append(bool(weapons_at(state)))
    assert 1 <= sum(seen) <= 3, seen


def test_human_view_off_sees_all_round() -> None:
    """Human View is optional: with it off, facing never matters for L.O.S."""
    for facing in range(6):
        state = stage(
            agents={"marine": "I3"},
            aliens=[("x1", "xeno-beta-green-1", "I6")],
            facing={"marine": facing},
            options=HV_OFF,
        )
        assert weapons_at(state), facing


def test_one_figure_per_hex_agent_may_pass_through_agent() -> None:
    """Hex / Movement: an agent may cross a Hex holding another agent but not stop there."""
    state = stage(
        seats=("marine", "biotech"), agents={"marine": "G5", "biotech": "F5"}, options=HV_OFF
    )
    assert move_cost(state, "F5") is None
    assert move_cost(state, "E5") == 2


def test_agent_may_not_cross_alien_hex() -> None:
    """Movement: an agent may not cross a Hex occupied by an alien figure."""
    # From G6 the way out through the E5-F5 door runs through F5 (3 MP); an alien there
    # (not adjacent to G6, so no Engagement) closes it.
    free = stage(agents={"marine": "G6"}, options=HV_OFF)
    assert move_cost(free, "E5") == 3
    state = stage(
        agents={"marine": "G6"}, aliens=[("x1", "xeno-beta-green-1", "F5")], options=HV_OFF
    )
    cost = move_cost(state, "E5")
    assert cost is None or cost > 3


def test_start_hexes_and_teleport_points_are_marked() -> None:
    """Setting Up: the mission map shows GD Start Hexes and Teleport Points."""
    state = stage(options=HV_OFF)
    assert "start" in marks(state, "G5")
    assert any(m.startswith("teleport") for m in marks(state, "B3"))


def test_move_label_counts_one_mp_per_hex() -> None:
    """Movement: one movement point per Hex entered; nothing beyond the movement value."""
    state = stage(agents={"marine": "G5"}, options=HV_OFF)
    costs = [move_cost(state, a.args["to"]) for a in find(state) if a.verb == "move"]
    assert costs and max(c for c in costs if c is not None) == 4
    assert can(state, "move", unit="marine", to="G4")


def test_door_blocks_even_when_only_target_is_next_to_it() -> None:
    """L.O.S.: the door exception is for the attacker; a target beside the door on the far side
    is still hidden from an attacker who is not."""
    state = stage(agents={"marine": "G5"}, aliens=[("x1", "nexus-red-1", "G7")], options=HV_OFF)
    assert weapons_at(state) == set()


def test_human_view_front_three_hexes_for_adjacent_target() -> None:
    """Human View: of the six facings, exactly the three whose front Hexes hold the adjacent
    target (W neighbour: facing NW, W or SW) allow the attack."""
    seeing = set()
    for facing in range(6):
        state = stage(
            agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "H3")], facing={"marine": facing}
        )
        marine = fig(state, "marine")
        if weapons_at(state) and marine is not None:
            seeing.add(marine.facing)
    assert seeing == {"NW", "W", "SW"}
