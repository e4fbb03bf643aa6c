"""The typed settings of one campaign, checked on every write and on every import.

Each setting is a number or a word from a short list the owner picks from (`/campaign
settings`); `mirrors` are the channels a campaign's public steps are copied to. The same
model reads the stored JSON (older rows kept the mirrors as one comma-separated string and
the numbers as strings), so a value the bot would refuse can never reach the table.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

NUDGE_HOURS = (0, 1, 6, 12, 24, 48, 72)
DEADLINE_HOURS = (0, 12, 24, 48, 72, 168)
WINDOW_MINUTES = (0, 2, 5, 10, 30, 60, 240)
DEADLINE_POLICIES = ("wait", "vote", "autopilot")
DIGEST = ("off", "on")
MAX_MIRRORS = 5
CHANNEL_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")

# Setting -> the values the owner may choose (as typed), for help, refusals and autocomplete.
CHOICES: dict[str, tuple[str, ...]] = {
    "nudge_hours": tuple(map(str, NUDGE_HOURS)),
    "deadline_hours": tuple(map(str, DEADLINE_HOURS)),
    "deadline_policy": DEADLINE_POLICIES,
    "digest": DIGEST,
    "window_minutes": tuple(map(str, WINDOW_MINUTES)),
}


class SettingsError(ValueError):
    """A setting the bot refuses; the message names the setting and what it accepts."""


def _one_of(name: str, allowed: tuple[int, ...]) -> Any:
    def check(value: int) -> int:
        if value not in allowed:
            raise ValueError(f"must be one of: {', '.join(map(str, allowed))}")
        return value

    return field_validator(name)(check)


class CampaignSettings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    nudge_hours: int = 24
    deadline_hours: int = 0
    deadline_policy: Literal["wait", "vote", "autopilot"] = "wait"
    digest: Literal["off", "on"] = "off"
    window_minutes: int = 10
    mirrors: tuple[str, ...] = ()

    _nudge = _one_of("nudge_hours", NUDGE_HOURS)
    _deadline = _one_of("deadline_hours", DEADLINE_HOURS)
    _window = _one_of("window_minutes", WINDOW_MINUTES)

    @field_validator("nudge_hours", "deadline_hours", "window_minutes", mode="before")
    @classmethod
    def _whole_number(cls, value: Any) -> Any:
        # "24" (as typed, or as older rows stored it) is 24; "1e308", "abc" and 24.5 are not.
        if isinstance(value, bool):
            raise ValueError("must be a whole number")
        if isinstance(value, str):
            if not re.fullmatch(r"[0-9]{1,4}", value.strip()):
                raise ValueError("must be a whole number")
            return int(value)
        if isinstance(value, int):
            return value
        raise ValueError("must be a whole number")

    @field_validator("mirrors", mode="before")
    @classmethod
    def _mirror_list(cls, value: Any) -> Any:
        if isinstance(value, str):  # the older stored form: "123,456"
            value = [m for m in value.split(",") if m]
        if not isinstance(value, list | tuple):
            raise ValueError("must be a list of channel ids")
        for item in value:
            if not isinstance(item, str) or not CHANNEL_ID.fullmatch(item):
                raise ValueError(f"{str(item)[:40]!r} is not a channel id")
        if len(value) > MAX_MIRRORS:
            raise ValueError(f"lists more than {MAX_MIRRORS} channels")
        if len(set(value)) != len(value):
            raise ValueError("lists a channel twice")
        return tuple(value)

    def shown(self) -> str:
        """`key=value` pairs as `/campaign settings` shows them."""
        return ", ".join(f"{key}={getattr(self, key)}" for key in CHOICES)

    def stored(self) -> str:
        return json.dumps(self.model_dump(mode="json"), sort_keys=True)

    def changed(self, **values: Any) -> CampaignSettings:
        """A copy with some settings changed, validated like any other write."""
        return parse_settings({**self.model_dump(), **values})


def parse_settings(data: Any) -> CampaignSettings:
    """Validate settings (a dict or stored JSON text); SettingsError names the first bad one."""
    try:
        if isinstance(data, str | bytes):
            return CampaignSettings.model_validate_json(data)
        return CampaignSettings.model_validate(data)
    except ValidationError as bad:
        raise SettingsError(describe(bad)) from None


def describe(bad: ValidationError, settings_at: tuple[str, ...] = ()) -> str:
    """The first problem of a validation error as `where what`; `settings_at` is where the
    settings sit in the validated document (they get the friendlier messages)."""
    first = bad.errors()[0]
    loc = tuple(str(p) for p in first["loc"])
    where = ".".join(loc) or "value"
    message = str(first["msg"]).removeprefix("Value error, ")
    in_settings = loc[:-1] == settings_at
    if first["type"] == "extra_forbidden":
        message = (
            f"is not a setting (settings: {', '.join([*CHOICES, 'mirrors'])})"
            if in_settings
            else "is not a field this version of Sortie knows"
        )
    elif first["type"] == "literal_error" and in_settings and loc and loc[-1] in CHOICES:
        message = f"must be one of: {', '.join(CHOICES[loc[-1]])}"
    return f"{where} {message}"
