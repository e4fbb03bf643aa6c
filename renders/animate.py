"""The enemy phase or Event phase as one animated GIF: a frame per activation, then the board.

Every frame is the full board after that activation with its story drawn; the last frame is
the final board without highlights, held longer. GIF is chosen because every Discord client
plays it inline.
"""

from __future__ import annotations

import io
from typing import Literal

from PIL import Image

from engine.core.events import (
    Attacked,
    Event,
    Killed,
    Moved,
    PhaseChanged,
    Revealed,
    Spawned,
    Wounded,
)
from engine.core.view import FigureView, View
from renders import theme
from renders.board import RenderedImage, compose_full, public_events, render_board
from renders.text import alt_text

MAX_FRAMES = 40
MAX_BYTES = 1_900_000
Side = Literal["player", "enemy", "neutral"]
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
    # Every frame is the phone-width full view, so frames never jump between layouts.
    images = [compose_full(view, events)[0] for view, events in shown]
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


def shared_palette(images: list[Image.Image], colors: int = 128) -> Image.Image:
    """One palette for every frame, chosen from a quarter-scale contact sheet of them all.

    Quantizing each full frame separately was most of an animation's cost; mapping every
    frame onto one palette is ten times cheaper, keeps colours steady from frame to frame and
    lets colours that appear only in later frames (a highlight, a mark lit later) into the palette.
    """
    width, height = max(1, images[0].width // 4), max(1, images[0].height // 4)
    sheet = Image.new("RGB", (width, height * len(images)))
    for index, image in enumerate(images):
        small = image.convert("RGB").resize((width, height), Image.Resampling.NEAREST)
        sheet.paste(small, (0, index * height))
    return sheet.quantize(colors=colors, method=Image.Quantize.FASTOCTREE)


def encode_gif(images: list[Image.Image]) -> bytes:
    reference = shared_palette(images)
    palette = [
        i.convert("RGB").quantize(palette=reference, dither=Image.Dither.NONE) for i in images
    ]
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
    return buffer.getvalue()


def render_animation(frames: list[tuple[View, list[Event]]]) -> RenderedImage:
    """An animated GIF stepping through each activation, ending on the final board.

    Kept under `MAX_BYTES`: a long phase loses every other activation frame (never the
    first or the final board) until it fits; frames are never shrunk (text stays legible).
    """
    images = animation_frames(frames)
    if not images:
        raise ValueError("render_animation needs at least one frame")
    data = encode_gif(images)
    while len(data) > MAX_BYTES and len(images) > 2:
        images = [*images[:-1][::2], images[-1]]
        data = encode_gif(images)
    final_view = frames[-1][0]
    events = [e for view, ev in frames for e in public_events(view, ev)]
    prefix = f"Animation of {len(frames)} steps, ending on the final board. "
    alt = alt_text(final_view, events, 1000 - len(prefix))
    return RenderedImage(
        data,
        prefix + alt,
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


VISUAL = (Moved, Attacked, Spawned, Revealed, Killed)


def _actor(event: Event) -> str:
    if isinstance(event, Attacked):
        return event.attacker
    if isinstance(event, Moved | Spawned | Revealed | Killed):
        return event.figure
    return ""


def _activations(events: list[Event]) -> list[list[Event]]:
    """Events cut into activations: a new one starts when another figure moves, attacks or
    appears, or the phase changes; narration without a picture joins its neighbour."""
    groups: list[list[Event]] = [[]]
    actor = ""
    for event in events:
        who = _actor(event)
        starts = isinstance(event, PhaseChanged) or (
            isinstance(event, Moved | Attacked | Spawned) and who != actor
        )
        if starts and any(isinstance(e, VISUAL) for e in groups[-1]):
            groups.append([])
        if isinstance(event, Moved | Attacked | Spawned):
            actor = who
        groups[-1].append(event)
    return [g for g in groups if g]


def _guess_side(figure: str, events: list[Event], sides: dict[str, Side]) -> Side:
    for event in events:
        if isinstance(event, Attacked) and event.target == figure and event.attacker in sides:
            return "player" if sides[event.attacker] == "enemy" else "enemy"
    return "neutral"


def activation_count(view: View, events: list[Event]) -> int:
    """How many frames `split_step` would make, without building them."""
    return len(_activations(public_events(view, events)))


def split_step(view: View, events: list[Event]) -> list[tuple[View, list[Event]]]:
    """Frames for `render_animation` from one step: the view after each activation.

    The engine returns a whole enemy or Event phase as one step (the final view and all its
    events); this rewinds the figures from the final view through the events (moves go back
    along their paths, spawned figures disappear, killed ones reappear where they fell), so a
    table can animate any phase without asking the engine for intermediate states.
    """
    shown = public_events(view, events)
    groups = _activations(shown)
    if len(groups) <= 1:
        return [(view, shown)]
    sides: dict[str, Side] = {f.id: f.side for f in view.figures}
    figures: dict[str, FigureView] = {f.id: f for f in view.figures}
    order = [f.id for f in view.figures]
    frames: list[tuple[View, list[Event]]] = []
    for group in reversed(groups):
        current = [figures[i] for i in order if i in figures]
        frames.append((view.model_copy(update={"figures": current}), group))
        for event in reversed(group):
            _undo(event, figures, order, shown, sides)
    frames.reverse()
    return _phases(frames)


def _phases(frames: list[tuple[View, list[Event]]]) -> list[tuple[View, list[Event]]]:
    """Earlier frames show the phase and round their events announced, and nobody's turn."""
    out: list[tuple[View, list[Event]]] = []
    phase: PhaseChanged | None = None
    for i, (frame, group) in enumerate(frames):
        for event in group:
            if isinstance(event, PhaseChanged):
                phase = event
        if i < len(frames) - 1:
            update: dict[str, object] = {"waiting": [], "active": None, "reach": []}
            if phase is not None:
                update["phase"] = phase.phase or frame.phase
                update["round"] = phase.round or frame.round
            frame = frame.model_copy(update=update)
        out.append((frame, group))
    return out


def _undo(
    event: Event,
    figures: dict[str, FigureView],
    order: list[str],
    events: list[Event],
    sides: dict[str, Side],
) -> None:
    if isinstance(event, Moved) and event.figure in figures and event.path:
        figures[event.figure] = figures[event.figure].model_copy(update={"coord": event.path[0]})
    elif isinstance(event, Spawned) and event.figure in figures:
        del figures[event.figure]
    elif isinstance(event, Killed) and event.figure not in figures and event.at:
        side = sides.get(event.figure) or _guess_side(event.figure, events, sides)
        name = event.figure.replace("-", " ").title()
        figures[event.figure] = FigureView(
            id=event.figure,
            label=event.figure[:3].upper(),
            name=name,
            side=side,
            coord=event.at,
        )
        order.append(event.figure)
    elif isinstance(event, Wounded) and event.figure in figures and event.amount > 0:
        f = figures[event.figure]
        if f.health is not None:
            health = f.health + event.amount
            if f.max_health:
                health = min(health, f.max_health)
            figures[event.figure] = f.model_copy(update={"health": health})
