"""In-memory state of the playground: channel feeds and the board images they show.

Everything here is bounded so a playground left running for days cannot grow without limit:
each channel keeps its latest messages, the number of channels is capped (least recently used
ones are forgotten), and only the most recent images are kept.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bot.disclosure import invocation_is_public
from bot.replies import Reply

BOT_NAME = "Sortie"
MAX_IMAGES = 500
MAX_MESSAGES_PER_CHANNEL = 1000
MAX_CHANNELS = 500
MAX_MESSAGES_PER_PAGE = 200


class ImageStore:
    """Attachment bytes by id, keeping only the last `limit`; each remembers whether it was
    shown to one user only (a private board, an export), so it is never cached in public."""

    def __init__(self, limit: int = MAX_IMAGES) -> None:
        self.limit = limit
        self._images: OrderedDict[str, bytes] = OrderedDict()
        self._private: set[str] = set()

    def add(self, data: bytes, private: bool = False) -> str:
        image_id = secrets.token_hex(12)
        self._images[image_id] = data
        if private:
            self._private.add(image_id)
        while len(self._images) > self.limit:
            forgotten, _ = self._images.popitem(last=False)
            self._private.discard(forgotten)
        return image_id

    def get(self, image_id: str) -> bytes | None:
        return self._images.get(image_id)

    def is_private(self, image_id: str) -> bool:
        return image_id in self._private

    def __len__(self) -> int:
        return len(self._images)


def image_url(image_id: str) -> str:
    return f"/images/{image_id}.png"


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
    error: bool = False
    time: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))

    def visible_to(self, user: str | None) -> bool:
        return not self.ephemeral or (user is not None and user == self.for_user)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "author": self.author,
            "kind": self.kind,
            "content": self.content,
            "images": list(self.images),
            "image_alts": list(self.image_alts),
            "ephemeral": self.ephemeral,
            "mentions": list(self.mentions),
            "buttons": [dict(b) for b in self.buttons],
            "error": self.error,
            "time": self.time,
        }


class Channel:
    def __init__(self, limit: int = MAX_MESSAGES_PER_CHANNEL) -> None:
        self.messages: deque[Message] = deque(maxlen=limit)
        self.last_id = 0

    def post(self, **fields: Any) -> Message:
        self.last_id += 1
        message = Message(id=self.last_id, **fields)
        self.messages.append(message)
        return message

    def since(
        self, after: int, user: str | None, limit: int = MAX_MESSAGES_PER_PAGE
    ) -> list[Message]:
        fresh = [m for m in self.messages if m.id > after and m.visible_to(user)]
        return fresh[-limit:]


class Playground:
    """All channels of the one pretend server, plus the image store."""

    def __init__(self, max_channels: int = MAX_CHANNELS, max_images: int = MAX_IMAGES) -> None:
        self.max_channels = max_channels
        self.images = ImageStore(max_images)
        self._channels: OrderedDict[str, Channel] = OrderedDict()

    def channel(self, name: str) -> Channel:
        channel = self._channels.get(name)
        if channel is None:
            channel = self._channels[name] = Channel()
            while len(self._channels) > self.max_channels:
                self._channels.popitem(last=False)
        else:
            self._channels.move_to_end(name)
        return channel

    def peek(self, name: str) -> Channel | None:
        """The channel if it exists, without creating it."""
        return self._channels.get(name)

    def store_reply(self, reply: Reply) -> dict[str, Any]:
        """Keep a reply's images and describe it the way the API and the feed show it."""
        urls = [
            image_url(self.images.add(image.data, private=reply.ephemeral))
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
            "error": reply.error,
        }

    def record(
        self, channel_name: str, user: str, text: str, replies: list[dict[str, Any]]
    ) -> None:
        """Post the invocation and then the bot's replies to the channel feed.

        As on Discord, the invocation is shown only to its author when every reply is ephemeral
        (a refused command, a private status) or when its options may carry a secret (`/choose`,
        `/act`, `/orders`: see bot/disclosure.py), and to everyone otherwise.
        """
        channel = self.channel(channel_name)
        every_reply_private = bool(replies) and all(r["ephemeral"] for r in replies)
        private = every_reply_private or not invocation_is_public(text)
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
            channel.post(
                author=BOT_NAME,
                content=reply["content"],
                kind="reply",
                ephemeral=reply["ephemeral"],
                for_user=user if reply["ephemeral"] else None,
                images=reply["images"],
                image_alts=reply["image_alts"],
                mentions=reply["mentions"],
                buttons=reply["buttons"],
                error=reply["error"],
            )
