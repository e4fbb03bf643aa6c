"""The table's pictures, rendered off the event loop.

Rendering is CPU work in Pillow. By default it runs in worker threads; with
`configure_workers(n)` it runs in a pool of `n` processes instead, which a 2-core server needs
to keep several channels moving at once (threads share one interpreter lock). Discord wants
an acknowledgement within 3 seconds, and the event loop must never wait on a picture.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from datetime import datetime
from typing import Any, Literal, TypeVar

from bot.replies import Attachment
from engine.core.events import Event, Note, PhaseChanged, dump_events, parse_events
from engine.core.view import View
from renders import (
    RenderedImage,
    activation_count,
    render_animation,
    render_board,
    render_panel,
    render_sheet,
    render_summary,
    render_wide,
    split_step,
)
from renders.media import matching_name

BoardMode = Literal["full", "focus"]
T = TypeVar("T")

_executor: Executor | None = None


def configure_workers(workers: int) -> None:
    """Render in `workers` processes (0: in threads of this process)."""
    global _executor
    if _executor is not None:
        _executor.shutdown(wait=False, cancel_futures=True)
        _executor = None
    if workers > 0:
        # forkserver: children never inherit the event loop's threads or locks.
        context = multiprocessing.get_context("forkserver")
        _executor = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=context,
            initializer=_watch_parent,
            initargs=(os.getpid(),),
        )
        # Start every worker now: the pool would otherwise spawn them on first use, and
        # spawning blocks the event loop for a tenth of a second in the middle of play.
        for started in [_executor.submit(os.getpid) for _ in range(workers)]:
            started.result()


def worker_pids() -> list[int]:
    """The render processes' ids (for the benchmarks' CPU accounting); empty with threads."""
    processes = getattr(_executor, "_processes", None) or {}
    return sorted(processes)


def _watch_parent(parent: int) -> None:
    """In each render process: exit as soon as the bot process is gone (even after SIGKILL),
    so a crashed bot never leaves idle renderers behind."""

    def watch() -> None:
        while True:
            time.sleep(1.0)
            try:
                os.kill(parent, 0)
            except ProcessLookupError:
                os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def shutdown_workers() -> None:
    configure_workers(0)


async def _off_loop(fn: Callable[..., T], *args: Any) -> T:
    if _executor is None:
        return await asyncio.to_thread(fn, *args)
    return await asyncio.get_running_loop().run_in_executor(_executor, fn, *args)


def attachment(image: RenderedImage) -> Attachment:
    # The name follows the bytes (an animation is a .gif whatever the renderer called it).
    return Attachment(matching_name(image.filename, image.png), image.png, image.alt_text)


# Pictures travel to the workers as JSON: pydantic-core writes it several times faster than
# pickle walks a View, and the event loop's process pays for the encoding.
Packed = tuple[bytes, bytes]


def _pack(view: View, events: list[Event]) -> Packed:
    return view.model_dump_json().encode(), json.dumps(dump_events(events)).encode()


def _unpack(packed: Packed) -> tuple[View, list[Event]]:
    view_json, events_json = packed
    return View.model_validate_json(view_json), parse_events(json.loads(events_json))


def _render_board(
    packed: Packed, mode: BoardMode, deadline: datetime | None = None
) -> RenderedImage:
    return render_board(*_unpack(packed), mode, deadline=deadline)


def _render_panel(packed: Packed) -> RenderedImage:
    return render_panel(*_unpack(packed))


def _render_summary(packed: Packed) -> RenderedImage:
    view, _ = _unpack(packed)
    return render_summary(view)


def _render_sheet(packed: Packed, figure_id: str) -> RenderedImage:
    view, _ = _unpack(packed)
    return render_sheet(view, figure_id)


async def step_image(
    view: View, events: list[Event], deadline: datetime | None = None
) -> Attachment:
    """The picture under a player's step: the phone-sized close-up around the action."""
    return attachment(await _off_loop(_render_board, _pack(view, events), "focus", deadline))


async def board_image(view: View, mode: BoardMode = "full") -> Attachment:
    return attachment(await _off_loop(_render_board, _pack(view, []), mode))


async def full_board_images(view: View) -> list[Attachment]:
    """`/board view:full` on a phone: the map filling the width, then the side panel as a
    second image (rendered side by side in the workers)."""
    packed = _pack(view, [])
    board, panel = await asyncio.gather(
        _off_loop(_render_board, packed, "full"), _off_loop(_render_panel, packed)
    )
    return [attachment(board), attachment(panel)]


def _render_wide(packed: Packed) -> RenderedImage:
    return render_wide(*_unpack(packed))


async def wide_board_image(view: View, events: list[Event]) -> Attachment:
    """The web page's board: the whole map at twice the channel's scale."""
    return attachment(await _off_loop(_render_wide, _pack(view, events)))


async def summary_image(view: View) -> Attachment:
    return attachment(await _off_loop(_render_summary, _pack(view, [])))


async def sheet_image(view: View, figure_id: str) -> Attachment:
    return attachment(await _off_loop(_render_sheet, _pack(view, []), figure_id))


def has_activity(events: list[Event]) -> bool:
    """Did the automatic phase do something worth animating (not just change phase)?"""
    return any(not isinstance(e, Note | PhaseChanged) for e in events)


def _animate(packed: Packed) -> RenderedImage:
    return render_animation(split_step(*_unpack(packed)))


async def phase_images(view: View, events: list[Event]) -> list[Attachment] | None:
    """The enemy or Event phase as one animation ending on the final board (held longer),
    or None when there is a single step (a still close-up says it all). No still copy of the
    final board follows: the animation's last frame is that board."""
    if activation_count(view, events) < 2:
        return None
    return [attachment(await _off_loop(_animate, _pack(view, events)))]
