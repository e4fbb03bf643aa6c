"""Animation, focus view, text board and sheets: structure, not pixels."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image
from samples import play

from engine.core.dice import SeededDice, derive_seed
from engine.core.events import Event
from engine.core.game import scenario_info
from engine.core.view import CellView, FigureView, View
from engine.registry import get_game
from engine.selfplay import choose_action
from renders import render_animation, render_board, render_phase, text_board
from renders.animate import frame_count
from renders.bench import crowded


def _steps(game_key: str, scenario: str, count: int) -> list[tuple[View, list[Event]]]:
    """Real steps from a short self-play: (spectator view after the step, its public events)."""
    return play(game_key, scenario, 3, count)[1]


def test_animation_has_one_frame_per_step_plus_the_final_board() -> None:
    for game, scenario in (("forlorn-hope", "op-01"), ("galaxy-defenders", "m1")):
        frames = _steps(game, scenario, 4)
        assert len(frames) == 4
        animation = render_animation(frames)
        assert animation.filename.endswith(".gif") and len(animation.png) < 2_000_000
        assert frame_count(animation.png) == len(frames) + 1
        with Image.open(io.BytesIO(animation.png)) as image:
            assert image.size == (animation.width, animation.height)
        still = render_phase(frames)[1]
        assert still.png.startswith(b"\x89PNG")
        assert still.png == render_board(frames[-1][0], []).png


def test_focus_view_centres_on_the_active_figure_and_its_reach() -> None:
    view = crowded(_board("hex"), 8)[0]
    target = view.figures[-1]
    focused = view.model_copy(update={"active": target.id, "reach": [target.coord]})
    image = render_board(focused, [], mode="focus")
    assert target.id in image.positions
    x, _ = image.positions[target.id]
    assert abs(x - image.width / 2) < image.width * 0.3
    named = render_board(view, [], mode="focus", focus=view.figures[0].id)
    assert view.figures[0].id in named.positions


def _board(kind: str, size: int = 12) -> View:
    cells = [
        CellView(coord=f"{chr(65 + q % 26)}{q // 26 or ''}{r + 1}", col=q, row=r)
        for q in range(size)
        for r in range(size)
    ]
    figures = [
        FigureView(id="p1", label="P1", name="Pat", side="player", coord=cells[0].coord),
        FigureView(id="e1", label="E1", name="Eve", side="enemy", coord=cells[-1].coord),
    ]
    return View(game="t", scenario=kind, title="T", board=kind, cells=cells, figures=figures)


def test_text_board_stays_under_2000_chars_with_a_fallback() -> None:
    for game, scenario in (
        ("forlorn-hope", "solo-b"),
        ("galaxy-defenders", "m4"),
        ("reichbusters", "radio-silence"),
    ):
        frames = _steps(game, scenario, 1)
        view, _ = crowded(frames[-1][0], 34)
        text = text_board(view)
        assert text.startswith("```") and text.endswith("```") and len(text) <= 2000
        assert view.figures[0].coord in text
    small = _board("square", 10)
    assert "Pat" in text_board(small) and "ABCDEFGHIJ" in text_board(small)
    huge = _board("square", 60)
    text = text_board(huge)
    assert len(text) <= 2000 and "Pat" in text and "Eve" in text
    crowd, _ = crowded(huge, 400)
    assert len(text_board(crowd)) <= 2000


def test_odd_views_never_crash() -> None:
    empty = View(game="t", scenario="t", title="Empty", board="square")
    assert render_board(empty, []).png and render_board(empty, [], mode="focus").png
    assert text_board(empty).startswith("```")
    lost = _board("hex", 4).model_copy(
        update={
            "figures": [FigureView(id="z", label="Z", name="Zed", side="neutral", coord="nowhere")]
        }
    )
    from engine.core.events import Attacked, Killed, Moved

    events: list[Event] = [
        Moved(figure="z", path=["nowhere", "A1"]),
        Attacked(attacker="z", target="ghost"),
        Killed(figure="ghost", at="??"),
    ]
    for mode in ("full", "focus"):
        image = render_board(lost, events, mode=mode)
        assert "Zed" in image.alt_text
    area = _board("area", 4).model_copy(
        update={"cells": [c.model_copy(update={"area": "R1"}) for c in _board("area", 4).cells]}
    )
    crowd = area.model_copy(
        update={
            "figures": [
                FigureView(id=f"e{i}", label=f"E{i}", name=f"E {i}", side="enemy", coord="R1")
                for i in range(80)
            ]
        }
    )
    assert render_board(crowd, []).png


def test_split_step_rewinds_an_enemy_phase_into_activations() -> None:
    from engine.core.events import Moved
    from renders import split_step

    game: Any = get_game("forlorn-hope")
    info = scenario_info(game, "op-01")
    state = game.new("op-01", ["marines"], info.resolve_options({}), SeededDice(5))
    policy = SeededDice(3)
    found = None
    for step in range(300):
        prompt = game.waiting_on(state)
        if prompt.finished:
            break
        if prompt.seats:
            action = choose_action(game.legal_actions(state, prompt.seats[0]), policy, 10)
            state = game.apply(state, prompt.seats[0], action, SeededDice(step)).state
            continue
        result = game.advance(state, SeededDice(derive_seed(9, step)))
        state = result.state
        if sum(isinstance(e, Moved) for e in result.events) >= 3:
            found = (game.view(state, None), result.events)
            break
    assert found is not None
    view, events = found
    frames = split_step(view, events)
    assert len(frames) >= 3
    assert frames[-1][0].figures == view.figures
    for frame_view, group in frames:
        where = {f.id: f.coord.upper() for f in frame_view.figures}
        last = {e.figure: e.path[-1].upper() for e in group if isinstance(e, Moved) and e.path}
        for figure, coord in last.items():
            if figure in where:
                assert where[figure] == coord, (figure, where[figure], coord)
    animation = render_animation(frames)
    assert frame_count(animation.png) == len(frames) + 1


def test_long_animations_drop_frames_to_fit_never_shrink(monkeypatch: Any) -> None:
    """Shrinking would make the text illegible on a phone: frames are dropped instead."""
    import renders.animate as animate

    frames = _steps("galaxy-defenders", "m1", 4)
    full = render_animation(frames)
    monkeypatch.setattr(animate, "MAX_BYTES", len(full.png) // 3)
    small = render_animation(frames)
    assert len(small.png) < len(full.png)
    assert small.width == full.width and frame_count(small.png) < frame_count(full.png)


def test_facing_follows_the_board_kind() -> None:
    from renders.figures import facing_vector

    ne_hex = facing_vector("NE", "hex")
    ne_square = facing_vector("ne", "square")
    assert ne_hex is not None and ne_square is not None
    assert abs(ne_hex[0] - 0.5) < 1e-9 and ne_hex[1] < -0.8
    assert abs(ne_square[0] - ne_square[1] * -1) < 1e-9
    assert facing_vector("N", "square") is not None and facing_vector("up", "hex") is None


def test_close_up_after_a_step_centres_on_the_enemy_that_acted() -> None:
    """The Xeno moved: the close-up is about it, not about the Marine whose turn is next."""
    from engine.core.events import Moved
    from renders.board import focus_figure

    view = _board("square", 20)
    marine, xeno = view.figures[0], view.figures[1].model_copy(update={"coord": "L12"})
    view = view.model_copy(
        update={"active": marine.id, "reach": [marine.coord], "figures": [marine, xeno]}
    )
    events: list[Event] = [Moved(figure=xeno.id, path=["M13", xeno.coord])]
    assert focus_figure(view, events) == xeno.id
    image = render_board(view, events, mode="focus")
    assert xeno.id in image.positions and marine.id not in image.positions
    x, _ = image.positions[xeno.id]
    assert abs(x - image.width / 2) < image.width * 0.1
    # Without a step the close-up is about the active figure.
    assert focus_figure(view, []) == marine.id
