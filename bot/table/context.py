"""What every part of the table service speaks in: who asks, what they are refused, which
campaign is loaded, and the small lookups all commands share."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from bot.commands import PLAY_VERBS
from bot.guide.words import window_note
from bot.markup import mention
from bot.names import SeatNames, seat_name
from bot.replies import Reply
from bot.settings_model import CampaignSettings
from bot.storage.models import Campaign, Seat
from engine.core.game import Game, Prompt, ScenarioInfo, scenario_info
from engine.registry import get_game

MAX_AUTOCOMPLETE = 25
BOARD_VIEWS = ("full", "focus", "text")
# Commands after which a returning player first sees what happened while they were away.
CATCH_UP_ON = frozenset({*PLAY_VERBS, "board", "undo", "campaign status"})
# Commands whose private answers are worth keeping (the hand, the action picker's panels): the
# shell may put them in the player's private thread (`Reply.keep`).
KEPT = frozenset({"hand", "pick"})


class UserError(Exception):
    """A request the service refuses, with a message for the user."""


@dataclass(frozen=True)
class Caller:
    user_id: str
    user_name: str
    channel_id: str
    guild_id: str | None = None
    is_admin: bool = False  # Manage Server in the guild (checked by the adapter)


class ChannelAccess(Protocol):
    """Whether a channel can receive a campaign's copies: the transport knows its channels."""

    async def refuses(self, caller: Caller, channel_id: str) -> str | None:
        """None when both the caller and the bot may post there, else why not."""
        ...


class AnyChannel:
    """The playground's rule: every channel of the pretend server is open to everyone."""

    async def refuses(self, caller: Caller, channel_id: str) -> str | None:
        return None


# A command's handler: who asks and the command's options, to the replies.
Handler = Callable[[Caller, dict[str, str]], Awaitable[list[Reply]]]


@dataclass(frozen=True)
class Suggestion:
    name: str
    value: str


@dataclass
class Loaded:
    """A campaign being played: its row, its rule system and its current state."""

    campaign: Campaign
    game: Game[Any]
    state: Any

    def prompt(self) -> Prompt:
        return self.game.waiting_on(self.state)


def id_of(campaign: Campaign) -> int:
    assert campaign.id is not None
    return campaign.id


def seat_id_of(seat: Seat) -> int:
    assert seat.id is not None
    return seat.id


def check_same_server(caller: Caller, campaign: Campaign) -> None:
    """Defence in depth: a campaign answers only to commands from its own server."""
    if campaign.guild_id != caller.guild_id:
        raise UserError("This campaign belongs to another server.")


def require_owner(caller: Caller, campaign: Campaign, what: str) -> None:
    if caller.user_id != campaign.owner_id:
        raise UserError(f"Only the campaign owner can {what}.")


def game_named(key: str) -> Game[Any]:
    try:
        return get_game(key.lower())
    except ValueError as unknown:
        raise UserError(str(unknown)) from None


def scenario_named(game: Game[Any], key: str) -> ScenarioInfo:
    try:
        return scenario_info(game, key.lower())
    except ValueError as unknown:
        raise UserError(str(unknown)) from None


def busy_message(existing: Campaign) -> str:
    return (
        f"This channel already has a campaign (#{existing.id}, {existing.game} / "
        f"{existing.scenario}, {existing.status}). End it with /campaign end, or use "
        "another channel or thread."
    )


def waiting_line(
    prompt: Prompt,
    seats: list[Seat],
    settings: CampaignSettings | None = None,
    names: SeatNames | None = None,
    with_text: bool = True,
) -> str:
    """Who the game waits on (the player, and the seat by its name) and for what (unless
    `with_text` is off: a turn post's headline said it); with the campaign's `settings`, a
    question with a default answer also names its answer window."""
    if prompt.finished:
        return f"The mission is over: {prompt.outcome or 'ended'}."
    holders = []
    for role in prompt.seats:
        seat = next((s for s in seats if s.role == role), None)
        who = mention(seat.user_id) if seat and seat.user_id else "a free seat"
        holders.append(f"{who} as {seat_name(names, role)}")
    text = f" {prompt.text}" if prompt.text and with_text else ""
    return f"Waiting on {', '.join(holders) or 'nobody'}.{text}{window_note(prompt, settings)}"


def by_prefix(choices: list[Suggestion], typed: str) -> list[Suggestion]:
    typed = typed.lower()
    starts = [c for c in choices if c.value.lower().startswith(typed)]
    contains = [c for c in choices if typed in c.name.lower() and c not in starts]
    return (starts + contains)[:MAX_AUTOCOMPLETE]
