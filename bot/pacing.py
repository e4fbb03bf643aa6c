"""Pacing a play-by-post table: reminders, deadlines, autopilot, away, catch-up.

Pure helpers the table service and the scheduler share; no I/O here.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.clock import aware
from bot.settings_model import CHOICES, CampaignSettings, parse_settings
from bot.storage.models import Campaign, PlayerPrefs, Seat
from engine.core.game import Action, Game

# Setting -> the values the owner may choose (the typed model lives in bot/settings_model.py).
CAMPAIGN_SETTINGS: dict[str, tuple[str, ...]] = CHOICES
REMINDER_CHOICES = ("default", "off", "1", "6", "12", "24", "48", "72")
MAX_AUTOPILOT_STEPS = 50
AWAY_PATTERN = re.compile(r"^(\d{1,3})([hd])$")


def campaign_settings(campaign: Campaign) -> CampaignSettings:
    return parse_settings(campaign.settings_json)


def hours(amount: int) -> timedelta | None:
    return timedelta(hours=amount) if amount > 0 else None


def remind_after(settings: CampaignSettings, prefs: PlayerPrefs) -> timedelta | None:
    """A player's own interval wins over the campaign's; 'off' mutes them."""
    if prefs.reminders == "off":
        return None
    if prefs.reminders != "default":
        return hours(int(prefs.reminders))
    return hours(settings.nudge_hours)


def answer_window(settings: CampaignSettings) -> timedelta:
    """How long a pending question (a reaction, a vote) waits before its default applies."""
    return timedelta(minutes=settings.window_minutes)


def parse_away(text: str) -> timedelta:
    match = AWAY_PATTERN.match(text.strip().lower())
    if not match:
        raise ValueError("Say how long you are away as hours or days, like 12h or 3d.")
    amount, unit = int(match.group(1)), match.group(2)
    span = timedelta(hours=amount) if unit == "h" else timedelta(days=amount)
    if not timedelta(hours=1) <= span <= timedelta(days=60):
        raise ValueError("Away can last from 1 hour to 60 days.")
    return span


def parse_quiet(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"(\d{1,2})-(\d{1,2})", text.strip())
    if not match:
        raise ValueError("Quiet hours look like 22-7 (from 22:00 to 07:00 your time).")
    start, end = int(match.group(1)), int(match.group(2))
    if not (0 <= start <= 23 and 0 <= end <= 23) or start == end:
        raise ValueError("Quiet hours are two different hours between 0 and 23, like 22-7.")
    return start, end


def check_timezone(name: str) -> str:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"'{name}' is not a time zone name; try one like Europe/Paris.") from None
    return name


def quiet_until(prefs: PlayerPrefs, now: datetime) -> datetime | None:
    """When the player's quiet hours end, if `now` falls inside them; else None."""
    if prefs.quiet_start is None or prefs.quiet_end is None:
        return None
    local = now.astimezone(ZoneInfo(prefs.timezone))
    start, end, hour = prefs.quiet_start, prefs.quiet_end, local.hour
    inside = start <= hour < end if start < end else hour >= start or hour < end
    if not inside:
        return None
    end_local = local.replace(hour=end, minute=0, second=0, microsecond=0)
    if end_local <= local:
        end_local += timedelta(days=1)
    return end_local.astimezone(now.tzinfo)


def seat_on_autopilot(seat: Seat, now: datetime) -> bool:
    return seat.autopilot or (seat.away_until is not None and aware(seat.away_until) > now)


STANDING = ("orders",)  # verbs that set a standing order (nothing happens now)
PASSES = ("skip", "pass")  # the `what` of an action that lets a step go by


def safe_action(game: Game[Any], state: Any, seat: str) -> Action | None:
    """The engine's own safest choice for a seat nobody is steering.

    A game may define `autopilot(state, seat) -> Action`; otherwise: end the turn if that is
    legal (standing orders stay in force), else the first listed option of a pending choice,
    else let a figure's pending step go by (skip); never a new standing order.
    """
    policy = getattr(game, "autopilot", None)
    if policy is not None:
        chosen: Action | None = policy(state, seat)
        return chosen
    # A standing order never moves the game on: played in a loop, it stalled the seat.
    actions = [a for a in game.legal_actions(state, seat) if a.verb not in STANDING]
    for verb in ("end-turn", "choose"):
        for action in actions:
            if action.verb == verb:
                return action
    for action in actions:
        if action.args.get("what") in PASSES:
            return action  # a figure's pending step (move or skip it): skipped
    return actions[0] if actions else None
