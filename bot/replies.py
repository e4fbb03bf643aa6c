"""What the table service answers: transport-free replies both shells know how to post."""

from __future__ import annotations

from dataclasses import dataclass, field

DISCORD_MESSAGE_LIMIT = 2000


@dataclass(frozen=True)
class Attachment:
    filename: str
    data: bytes
    description: str = ""


@dataclass(frozen=True)
class Button:
    label: str
    command: str  # the slash command the button performs
    style: str = "secondary"


@dataclass(frozen=True)
class MenuEntry:
    """One option of a select menu: choosing it runs `command` (a complete action, or the
    next step of the action picker)."""

    label: str
    command: str
    description: str = ""


@dataclass(frozen=True)
class Menu:
    """A select menu (Discord: at most 25 entries, labels and descriptions of 100)."""

    placeholder: str
    entries: tuple[MenuEntry, ...]


@dataclass
class Reply:
    content: str
    ephemeral: bool = False
    images: list[Attachment] = field(default_factory=list)
    mentions: list[str] = field(default_factory=list)  # user ids to ping
    buttons: list[Button] = field(default_factory=list)
    menus: list[Menu] = field(default_factory=list)  # select menus above the buttons
    error: bool = False  # the command was refused and changed nothing
    version: int | None = None  # the campaign version this reply shows (buttons carry it)
    game: str | None = None  # the game key, for a per-game look
    mirror_to: list[str] = field(default_factory=list)  # spectator channels that get a copy
    # A turn post's identity: a later reply with the same key replaces the message the shell
    # posted for it (edited in place, no new ping); unknown keys are posted as new messages.
    post_key: str = ""
    # The answer to a repeated request (the same interaction or client id): nothing was run.
    repeat: bool = False
    # A private reply worth keeping (the hand, the action picker's panels, "since your last
    # turn"): where the server allows, Discord puts it in the player's private thread of the
    # campaign channel, which survives an app restart; else it stays an ephemeral reply.
    keep: bool = False
    # A direct message to this user (their last figure is gone, a seat asks them something):
    # the shells send it privately, never in the channel.
    dm_to: str = ""


def direct(replies: list[Reply]) -> tuple[list[Reply], list[Reply]]:
    """The replies for the channel or the caller, and the direct messages among them."""
    return [r for r in replies if not r.dm_to], [r for r in replies if r.dm_to]


def split_message(text: str, limit: int = DISCORD_MESSAGE_LIMIT) -> list[str]:
    """Split on line breaks into chunks of at most `limit` characters."""
    chunks: list[str] = []
    current = ""
    for line in text.splitlines():
        while len(line) > limit:
            if current:
                chunks.append(current)
                current = ""
            chunks.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            chunks.append(current)
            current = line
        else:
            current = candidate
    if current or not chunks:
        chunks.append(current)
    return chunks


def ephemeral(text: str) -> list[Reply]:
    return [Reply(chunk, ephemeral=True) for chunk in split_message(text)]


def refusal(text: str) -> list[Reply]:
    """A refused command: shown only to its author, flagged as an error."""
    return [Reply(chunk, ephemeral=True, error=True) for chunk in split_message(text)]
