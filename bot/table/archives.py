"""The operator's full export and the import that recreates a campaign from it.

An import is accepted only if the campaign it describes is one the bot could have written
itself: every field typed and within its column (`bot/archive.py`), the seats those of the
scenario, the status and outcome what the log leads to, the log's events exactly what
replaying it produces (so no text can be smuggled into the channel), and the signature this
deployment put on the export (so seats and owner were not edited). After that, nothing in an
imported campaign can make a later command fail.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from bot.archive import CampaignArchive, export_campaign, read_archive, signed_by
from bot.clock import Clock
from bot.replay import canonical, replay
from bot.storage.models import ActionLog, Campaign, Seat
from bot.storage.repo import CampaignRepo, ChannelBusy
from bot.table.context import UserError, game_named, id_of, scenario_named
from engine.core.events import dump_events
from engine.core.game import Game, ScenarioInfo


class ImportRefused(UserError):
    """An export that cannot be imported; the message names the field to fix."""


class Archives:
    """Export a channel's campaign in full; import one into a free channel."""

    def __init__(self, repo: CampaignRepo, clock: Clock) -> None:
        self.repo = repo
        self.clock = clock

    async def export_bytes(self, campaign: Campaign) -> bytes:
        """The complete, signed export of a campaign (seed and hidden state included)."""
        return export_campaign(
            campaign,
            await self.repo.seats(id_of(campaign)),
            await self.repo.log(id_of(campaign)),
            key=await self.repo.signing_key(),
        )

    async def export_channel(self, channel_id: str) -> tuple[Campaign, bytes]:
        """The channel's live campaign, else its most recent one, exported in full."""
        campaign = await self.repo.live_in_channel(channel_id) or await self.repo.latest_in_channel(
            channel_id
        )
        if campaign is None:
            raise UserError(f"No campaign in channel {channel_id} to export.")
        return campaign, await self.export_bytes(campaign)

    async def import_campaign(
        self,
        data: bytes,
        channel_id: str,
        guild_id: str | None,
        accept_unsigned: bool = False,
    ) -> str:
        """Recreate an exported campaign in a channel without a live campaign.

        `accept_unsigned` (the operator vouches for the file) skips only the signature check,
        for a file exported by another deployment; everything else is checked regardless.
        """
        try:
            archive = read_archive(data)
        except ValueError as bad:
            raise ImportRefused(str(bad)) from None
        if not accept_unsigned and not signed_by(archive, await self.repo.signing_key()):
            raise ImportRefused(
                "The file is not signed by this Sortie (it was changed after export, or comes "
                "from another deployment). An operator who trusts it imports it with "
                "--accept-unsigned."
            )
        game = game_named(archive.game)
        info = scenario_named(game, archive.scenario)
        try:
            options = info.resolve_options(archive.options)
        except ValueError as bad:
            raise ImportRefused(f"options: {bad}") from None
        if options != archive.options:
            raise ImportRefused("options: the export lists only some of the scenario's options.")
        campaign = Campaign(
            channel_id=channel_id,
            guild_id=guild_id,
            game=game.key,
            scenario=info.key,
            options_json=json.dumps(options, sort_keys=True),
            settings_json=archive.settings.stored(),
            seed=archive.seed,
            status=archive.status,
            owner_id=archive.owner_id,
            step=len(archive.log),
            version=len(archive.log),
        )
        rows = [
            ActionLog(
                campaign_id=0,
                seq=step.seq,
                kind=step.kind,
                seat=step.seat,
                user_id=step.user_id,
                action_json=json.dumps(step.action),
                events_json=json.dumps(step.events),
                random_used=step.random_used,
            )
            for step in archive.log
        ]
        begun = check_log_shape(archive)
        check_seats(archive, info, begun)
        campaign.outcome, campaign.state_json = replay_checked(game, campaign, rows, archive)
        seats = [
            Seat(
                campaign_id=0,
                role=s.role,
                user_id=s.user_id,
                user_name=s.user_name,
                last_seen_seq=len(archive.log),
            )
            for s in archive.seats
        ]
        try:
            created = await self.repo.import_campaign(campaign, seats, rows)
        except ChannelBusy:
            raise ImportRefused("That channel already has a live campaign.") from None
        if archive.settings.digest == "on" and created.status == "active":
            await self.repo.set_digest(id_of(created), self.clock.now() + timedelta(days=1))
        return f"Imported as campaign #{created.id} in channel {channel_id} at step {created.step}."


def check_log_shape(archive: CampaignArchive) -> list[str]:
    """The log's rows in an order the bot writes them; the seats the mission began with."""
    log = archive.log
    begun: list[str] = []
    for index, step in enumerate(log):
        where = f"log.{index}"
        if step.kind == "begin":
            seats = step.action.get("seats")
            if index != 0:
                raise ImportRefused(f"{where}.kind: a mission begins only at the first step.")
            if (
                not isinstance(seats, list)
                or not seats
                or not all(isinstance(s, str) for s in seats)
                or len(set(seats)) != len(seats)
            ):
                raise ImportRefused(f"{where}.action.seats must list the seats, each once.")
            begun = list(seats)
        elif not begun and step.kind != "end":
            raise ImportRefused(f"{where}.kind: '{step.kind}' before the mission began.")
        if step.kind == "end" and index != len(log) - 1:
            raise ImportRefused(f"{where}.kind: nothing can follow the end of a campaign.")
        if step.kind == "action" and step.seat not in begun:
            raise ImportRefused(f"{where}.seat: '{step.seat}' is not a seat of this mission.")
        if step.kind in ("undo", "rollback"):
            target = step.action.get("to_seq")
            if (
                not isinstance(target, int)
                or isinstance(target, bool)
                or not 1 <= target < step.seq
            ):
                raise ImportRefused(f"{where}.action.to_seq must be an earlier step.")
        if step.kind not in ("begin", "action") and step.events:
            raise ImportRefused(f"{where}.events: a '{step.kind}' step has no events.")
    return begun


def check_seats(archive: CampaignArchive, info: ScenarioInfo, begun: list[str]) -> None:
    roles = [r.key for r in info.roles]
    held: set[str] = set()
    for index, seat in enumerate(archive.seats):
        where = f"seats.{index}"
        if seat.role not in roles:
            raise ImportRefused(
                f"{where}.role: '{seat.role}' is not a seat of {info.key} "
                f"(seats: {', '.join(roles)})."
            )
        if seat.role in held:
            raise ImportRefused(f"{where}.role: the seat '{seat.role}' is listed twice.")
        held.add(seat.role)
        if not seat.user_id and not begun:
            raise ImportRefused(f"{where}.user_id: a seat of an open campaign needs its player.")
    if len(held) > info.max_seats:
        raise ImportRefused(f"seats: {info.key} seats at most {info.max_seats} players.")
    if begun and held != set(begun):
        raise ImportRefused(
            f"seats: the mission began with {', '.join(begun)}, the file lists "
            f"{', '.join(sorted(held)) or 'none'}."
        )


def replay_checked(
    game: Game[Any], campaign: Campaign, rows: list[ActionLog], archive: CampaignArchive
) -> tuple[str | None, str | None]:
    """Replay the log: its events, final state, status and outcome must be the file's.

    Returns the outcome and the state to store."""
    kinds = [row.kind for row in rows]
    if "begin" not in kinds:
        expected = "ended" if kinds == ["end"] else "open"
        if archive.status != expected:
            raise ImportRefused(f"status: the log says '{expected}', the file '{archive.status}'.")
        if archive.state is not None or archive.outcome is not None:
            raise ImportRefused("state: a campaign that never began has no state or outcome.")
        return None, None
    try:
        replayed = replay(campaign, rows)
    except Exception as error:  # any failure means the log is not one the bot wrote
        raise ImportRefused(f"log: it does not replay ({str(error)[:200]}).") from None
    for index, row in enumerate(rows):
        if json.loads(row.events_json) != dump_events(replayed.events[row.seq]):
            raise ImportRefused(
                f"log.{index}.events are not what replaying step {row.seq} produces."
            )
    prompt = game.waiting_on(replayed.final)
    if kinds[-1] == "end":
        expected = "ended"
    elif prompt.finished:
        expected = "finished"
    elif kinds[-1] == "pause":
        expected = "paused"
    else:
        expected = "active"
    if archive.status != expected:
        raise ImportRefused(f"status: the log says '{expected}', the file '{archive.status}'.")
    outcome = prompt.outcome if prompt.finished else None
    if archive.outcome != outcome:
        raise ImportRefused(f"outcome: the log says {outcome!r}, the file {archive.outcome!r}.")
    if archive.state is None:
        raise ImportRefused("state: a campaign under way needs its state.")
    try:
        stored = canonical(game, game.load(archive.state))
    except Exception:
        raise ImportRefused("state: it is not a state of this game.") from None
    if canonical(game, replayed.final) != stored:
        raise ImportRefused("state: the log does not reproduce it; not imported.")
    return outcome, json.dumps(game.dump(replayed.final), separators=(",", ":"))
