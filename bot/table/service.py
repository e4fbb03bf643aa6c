"""`TableService`: the transport-free entry point the Discord adapter, the playground and the
scheduler call.

A command flows: parse (`bot.commands`) → the handler `command_table` maps its
(command, subcommand) to → the step runner (engine, then storage) → the presenter → the
replies the shell delivers.
One command at a time per channel; a button's version is checked first; a returning player
first sees what they missed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Callable
from datetime import datetime

from bot import help_text
from bot.clock import Clock, SystemClock
from bot.commands import PLAY_VERBS, Command, CommandError, parse
from bot.locks import ChannelLocks
from bot.logs import new_request_id
from bot.ratelimit import Buckets, RateLimits, SharedBuckets
from bot.replay import canonical, replay
from bot.replies import Reply, refusal
from bot.storage.db import ChannelLockTimeout, Database
from bot.storage.models import ActionLog, Campaign
from bot.storage.outbox import TurnPostStore
from bot.storage.repo import CampaignRepo, TableChanged
from bot.storage.weblinks import WebLinks
from bot.table.archives import Archives
from bot.table.autocomplete import Autocomplete
from bot.table.campaigns import CampaignCommands
from bot.table.context import (
    CATCH_UP_ON,
    KEPT,
    Caller,
    ChannelAccess,
    Handler,
    Suggestion,
    UserError,
    id_of,
)
from bot.table.lateposts import LatePosts
from bot.table.legal import LegalActions
from bot.table.loading import Loader
from bot.table.pace import PaceCommands
from bot.table.pacer import Pacer
from bot.table.parts import TableParts
from bot.table.picking import PickCommands
from bot.table.pictures import Pictures, Renderer, WorkerPictures, default_renderer
from bot.table.play import PlayCommands
from bot.table.presenter import Presenter
from bot.table.steps import StepRunner
from bot.table.turnposts import TurnPosts
from bot.table.weblinks import WebAddress, WebCommands
from engine.core.errors import RuleError
from engine.registry import get_game

log = logging.getLogger("sortie.table")

DEFAULT_LIMITS = RateLimits()


async def show_help(caller: Caller, options: dict[str, str]) -> list[Reply]:
    return [Reply(help_text.render(options.get("topic")), ephemeral=True)]


def command_table(
    campaigns: CampaignCommands,
    play: PlayCommands,
    pace: PaceCommands,
    picker: PickCommands,
    web: WebCommands,
) -> dict[tuple[str, str | None], Handler]:
    """Every command's handler, by (command, subcommand)."""
    table: dict[tuple[str, str | None], Handler] = {
        ("campaign", "create"): campaigns.create,
        ("campaign", "join"): campaigns.join,
        ("campaign", "leave"): campaigns.leave,
        ("campaign", "begin"): campaigns.begin,
        ("campaign", "status"): campaigns.status,
        ("campaign", "settings"): campaigns.settings,
        ("campaign", "end"): campaigns.end,
        ("campaign", "list"): campaigns.list_campaigns,
        ("campaign", "export"): campaigns.export,
        ("campaign", "rollback"): campaigns.rollback,
        ("campaign", "seat"): campaigns.seat,
        ("campaign", "mirror"): campaigns.mirror,
        ("campaign", "web"): web.web_link,
        ("undo", None): play.undo,
        ("board", None): play.board,
        ("sheet", None): play.sheet,
        ("hand", None): play.hand,
        ("log", None): play.show_log,
        ("rules", None): play.rules,
        ("help", None): show_help,
        ("prefs", None): pace.prefs,
        ("away", None): pace.away,
        ("vote", None): pace.vote,
        ("pick", None): picker.pick,
    }
    for verb in PLAY_VERBS:
        table[(verb, None)] = play.verb(verb)
    return table


class TableService:
    """Every campaign behaviour behind `handle` (a typed command) and `autocomplete`."""

    def __init__(
        self,
        db: Database,
        renderer: Renderer = default_renderer,
        new_seed: Callable[[], int] = lambda: secrets.randbits(62),
        clock: Clock | None = None,
        limits: RateLimits | None = DEFAULT_LIMITS,
        pictures: Pictures | None = None,
    ) -> None:
        self.db = db
        self.clock: Clock = clock or SystemClock()
        self.repo = CampaignRepo(db)
        self._user_buckets: Buckets | SharedBuckets | None = None
        self._channel_buckets: Buckets | SharedBuckets | None = None
        if limits is not None and db.is_sqlite:
            # One machine: the buckets live in this process.
            self._user_buckets = Buckets(limits.user, self.clock)
            self._channel_buckets = Buckets(limits.channel, self.clock)
        elif limits is not None:
            # PostgreSQL may serve several processes: one bucket each user, shared by all.
            self._user_buckets = SharedBuckets(limits.user, self.clock, db, "user")
            self._channel_buckets = SharedBuckets(limits.channel, self.clock, db, "channel")
        self._locks = ChannelLocks(db)
        steps = StepRunner(self.repo, self.clock)
        shown = pictures or WorkerPictures(renderer)
        # The campaigns' web links: off until a shell says where the web view is served.
        self.web = WebAddress(WebLinks(db))
        parts = TableParts(
            repo=self.repo,
            clock=self.clock,
            loader=Loader(self.repo, steps),
            steps=steps,
            presenter=Presenter(shown, TurnPosts(TurnPostStore(db)), self.web),
            pictures=shown,
            legal=LegalActions(),
            new_seed=new_seed,
            limits=limits,
        )
        self.parts = parts
        self.late = LatePosts(self.repo, shown, self.clock)
        self.archives = Archives(self.repo, self.clock)
        self.campaigns = CampaignCommands(parts)
        self.pacing = Pacer(parts, self._locks)
        self.suggestions = Autocomplete(parts)
        self.commands = command_table(
            self.campaigns,
            PlayCommands(parts),
            PaceCommands(parts),
            PickCommands(parts),
            WebCommands(parts.loader, self.web),
        )

    # ------------------------------------------------------------------ commands

    async def handle(
        self,
        caller: Caller,
        text: str,
        expect_version: int | None = None,
        request: str | None = None,
    ) -> list[Reply]:
        """Run one typed command. `expect_version` (a button's) refuses it atomically once the
        campaign has moved past the version the button was posted with. `request` (a Discord
        interaction's id, a playground client's id) makes it act once: a repeat gets the
        first answer again (its text) and changes nothing."""
        new_request_id()
        started = time.perf_counter()
        if request is None:
            replies = await self._handle(caller, text, expect_version)
        else:
            replies = await self._handle_once(caller, text, expect_version, request)
        log.info(
            "command %s by %s in %s: %s in %.0f ms",
            text.split(" ", 1)[0][:40],
            caller.user_id,
            caller.channel_id,
            "refused" if any(r.error for r in replies) else "ok",
            (time.perf_counter() - started) * 1000,
        )
        return replies

    async def _handle_once(
        self, caller: Caller, text: str, expect_version: int | None, request: str
    ) -> list[Reply]:
        key = request[:120]
        seen = await self.repo.interaction(key)
        if seen is not None:
            return repeated(seen.replies_json)
        with self.repo.request_scope(key, caller.channel_id) as once:
            replies = await self._handle(caller, text, expect_version, key)
        if replies and replies[0].repeat:
            return replies
        if once.written or not any(r.error for r in replies):
            # A refusal that changed nothing (busy, too fast, not your turn) is not kept: its
            # retry may run, and safely so.
            await self.repo.remember_outcome(once, outcome_json(replies))
        return replies

    async def _handle(
        self, caller: Caller, text: str, expect_version: int | None, request: str | None = None
    ) -> list[Reply]:
        wait = await self._rate_limited(caller)
        if wait:
            return refusal(
                f"Easy there: commands are coming in faster than the table can take "
                f"them. Try again in {max(1, round(wait))} s."
            )
        try:
            command = parse(text)
            async with self._locks.hold(caller.channel_id):
                if request is not None:
                    # A repeat that waited for the first run's lock: answer as it did.
                    seen = await self.repo.interaction(request)
                    if seen is not None:
                        return repeated(seen.replies_json)
                with self.repo.command_scope():
                    return await self._run_command(caller, command, expect_version)
        except (CommandError, UserError, RuleError, TableChanged) as refused:
            return refusal(str(refused))
        except ChannelLockTimeout:
            return refusal("This table is busy right now. Please try again in a moment.")

    async def _run_command(
        self, caller: Caller, command: Command, expect_version: int | None
    ) -> list[Reply]:
        if expect_version is not None:
            await self._check_version(caller, expect_version)
        named = f"{command.name} {command.sub}" if command.sub else command.name
        digest = await self.pacing.catch_up(caller) if named in CATCH_UP_ON else []
        handler = self.commands[(command.name, command.sub)]
        replies = await handler(caller, command.options)
        for reply in [*digest, *(replies if named in KEPT else [])]:
            # Worth keeping in the player's private thread (refusals stay where they were).
            reply.keep = reply.ephemeral and not reply.error
        return digest + replies

    async def _check_version(self, caller: Caller, expected: int) -> None:
        campaign = await self.repo.live_in_channel(caller.channel_id)
        if campaign is None or campaign.version != expected:
            raise UserError(
                "That button belongs to an earlier board: the table has moved on since. "
                "/board shows where things stand now."
            )

    async def _rate_limited(self, caller: Caller) -> float:
        if self._user_buckets is None or self._channel_buckets is None:
            return 0.0
        return await taken(self._user_buckets, caller.user_id) or await taken(
            self._channel_buckets, caller.channel_id
        )

    async def autocomplete(self, caller: Caller, text: str) -> list[Suggestion]:
        return await self.suggestions.suggest(caller, text)

    # ------------------------------------------------------------------ for the shells

    async def campaign_version(self, channel_id: str) -> int | None:
        """The live campaign's version in a channel (buttons are stamped with it)."""
        campaign = await self.repo.live_in_channel(channel_id)
        return campaign.version if campaign else None

    async def late_post(self, campaign_id: int, from_seq: int) -> list[Reply]:
        """A step's post its process never wrote (see `bot.table.lateposts`)."""
        return await self.late.compose(campaign_id, from_seq)

    # ------------------------------------------------------------------ operators

    async def import_campaign(
        self, data: bytes, channel_id: str, guild_id: str | None, accept_unsigned: bool = False
    ) -> str:
        """Recreate an exported campaign (see `Archives.import_campaign`)."""
        return await self.archives.import_campaign(data, channel_id, guild_id, accept_unsigned)

    async def export_channel(self, channel_id: str) -> tuple[Campaign, bytes]:
        """The channel's live (else latest) campaign, exported in full and signed."""
        return await self.archives.export_channel(channel_id)

    async def forget_requests(self, before: datetime) -> int:
        """Drop remembered request ids older than `before` (the scheduler's scan does it)."""
        return await self.repo.forget_interactions(before)

    def set_signing_key(self, key: str | None) -> None:
        """The export-signing key from the settings (None: kept in the database)."""
        self.repo.configured_key = key

    def set_channel_access(self, access: ChannelAccess) -> None:
        """Who may post where: the Discord client answers for its channels."""
        self.parts.access = access

    async def verify(self) -> list[tuple[int, bool, str]]:
        """Replay every campaign's log and compare with its stored snapshot."""
        results = []
        for campaign in await self.repo.all():
            rows = await self.repo.log(id_of(campaign))
            if campaign.state_json is None:
                results.append(
                    (id_of(campaign), not rows or all(r.kind == "end" for r in rows), "not begun")
                )
                continue
            try:
                same = await asyncio.to_thread(reproduces, campaign, rows)
                results.append((id_of(campaign), same, "reproducible" if same else "DIFFERS"))
            except Exception as error:  # verification reports, it does not crash
                results.append((id_of(campaign), False, f"replay failed: {error}"))
        return results


async def taken(buckets: Buckets | SharedBuckets, key: str) -> float:
    """One token from the process's or the database's bucket (0: allowed; else the wait)."""
    if isinstance(buckets, SharedBuckets):
        return await buckets.take(key)
    return buckets.take(key)


ALREADY_DONE = (
    "That command was already carried out (its answer was lost on the way); it was not run "
    "again. /board shows where things stand."
)


def outcome_json(replies: list[Reply]) -> str:
    """What a repeat of the request answers: the replies' text (no pictures, pings, buttons)."""
    return json.dumps(
        [{"content": r.content, "ephemeral": r.ephemeral, "error": r.error} for r in replies]
    )


def repeated(stored: str | None) -> list[Reply]:
    """The first answer again, marked as a repeat; or, when the process that ran it stopped
    before answering, a word that it was done."""
    if stored is None:
        return [Reply(ALREADY_DONE, ephemeral=True, repeat=True)]
    return [
        Reply(r["content"], ephemeral=bool(r["ephemeral"]), error=bool(r["error"]), repeat=True)
        for r in json.loads(stored)
    ] or [Reply("Done.", ephemeral=True, repeat=True)]


def reproduces(campaign: Campaign, rows: list[ActionLog]) -> bool:
    """Whether replaying the log gives the stored state (CPU-bound: run it off the loop)."""
    game = get_game(campaign.game)
    final = replay(campaign, rows).final
    stored = game.load(json.loads(campaign.state_json or "{}"))
    return canonical(game, final) == canonical(game, stored)
