"""The post budget: which public post a step goes into.

A channel should read like a good play-by-post thread: one post per player turn, edited in
place while that player acts, and one post per automatic phase. The table keeps, per
campaign, the turn post still open: its key (the shells map a key to the message they posted,
and edit that message when a later reply carries the same key), the seats whose steps go on
editing it (a question asked in private, a Forlorn reaction window, is shown in it too, and
its answer edits it), the campaign version it shows, and its running log.

A step continues the open post only when nothing else happened since (same version), its
seat is one the post waits on, nobody's input is newly needed (a mention needs a new post:
an edit never pings) and no automatic phase ran (a phase is a post of its own). Anything
else opens a new post. The registry lives in the database (`turn_post`), so a step served
after a restart, or by another process, still edits the open post.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field

from bot.storage.models import OpenTurnPost
from bot.storage.outbox import TurnPostStore
from engine.core.words import counted

RUNNING_LOG = 12  # lines of the running log a turn post keeps
EARLIER = "… {} of this turn: see /log"  # heads a log whose start was cut ("3 earlier lines")


def running_log(lines: list[str]) -> list[str]:
    """The last RUNNING_LOG lines, headed by a line saying how many earlier ones were left
    out (a post must not begin mid-story as if it were the start). A log that already starts
    with that line adds its count to the new one."""
    dropped = 0
    head, sep, _ = EARLIER.partition("{}")
    if lines and lines[0].startswith(head) and sep:
        dropped = int(lines[0][len(head) :].split(" ", 1)[0])
        lines = lines[1:]
    if len(lines) > RUNNING_LOG:
        dropped += len(lines) - RUNNING_LOG
        lines = lines[-RUNNING_LOG:]
    return [EARLIER.format(counted(dropped, "earlier line")), *lines] if dropped else list(lines)


@dataclass
class OpenPost:
    key: str
    seats: frozenset[str]
    version: int
    lines: list[str] = field(default_factory=list)
    # The seat whose turn the post shows: the first of `seats` to act claims it, and a step
    # by another seat (players of one side acting in any order) opens that seat's own post.
    owner: str | None = None


@dataclass(frozen=True)
class Placement:
    """Where a step's public text goes: the post's key and the running log it shows."""

    key: str
    lines: list[str]
    edit: bool  # replaces the post opened earlier with this key


class TurnPosts:
    def __init__(self, store: TurnPostStore) -> None:
        self.store = store

    async def _open(self, campaign_id: int) -> OpenPost | None:
        row = await self.store.load(campaign_id)
        if row is None:
            return None
        return OpenPost(
            row.post_key,
            frozenset(json.loads(row.seats_json)),
            row.version,
            list(json.loads(row.lines_json)),
            row.owner,
        )

    async def _keep(self, campaign_id: int, post: OpenPost) -> None:
        await self.store.save(
            OpenTurnPost(
                campaign_id=campaign_id,
                post_key=post.key,
                seats_json=json.dumps(sorted(post.seats)),
                version=post.version,
                lines_json=json.dumps(post.lines),
                owner=post.owner,
            )
        )

    async def continues(self, campaign_id: int, step: StepShape) -> bool:
        """Whether the step goes on editing the campaign's open turn post."""
        return self._continues(await self._open(campaign_id), step)

    @staticmethod
    def _continues(current: OpenPost | None, step: StepShape) -> bool:
        return (
            current is not None
            and step.version_before == current.version
            and step.seat is not None
            and step.seat in current.seats
            and (current.owner in (None, step.seat) or step.private_answer or step.quiet)
            and step.continues
        )

    async def place(self, campaign_id: int, step: StepShape, lines: list[str]) -> Placement:
        """Decide whether the step edits the open post or opens a new one, and remember."""
        current = await self._open(campaign_id)
        if current is not None and self._continues(current, step):
            current.lines = running_log(current.lines + lines)
            current.version = step.version_after
            current.seats = step.waiting
            if step.shared or step.ballot:
                # A vote's post is no seat's own turn; once the last answer closes the vote,
                # the first awaited seat to act claims it as its turn post.
                current.owner = None
            elif not (step.private_answer or step.quiet):  # these leave the post its owner's
                current.owner = step.seat
            await self._keep(campaign_id, current)
            return Placement(current.key, list(current.lines), edit=True)
        # Unique across processes and restarts: the version is the campaign's, the tail random.
        key = f"turn-{campaign_id}-{step.version_after}-{secrets.token_hex(3)}"
        if step.closes:
            # An automatic phase or the mission's end: a finished post nobody edits.
            await self.forget(campaign_id)
            return Placement(key, lines, edit=False)
        kept = running_log(lines)
        owner = step.seat if step.seat in step.waiting and not step.shared else None
        await self._keep(campaign_id, OpenPost(key, step.waiting, step.version_after, kept, owner))
        return Placement(key, list(kept), edit=False)

    async def forget(self, campaign_id: int) -> None:
        await self.store.drop(campaign_id)


@dataclass(frozen=True)
class StepShape:
    """What the registry needs to know of a committed step."""

    seat: str | None  # the seat that acted (None: the table itself, a stand-in)
    version_before: int | None
    version_after: int
    waiting: frozenset[str]  # the seats the game waits on now
    continues: bool  # nobody newly needed and no automatic phase
    closes: bool  # an automatic phase ran or the mission is over
    # It answered a question asked in private inside the owner's turn (`Prompt.private`).
    private_answer: bool = False
    # A group choice (a vote) is open: every waited-on seat answers in the one post, which no
    # seat claims as its own turn's.
    shared: bool = False
    # The step answered a vote: its seat claims no post (the last answer may close the vote
    # and hand the post to another seat's turn, the Galaxy Alpha Agent's).
    ballot: bool = False
    # Nothing public and the same seats awaited (a standing order set by another seat): it
    # edits the open post only to stamp its buttons with the new version, and claims no post.
    quiet: bool = False
