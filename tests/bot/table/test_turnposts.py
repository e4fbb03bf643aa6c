"""A turn post's running log (issue #31, item 8): when its start is cut, it says so."""

from __future__ import annotations

from memory_posts import MemoryTurnPosts

from bot.table.turnposts import RUNNING_LOG, StepShape, TurnPosts, running_log


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


VOTERS = frozenset({"marine", "biotech", "sniper"})


async def test_the_first_move_after_a_vote_goes_on_in_the_vote_post() -> None:
    """The Galaxy Alpha Agent vote: its answers edit one post; the last answer (the Sniper's)
    makes the Biotech the Alpha Agent, and his first move edits that post too, as his later
    moves do, instead of opening a new one because the Sniper answered last."""
    posts = TurnPosts(MemoryTurnPosts())  # type: ignore[arg-type]

    def shape(seat: str | None, version: int, waiting: frozenset[str], **kw: bool) -> StepShape:
        return StepShape(seat, version - 1, version, waiting, continues=True, closes=False, **kw)

    opened = await posts.place(1, shape(None, 10, VOTERS, shared=True), ["Who leads?"])
    assert not opened.edit
    answered = await posts.place(1, shape("marine", 11, VOTERS, shared=True, ballot=True), ["a"])
    last = await posts.place(1, shape("sniper", 12, frozenset({"biotech"}), ballot=True), ["b"])
    first = await posts.place(1, shape("biotech", 13, frozenset({"biotech"})), ["moves"])
    second = await posts.place(1, shape("biotech", 14, VOTERS), ["again"])
    assert [p.key for p in (answered, last, first, second)] == [opened.key] * 4
    assert answered.edit and last.edit and first.edit and second.edit
    # Another seat's step now opens its own post: the vote's post became the Biotech's.
    other = await posts.place(1, shape("sniper", 15, VOTERS), ["sniper acts"])
    assert not other.edit and other.key != opened.key


def test_one_cut_line_is_said_in_the_singular() -> None:
    shown = running_log([f"c{n}" for n in range(RUNNING_LOG + 1)])
    assert shown[0].startswith("… 1 earlier line of this turn")
