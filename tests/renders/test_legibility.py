"""Phone-first: every board kind legible at 390 px wide, and board labels that never overlap.

Measured on every scenario's opening and a busy mid-game board (`samples`): the smallest
font drawn, scaled to a 390-px-wide phone, must be at least 11 px, for the full view, the
close-up, the side panel, a sheet and the frames of an animated phase.
"""

from __future__ import annotations

from typing import Any

import pytest
from samples import Sample, samples

from renders import render_animation, render_board, render_sheet, theme
from renders.board import draw_board, full_geometry, render_panel
from renders.geometry import CELL_SIZE
from renders.legibility import measure, overlaps

KINDS = ("full", "focus", "panel", "sheet", "phase")


def _render(kind: str, sample: Sample) -> object:
    view, events = sample.view, sample.events
    if kind in ("full", "focus"):
        return lambda: render_board(view, events, kind)  # type: ignore[arg-type]
    if kind == "panel":
        return lambda: render_panel(view, events)
    if kind == "sheet":
        enemy = next((f for f in view.figures if f.side == "enemy"), view.figures[0])
        return lambda: render_sheet(view, enemy.id)
    return lambda: render_animation(sample.frames)


@pytest.mark.slow
def test_every_board_kind_is_legible_at_phone_width() -> None:
    smallest: dict[str, float] = {}
    for sample in samples():
        for kind in KINDS:
            if kind == "phase" and len(sample.frames) < 2:
                continue
            measured = measure(_render(kind, sample))  # type: ignore[arg-type]
            assert measured.width == theme.IMAGE_WIDTH, (sample.name, kind, measured.width)
            key = kind
            smallest[key] = min(smallest.get(key, 99.0), measured.smallest)
            assert measured.smallest >= theme.PHONE_MIN_TEXT, (sample.name, kind, measured)
    assert set(smallest) == set(KINDS)


@pytest.mark.slow
def test_board_labels_never_overlap() -> None:
    """Every pill drawn on the board (static marks, Teleport Points, story tags, ranks) in
    the full view and the close-up geometry: no two boxes overlap."""
    checked = 0
    for sample in samples():
        full = full_geometry(sample.view)
        focus = (int(CELL_SIZE[sample.view.board] * 1.3), 14)
        for size, margin in (full, focus):
            measured = measure(
                lambda s=sample, c=size, m=margin: draw_board(s.view, s.events, c, m).image  # type: ignore[misc]
            )
            assert not overlaps(measured.pills), (sample.name, size, overlaps(measured.pills))
            checked += len(measured.pills)
    assert checked > 200


def test_a_dead_figure_keeps_its_whole_name() -> None:
    from renders.story import dead_name

    assert dead_name("soldier13") == "Soldier 13"
    assert dead_name("xeno-beta") == "Xeno Beta"


def test_the_measure_scales_to_phone_width_and_finds_overlaps() -> None:
    """The yardstick itself: 17-px text is 11.3 px on a 585-px image but 6.6 px on 1000."""
    from PIL import Image, ImageDraw

    from renders import paint

    class Wide:
        width = 1000

    def wide() -> Wide:
        paint.text(ImageDraw.Draw(Image.new("RGB", (9, 9))), (0, 0), "x", 17)
        return Wide()

    assert measure(wide).smallest == pytest.approx(17 * 390 / 1000)
    assert overlaps([("a", (0, 0, 10, 10)), ("b", (9, 9, 20, 20)), ("c", (20, 0, 30, 8))]) == [
        ("a", "b")
    ]


def test_reveal_and_spawn_tags_at_teleport_points_do_not_overlap() -> None:
    """The Galaxy case of the issue: several aliens appear at Teleport Points in one step."""
    from engine.core.events import Revealed, Spawned

    view = next(s.view for s in samples() if s.name == "galaxy-defenders/m1/opening")
    points = [c.coord for c in view.cells if any(m.startswith("teleport") for m in c.marks)]
    assert len(points) >= 2
    enemy = view.figures[0].model_copy(update={"side": "enemy", "kind": "xeno"})
    figures = list(view.figures)
    events: list[Any] = []
    for i, coord in enumerate(points * 2):
        figures.append(enemy.model_copy(update={"id": f"x{i}", "label": f"x{i}", "coord": coord}))
        events += [Spawned(figure=f"x{i}", at=coord), Revealed(figure=f"x{i}", at=coord)]
    busy = view.model_copy(update={"figures": figures})
    for size, margin in (full_geometry(busy), (int(CELL_SIZE["hex"] * 1.3), 14)):
        measured = measure(
            lambda c=size, m=margin: draw_board(busy, events, c, m).image  # type: ignore[misc]
        )
        tags = [text for text, _ in measured.pills if "NEW" in text or "REVEAL" in text]
        assert tags and not overlaps(measured.pills), overlaps(measured.pills)
