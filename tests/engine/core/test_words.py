"""Counted nouns and lists as a person writes them (the narration of every game uses them)."""

from __future__ import annotations

from engine.core.words import article, counted, listed, many, some


def test_a_count_says_no_one_or_the_plural() -> None:
    assert [counted(n, "Wound") for n in (0, 1, 2)] == ["no Wounds", "1 Wound", "2 Wounds"]
    assert counted(3, "die", "dice") == "3 dice" and counted(1, "die", "dice") == "1 die"
    assert counted(2, "Alien Tech fragment") == "2 Alien Tech fragments"


def test_plurals_of_the_games_nouns() -> None:
    assert [many(w) for w in ("Battery", "Refresh", "Success", "Hit", "Day")] == [
        "Batteries",
        "Refreshes",
        "Successes",
        "Hits",
        "Days",
    ]


def test_one_of_a_thing_takes_its_article() -> None:
    assert [some(1, w) for w in ("Shield", "Alien", "Ammo")] == ["a Shield", "an Alien", "an Ammo"]
    assert some(2, "Hit") == "2 Hits" and some(0, "Hit") == "no Hits"
    assert article("Hit") == "a" and article("Energy Shield") == "an"


def test_a_list_ends_with_and() -> None:
    assert listed([]) == "" and listed(["a"]) == "a"
    assert listed(["a", "b"]) == "a and b" and listed(["a", "b", "c"]) == "a, b and c"
