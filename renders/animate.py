"""The enemy phase or Event phase as one animated GIF: a frame per activation, then the board.

Every frame is the full board after that activation with its story drawn; the last frame is
the final board without highlights, held longer. GIF is chosen because every Discord client
plays it inline.
"""

from __future__ import annotations

import io

from PIL import Image

from engine.core.events import Event
from engine.core.view import View
from renders import theme
from renders.board import RenderedImage, compose_full, public_events, render_board
from renders.text import alt_text

MAX_FRAMES = 40
STEP_MS = 1600
FINAL_MS = 4000


def _merge(frames: list[tuple[View, list[Event]]], limit: int) -> list[tuple[View, list[Event]]]:
    """At most `limit` frames: neighbouring steps share a frame (their events together)."""
    if len(frames) <= limit:
        return frames
    per = -(-len(frames) // limit)
    merged = []
    for i in range(0, len(frames), per):
        group = frames[i : i + per]
        merged.append((group[-1][0], [e for _, events in group for e in events]))
    return merged


def animation_frames(frames: list[tuple[View, list[Event]]]) -> list[Image.Image]:
    """One image per step plus the final board, all the same size."""
    steps = _merge(frames, MAX_FRAMES - 1)
    shown = [(view, public_events(view, events)) for view, events in steps]
    if frames:
        shown.append((frames[-1][0], []))
    images = [compose_full(view, events)[0] for view, events in shown]
    widths = {i.width for i in images}
    if len(widths) > 1:
        # Frames must not jump between layouts: put every panel below the board.
        images = [compose_full(view, events, "below")[0] for view, events in shown]
    if not images:
        return []
    width = max(i.width for i in images)
    height = max(i.height for i in images)
    out = []
    for image in images:
        if image.size != (width, height):
            canvas = Image.new("RGB", (width, height), theme.BACKGROUND)
            canvas.paste(image, (0, 0))
            image = canvas
        out.append(image)
    return out


def render_animation(frames: list[tuple[View, list[Event]]]) -> RenderedImage:
    """An animated GIF stepping through each activation, ending on the final board."""
    images = animation_frames(frames)
    if not images:
        raise ValueError("render_animation needs at least one frame")
    palette = [i.quantize(colors=255, method=Image.Quantize.FASTOCTREE) for i in images]
    durations = [STEP_MS] * (len(palette) - 1) + [FINAL_MS]
    buffer = io.BytesIO()
    palette[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=palette[1:],
        duration=durations,
        loop=0,
        optimize=False,
        disposal=1,
    )
    final_view = frames[-1][0]
    events = [e for view, ev in frames for e in public_events(view, ev)]
    alt = alt_text(final_view, events)
    prefix = f"Animation of {len(frames)} steps, ending on the final board. "
    return RenderedImage(
        buffer.getvalue(),
        (prefix + alt)[:1000],
        images[0].width,
        images[0].height,
        "phase.gif",
    )


def render_phase(frames: list[tuple[View, list[Event]]]) -> list[RenderedImage]:
    """The animation and the still final board, ready to attach together."""
    final = frames[-1][0]
    return [render_animation(frames), render_board(final, [])]


def frame_count(data: bytes) -> int:
    with Image.open(io.BytesIO(data)) as image:
        return getattr(image, "n_frames", 1)
