"""The tables that keep every channel's campaign.

Portable SQL only: the same models run on SQLite (the default) and PostgreSQL. JSON payloads
are stored as text so no dialect-specific JSON type is needed.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import BigInteger, Column, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

SCHEMA_VERSION = 2


def utcnow() -> datetime:
    return datetime.now(UTC)


class SchemaInfo(SQLModel, table=True):
    __tablename__ = "schema_info"

    id: int = Field(default=1, primary_key=True)
    version: int


class InstanceKey(SQLModel, table=True):
    """This deployment's secret for signing campaign exports (made on first use)."""

    __tablename__ = "instance_key"

    id: int = Field(default=1, primary_key=True)
    key: str = Field(max_length=64)


class SigningMark(SQLModel, table=True):
    """The fingerprint of the key that has signed (or checked) exports: a later start without
    that key is refused instead of making a new one (see `bot.signing`)."""

    __tablename__ = "signing_mark"

    id: int = Field(default=1, primary_key=True)
    fingerprint: str = Field(max_length=64)
    used_at: datetime = Field(default_factory=utcnow)


class Interaction(SQLModel, table=True):
    """A command's request id (a Discord interaction, a playground client's id) with its
    first outcome: written in the same transaction as the command's first write, so a retry
    of a command that changed something can never change it again."""

    __tablename__ = "interaction"

    key: str = Field(primary_key=True, max_length=120)
    channel_id: str = Field(max_length=32)
    # The replies' text as first answered (JSON); NULL while the command runs, or when its
    # process stopped between the write and the answer.
    replies_json: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    created_at: datetime = Field(default_factory=utcnow, index=True)


class Delivery(SQLModel, table=True):
    """The outbox: one Discord message to post (or a turn post to edit), kept until Discord
    has it. Written before anyone is told the step is done; a worker in any process delivers
    it, retrying with backoff. `nonce` makes a resend after a crash find the message already
    sent instead of posting twice."""

    __tablename__ = "delivery"

    id: int | None = Field(default=None, primary_key=True)
    channel_id: str = Field(index=True, max_length=32)
    post_key: str = Field(default="", max_length=120)  # a turn post: edited once it exists
    nonce: str = Field(unique=True, max_length=25)
    payload_json: str = Field(sa_column=Column(Text, nullable=False))
    status: str = Field(default="pending", index=True, max_length=16)  # pending, sent, failed
    attempts: int = 0
    next_at: datetime = Field(default_factory=utcnow, index=True)
    lease_until: datetime | None = None  # a deliverer holds it until then
    claim: int = 0  # bumped by every claim: the conditional update's guard
    last_error: str = Field(default="", max_length=300)
    message_id: str | None = Field(default=None, max_length=32)
    created_at: datetime = Field(default_factory=utcnow)


class TurnMessage(SQLModel, table=True):
    """Which Discord message a turn post (channel, key) became: any process edits it."""

    __tablename__ = "turn_message"

    channel_id: str = Field(primary_key=True, max_length=32)
    post_key: str = Field(primary_key=True, max_length=120)
    message_id: str = Field(max_length=32)
    created_at: datetime = Field(default_factory=utcnow, index=True)


class OpenTurnPost(SQLModel, table=True):
    """The post budget's registry (see `bot.table.turnposts`): the turn post a campaign's
    next step may still edit, shared by every process and kept across restarts."""

    __tablename__ = "turn_post"

    campaign_id: int = Field(primary_key=True)
    post_key: str = Field(max_length=120)
    seats_json: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    version: int = 0
    lines_json: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    owner: str | None = Field(default=None, max_length=64)


class RateBucket(SQLModel, table=True):
    """A token bucket shared by every process on PostgreSQL (`bot.ratelimit.SharedBuckets`)."""

    __tablename__ = "rate_bucket"

    key: str = Field(primary_key=True, max_length=80)
    tokens: float = 0.0
    at: float = 0.0  # seconds since the epoch of the last take
    granted: bool = False  # whether the last take got a token


class Campaign(SQLModel, table=True):
    """One campaign of one game in one Discord channel or thread."""

    __tablename__ = "campaign"

    id: int | None = Field(default=None, primary_key=True)
    channel_id: str = Field(index=True, max_length=32)
    guild_id: str | None = Field(default=None, index=True, max_length=32)
    # Equal to channel_id while the campaign is open or active, NULL once it is over: a unique
    # column that allows many NULLs gives "one live campaign per channel" on every database.
    live_channel: str | None = Field(default=None, unique=True, max_length=32)
    game: str = Field(max_length=64)
    scenario: str = Field(max_length=64)
    options_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    settings_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    seed: int = Field(sa_column=Column(BigInteger, nullable=False))
    status: str = Field(default="open", max_length=16)  # open, active, finished, ended
    owner_id: str = Field(max_length=32)
    state_json: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    version: int = 0
    step: int = 0  # sequence number of the last action log row
    outcome: str | None = Field(default=None, max_length=64)
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class Seat(SQLModel, table=True):
    __tablename__ = "seat"
    __table_args__ = (UniqueConstraint("campaign_id", "role", name="uq_seat_role"),)

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaign.id", index=True)
    role: str = Field(max_length=64)
    user_id: str = Field(index=True, max_length=32)
    user_name: str = Field(default="", max_length=100)
    away_until: datetime | None = None
    # The engine's safe policy plays this seat while set (deadline passed, or away).
    autopilot: bool = False
    # The last log step this seat's player has seen (for the "since your last turn" digest).
    last_seen_seq: int = 0
    settings_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    joined_at: datetime = Field(default_factory=utcnow)


class ActionLog(SQLModel, table=True):
    """Append-only: every step that changed a campaign, enough to replay it exactly."""

    __tablename__ = "action_log"
    __table_args__ = (UniqueConstraint("campaign_id", "seq", name="uq_log_seq"),)

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaign.id", index=True)
    seq: int
    kind: str = Field(max_length=16)  # begin, action, undo, rollback
    seat: str | None = Field(default=None, max_length=64)
    user_id: str | None = Field(default=None, max_length=32)
    action_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    events_json: str = Field(default="[]", sa_column=Column(Text, nullable=False))
    random_used: bool = False
    version_after: int = 0
    created_at: datetime = Field(default_factory=utcnow)


class WebLink(SQLModel, table=True):
    """A campaign's read-only web link: the unguessable token in `<WEB_BASE_URL>/t/<token>`.

    A table of its own (not a campaign column), so databases made before it simply gain it
    when `create_all` runs at start-up; resetting the link replaces the token in place.
    """

    __tablename__ = "web_link"

    campaign_id: int = Field(foreign_key="campaign.id", primary_key=True)
    token: str = Field(unique=True, index=True, max_length=64)
    created_at: datetime = Field(default_factory=utcnow)


class PlayerThread(SQLModel, table=True):
    """A player's private thread in a campaign channel (Discord): where their hand, the action
    picker's panels and "since your last turn" go, so they outlive an app restart. A table of
    its own, so databases made before it gain it when `create_all` runs at start-up."""

    __tablename__ = "player_thread"

    channel_id: str = Field(primary_key=True, max_length=32)
    user_id: str = Field(primary_key=True, max_length=32)
    thread_id: str = Field(max_length=32)
    created_at: datetime = Field(default_factory=utcnow)


class PlayerPrefs(SQLModel, table=True):
    """A player's own settings, shared by all their campaigns."""

    __tablename__ = "player_prefs"

    user_id: str = Field(primary_key=True, max_length=32)
    timezone: str = Field(default="UTC", max_length=64)
    quiet_start: int | None = None  # hour 0-23 in the player's time zone
    quiet_end: int | None = None
    reminders: str = Field(default="default", max_length=16)  # default, off, or hours
    dm: bool = False


class Nudge(SQLModel, table=True):
    """Scheduler bookkeeping, written in the same transaction as each step.

    kind "reminder": one row per waited-on player, with the next reminder and the deadline.
    kind "digest": one row per campaign whose channel asked for a daily spectator summary.
    A scanner claims a due row with a conditional update before it sends anything.
    """

    __tablename__ = "nudge"
    __table_args__ = (UniqueConstraint("campaign_id", "kind", "user_id", name="uq_nudge"),)

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaign.id", index=True)
    kind: str = Field(default="reminder", max_length=16)
    user_id: str = Field(default="", max_length=32)
    waiting_since: datetime = Field(default_factory=utcnow)
    next_due: datetime | None = Field(default=None, index=True)
    deadline_at: datetime | None = Field(default=None, index=True)
    last_sent: datetime | None = None
    sent_count: int = 0
    claim: int = 0  # bumped by every claim: the conditional update's guard
    deadline_passed: bool = False
    votes_json: str = Field(default="[]", sa_column=Column(Text, nullable=False))
