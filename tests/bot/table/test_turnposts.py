"""A turn post's running log (issue #31, item 8): when its start is cut, it says so."""

from __future__ import annotations

from bot.table.turnposts import RUNNING_LOG, running_log


def test_a_cut_running_log_begins_by_saying_how_many_lines_are_in_the_log() -> None:
    lines = [f"line {n}" for n in range(1, 21)]
    shown = running_log(lines)
    assert shown[0].startswith("… 8 earlier lines") and "/log" in shown[0]
    assert shown[1:] == lines[-RUNNING_LOG:]


def test_the_count_grows_as_the_open_post_is_edited_and_short_logs_are_left_alone() -> None:
    first = running_log([f"a{n}" for n in range(15)])  # 3 cut
    edited = running_log([*first, "b1", "b2"])
    assert edited[0].startswith("… 5 earlier lines")
    assert edited[-2:] == ["b1", "b2"] and len(edited) == RUNNING_LOG + 1
    assert running_log(["x", "y"]) == ["x", "y"]


def test_one_cut_line_is_said_in_the_singular() -> None:
    shown = running_log([f"c{n}" for n in range(RUNNING_LOG + 1)])
    assert shown[0].startswith("… 1 earlier line of this turn")
