"""The playground's channel feeds and the board images they show, kept in a SQLite file.

The playground stands in for Discord, which keeps a channel's history: the feeds and images
live in their own small database (`PLAYGROUND_FEED`, ":memory:" in tests), so a restart
loses nothing and no number of channels pushes another channel's feed out. Growth is bounded
all the same: each channel keeps its latest messages (a page says which is the oldest kept),
only the latest images are kept, and users cannot open more than `MAX_CHANNELS` channels
(the bot may still post to its own: mirrors and direct messages).

A page of messages starts right after the number the client last saw and never skips one:
when a page is full, `more` says so and `last` is the last number on it. Every write (a post,
or an edit of a turn post: Discord edits the bot's own messages in place) takes the channel's
next number, its `seq`; a message never edited has `seq == id`. An edited message comes again
in the next page with its old `id` and `edited: true`, so a client replaces what it shows.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

from bot.disclosure import invocation_is_public
from bot.replies import Reply
from bot.storage.db import keep_private
from renders.media import extension

BOT_NAME = "Sortie"
MAX_IMAGES = 500
MAX_MESSAGES_PER_CHANNEL = 2000
MAX_CHANNELS = 1000
MAX_MESSAGES_PER_PAGE = 200
# The post_key of the channel's message whose buttons are live (`Channel.supersede`).
LIVE_CONTROLS = "live-controls"

SCHEMA = """
CREATE TABLE IF NOT EXISTS message (
    channel TEXT NOT NULL, id INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (channel, id)
);
CREATE TABLE IF NOT EXISTS post_key (
    channel TEXT NOT NULL, key TEXT NOT NULL, id INTEGER NOT NULL, PRIMARY KEY (channel, key)
);
CREATE TABLE IF NOT EXISTS channel (name TEXT PRIMARY KEY, last_id INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS image (
    n INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT UNIQUE NOT NULL, data BLOB NOT NULL,
    private INTEGER NOT NULL DEFAULT 0
);
"""


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[None]:
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


class TooManyChannels(Exception):
    """A user tried to open one channel more than the playground keeps."""


def open_feed_db(path: str) -> sqlite3.Connection:
    if path != ":memory:":
        keep_private(path)  # private replies are kept here too
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    if path != ":memory:":
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
    conn.executescript(SCHEMA)
    columns = {row[1] for row in conn.execute("PRAGMA table_info(message)")}
    if "seq" not in columns:
        # Feeds written before edits existed: every message's number is its id.
        conn.execute("ALTER TABLE message ADD COLUMN seq INTEGER NOT NULL DEFAULT 0")
        conn.execute("UPDATE message SET seq = id")
    conn.execute("CREATE INDEX IF NOT EXISTS message_seq ON message (channel, seq)")
    return conn


class ImageStore:
    """Attachment bytes by id, keeping only the last `limit`; each remembers whether it was
    shown to one user only (a private board, an export), so it is never cached in public."""

    def __init__(self, limit: int = MAX_IMAGES, conn: sqlite3.Connection | None = None) -> None:
        self.limit = limit
        self.conn = conn or open_feed_db(":memory:")

    def add(self, data: bytes, private: bool = False) -> str:
        image_id = secrets.token_hex(12)
        with transaction(self.conn):
            cursor = self.conn.execute(
                "INSERT INTO image (id, data, private) VALUES (?, ?, ?)",
                (image_id, data, int(private)),
            )
            self.conn.execute(
                "DELETE FROM image WHERE n <= ?", ((cursor.lastrowid or 0) - self.limit,)
            )
        return image_id

    def get(self, image_id: str) -> bytes | None:
        row = self.conn.execute("SELECT data FROM image WHERE id = ?", (image_id,)).fetchone()
        return bytes(row[0]) if row else None

    def is_private(self, image_id: str) -> bool:
        row = self.conn.execute("SELECT private FROM image WHERE id = ?", (image_id,)).fetchone()
        return bool(row and row[0])

    def __len__(self) -> int:
        return int(self.conn.execute("SELECT count(*) FROM image").fetchone()[0])


def image_url(image_id: str, data: bytes = b"") -> str:
    """The image's address; its extension follows the bytes (`.gif` for an animation)."""
    return f"/images/{image_id}.{'gif' if extension(data) == 'gif' else 'png'}"


@dataclass
class Message:
    id: int
    author: str
    content: str
    kind: str  # "command" (what a user typed) or "reply" (what the bot answered)
    ephemeral: bool = False
    for_user: str | None = None  # the only user who sees an ephemeral message
    images: list[str] = field(default_factory=list)
    image_alts: list[str] = field(default_factory=list)
    mentions: list[str] = field(default_factory=list)
    buttons: list[dict[str, str]] = field(default_factory=list)
    # Select menus (the action picker): {"placeholder", "entries": [{label, command, ...}]}
    menus: list[dict[str, Any]] = field(default_factory=list)
    error: bool = False
    version: int | None = None  # the campaign version its controls were posted with
    edited: bool = False  # a turn post edited in place since it was first posted
    time: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))

    def visible_to(self, user: str | None) -> bool:
        return not self.ephemeral or (user is not None and user == self.for_user)

    def to_json(self) -> dict[str, Any]:
        shown = asdict(self)
        del shown["for_user"]
        return shown


@dataclass
class Page:
    messages: list[Message]
    last: int  # continue from here: the last id on a full page, else the channel's last id
    more: bool  # a full page: ask again from `last`
    oldest: int  # the oldest id the channel still keeps (0: none); earlier ones are gone

    def to_json(self) -> dict[str, Any]:
        return {
            "messages": [m.to_json() for m in self.messages],
            "last": self.last,
            "more": self.more,
            "oldest": self.oldest,
        }


class Channel:
    """One channel's feed in the store."""

    def __init__(self, conn: sqlite3.Connection, name: str, keep: int) -> None:
        self.conn = conn
        self.name = name
        self.keep = keep

    @property
    def last_id(self) -> int:
        row = self.conn.execute(
            "SELECT last_id FROM channel WHERE name = ?", (self.name,)
        ).fetchone()
        return int(row[0]) if row else 0

    def _next_number(self) -> int:
        self.conn.execute(
            "INSERT INTO channel (name, last_id) VALUES (?, 1) "
            "ON CONFLICT (name) DO UPDATE SET last_id = last_id + 1",
            (self.name,),
        )
        return self.last_id

    def post(self, post_key: str = "", **fields: Any) -> Message:
        """A new message; with `post_key`, later writes under that key edit it."""
        with transaction(self.conn):
            message = Message(id=self._next_number(), **fields)
            self.conn.execute(
                "INSERT INTO message (channel, id, body, seq) VALUES (?, ?, ?, ?)",
                (self.name, message.id, json.dumps(asdict(message)), message.id),
            )
            self.conn.execute(
                "DELETE FROM message WHERE channel = ? AND id <= ?",
                (self.name, message.id - self.keep),
            )
            self.conn.execute(
                "DELETE FROM post_key WHERE channel = ? AND id <= ?",
                (self.name, message.id - self.keep),
            )
            if post_key:
                self.conn.execute(
                    "INSERT OR REPLACE INTO post_key (channel, key, id) VALUES (?, ?, ?)",
                    (self.name, post_key, message.id),
                )
        return message

    def edit(self, post_key: str, **fields: Any) -> Message | None:
        """Rewrite the message posted under `post_key` in place (None: no such message, or it
        is no longer kept). It takes the next number, so pollers see it again."""
        with transaction(self.conn):
            row = self.conn.execute(
                "SELECT m.body FROM post_key k JOIN message m ON m.channel = k.channel "
                "AND m.id = k.id WHERE k.channel = ? AND k.key = ?",
                (self.name, post_key),
            ).fetchone()
            if row is None:
                return None
            old = Message(**json.loads(row[0]))
            message = Message(id=old.id, time=old.time, edited=True, **fields)
            self.conn.execute(
                "UPDATE message SET body = ?, seq = ? WHERE channel = ? AND id = ?",
                (json.dumps(asdict(message)), self._next_number(), self.name, message.id),
            )
        return message

    def supersede(self, message_id: int) -> None:
        """One set of live controls per channel, as on Discord: `message_id` has them now, and
        the message that had them before loses its buttons and menus (an edit pollers see). As
        on Discord, the edit pings nobody: its text keeps any mention, its ping list is empty."""
        with transaction(self.conn):
            row = self.conn.execute(
                "SELECT m.id, m.body FROM post_key k JOIN message m ON m.channel = k.channel "
                "AND m.id = k.id WHERE k.channel = ? AND k.key = ?",
                (self.name, LIVE_CONTROLS),
            ).fetchone()
            self.conn.execute(
                "INSERT OR REPLACE INTO post_key (channel, key, id) VALUES (?, ?, ?)",
                (self.name, LIVE_CONTROLS, message_id),
            )
            if row is None or int(row[0]) == message_id:
                return
            old = Message(**json.loads(row[1]))
            old.buttons, old.menus, old.mentions = [], [], []
            old.edited = True  # rewritten in place: a reader replaces it where it stands
            self.conn.execute(
                "UPDATE message SET body = ?, seq = ? WHERE channel = ? AND id = ?",
                (json.dumps(asdict(old)), self._next_number(), self.name, old.id),
            )

    def since(self, after: int, user: str | None, limit: int = MAX_MESSAGES_PER_PAGE) -> Page:
        """The first `limit` messages `user` may see written (posted or edited) after number
        `after`, in order."""
        found: list[Message] = []
        rows = self.conn.execute(
            "SELECT body, seq FROM message WHERE channel = ? AND seq > ? ORDER BY seq",
            (self.name, after),
        )
        for body, seq in rows:
            message = Message(**json.loads(body))
            if not message.visible_to(user):
                continue
            found.append(message)
            if len(found) == limit:
                rows.close()
                return Page(found, int(seq), True, self.oldest())
        return Page(found, max(after, self.last_id), False, self.oldest())

    def oldest(self) -> int:
        row = self.conn.execute("SELECT min(id) FROM message WHERE channel = ?", (self.name,))
        return int(row.fetchone()[0] or 0)


class Playground:
    """All channels of the one pretend server, plus the image store."""

    def __init__(
        self,
        path: str = ":memory:",
        max_channels: int = MAX_CHANNELS,
        max_images: int = MAX_IMAGES,
        keep_messages: int = MAX_MESSAGES_PER_CHANNEL,
    ) -> None:
        self.conn = open_feed_db(path)
        self.max_channels = max_channels
        self.keep_messages = keep_messages
        self.images = ImageStore(max_images, self.conn)

    def close(self) -> None:
        self.conn.close()

    def channel(self, name: str) -> Channel:
        return Channel(self.conn, name, self.keep_messages)

    def peek(self, name: str) -> Channel | None:
        """The channel if it exists, without creating it."""
        known = self.conn.execute("SELECT 1 FROM channel WHERE name = ?", (name,)).fetchone()
        return self.channel(name) if known else None

    def check_room_for(self, name: str) -> None:
        """Refuse a user's new channel once the playground keeps `max_channels` of them."""
        if self.peek(name) is not None:
            return
        count = int(self.conn.execute("SELECT count(*) FROM channel").fetchone()[0])
        if count >= self.max_channels:
            raise TooManyChannels(
                f"The playground keeps at most {self.max_channels} channels; "
                "use one that already exists."
            )

    def store_reply(self, reply: Reply, version: int | None = None) -> dict[str, Any]:
        """Keep a reply's images and describe it the way the API and the feed show it; its
        controls carry the campaign version they were posted with (`version` when the reply
        has none), which a press sends back."""
        urls = [
            image_url(self.images.add(image.data, private=reply.ephemeral), image.data)
            for image in reply.images
        ]
        return {
            "ephemeral": reply.ephemeral,
            "content": reply.content,
            "images": urls,
            "image_alts": [image.description for image in reply.images],
            "mentions": list(reply.mentions),
            "buttons": [
                {"label": b.label, "command": b.command, "style": b.style} for b in reply.buttons
            ],
            "menus": [
                {
                    "placeholder": menu.placeholder,
                    "entries": [
                        {"label": e.label, "command": e.command, "description": e.description}
                        for e in menu.entries
                    ],
                }
                for menu in reply.menus
            ],
            "error": reply.error,
            "post_key": reply.post_key,
            "version": reply.version if reply.version is not None else version,
        }

    def record(
        self, channel_name: str, user: str, text: str, replies: list[dict[str, Any]]
    ) -> None:
        """Post the invocation and then the bot's replies to the channel feed.

        As on Discord, the invocation is shown only to its author when every reply is ephemeral
        (a refused command, a private look), when its options may carry a secret (`/choose`,
        `/act`, `/orders`: see bot/disclosure.py), or when its outcome is a turn post the bot
        writes (a new one or an edit: the post's running log says what was done), and to
        everyone otherwise.
        """
        channel = self.channel(channel_name)
        every_reply_private = bool(replies) and all(r["ephemeral"] for r in replies)
        turn_post = any(r.get("post_key") for r in replies)
        private = every_reply_private or turn_post or not invocation_is_public(text)
        channel.post(
            author=user,
            content=text,
            kind="command",
            ephemeral=private,
            for_user=user if private else None,
        )
        self.post_bot(channel_name, replies, user)

    def post_bot(
        self, channel_name: str, replies: list[dict[str, Any]], user: str | None = None
    ) -> None:
        """Post bot replies; ephemeral ones are shown to `user` only (to nobody without one)."""
        channel = self.channel(channel_name)
        for reply in replies:
            fields: dict[str, Any] = {
                "author": BOT_NAME,
                "content": reply["content"],
                "kind": "reply",
                "ephemeral": reply["ephemeral"],
                "for_user": user if reply["ephemeral"] else None,
                "images": reply["images"],
                "image_alts": reply["image_alts"],
                "mentions": reply["mentions"],
                "buttons": reply["buttons"],
                "menus": reply.get("menus", []),
                "error": reply["error"],
                "version": reply.get("version"),
            }
            key = "" if reply["ephemeral"] else reply.get("post_key", "")
            message = channel.edit(key, **fields) if key else None
            if message is None:
                message = channel.post(post_key=key, **fields)
            controls = reply["buttons"] or reply.get("menus")
            if controls and not reply["ephemeral"] and reply.get("version") is not None:
                channel.supersede(message.id)
