"""A campaign's public timeline: its steps in words, and the state after any step.

Built by replaying the action log with the table's own replay (`bot.replay.replay_row`), once,
in a thread; while replaying it keeps the state after every `SNAPSHOT_EVERY`-th step, so the
state after any step is at most that many replayed steps away. The snapshots live in memory (a
bounded LRU of campaigns, `Timelines`): they are rebuilt from the log after a restart in one
pass (a few seconds for a 500-step campaign, then fast), which keeps the database schema and
the commit path of every step untouched. A live campaign's timeline grows by the new log rows
only.

Public information only: a step's headline and text come from its log row's public events and
the public form of its command (`bot.disclosure`), and a step's state is turned into the public
view (`game.view(state, None)`) before anything is shown.
"""

from __future__ import annotations

import asyncio
import bisect
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from bot.disclosure import public_texts, shown_action
from bot.names import SeatNames, role_names, seat_name
from bot.replay import AUTOMATIC_ACTORS, replay_row
from bot.storage.models import ActionLog, Campaign
from engine.core.events import MissionEnded, parse_events
from engine.core.game import Game
from engine.core.view import View
from engine.registry import get_game

SNAPSHOT_EVERY = 25
MAX_TIMELINES = 16  # campaigns whose timeline is kept in memory
MAX_VIEWS = 64  # public views kept per timeline (the pages and images of recent steps)


@dataclass(frozen=True)
class StepInfo:
    """One log row as the public may read it."""

    n: int  # the log row's sequence number: the step's number everywhere
    kind: str
    headline: str
    lines: tuple[str, ...]
    chapter: int


@dataclass(frozen=True)
class Chapter:
    first: int  # the first step of the mission
    title: str


def headline(row: ActionLog, title: str = "", names: SeatNames | None = None) -> str:
    """What a step was, in one public line: the seat by its name and what it did in words
    ("Chromium (Marine) moves"); the narration below the headline tells the rest."""
    if row.kind == "begin":
        return f"{title or 'The mission'} begins"
    if row.kind == "action":
        who = seat_name(names, row.seat) if row.seat else "The table"
        by = AUTOMATIC_ACTORS.get(row.user_id or "")
        what = shown_action(row.action_json)
        return f"{who} {what}" + (f" ({by.lower()})" if by else "")
    if row.kind in ("undo", "rollback"):
        back_to = json.loads(row.action_json).get("to_seq")
        verb = "takes back a step" if row.kind == "undo" else "rolls back"
        return f"The table {verb}: back to step {back_to}"
    if row.kind == "end":
        return "The campaign is ended"
    return row.kind


@dataclass
class Timeline:
    """One campaign's steps and snapshots (not thread-safe: `Timelines` serialises access)."""

    campaign: Campaign
    game: Game[Any]
    rows: list[ActionLog] = field(default_factory=list)
    steps: list[StepInfo] = field(default_factory=list)
    chapters: list[Chapter] = field(default_factory=list)
    version: int = -1
    _snapshots: dict[int, Any] = field(default_factory=dict)
    _snapshot_seqs: list[int] = field(default_factory=list)
    _index: dict[int, int] = field(default_factory=dict)  # seq -> position in rows
    _last: Any = None
    _views: OrderedDict[int, tuple[View | None, Any]] = field(default_factory=OrderedDict)
    _cursor: tuple[int, Any] | None = None  # the last step whose state was rebuilt
    _title: str = ""
    _ended: bool = False  # the last step ended a mission

    @property
    def _names(self) -> dict[str, str]:
        return role_names(self.campaign.game, self.campaign.scenario)

    @property
    def last_seq(self) -> int:
        return self.rows[-1].seq if self.rows else 0

    def extend(self, rows: list[ActionLog], version: int) -> None:
        """Replay the new log rows after the ones already known."""
        for row in rows:
            if row.seq <= self.last_seq:
                continue
            state, _ = replay_row(self.game, self.campaign, row, self._last, self.state_at)
            self._index[row.seq] = len(self.rows)
            self.rows.append(row)
            self._last = state
            if state is not None and (
                len(self.rows) % SNAPSHOT_EVERY == 0 or row.kind in ("begin", "undo", "rollback")
            ):
                self._snapshots[row.seq] = state
                self._snapshot_seqs.append(row.seq)
            self.steps.append(self._info(row, state))
        self.version = version

    def _info(self, row: ActionLog, state: Any) -> StepInfo:
        """The step in words; the mission's begin, and the first step after a mission ended
        while the campaign goes on, open a chapter named after the mission then on the board."""
        events = parse_events(json.loads(row.events_json))
        if state is not None and (row.kind == "begin" or self._ended):
            shown = self.game.view(state, None)
            title = shown.header.get("mission") or shown.title
            self.chapters.append(Chapter(row.seq, f"{len(self.chapters) + 1}. {title}"))
            self._title = title
        self._ended = any(isinstance(e, MissionEnded) for e in events)
        return StepInfo(
            n=row.seq,
            kind=row.kind,
            headline=headline(row, self._title, self._names),
            lines=tuple(public_texts(events)),
            chapter=max(0, len(self.chapters) - 1),
        )

    def has(self, seq: int) -> bool:
        return seq in self._index

    def row(self, seq: int) -> ActionLog:
        return self.rows[self._index[seq]]

    def step(self, seq: int) -> StepInfo:
        return self.steps[self._index[seq]]

    def state_at(self, seq: int) -> Any:
        """The state after step `seq`: the nearest snapshot, then at most
        SNAPSHOT_EVERY - 1 replayed steps."""
        if seq == self.last_seq:
            return self._last
        at = bisect.bisect_right(self._snapshot_seqs, seq) - 1
        if at < 0:
            state: Any = None
            start = 0
        else:
            base = self._snapshot_seqs[at]
            state, start = self._snapshots[base], self._index[base] + 1
        # Stepping forward through the timeline goes on from the step shown last.
        if (
            self._cursor is not None
            and start - 1 <= self._index[self._cursor[0]] <= self._index[seq]
        ):
            state, start = self._cursor[1], self._index[self._cursor[0]] + 1
        for row in self.rows[start : self._index[seq] + 1]:
            state, _ = replay_row(self.game, self.campaign, row, state, self.state_at)
        self._cursor = (seq, state)
        return state

    def view_at(self, seq: int) -> View | None:
        """The public view after step `seq` (None before the mission's first step)."""
        return self.facts_at(seq)[0]

    def facts_at(self, seq: int) -> tuple[View | None, Any]:
        """The public view and the state after step `seq`, the latest asked kept (an LRU)."""
        hit = self._views.get(seq)
        if hit is not None:
            self._views.move_to_end(seq)
            return hit
        state = self.state_at(seq)
        facts = (None if state is None else self.game.view(state, None), state)
        self._views[seq] = facts
        while len(self._views) > MAX_VIEWS:
            self._views.popitem(last=False)
        return facts

    def state_now(self) -> Any:
        return self._last


class Timelines:
    """The timelines of recently watched campaigns, bounded; each built once, then grown."""

    def __init__(self, limit: int = MAX_TIMELINES) -> None:
        self.limit = limit
        self._kept: OrderedDict[int, Timeline] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}
        self._thread_lock = threading.Lock()

    async def of(self, campaign: Campaign, log: Any) -> Timeline:
        """The campaign's timeline up to its latest step. `log(campaign_id, after_seq)` reads
        the new log rows (the repo's `log`)."""
        key = campaign.id or 0
        lock = self._locks.setdefault(key, asyncio.Lock())
        async with lock:
            timeline = self._kept.get(key)
            if timeline is None or timeline.campaign.seed != campaign.seed:
                timeline = Timeline(campaign, get_game(campaign.game))
            if timeline.version != campaign.version:
                rows = await log(key, timeline.last_seq)
                await self.run(timeline.extend, rows, campaign.version)
            self._kept[key] = timeline
            self._kept.move_to_end(key)
            while len(self._kept) > self.limit:
                gone, _ = self._kept.popitem(last=False)
                self._locks.pop(gone, None)
            return timeline

    async def run(self, fn: Any, *args: Any) -> Any:
        """Replay work off the event loop, one timeline operation at a time."""

        def locked() -> Any:
            with self._thread_lock:
                return fn(*args)

        return await asyncio.to_thread(locked)
