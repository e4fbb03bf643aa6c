"""The board's story around the map: legend, banner, deadline, summary card."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from samples import samples

from engine.core.dice import SeededDice, derive_seed
from engine.core.game import scenario_info
from engine.core.view import SummaryView, View
from engine.registry import get_game
from engine.selfplay import default_seats
from renders import render_board, render_summary, theme
from renders.chrome import banner, header_lines, legend_items
from renders.figures import HIDDEN_TOKENS, badges, rank_tag, token_text
from renders.legibility import measure
from renders.symbols import tokens_of


def test_every_token_badge_and_rank_shown_is_in_the_legend() -> None:
    for sample in samples():
        view = sample.view
        legend = " ".join(legend_items(view))
        brought = tokens_of(view)  # the token kinds the view brings with their symbols
        for t in view.tokens:
            if t.kind not in HIDDEN_TOKENS:
                text = token_text(t, brought)
                # Numbered tokens are explained once by their pattern (s1, s2: "s#").
                pattern = re.sub(r"\d+", "#", text)
                assert text in legend or pattern in legend, (sample.name, t)
        for f in view.figures:
            for letters, _ in badges(f):
                assert letters in legend, (sample.name, f.id, letters)
            if f.rank:
                assert rank_tag(f.rank) in legend, (sample.name, f.rank)


def test_mission_tokens_and_accessories_are_explained() -> None:
    view = next(s.view for s in samples() if s.name == "reichbusters/radio-silence/opening")
    legend = legend_items(view)
    assert any(item.startswith("M1:") for item in legend)
    assert "Ac: accessory" in legend


def test_banner_says_victory_or_defeat_once_the_mission_is_over() -> None:
    view = next(s.view for s in samples() if s.name == "forlorn-hope/op-01/opening")
    assert banner(view)[0] == ""
    for outcome, word in (
        ("victory", "VICTORY"),
        ("accomplished", "VICTORY"),
        ("defeat", "DEFEAT"),
        ("failed", "DEFEAT"),
        ("partial", "PARTIAL SUCCESS"),
    ):
        over = view.model_copy(update={"finished": True, "outcome": outcome})
        assert banner(over)[0] == word
    running = render_board(view)
    won = render_board(view.model_copy(update={"finished": True, "outcome": "victory"}))
    assert won.height > running.height


def test_the_deadline_goes_in_the_header_when_set() -> None:
    view = next(s.view for s in samples() if s.name == "galaxy-defenders/m2/opening")
    due = datetime(2026, 12, 4, 19, 30, tzinfo=timezone(timedelta(hours=1)))
    facts = header_lines(view, due)[1]
    assert "Deadline Fri 04 Dec 18:30 UTC" in facts
    assert "Deadline Sunday noon" in header_lines(view, "Sunday noon")[1]
    assert not any(f.startswith("Deadline") for f in header_lines(view)[1])
    assert render_board(view, deadline=due).png != render_board(view).png
    focus = render_board(view, mode="focus", deadline=due.astimezone(UTC))
    assert focus.width == theme.IMAGE_WIDTH


def _over(game_key: str, scenario: str, update: dict[str, Any]) -> View:
    game: Any = get_game(game_key)
    info = scenario_info(game, scenario)
    seats = default_seats(game, scenario, None)
    state = game.new(scenario, seats, info.resolve_options({}), SeededDice(derive_seed(2, "s")))
    return game.view(state.model_copy(update=update), None)  # type: ignore[no-any-return]


def test_each_game_fills_the_summary_once_the_mission_is_over() -> None:
    views = [
        _over("forlorn-hope", "op-01", {"phase": "over", "outcome": "victory", "kills": ["drone"]}),
        _over("reichbusters", "jailbreak", {"phase": "ended", "outcome": "defeat"}),
        _over("galaxy-defenders", "m1", {"outcome": "failed", "outcome_text": "Time is up."}),
    ]
    for view in views:
        assert view.finished and view.summary is not None, view.game
        card = render_summary(view)
        assert card.width == theme.IMAGE_WIDTH and card.filename == "summary.png"
        assert "Rounds played" in card.alt_text and "Enemies killed" in card.alt_text
        assert measure(lambda v=view: render_summary(v)).smallest >= theme.PHONE_MIN_TEXT  # type: ignore[misc]
    forlorn, _, galaxy = views
    assert forlorn.summary is not None and forlorn.summary.kills == 1
    assert "The Marines win." in render_summary(forlorn).alt_text
    assert galaxy.summary is not None and galaxy.summary.result == "Time is up."
    running = next(s.view for s in samples() if s.name == "forlorn-hope/op-01/opening")
    assert running.summary is None


def test_summary_refuses_a_running_mission_and_copes_without_a_summary() -> None:
    view = next(s.view for s in samples() if s.name == "forlorn-hope/op-01/opening")
    with pytest.raises(ValueError, match="not over yet"):
        render_summary(view)
    bare = view.model_copy(update={"finished": True, "outcome": "defeat", "summary": None})
    assert "not counted" in render_summary(bare).alt_text
    named = bare.model_copy(update={"summary": SummaryView(losses=["Pvt. Bates"], kills=3)})
    alt = render_summary(named).alt_text
    assert "Pvt. Bates" in alt and "Enemies killed: 3" in alt


def test_a_lost_figure_is_not_listed_as_still_standing() -> None:
    from renders.summary import summary_rows

    view = next(s.view for s in samples() if s.name == "forlorn-hope/op-01/opening")
    lost = view.figures[0]
    over = view.model_copy(
        update={"finished": True, "outcome": "defeat", "summary": SummaryView(losses=[lost.name])}
    )
    rows = dict(summary_rows(over))
    assert rows["Losses"] == [lost.name] and lost.name not in rows["Still standing"]


def test_a_long_board_title_wraps_whole_instead_of_being_cut() -> None:
    """A Strikeback mission's title used to be cut to "... (Strikebac…": it wraps between its
    parts and every word of it is drawn."""
    from renders.chrome import title_lines

    game = get_game("galaxy-defenders")
    state = game.new("os1", ["marine", "biotech"], {}, SeededDice(1))
    title = header_lines(game.view(state, None), None)[0]
    lines = title_lines(title, theme.IMAGE_WIDTH)
    assert " ".join(lines).replace(" · ", " ") == title.replace(" · ", " ")
    assert "Far Side Crash (Strikeback 1)" in lines and not any("…" in line for line in lines)


def test_the_header_names_seats_and_phase_in_words() -> None:
    """The header band is pixels no text scan reads: it says "Turn: Marines 2", never the key."""
    view = next(s.view for s in samples() if s.name == "galaxy-defenders/m2/opening")
    keyed = view.model_copy(update={"waiting": ["marines-2", "sarge"], "phase": "enemies-turn"})
    facts = header_lines(keyed)[1]
    assert "Turn: Marines 2, Sarge" in facts
    assert "Phase: Enemies turn" in facts
