"""Drive the real Sortie bot (discord.py) against the fake Discord, as players would."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

from choosers import Chooser
from fake_discord import FakeDiscord, FakeMessage, FakeUser, InteractionRecord

from bot.clock import Clock
from bot.config import Settings
from bot.discord.adapter import DONE_EVENT
from bot.discord.client import SortieBot
from bot.storage.db import Database
from bot.table import Pictures, Renderer, TableService, default_renderer
from engine.core.game import Action, Game

STEP_TIMEOUT = 10.0  # seconds any single interaction may take end to end in a test


class Harness:
    def __init__(
        self,
        fake: FakeDiscord,
        db: Database,
        state_dir: Path,
        renderer: Renderer = default_renderer,
        dev_guild: bool = False,
        shard_ids: list[int] | None = None,
        clock: Clock | None = None,
        pictures: Pictures | None = None,
        first_seed: int = 4242,
    ) -> None:
        self.fake = fake
        self.first_seed = first_seed  # the seed of the first campaign created, then the next
        self.pictures = pictures
        self.db = db
        self.state_dir = state_dir
        self.renderer = renderer
        self.dev_guild = dev_guild
        self.shard_ids = shard_ids
        self.clock = clock
        self.bot: SortieBot | None = None
        self.service: TableService | None = None
        self._task: asyncio.Task[None] | None = None
        self.starts = 0
        # Channel messages the bot posted or edited while answering each interaction: a step's
        # outcome is its turn post, the bot's own message (new, or edited in place).
        self.touched: dict[int, list[int]] = {}

    async def start(self) -> None:
        seeds = iter(range(self.first_seed, self.first_seed + 758))
        # No rate limits: the tests drive whole missions as fast as the bot answers.
        self.service = TableService(
            self.db,
            renderer=self.renderer,
            new_seed=lambda: next(seeds),
            clock=self.clock,
            limits=None,
            pictures=self.pictures,
        )
        settings = Settings(
            _env_file=None,
            discord_token=self.fake.token,
            dev_guild_id=self.fake.guild_id if self.dev_guild else None,
            shard_count=1 if self.shard_ids is not None else None,
            shard_ids=self.shard_ids,
        )
        bot = SortieBot(
            self.service, settings, self.state_dir, scan_every=None, guild_ready_timeout=0.05
        )
        self.bot = bot
        self._task = asyncio.create_task(bot.start(self.fake.token))
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait(
            {ready, self._task}, timeout=STEP_TIMEOUT, return_when=asyncio.FIRST_COMPLETED
        )
        if ready not in done:
            ready.cancel()
            if self._task in done:
                self._task.result()  # raises the start-up error
            raise TimeoutError("the bot did not become ready against the fake")
        self.starts += 1

    async def stop(self) -> None:
        if self.bot is not None:
            await asyncio.wait_for(self.bot.close(), STEP_TIMEOUT)
        if self._task is not None:
            await asyncio.wait_for(self._task, STEP_TIMEOUT)
        self.bot, self._task = None, None

    async def restart(self) -> None:
        """A new process in all but name: new client, new service, the same database."""
        await self.stop()
        await self.start()

    # ------------------------------------------------------------------ acting as players

    async def _run(self, record: InteractionRecord) -> InteractionRecord:
        assert self.bot is not None, "the bot is not running"
        waiter = asyncio.ensure_future(
            self.bot.wait_for(DONE_EVENT, check=lambda i: i.id == record.id, timeout=STEP_TIMEOUT)
        )
        before = {m.id: m.edits for m in self.fake.messages.values() if m.interaction_id is None}
        await self.fake.send_interaction(record)
        await waiter
        self.touched[record.id] = [
            m.id
            for m in self.fake.messages.values()
            if m.interaction_id is None
            and m.channel_id == record.channel_id
            and not m.deleted
            and before.get(m.id) != m.edits
        ]
        return record

    async def slash(
        self, user: FakeUser, channel: int, command: str, /, **options: Any
    ) -> InteractionRecord:
        data = self.fake.command_data(command, options)
        return await self._run(self.fake.interaction_payload(2, user, channel, data))

    async def press(self, user: FakeUser, message: FakeMessage, label: str) -> InteractionRecord:
        if not message.visible_to(user.id):
            raise LookupError(f"{user.name} cannot see message {message.id}")
        button = message.button(label)
        data = {"custom_id": button["custom_id"], "component_type": 2}
        record = self.fake.interaction_payload(3, user, message.channel_id, data, message)
        return await self._run(record)

    async def select(
        self, user: FakeUser, message: FakeMessage, menu: int, value: str
    ) -> InteractionRecord:
        """Choose the option `value` of the message's `menu`-th select menu."""
        if not message.visible_to(user.id):
            raise LookupError(f"{user.name} cannot see message {message.id}")
        select = message.menus()[menu]
        if value not in [o["value"] for o in select["options"]]:
            raise LookupError(f"no option {value!r} in {select['custom_id']}")
        data = {"custom_id": select["custom_id"], "component_type": 3, "values": [value]}
        record = self.fake.interaction_payload(3, user, message.channel_id, data, message)
        return await self._run(record)

    async def choices(
        self, user: FakeUser, channel: int, command: str, focused: str, **options: Any
    ) -> list[str]:
        record = await self.fake.autocomplete(user, channel, command, focused, **options)
        await asyncio.wait_for(record.acked.wait(), STEP_TIMEOUT)
        return [str(c["value"]) for c in record.choices]

    # ------------------------------------------------------------------ whole missions

    async def seat(
        self,
        channel: int,
        game_key: str,
        scenario: str,
        users: list[FakeUser],
        roles: list[str] | None = None,
        **create: Any,
    ) -> dict[str, FakeUser]:
        """Create the campaign (by the first user) and seat the users in `roles`, or else in the
        roles the join command offers, in order; the seat of each role. `/campaign begin` is
        the test's."""
        first = users[0]
        await self.slash(
            first, channel, "campaign create", game=game_key, scenario=scenario, **create
        )
        if roles is None:
            roles = await self.choices(first, channel, "campaign join", "role", role="")
        seat_of: dict[str, FakeUser] = {}
        for user, role in zip(users, roles, strict=False):
            await self.slash(user, channel, "campaign join", role=role)
            seat_of[role] = user
        return seat_of

    async def state(self, channel: int, game: Game[Any]) -> Any:
        """The channel's game state as stored."""
        assert self.service is not None
        campaign = await self.service.repo.latest_in_channel(str(channel))
        assert campaign is not None and campaign.state_json
        return game.load(json.loads(campaign.state_json))

    async def play(
        self,
        channel: int,
        game: Game[Any],
        seat_of: Mapping[str, FakeUser],
        choose: Chooser,
        max_steps: int,
        *,
        after: Callable[[InteractionRecord, FakeUser, Action], Awaitable[None]] | None = None,
        must_end: bool = True,
        ack_within: float | None = 3.0,
    ) -> Any:
        """Each awaited seat's choice as a slash command from its player until the mission is
        over; every step acknowledged within `ack_within` seconds (Discord's 3 s) and nowhere
        answered "Something went wrong". `after` sees every step. The last state; after
        `max_steps` steps an AssertionError (or, with `must_end=False`, the state reached)."""
        for _ in range(max_steps):
            state = await self.state(channel, game)
            prompt = game.waiting_on(state)
            if prompt.finished:
                return state
            seat = prompt.seats[0]
            action = choose(state, seat, game.legal_actions(state, seat))
            user = seat_of[seat]
            record = await self.slash(user, channel, action.verb, **action.args)
            if ack_within is not None:
                assert record.ack_delay is not None and record.ack_delay < ack_within
            failed = [
                m.content for m in self.messages_of(record) if "Something went wrong" in m.content
            ]
            assert not failed, (action.command(), failed)
            if after is not None:
                await after(record, user, action)
        if must_end:
            raise AssertionError(f"{game.key} did not finish through Discord in {max_steps} steps")
        return await self.state(channel, game)

    # ------------------------------------------------------------------ reading results

    def messages_of(self, record: InteractionRecord) -> list[FakeMessage]:
        """The interaction's own messages, then the channel posts it made or edited."""
        posts = [self.fake.messages[i] for i in self.touched.get(record.id, [])]
        return self.fake.messages_of(record) + [m for m in posts if not m.deleted]

    def said(self, record: InteractionRecord, viewer: FakeUser | None = None) -> str:
        """Everything the interaction posted that `viewer` can see (None: the public)."""
        return "\n".join(
            m.content
            for m in self.messages_of(record)
            if not m.ephemeral or (viewer is not None and m.owner_id == viewer.id)
        )

    def public(self, record: InteractionRecord) -> list[FakeMessage]:
        return [m for m in self.messages_of(record) if not m.ephemeral]

    def private(self, record: InteractionRecord) -> list[FakeMessage]:
        return [m for m in self.messages_of(record) if m.ephemeral]

    def prompt(self, record: InteractionRecord) -> FakeMessage:
        """The message of this interaction that carries the turn buttons."""
        with_buttons = [m for m in self.messages_of(record) if m.buttons()]
        assert with_buttons, f"no buttons in {[m.content for m in self.messages_of(record)]}"
        return with_buttons[-1]
