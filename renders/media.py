"""What the bytes are and whether they fit a chat attachment.

`media_type` reads the magic number (never the filename), so a server can send the right
Content-Type; `fit_attachments` keeps a message's pictures within Discord's upload limit and
says in words what it had to leave out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

# Discord's upload limit per message for a server without boosts (10 MiB since 2024); boosted
# servers allow 50 or 100 MiB, the old limit was 25 MiB. Images here stay far below both.
DISCORD_LIMIT = 10 * 1024 * 1024
DISCORD_BOOSTED_LIMIT = 25 * 1024 * 1024

_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "image/png", "png"),
    (b"GIF87a", "image/gif", "gif"),
    (b"GIF89a", "image/gif", "gif"),
    (b"\xff\xd8\xff", "image/jpeg", "jpg"),
)


def media_type(data: bytes) -> str:
    """The MIME type the bytes really are (PNG, GIF or JPEG), else application/octet-stream."""
    for magic, mime, _ in _MAGIC:
        if data.startswith(magic):
            return mime
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return "application/octet-stream"


def extension(data: bytes) -> str:
    """The filename extension matching the bytes ("png", "gif", "jpg", "webp" or "bin")."""
    for magic, _, ext in _MAGIC:
        if data.startswith(magic):
            return ext
    return "webp" if media_type(data) == "image/webp" else "bin"


def matching_name(filename: str, data: bytes) -> str:
    """`filename` with its extension replaced by the one the bytes call for."""
    stem = filename.rsplit(".", 1)[0] if "." in filename else filename
    return f"{stem}.{extension(data)}"


class Picture(Protocol):
    @property
    def png(self) -> bytes: ...

    @property
    def filename(self) -> str: ...


@dataclass(frozen=True)
class Fitted:
    """The pictures that fit, and a sentence for the post about the ones that did not."""

    kept: list[Picture]
    dropped: list[Picture]
    note: str


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MB"


def fit_attachments(pictures: Sequence[Picture], limit: int = DISCORD_LIMIT) -> Fitted:
    """Keep pictures in order while their total stays within `limit` bytes.

    A picture that would overflow is dropped (a later, smaller one may still fit), and the
    note names each dropped file with its size so the post can say what is missing.
    """
    if limit <= 0:
        raise ValueError(f"limit must be a positive number of bytes, not {limit}")
    kept: list[Picture] = []
    dropped: list[Picture] = []
    total = 0
    for picture in pictures:
        size = len(picture.png)
        if total + size <= limit:
            kept.append(picture)
            total += size
        else:
            dropped.append(picture)
    note = ""
    if dropped:
        names = ", ".join(f"{p.filename} ({_megabytes(len(p.png))})" for p in dropped)
        verb = "was" if len(dropped) == 1 else "were"
        note = (
            f"Not attached: {names} {verb} over the {_megabytes(limit)} upload limit; "
            "the text above tells the same story."
        )
    return Fitted(kept, dropped, note)
