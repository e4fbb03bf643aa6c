"""Campaign persistence operations, each in its own transaction.

`commit_step` is the heart of it: the new state, the campaign row and the action log row are
written in one transaction guarded by an optimistic version check, so two processes or two
quick clicks can never both apply a step on the same version.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import delete, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import col, func, or_, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.signing import SigningKeyError, fingerprint, missing_key_text
from bot.storage.db import Database
from bot.storage.models import (
    ActionLog,
    Campaign,
    Delivery,
    InstanceKey,
    Interaction,
    Nudge,
    PlayerPrefs,
    Seat,
    SigningMark,
    utcnow,
)
from bot.storage.outbox import announcing, compose_marker


class TableChanged(Exception):
    """Another command changed the campaign first."""

    def __init__(self) -> None:
        super().__init__("The table changed while you were acting. Please try again.")


class ChannelBusy(Exception):
    pass


LIVE_STATUSES = ("open", "active", "paused")


@dataclass
class WaitingUpdate:
    """Who the game waits on after a step, and when to remind them or apply the deadline."""

    now: datetime
    users: set[str]
    actor: str | None = None  # whoever just acted: their own timer starts again
    remind_after: dict[str, timedelta | None] = field(default_factory=dict)
    deadline_after: timedelta | None = None
    # A question with a default answer is pending: apply the default when this much has passed.
    window_after: timedelta | None = None


@dataclass
class StepWrite:
    """Everything one step writes."""

    state_json: str
    log: ActionLog
    status: str
    outcome: str | None = None
    waiting: WaitingUpdate | None = None
    seen_by: str | None = None  # the acting player has seen everything up to this step


@dataclass
class _Reads:
    """The campaign, seat and preference rows one command has read, reused until it writes.

    A command reads its table several times on the way (the catch-up, the turn check, the
    commit); each read is a database round trip, so they are answered from here instead.
    Another process may still commit meanwhile: the step's optimistic version check decides.
    """

    campaigns: dict[str, Campaign | None] = field(default_factory=dict)  # by live channel
    seats: dict[int, list[Seat]] = field(default_factory=dict)  # by campaign id
    prefs: dict[str, PlayerPrefs] = field(default_factory=dict)  # of the seated players

    def clear(self) -> None:
        self.campaigns.clear()
        self.seats.clear()
        self.prefs.clear()


_reads: ContextVar[_Reads | None] = ContextVar("sortie_command_reads", default=None)


@dataclass
class _Once:
    """The request a command serves: its id goes into the first transaction that writes."""

    key: str
    channel_id: str
    written: bool = False


_once: ContextVar[_Once | None] = ContextVar("sortie_command_request", default=None)


class CampaignRepo:
    def __init__(self, db: Database, signing_key: str | None = None) -> None:
        self.db = db
        # From SORTIE_SIGNING_KEY or its file (see `bot.signing`); None: kept in the database.
        self.configured_key = signing_key
        self._signing_key: str | None = None

    @contextmanager
    def command_scope(self) -> Iterator[None]:
        """Within this block (one command, under its channel's lock) repeated reads of the
        same campaign, seats and preferences are served from memory; any write forgets them."""
        token = _reads.set(_Reads())
        try:
            yield
        finally:
            _reads.reset(token)

    @asynccontextmanager
    async def _write_session(self) -> AsyncIterator[AsyncSession]:
        reads = _reads.get()
        if reads is not None:
            reads.clear()
        once = _once.get()
        try:
            async with self.db.write_session() as session:
                if once is not None and not once.written:
                    # The request's id commits with its command's first write, or not at all:
                    # a second run of the same id fails on the primary key and writes nothing.
                    session.add(Interaction(key=once.key, channel_id=once.channel_id))
                yield session
            if once is not None:
                once.written = True
        finally:
            if reads is not None:
                reads.clear()

    @contextmanager
    def request_scope(self, key: str, channel_id: str) -> Iterator[_Once]:
        """Within this block every write carries the request id `key` (see `Interaction`)."""
        once = _Once(key, channel_id)
        token = _once.set(once)
        try:
            yield once
        finally:
            _once.reset(token)

    async def interaction(self, key: str) -> Interaction | None:
        async with self.db.session() as session:
            return await session.get(Interaction, key)

    async def remember_outcome(self, once: _Once, replies_json: str) -> None:
        """Store a request's first answer (its row exists already if the command wrote)."""
        async with self.db.write_session() as session:
            if once.written:
                await session.exec(
                    update(Interaction)
                    .where(col(Interaction.key) == once.key)
                    .values(replies_json=replies_json)
                )
            else:
                session.add(
                    Interaction(key=once.key, channel_id=once.channel_id, replies_json=replies_json)
                )
            try:
                await session.commit()
            except IntegrityError:
                await session.rollback()  # a concurrent run of the same read-only request

    async def forget_interactions(self, before: datetime) -> int:
        """Drop request ids older than `before` (nobody retries a day-old request)."""
        async with self.db.write_session() as session:
            result = await session.exec(
                delete(Interaction).where(col(Interaction.created_at) < before)
            )
            await session.commit()
            return int(result.rowcount or 0)

    async def create(self, campaign: Campaign) -> Campaign:
        campaign.live_channel = campaign.channel_id
        async with self._write_session() as session:
            session.add(campaign)
            try:
                await session.commit()
            except IntegrityError:
                await session.rollback()
                raise ChannelBusy(campaign.channel_id) from None
            await session.refresh(campaign)
        return campaign

    async def live_in_channel(self, channel_id: str) -> Campaign | None:
        reads = _reads.get()
        if reads is not None and channel_id in reads.campaigns:
            return reads.campaigns[channel_id]
        async with self.db.session() as session:
            query = select(Campaign).where(Campaign.live_channel == channel_id)
            campaign = (await session.exec(query)).first()
        if reads is not None:
            reads.campaigns[channel_id] = campaign
        return campaign

    async def latest_in_channel(self, channel_id: str) -> Campaign | None:
        """The channel's most recent campaign, live or over."""
        async with self.db.session() as session:
            query = (
                select(Campaign)
                .where(Campaign.channel_id == channel_id)
                .order_by(col(Campaign.id).desc())
            )
            return (await session.exec(query)).first()

    async def get(self, campaign_id: int) -> Campaign | None:
        async with self.db.session() as session:
            return await session.get(Campaign, campaign_id)

    async def all(self) -> Sequence[Campaign]:
        async with self.db.session() as session:
            return (await session.exec(select(Campaign).order_by(col(Campaign.id)))).all()

    async def in_guild(self, guild_id: str | None) -> Sequence[Campaign]:
        async with self.db.session() as session:
            query = select(Campaign).where(Campaign.guild_id == guild_id)
            query = query.where(col(Campaign.status).in_(LIVE_STATUSES))
            return (await session.exec(query.order_by(col(Campaign.id)))).all()

    async def live_counts(self, owner_id: str, guild_id: str | None) -> tuple[int, int]:
        """How many live campaigns the player owns, and how many the server has."""
        async with self.db.session() as session:
            live = col(Campaign.live_channel).is_not(None)
            mine = (
                select(func.count())
                .select_from(Campaign)
                .where(live, col(Campaign.owner_id) == owner_id)
            )
            here = (
                select(func.count())
                .select_from(Campaign)
                .where(live, col(Campaign.guild_id) == guild_id)
            )
            return int((await session.exec(mine)).one()), int((await session.exec(here)).one())

    async def table(self, channel_id: str) -> tuple[Campaign | None, list[Seat]]:
        """The channel's live campaign and its seats, read in one session."""
        reads = _reads.get()
        if reads is not None and channel_id in reads.campaigns:
            known = reads.campaigns[channel_id]
            if known is None:
                return None, []
            if known.id in reads.seats:
                return known, list(reads.seats[known.id or 0])
        async with self.db.session() as session:
            query = select(Campaign).where(Campaign.live_channel == channel_id)
            campaign = (await session.exec(query)).first()
            seats: list[Seat] = []
            if campaign is not None:
                by_id = select(Seat).where(Seat.campaign_id == campaign.id).order_by(col(Seat.id))
                seats = list((await session.exec(by_id)).all())
            if reads is not None and seats:
                # The step this command may commit needs its players' preferences: read
                # them in the same session.
                users = sorted({s.user_id for s in seats if s.user_id})
                wanted = select(PlayerPrefs).where(col(PlayerPrefs.user_id).in_(users))
                stored = {p.user_id: p for p in (await session.exec(wanted)).all()}
                reads.prefs.update({u: stored.get(u) or PlayerPrefs(user_id=u) for u in users})
        if reads is not None:
            reads.campaigns[channel_id] = campaign
            if campaign is not None:
                reads.seats[campaign.id or 0] = seats
        return campaign, list(seats)

    async def mark_seen(self, campaign_id: int, user_id: str, seq: int) -> None:
        # Only the player's "seen" mark changes, so the command's reads stay valid once the
        # same change is made to the seats it holds.
        async with self.db.write_session() as session:
            await session.exec(
                update(Seat)
                .where(col(Seat.campaign_id) == campaign_id, col(Seat.user_id) == user_id)
                .values(last_seen_seq=seq)
            )
            await session.commit()
        reads = _reads.get()
        for seat in reads.seats.get(campaign_id, []) if reads is not None else []:
            if seat.user_id == user_id:
                seat.last_seen_seq = seq

    async def seats(self, campaign_id: int) -> list[Seat]:
        reads = _reads.get()
        if reads is not None and campaign_id in reads.seats:
            return list(reads.seats[campaign_id])
        async with self.db.session() as session:
            query = select(Seat).where(Seat.campaign_id == campaign_id).order_by(col(Seat.id))
            seats = list((await session.exec(query)).all())
        if reads is not None:
            reads.seats[campaign_id] = seats
        return list(seats)

    async def add_seat(self, campaign: Campaign, seat: Seat) -> Seat:
        """Add a seat if the campaign is still open at the version the caller saw."""
        async with self._write_session() as session:
            await self._bump(session, campaign, status=campaign.status)
            session.add(seat)
            try:
                await session.commit()
            except IntegrityError:
                await session.rollback()
                raise TableChanged() from None
            await session.refresh(seat)
        campaign.version += 1
        return seat

    async def remove_seat(self, campaign: Campaign, seat: Seat) -> None:
        async with self._write_session() as session:
            await self._bump(session, campaign, status=campaign.status)
            row = await session.get(Seat, seat.id)
            if row is not None:
                await session.delete(row)
            await session.commit()
        campaign.version += 1

    async def update_seat(self, seat: Seat) -> None:
        async with self._write_session() as session:
            session.add(seat)
            await session.commit()

    async def save_settings(self, campaign: Campaign) -> None:
        async with self._write_session() as session:
            await self._bump(
                session, campaign, status=campaign.status, settings_json=campaign.settings_json
            )
            await session.commit()
        campaign.version += 1

    async def close(self, campaign: Campaign, status: str, log: ActionLog | None = None) -> None:
        """End a campaign (no more play); frees the channel for a new one."""
        async with self._write_session() as session:
            extra: dict[str, object] = {"step": log.seq} if log is not None else {}
            await self._bump(session, campaign, status=status, live_channel=None, **extra)
            if log is not None:
                log.version_after = campaign.version + 1
                session.add(log)
            await session.commit()
        campaign.version += 1
        campaign.status = status
        campaign.live_channel = None
        if log is not None:
            campaign.step = log.seq

    async def commit_step(self, campaign: Campaign, write: StepWrite) -> None:
        """Persist one step atomically; raise TableChanged if the campaign moved on."""
        live = campaign.channel_id if write.status in LIVE_STATUSES else None
        async with self._write_session() as session:
            await self._bump(
                session,
                campaign,
                status=write.status,
                state_json=write.state_json,
                step=write.log.seq,
                outcome=write.outcome,
                live_channel=live,
            )
            write.log.version_after = campaign.version + 1
            session.add(write.log)
            marker = _marker(campaign, write.log.seq)
            if marker is not None:
                session.add(marker)
            if write.waiting is not None:
                await _sync_waiting(session, campaign.id or 0, write.waiting)
            if write.seen_by:
                await session.exec(
                    update(Seat)
                    .where(col(Seat.campaign_id) == campaign.id, col(Seat.user_id) == write.seen_by)
                    .values(last_seen_seq=write.log.seq)
                )
            try:
                if marker is not None:
                    await session.flush()  # the marker's id, in the same round trips
                await session.commit()
            except IntegrityError:
                await session.rollback()
                raise TableChanged() from None
            if marker is not None:
                scope = announcing()
                assert scope is not None and marker.id is not None
                scope.markers[marker.channel_id] = marker.id
        campaign.version += 1
        campaign.state_json = write.state_json
        campaign.step = write.log.seq
        campaign.status = write.status
        campaign.outcome = write.outcome
        campaign.live_channel = live

    async def import_campaign(
        self, campaign: Campaign, seats: list[Seat], rows: list[ActionLog]
    ) -> Campaign:
        """Insert a whole campaign (from an export) in one transaction."""
        campaign.live_channel = campaign.channel_id if campaign.status in LIVE_STATUSES else None
        async with self._write_session() as session:
            session.add(campaign)
            try:
                await session.flush()
                for seat in seats:
                    seat.campaign_id = campaign.id or 0
                    session.add(seat)
                for row in rows:
                    row.campaign_id = campaign.id or 0
                    session.add(row)
                await session.commit()
            except IntegrityError:
                await session.rollback()
                raise ChannelBusy(campaign.channel_id) from None
            await session.refresh(campaign)
        return campaign

    async def signing_key(self) -> str:
        """The deployment's export-signing key: the configured one, else the database's,
        created by whichever process asks first, unless a key was used before (then
        `SigningKeyError`: a new key would refuse every earlier export)."""
        if self._signing_key is None:
            key = self.configured_key or await self._stored_key()
            await self._mark_key(fingerprint(key))
            self._signing_key = key
        return self._signing_key

    async def _stored_key(self) -> str:
        async with self.db.session() as session:
            found = await session.get(InstanceKey, 1)
            if found is not None:
                return found.key
            mark = await session.get(SigningMark, 1)
        if mark is not None:
            raise SigningKeyError(missing_key_text(mark.fingerprint))
        async with self._write_session() as session:
            session.add(InstanceKey(id=1, key=secrets.token_hex(32)))
            try:
                await session.commit()
            except IntegrityError:
                await session.rollback()
        async with self.db.session() as session:
            made = await session.get(InstanceKey, 1)
            assert made is not None
            return made.key

    async def _mark_key(self, print_: str) -> None:
        async with self.db.session() as session:
            mark = await session.get(SigningMark, 1)
        if mark is not None and mark.fingerprint == print_:
            return
        async with self._write_session() as session:
            await session.merge(SigningMark(id=1, fingerprint=print_, used_at=utcnow()))
            try:
                await session.commit()
            except IntegrityError:
                await session.rollback()  # another process marked it first

    async def signing_status(self) -> tuple[str | None, str | None, bool]:
        """(the fingerprint last used, the configured or stored key's fingerprint, whether
        the database holds a key) without making one."""
        async with self.db.session() as session:
            mark = await session.get(SigningMark, 1)
            stored = await session.get(InstanceKey, 1)
        key = self.configured_key or (stored.key if stored else None)
        return (
            mark.fingerprint if mark else None,
            fingerprint(key) if key else None,
            stored is not None,
        )

    async def check_signing_key(self) -> str | None:
        """At start-up: raise `SigningKeyError` when the key exports were signed with is gone;
        a note (to log) when the configured key is not the one used before (a rotation)."""
        used, current, _ = await self.signing_status()
        if used is None:
            return None
        if current is None:
            raise SigningKeyError(missing_key_text(used))
        if current != used:
            return (
                f"the export-signing key changed (fingerprint {used} -> {current}): exports "
                "signed before import only with --accept-unsigned"
            )
        return None

    async def forget_signing_key(self, keep_mark: bool) -> str | None:
        """Remove the database's key (and, unless `keep_mark`, the memory of any key); returns
        the key removed."""
        async with self._write_session() as session:
            stored = await session.get(InstanceKey, 1)
            key = stored.key if stored else None
            await session.exec(delete(InstanceKey))
            if not keep_mark:
                await session.exec(delete(SigningMark))
            await session.commit()
        self._signing_key = None
        return key

    async def log(self, campaign_id: int, after_seq: int = 0) -> list[ActionLog]:
        async with self.db.session() as session:
            query = (
                select(ActionLog)
                .where(ActionLog.campaign_id == campaign_id, ActionLog.seq > after_seq)
                .order_by(col(ActionLog.seq))
            )
            return list((await session.exec(query)).all())

    async def log_since(self, campaign_id: int, since: datetime) -> list[ActionLog]:
        """The campaign's steps logged after `since`, in order."""
        async with self.db.session() as session:
            query = (
                select(ActionLog)
                .where(ActionLog.campaign_id == campaign_id, col(ActionLog.created_at) > since)
                .order_by(col(ActionLog.seq))
            )
            return list((await session.exec(query)).all())

    async def last_log(self, campaign_id: int) -> ActionLog | None:
        async with self.db.session() as session:
            query = (
                select(ActionLog)
                .where(ActionLog.campaign_id == campaign_id)
                .order_by(col(ActionLog.seq).desc())
            )
            return (await session.exec(query)).first()

    async def prefs(self, user_id: str) -> PlayerPrefs:
        async with self.db.session() as session:
            found = await session.get(PlayerPrefs, user_id)
            return found or PlayerPrefs(user_id=user_id)

    async def prefs_many(self, user_ids: set[str]) -> dict[str, PlayerPrefs]:
        """Every player's preferences in one query (defaults for those who set none)."""
        if not user_ids:
            return {}
        reads = _reads.get()
        if reads is not None and user_ids <= reads.prefs.keys():
            return {u: reads.prefs[u] for u in user_ids}
        async with self.db.session() as session:
            query = select(PlayerPrefs).where(col(PlayerPrefs.user_id).in_(sorted(user_ids)))
            found = {p.user_id: p for p in (await session.exec(query)).all()}
        return {u: found.get(u) or PlayerPrefs(user_id=u) for u in user_ids}

    async def save_prefs(self, prefs: PlayerPrefs) -> None:
        async with self._write_session() as session:
            await session.merge(prefs)
            await session.commit()

    async def seat_update(self, seat_id: int, **values: object) -> None:
        async with self._write_session() as session:
            await session.exec(update(Seat).where(col(Seat.id) == seat_id).values(**values))
            await session.commit()

    async def nudges(self, campaign_id: int) -> list[Nudge]:
        async with self.db.session() as session:
            query = select(Nudge).where(Nudge.campaign_id == campaign_id).order_by(col(Nudge.id))
            return list((await session.exec(query)).all())

    async def due_nudges(self, now: datetime, limit: int = 200) -> list[Nudge]:
        """Rows whose reminder or deadline is due, oldest first (bounded per scan)."""
        async with self.db.session() as session:
            query = (
                select(Nudge)
                .where(or_(col(Nudge.next_due) <= now, col(Nudge.deadline_at) <= now))
                .order_by(col(Nudge.id))
                .limit(limit)
            )
            return list((await session.exec(query)).all())

    async def claim(self, nudge: Nudge, **values: object) -> bool:
        """Take a due row for this process: exactly one scanner wins each claim."""
        async with self._write_session() as session:
            statement = (
                update(Nudge)
                .where(col(Nudge.id) == nudge.id, col(Nudge.claim) == nudge.claim)
                .values(claim=nudge.claim + 1, **values)
            )
            result = await session.exec(statement)
            await session.commit()
            won = bool(result.rowcount == 1)
        if won:
            nudge.claim += 1
            for key, value in values.items():
                setattr(nudge, key, value)
        return won

    async def set_digest(self, campaign_id: int, next_due: datetime | None) -> None:
        async with self._write_session() as session:
            await session.exec(
                delete(Nudge).where(
                    col(Nudge.campaign_id) == campaign_id, col(Nudge.kind) == "digest"
                )
            )
            if next_due is not None:
                session.add(Nudge(campaign_id=campaign_id, kind="digest", next_due=next_due))
            await session.commit()

    @staticmethod
    async def _bump(session, campaign: Campaign, **values: object) -> None:  # type: ignore[no-untyped-def]
        """Conditionally move the campaign to the next version, or raise TableChanged."""
        statement = (
            update(Campaign)
            .where(col(Campaign.id) == campaign.id, col(Campaign.version) == campaign.version)
            .values(version=campaign.version + 1, updated_at=utcnow(), **values)
        )
        result = await session.exec(statement)
        if result.rowcount != 1:
            await session.rollback()
            raise TableChanged()


def _marker(campaign: Campaign, seq: int) -> Delivery | None:
    """The step's post is owed to its channel: a marker in the step's own transaction (the
    first step of a command; its later steps' posts go out with the first's)."""
    scope = announcing()
    if scope is None or campaign.channel_id in scope.markers:
        return None
    return compose_marker(campaign.channel_id, campaign.id or 0, seq, scope.wait)


async def _sync_waiting(session: AsyncSession, campaign_id: int, waiting: WaitingUpdate) -> None:
    """Reminder rows follow the waited-on players; the actor's own timer starts again.

    One read of the campaign's rows, then only the changes: the common step (the same player
    still to act) rewrites their row in place instead of deleting and inserting it.
    """
    rows = (
        await session.exec(
            select(Nudge).where(
                Nudge.campaign_id == campaign_id, col(Nudge.kind).in_(("reminder", "window"))
            )
        )
    ).all()
    existing = {row.user_id: row for row in rows if row.kind == "reminder"}
    for row in rows:
        # A pending question's window starts afresh (or ends); players no longer waited on
        # lose their reminder.
        if row.kind == "window" or row.user_id not in waiting.users:
            await session.delete(row)
    await session.flush()  # deletes before inserts: the unique key may be reused below
    if waiting.window_after is not None:
        session.add(
            Nudge(
                campaign_id=campaign_id,
                kind="window",
                waiting_since=waiting.now,
                deadline_at=waiting.now + waiting.window_after,
            )
        )
    for user_id in sorted(waiting.users):
        if user_id in existing and user_id != waiting.actor:
            continue  # still waited on since an earlier step: their clock keeps running
        remind = waiting.remind_after.get(user_id)
        fresh = Nudge(
            campaign_id=campaign_id,
            kind="reminder",
            user_id=user_id,
            waiting_since=waiting.now,
            next_due=waiting.now + remind if remind else None,
            deadline_at=waiting.now + waiting.deadline_after if waiting.deadline_after else None,
        )
        kept = existing.get(user_id)
        if kept is None:
            session.add(fresh)
            continue
        # Bumping the claim makes any scanner holding the old row lose its claim, exactly as
        # if the row had been deleted.
        await session.exec(
            update(Nudge)
            .where(col(Nudge.id) == kept.id)
            .values(
                claim=col(Nudge.claim) + 1,
                waiting_since=fresh.waiting_since,
                next_due=fresh.next_due,
                deadline_at=fresh.deadline_at,
                last_sent=None,
                sent_count=0,
                deadline_passed=False,
                votes_json="[]",
            )
        )
