"""Campaign export and import: one JSON document with everything needed to rebuild a campaign.

The document carries the setup (game, scenario, options, seed, settings), the seats and the
whole action log; the state snapshot is included only so an import can check that replaying
the log reproduces it exactly. Every field is typed here with the limits of the database
columns it lands in, so a file the bot would never have written is refused with the name of
the first wrong field. An export is signed with this deployment's key (HMAC-SHA256): seats,
owner and log cannot be edited between export and import without the import noticing.

Large exports are gzip-compressed (`.json.gz`); an import accepts either form, up to what a
Discord upload allows.
"""

from __future__ import annotations

import gzip
import hashlib
import hmac
import json
import re
import unicodedata
import zlib
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from bot.disclosure import shown_command
from bot.markup import has_mentions
from bot.settings_model import CampaignSettings, describe
from bot.storage.models import ActionLog, Campaign, Seat
from engine.core.events import dump_events, parse_events
from engine.registry import get_game

FORMAT = "sortie-campaign"
FORMAT_VERSION = 1
PUBLIC_RECORD_FORMAT = "sortie-campaign-record"
LIVE_STATUSES = ("open", "active", "paused")
# Discord accepts uploads of 10 MiB on any server; an import takes whatever an upload can carry.
MAX_IMPORT_BYTES = 10 * 1024 * 1024
# A compressed file expands at most to this (a zip bomb stops here).
MAX_EXPANDED_BYTES = 64 * 1024 * 1024
# Exports above this size are compressed.
COMPRESS_ABOVE = 1024 * 1024
MAX_SEATS = 32
MAX_LOG_STEPS = 200_000
GZIP_MAGIC = b"\x1f\x8b"

STATUSES = ("open", "active", "paused", "finished", "ended")
LOG_KINDS = ("begin", "action", "undo", "rollback", "end", "pause", "resume")

USER_ID = re.compile(r"[A-Za-z0-9:._-]{1,32}")
KEY = re.compile(r"[a-z0-9_-]{1,64}")


def _plain_text(value: str) -> str:
    """Text shown to players: no control characters and no mention markup."""
    if any(unicodedata.category(ch) in ("Cc", "Cf") for ch in value):
        raise ValueError("contains control characters")
    if has_mentions(value):
        raise ValueError("contains mention markup (a ping or a channel link)")
    return value


def _user_id(value: str) -> str:
    if not USER_ID.fullmatch(value):
        raise ValueError("is not a user id (letters, digits, ':', '.', '_', '-'; 1 to 32)")
    return value


def _key(value: str) -> str:
    if not KEY.fullmatch(value):
        raise ValueError("is not a key (lower-case letters, digits, '_', '-'; 1 to 64)")
    return value


UserId = Annotated[str, AfterValidator(_user_id)]
Key = Annotated[str, AfterValidator(_key)]
PlainName = Annotated[str, Field(max_length=100), AfterValidator(_plain_text)]
OptionValue = Annotated[str, Field(max_length=64), AfterValidator(_plain_text)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ArchivedSeat(_Strict):
    role: Key
    user_id: UserId | Literal[""]  # "" is a seat left free after its player left
    user_name: PlainName = ""


class ArchivedStep(_Strict):
    seq: int = Field(ge=1, le=MAX_LOG_STEPS)
    kind: Literal["begin", "action", "undo", "rollback", "end", "pause", "resume"]
    seat: Key | None = None
    user_id: UserId | None = None
    action: dict[str, Any]
    events: list[dict[str, Any]]
    random_used: bool = False


class CampaignArchive(_Strict):
    format: Literal["sortie-campaign"]
    format_version: int = Field(ge=1, le=FORMAT_VERSION)
    game: Key
    scenario: Key
    options: dict[Key, OptionValue]
    settings: CampaignSettings
    seed: int = Field(ge=0, lt=2**63)  # a PostgreSQL BIGINT
    status: Literal["open", "active", "paused", "finished", "ended"]
    outcome: str | None = Field(default=None, max_length=64)
    owner_id: UserId
    seats: list[ArchivedSeat] = Field(max_length=MAX_SEATS)
    log: list[ArchivedStep] = Field(max_length=MAX_LOG_STEPS)
    state: dict[str, Any] | None = None
    signature: str | None = Field(default=None, max_length=64)

    def signed_body(self) -> bytes:
        body = self.model_dump(mode="json", exclude={"signature"})
        return json.dumps(body, sort_keys=True, separators=(",", ":")).encode()


def sign(archive: CampaignArchive, key: str) -> str:
    return hmac.new(key.encode(), archive.signed_body(), hashlib.sha256).hexdigest()


def signed_by(archive: CampaignArchive, key: str) -> bool:
    return archive.signature is not None and hmac.compare_digest(
        archive.signature, sign(archive, key)
    )


def export_campaign(
    campaign: Campaign, seats: list[Seat], rows: list[ActionLog], key: str | None = None
) -> bytes:
    """The whole campaign as JSON, signed with `key` when one is given."""
    archive = CampaignArchive(
        format=FORMAT,
        format_version=FORMAT_VERSION,
        game=campaign.game,
        scenario=campaign.scenario,
        options=json.loads(campaign.options_json),
        settings=CampaignSettings.model_validate_json(campaign.settings_json),
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
    if key is not None:
        archive.signature = sign(archive, key)
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


def compress(data: bytes) -> bytes:
    """gzip with a fixed timestamp, so the same export always gives the same bytes."""
    return gzip.compress(data, compresslevel=9, mtime=0)


def for_upload(data: bytes, name: str) -> tuple[str, bytes]:
    """The file name and bytes to attach: compressed when the JSON is large."""
    if len(data) <= COMPRESS_ABOVE:
        return name, data
    return name + ".gz", compress(data)


def expand(data: bytes) -> bytes:
    """The JSON inside an upload (plain or gzip), refusing what no export could be."""
    if len(data) > MAX_IMPORT_BYTES:
        raise ValueError(
            f"That file is {len(data) / 2**20:.1f} MiB; an import takes at most "
            f"{MAX_IMPORT_BYTES // 2**20} MiB (compress it with gzip)."
        )
    if not data.startswith(GZIP_MAGIC):
        return data
    inflater = zlib.decompressobj(wbits=31)
    try:
        expanded = inflater.decompress(data, MAX_EXPANDED_BYTES + 1)
    except zlib.error:
        raise ValueError("That file looks compressed but is not valid gzip.") from None
    if len(expanded) > MAX_EXPANDED_BYTES or inflater.unconsumed_tail:
        raise ValueError("That file expands to more than any campaign export could be.")
    return expanded


def read_archive(data: bytes) -> CampaignArchive:
    """Parse and validate an export; ValueError naming the first wrong field otherwise."""
    data = expand(data)
    try:
        archive = CampaignArchive.model_validate_json(data)
    except ValidationError as bad:
        raise ValueError(
            f"That is not a valid campaign export ({describe(bad, settings_at=('settings',))})."
        ) from None
    except (RecursionError, ValueError):
        raise ValueError("That is not a valid campaign export (it is not JSON).") from None
    seqs = [step.seq for step in archive.log]
    if seqs != list(range(1, len(seqs) + 1)):
        raise ValueError("The export's log is not a complete sequence of steps.")
    return archive
