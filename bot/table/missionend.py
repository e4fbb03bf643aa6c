"""The end of a mission: a post of its own, for everyone at the table.

When a step ends a mission (a `MissionEnded` event) the channel gets one post saying so: the
banner's word and the reason, the summary card, and one ping for every seated player. In a
campaign that goes on, the post comes before the next mission's briefing and carries the
campaign card: the results so far, what carries over, what comes next. Built from the public
view and public events only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.markup import mention
from bot.storage.models import Seat
from engine.core.events import Event, MissionEnded
from engine.core.game import Game, campaign_summaries_of
from engine.core.view import View
from renders.chrome import banner

# The campaign's own notes that say what goes on into the next mission (the agents' ranks and
# weapons, Alien Tech, GD Headquarters' weapons, a Permanent Death, a replay).
CARRIES = ("carries over", "brings", "Permanent Death", "GD Headquarters", "sends the team")
CAMPAIGN_PANEL = "campaign"


def ended(events: Sequence[Event]) -> MissionEnded | None:
    """The public end of a mission among a step's events (the last one, if several)."""
    found = [e for e in events if isinstance(e, MissionEnded) and e.visible_for(None)]
    return found[-1] if found else None


def everyone(seats: Sequence[Seat]) -> list[str]:
    """Every seated player once, in seat order."""
    return list(dict.fromkeys(s.user_id for s in seats if s.user_id))


def banner_line(view: View, end: MissionEnded) -> str:
    word = banner(view.model_copy(update={"finished": True, "outcome": end.outcome}))[0]
    outcome = end.outcome or "ended"
    return f"🏁 **{word}** — Mission over: {outcome}." + (f"\n{end.text}" if end.text else "")


def campaign_card(view: View, events: Sequence[Event], end: MissionEnded) -> list[str]:
    """Results so far, what carries over, what comes next: from the View's campaign panel and
    the public notes the campaign made after the mission ended."""
    panel = next((p for p in view.panels if p.seat == CAMPAIGN_PANEL), None)
    lines = list(panel.lines) if panel else []
    upcoming = [line for line in lines if line.startswith("Mission ")]
    kept = [line for line in lines if line.startswith("GD Headquarters")]
    results = [line for line in lines if line not in upcoming and line not in kept]
    after = list(events)[list(events).index(end) + 1 :]
    carried = [
        e.text
        for e in after
        if e.text and e.visible_for(None) and any(c in e.text for c in CARRIES)
    ]
    card = ["**Campaign card**"]
    if results:
        card.append("Results so far: " + "; ".join(results) + ".")
    if carried or kept:
        card.append("Carries over: " + " ".join([*carried, *kept]))
    if upcoming:
        card.append(f"Next: {upcoming[0]} (briefing below).")
    return card


def summary_view(game: Game[Any], state: Any, view: View, end: MissionEnded) -> View:
    """The View the summary card is drawn from: the finished mission's own, or, when a campaign
    has already set up its next mission, the ended mission's result on the team going on."""
    if view.finished:
        return view
    summaries = campaign_summaries_of(game)
    summary = summaries.ended_summary(state) if summaries is not None else None
    return view.model_copy(
        update={
            "finished": True,
            "outcome": end.outcome,
            "summary": summary,
            "header": {},
            "figures": [f for f in view.figures if f.side == "player"],
        }
    )


def end_text(view: View, events: Sequence[Event], end: MissionEnded, seats: list[Seat]) -> str:
    """The post's text: the banner line, the campaign card between missions, the pings."""
    lines = [banner_line(view, end)]
    if not view.finished:
        lines += campaign_card(view, events, end)
    pings = everyone(seats)
    if pings:
        lines.append(" ".join(mention(u) for u in pings))
    return "\n".join(lines)
