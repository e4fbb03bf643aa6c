"""Board images: pure functions from an engine `View` (and a step's events) to image bytes.

render_board(view, events, mode="full" | "focus", focus=None) -> RenderedImage
render_animation(frames: list[tuple[View, list[Event]]]) -> RenderedImage
render_phase(frames) -> [animation, final still board]
activation_count(view, events) -> int   (frames split_step would make)
render_sheet(view, figure_id) -> RenderedImage
render_panel(view, events) -> RenderedImage   (the full side panel, a second image)
render_summary(view) -> RenderedImage          (end-of-mission summary card)
text_board(view) -> str        (a code block of at most 2000 characters)
alt_text(view, events=None) -> str
"""

from renders.animate import activation_count, render_animation, render_phase, split_step
from renders.board import RenderedImage, render_board, render_panel, render_wide
from renders.sheet import render_sheet
from renders.summary import render_summary
from renders.text import alt_text, text_board

__all__ = [
    "RenderedImage",
    "activation_count",
    "alt_text",
    "render_animation",
    "render_board",
    "render_panel",
    "render_phase",
    "render_sheet",
    "render_summary",
    "render_wide",
    "split_step",
    "text_board",
]
