"""Campaign export and import: one JSON document with everything needed to rebuild a campaign.

The document carries the setup (game, scenario, options, seed, settings), the seats and the
whole action log; the state snapshot is included only so an import can check that replaying
the log reproduces it exactly.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from bot.disclosure import shown_command
from bot.storage.models import ActionLog, Campaign, Seat
from engine.core.events import dump_events, parse_events
from engine.registry import get_game

FORMAT = "sortie-campaign"
FORMAT_VERSION = 1
PUBLIC_RECORD_FORMAT = "sortie-campaign-record"
LIVE_STATUSES = ("open", "active", "paused")
MAX_IMPORT_BYTES = 8 * 1024 * 1024


class ArchivedSeat(BaseModel):
    role: str = Field(max_length=64)
    user_id: str = Field(max_length=32)
    user_name: str = Field(default="", max_length=100)


class ArchivedStep(BaseModel):
    seq: int = Field(ge=1)
    kind: str = Field(max_length=16)
    seat: str | None = Field(default=None, max_length=64)
    user_id: str | None = Field(default=None, max_length=32)
    action: dict[str, Any]
    events: list[dict[str, Any]]
    random_used: bool = False


class CampaignArchive(BaseModel):
    format: str
    format_version: int
    game: str = Field(max_length=64)
    scenario: str = Field(max_length=64)
    options: dict[str, str]
    settings: dict[str, str]
    seed: int
    status: str
    outcome: str | None = None
    owner_id: str = Field(max_length=32)
    seats: list[ArchivedSeat]
    log: list[ArchivedStep]
    state: dict[str, Any] | None = None


def export_campaign(campaign: Campaign, seats: list[Seat], rows: list[ActionLog]) -> bytes:
    archive = CampaignArchive(
        format=FORMAT,
        format_version=FORMAT_VERSION,
        game=campaign.game,
        scenario=campaign.scenario,
        options=json.loads(campaign.options_json),
        settings=json.loads(campaign.settings_json),
        seed=campaign.seed,
        status=campaign.status,
        outcome=campaign.outcome,
        owner_id=campaign.owner_id,
        seats=[ArchivedSeat(role=s.role, user_id=s.user_id, user_name=s.user_name) for s in seats],
        log=[
            ArchivedStep(
                seq=r.seq,
                kind=r.kind,
                seat=r.seat,
                user_id=r.user_id,
                action=json.loads(r.action_json),
                events=json.loads(r.events_json),
                random_used=r.random_used,
            )
            for r in rows
        ],
        state=json.loads(campaign.state_json) if campaign.state_json else None,
    )
    return archive.model_dump_json(indent=1).encode()


def export_public_record(campaign: Campaign, seats: list[Seat], rows: list[ActionLog]) -> bytes:
    """What `/campaign export` gives while a campaign is live: its public record only.

    The public view of the current state and the public log (commands that may carry a secret
    by verb alone, events for everyone only): no seed, no state, no hand or deck order, so it
    neither reveals a secret nor lets anyone compute the dice of a step to come. It cannot be
    imported; the full backup of a live campaign is the operator's command line.
    """
    view = None
    if campaign.state_json:
        game = get_game(campaign.game)
        view = game.view(game.load(json.loads(campaign.state_json)), None).model_dump(mode="json")
    record = {
        "format": PUBLIC_RECORD_FORMAT,
        "format_version": FORMAT_VERSION,
        "note": (
            "The public record of a live campaign: what every player may see. It cannot be "
            "imported; the server's operator makes full backups."
        ),
        "game": campaign.game,
        "scenario": campaign.scenario,
        "options": json.loads(campaign.options_json),
        "status": campaign.status,
        "step": campaign.step,
        "owner_id": campaign.owner_id,
        "seats": [{"role": s.role, "user_id": s.user_id, "user_name": s.user_name} for s in seats],
        "log": [
            {
                "seq": r.seq,
                "kind": r.kind,
                "seat": r.seat,
                "command": shown_command(r.action_json) if r.kind == "action" else None,
                "events": dump_events(
                    [e for e in parse_events(json.loads(r.events_json)) if e.visible_for(None)]
                ),
            }
            for r in rows
        ],
        "view": view,
    }
    return json.dumps(record, indent=1).encode()


def read_archive(data: bytes) -> CampaignArchive:
    """Parse and validate an export; ValueError with a readable reason otherwise."""
    if len(data) > MAX_IMPORT_BYTES:
        raise ValueError("That file is too large to be a Sortie campaign export.")
    try:
        archive = CampaignArchive.model_validate_json(data)
    except ValidationError as bad:
        first = bad.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ValueError(
            f"That is not a valid campaign export ({where}: {first['msg']})."
        ) from None
    if archive.format != FORMAT or archive.format_version > FORMAT_VERSION:
        raise ValueError("That file is not a campaign export this version of Sortie can read.")
    seqs = [step.seq for step in archive.log]
    if seqs != list(range(1, len(seqs) + 1)):
        raise ValueError("The export's log is not a complete sequence of steps.")
    return archive
