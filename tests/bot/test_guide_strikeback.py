"""Operation Strikeback briefings (issue #31, item 8): the ordered Event deck told as it is
built, and mission 1's fires explained before its objectives count them."""

from __future__ import annotations

from bot.guide.briefing import briefing
from engine.registry import get_game


def test_the_briefing_places_each_special_event_instead_of_shuffling_it() -> None:
    told = briefing(get_game("galaxy-defenders"), "os1")
    text = " ".join(told.special)
    assert "shuffled into the Event deck" not in text
    assert "Wreck Signal is the 1st Event card" in text  # stack 1, alone
    assert "Fire in the Hull is the 3rd Event card" in text
    assert "Hull Groans is one of Event cards 5-6" in text  # shuffled with one other card
    assert "Last Orbit Window is the 7th Event card" in text


def test_mission_1_briefing_explains_how_fires_start_and_are_fought() -> None:
    told = briefing(get_game("galaxy-defenders"), "os1")
    text = " ".join(told.special)
    assert "Waypoint 3" in text and "lowest-numbered Waypoint" in text
    assert "Firefighter" in text and "Extinguish" in text and "Recharge" in text


def test_a_core_mission_keeps_its_shuffled_special_event() -> None:
    told = briefing(get_game("galaxy-defenders"), "m1")
    assert any("shuffled into the Event deck" in line for line in told.special)
