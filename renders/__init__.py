"""Board images: pure functions from an engine `View` (and a step's events) to PNG bytes."""

from renders.board import RenderedImage, alt_text, render_board

__all__ = ["RenderedImage", "alt_text", "render_board"]
