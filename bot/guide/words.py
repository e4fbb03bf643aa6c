"""The table's pacing in words: campaign settings and the answer window of a prompt.

`/campaign settings`, `/rules topic:play-by-post` and every prompt with a default answer
say the same thing, because they are all built from the same `CampaignSettings`.
"""

from __future__ import annotations

from bot.settings_model import CampaignSettings
from engine.core.game import Prompt

POLICY_WORDS = {
    "wait": "a note is posted and the table keeps waiting",
    "vote": "the other players may vote to have that turn played safely",
    "autopilot": "the seat is played safely by autopilot until its player returns",
}


def span(minutes: int) -> str:
    """`90` -> `1 hour 30 minutes`; `10` -> `10 minutes`."""
    hours_, rest = divmod(minutes, 60)
    parts = []
    if hours_:
        parts.append(f"{hours_} hour{'s' if hours_ != 1 else ''}")
    if rest or not hours_:
        parts.append(f"{rest} minute{'s' if rest != 1 else ''}")
    return " ".join(parts)


def window_words(settings: CampaignSettings) -> str:
    """What happens to a question with a default answer on this table."""
    if settings.window_minutes == 0:
        return "a question with a default answer (a reaction, a vote) takes its default at once"
    return (
        "a question with a default answer (a reaction, a vote) waits "
        f"{span(settings.window_minutes)}, then its default applies"
    )


def settings_in_words(settings: CampaignSettings) -> list[str]:
    """One line per setting, in words, with the key to change it."""
    nudge = (
        "no reminders"
        if settings.nudge_hours == 0
        else f"a reminder after {span(settings.nudge_hours * 60)} of waiting"
    )
    if settings.deadline_hours == 0:
        deadline = (
            "no deadline: your own turn waits for you as long as it takes (with one, "
            f"{POLICY_WORDS[settings.deadline_policy]})"
        )
    else:
        deadline = (
            f"a deadline of {span(settings.deadline_hours * 60)}; when it passes, "
            f"{POLICY_WORDS[settings.deadline_policy]}"
        )
    digest = "a daily digest for spectators" if settings.digest == "on" else "no daily digest"
    return [
        f"Reminders (`nudge_hours`): {nudge}.",
        f"Deadline (`deadline_hours`, `deadline_policy`): {deadline}.",
        f"Answer window (`window_minutes`): {window_words(settings)}.",
        f"Digest (`digest`): {digest}.",
    ]


def window_note(prompt: Prompt, settings: CampaignSettings | None) -> str:
    """The prompt's answer window, named: "decided by default in 10 minutes"."""
    if settings is None or prompt.default is None or prompt.finished:
        return ""
    if settings.window_minutes == 0:
        return " (no answer window on this table: the default applies at once)"
    return f" (decided by default in {span(settings.window_minutes)} if nobody answers)"
