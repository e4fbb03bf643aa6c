"""Hex boards write a mark in the few characters a hex holds, and the legend says each form."""

from __future__ import annotations

from engine.core.dice import SeededDice
from engine.core.game import scenario_info
from engine.core.view import FigureView, SymbolView
from engine.galaxy import GAME
from renders import theme
from renders.chrome import figure_line, figure_lines, legend_items
from renders.terrain import hex_mark_text


def test_numbered_marks_and_a_views_own_marks_have_short_forms() -> None:
    assert hex_mark_text("wp3") == ("W3", theme.YELLOW)
    assert hex_mark_text("m12") == ("#12", theme.YELLOW)
    fire = SymbolView(kind="flame", text="F", colour="orange")
    site = SymbolView(kind="u", text="U", colour="sky", numbered=True)
    assert hex_mark_text("flame", {"flame": fire}) == ("F", theme.ORANGE)
    assert hex_mark_text("u2", {"u": site}) == ("U2", theme.SKY)
    assert hex_mark_text("flame") == ("FLAME", theme.YELLOW)  # without its symbol: the word
    assert hex_mark_text("wp") == ("WP", theme.YELLOW)  # no number: the word itself
    assert hex_mark_text("beacon") == ("BEACO", theme.YELLOW)


def test_the_legend_explains_waypoints_and_hex_marks_and_lines_do_not_repeat_names() -> None:
    options = scenario_info(GAME, "os1").resolve_options({})
    state = GAME.new("os1", ["marine", "biotech"], options, SeededDice(3))
    view = GAME.view(state, None)
    items = legend_items(view)
    assert "W#: Waypoint" in items
    assert "#N: numbered hex mark" in items


def test_a_figure_line_says_the_label_and_rank_once() -> None:
    alien = FigureView(
        id="x3",
        label="x3",
        name="GREEN Xeno-Delta x3",
        side="enemy",
        coord="D4",
        health=3,
        max_health=4,
        rank="green",
    )
    assert figure_line(alien, "x3") == "x3 Xeno-Delta @D4 [G] 3/4"
    named = alien.model_copy(update={"name": "Green Xeno-Delta 3"})  # as the engine names it
    assert figure_line(named, "x3") == "x3 Xeno-Delta @D4 [G] 3/4"
    nameless = alien.model_copy(update={"name": "x3"})
    assert figure_line(nameless, "x3").startswith("x3 x3 @D4")  # never an empty name


def test_every_rank_has_its_own_tag() -> None:
    from renders.figures import RANK_TAGS, rank_tag

    assert rank_tag("Galaxy") == "Ga" and rank_tag("Moon") == "Mo" and rank_tag("Earth") == "Ea"
    assert len(set(RANK_TAGS.values())) == len(RANK_TAGS)  # Galaxy is not green's G


def test_unhurt_figures_of_a_kind_share_a_line_that_counts_them_first() -> None:
    """ "3 Xeno Beta [G]: x1 D4, ...", never "Xeno Beta [G] x3" (a count that reads as a label)."""
    betas = [
        FigureView(
            id=f"x{n}",
            label=f"x{n}",
            name=f"Green Xeno-Beta {n}",
            side="enemy",
            kind="xeno-beta",
            coord=f"D{n}",
            health=2,
            max_health=2,
            rank="green",
        )
        for n in range(1, 10)
    ]
    assert figure_lines(betas, {}, grouped=True) == [
        "9 Xeno Beta [G]: " + ", ".join(f"x{n} D{n}" for n in range(1, 10))
    ]
