"""Names and types that match the bytes, and sizes within Discord's attachment limit."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from samples import samples

from engine.registry import games
from renders import render_animation, render_board, render_sheet
from renders.bench import crowded, largest_scenario
from renders.media import (
    DISCORD_LIMIT,
    extension,
    fit_attachments,
    matching_name,
    media_type,
)


@dataclass(frozen=True)
class Blob:
    png: bytes
    filename: str


def test_media_type_reads_the_magic_number_not_the_name() -> None:
    assert media_type(b"\x89PNG\r\n\x1a\n....") == "image/png"
    assert media_type(b"GIF89a....") == "image/gif" and extension(b"GIF87a..") == "gif"
    assert media_type(b"hello") == "application/octet-stream" and extension(b"x") == "bin"
    assert matching_name("phase.png", b"GIF89a..") == "phase.gif"
    assert matching_name("board", b"\x89PNG\r\n\x1a\n") == "board.png"


def test_every_render_is_named_for_what_its_bytes_are() -> None:
    sample = next(s for s in samples() if s.name == "forlorn-hope/op-01/busy")
    figure = sample.view.figures[0].id
    images = [
        render_board(sample.view, sample.events),
        render_board(sample.view, sample.events, "focus"),
        render_sheet(sample.view, figure),
        render_animation(sample.frames),
    ]
    for image in images:
        assert image.filename.endswith("." + extension(image.png)), image.filename
        assert image.content_type == media_type(image.png)
    assert images[-1].content_type == "image/gif"


def test_fit_attachments_drops_what_overflows_and_says_so() -> None:
    big, small = Blob(b"x" * 700, "phase.gif"), Blob(b"y" * 200, "board.png")
    fitted = fit_attachments([big, small, Blob(b"z" * 200, "sheet.png")], limit=1000)
    assert [p.filename for p in fitted.kept] == ["phase.gif", "board.png"]
    assert [p.filename for p in fitted.dropped] == ["sheet.png"]
    assert "sheet.png" in fitted.note and "limit" in fitted.note
    assert fit_attachments([small], limit=1000).note == ""
    with pytest.raises(ValueError, match="positive"):
        fit_attachments([small], limit=0)


def test_the_largest_renders_stay_far_below_the_attachment_limit() -> None:
    """Sizes measured on the largest board of every game with 32 figures and a step's story,
    and on a busy animation; a tenth of the limit leaves room for a post's other pictures."""
    sizes: dict[str, int] = {}
    for game in games().values():
        _, view = largest_scenario(game)
        busy, events = crowded(view)
        for mode in ("full", "focus"):
            image = render_board(busy, events, mode)
            sizes[f"{game.key} {mode}"] = len(image.png)
        sizes[f"{game.key} phase"] = len(render_animation([(busy, events)] * 6).png)
    assert max(sizes.values()) < DISCORD_LIMIT // 4, sizes
