"""Short turn posts (issue #32): the newest narration within a budget, reasoning and dice
faces left to `/log`."""

from __future__ import annotations

from bot.table.brief import NARRATION_BUDGET, brief, tidy


def test_a_line_loses_its_reasoning_and_its_faces_not_its_facts() -> None:
    line = (  # as older stored logs say it
        "BLUE Xeno-Beta x1 attacks Chromium (Marine) with Blaster (A.I. rule 2, in sight "
        "within 1 Area(s): Chromium (Marine), 1 Wound(s), 5 HP left): hit+ammo+gd, "
        "hit+bolt+gd - 2 Hit(s)."
    )
    assert tidy(line) == "BLUE Xeno-Beta x1 attacks Chromium (Marine) with Blaster: 2 Hit(s)."
    line = (
        "Blue Xeno-Beta 1 attacks Chromium (Marine) with Blaster (A.I. rule 2, in sight "
        "within 1 Area: Chromium (Marine), 1 Wound, 5 HP left): 3 Hits, a Bolt, 2 GDs and "
        "an Ammo - 2 Hits."
    )
    assert tidy(line) == "Blue Xeno-Beta 1 attacks Chromium (Marine) with Blaster: 2 Hits."
    mixed = "Iridium (Sniper) attacks Red Nexus 4 with the Ion Lance: red dice 2 Hits and a Jam; "
    mixed += "blue dice a Shield - 2 Hits."
    assert tidy(mixed) == "Iridium (Sniper) attacks Red Nexus 4 with the Ion Lance: 2 Hits."
    defended = "Red Nexus 4 defends with 2 dice: a Shield and an Alien."
    assert tidy(defended) == defended
    short = "Chromium (Marine) moves D4 -> C4 -> B4 (2 MP left)."
    assert tidy(short) == short
    assert len(tidy("x" * 500)) == 160


def test_the_newest_lines_fit_the_budget_and_the_rest_is_counted() -> None:
    lines = [f"Line {n}: " + "word " * 12 for n in range(20)]
    shown = brief(lines)
    assert shown[0] == f"… {21 - len(shown)} earlier lines in /log."
    assert shown[-1].startswith("Line 19")
    assert sum(len(line) + 1 for line in shown[1:]) <= NARRATION_BUDGET
    assert brief(["One line."]) == ["One line."]
    assert brief(["A" * 400]) == [tidy("A" * 400)]  # the newest line is always shown


def test_the_steps_own_headline_stays_whatever_the_budget() -> None:
    """A vote that passed or a default that applied says so first; the budget used to drop it
    into /log when the narration after it was long."""
    lines = ["Old news from the last turn.", "The vote passes: Blue is skipped this time."]
    lines += [f"Event line {n} with some length to it." for n in range(6)]
    shown = brief(lines, budget=80, pinned="The vote passes: Blue is skipped this time.")
    assert shown[0].startswith("… ") and "The vote passes: Blue is skipped this time." in shown
    assert shown[-1] == "Event line 5 with some length to it."
    assert shown.index("The vote passes: Blue is skipped this time.") < len(shown) - 1
    assert "Old news from the last turn." not in shown
    assert not any("vote" in line for line in brief(lines, budget=80))  # unpinned: dropped
