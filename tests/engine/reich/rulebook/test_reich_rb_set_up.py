"""Rulebook, Set Up - Hero Set Up: the commando is four Heroes, one from each of the four teams.

Seats name Heroes; two seats may not take Heroes of one team, and the role list tells the table
which roles exclude each other (the team is the role's group).
"""

from __future__ import annotations

import pytest
from reich_probe import GAME

from engine.core.dice import SeededDice
from engine.reich.content import load_content


def _new(seats: list[str]) -> None:
    GAME.new("radio-silence", seats, {"difficulty": "cadet"}, SeededDice(1))


def test_two_heroes_of_one_team_are_refused_by_name() -> None:
    with pytest.raises(ValueError) as refused:
        _new(["claudine", "irena"])
    assert "Claudine and Irena are both in Team Charlie" in str(refused.value)


def test_four_heroes_of_one_team_are_refused() -> None:
    with pytest.raises(ValueError, match="Team Bravo"):
        _new(["hans", "remmy", "joe", "quentin"])


def test_four_seats_that_leave_a_team_out_are_refused() -> None:
    with pytest.raises(ValueError, match="Team Delta"):
        _new(["sarge", "hans", "claudine", "doc"])


def test_the_rulebooks_upkeep_commando_is_one_per_team() -> None:
    """The Upkeep example's commando: Claudine, Sarge, Quentin and Red Hawk."""
    state = GAME.new(
        "radio-silence", ["claudine", "sarge", "quentin", "redhawk"], {}, SeededDice(1)
    )
    teams = {load_content().heroes[k].team for k in state.hero_order}
    assert teams == {"alpha", "bravo", "charlie", "delta"}


def test_a_partial_commando_is_completed_one_hero_per_missing_team() -> None:
    state = GAME.new("radio-silence", ["irena", "brick"], {}, SeededDice(1))
    teams = [load_content().heroes[k].team for k in state.hero_order]
    assert sorted(teams) == ["alpha", "bravo", "charlie", "delta"]


def test_roles_of_one_team_exclude_each_other() -> None:
    for info in GAME.scenarios():
        heroes = load_content().heroes
        for role in info.roles:
            assert role.group == f"Team {heroes[role.key].team.title()}"
            for other in info.roles:
                same = heroes[other.key].team == heroes[role.key].team
                clash = info.clash(role.key, {other.key})
                assert (clash is not None) == (same and other.key != role.key)
