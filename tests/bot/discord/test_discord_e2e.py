"""End to end: the real discord.py client against the fake Discord, Dash played by two users.

Every test runs under the `harness` fixture, which fails the test if the bot broke any rule
the fake enforces (message limits, late or double acknowledgements, private text leaking into a
public message, unknown routes ...).
"""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from typing import Any

import pytest
from discord_harness import Harness
from fake_discord import (
    ATTACH_FILES,
    EMBED_LINKS,
    FakeDiscord,
    FakeMessage,
    FakeUser,
    InteractionRecord,
)

from bot.discord import adapter
from bot.discord.buttons import STALE
from bot.replies import Attachment, Reply
from bot.storage.db import Database
from bot.table import Caller, default_renderer
from engine.core.events import Event

TIMEOUT = 25  # seconds for a whole test


def distance(square: str) -> int:
    """Steps from a square to the goal F6 (runners also move diagonally)."""
    return max(5 - "ABCDEF".index(square[0].upper()), 6 - int(square[1]))


async def set_up(h: Harness, second: bool = True) -> InteractionRecord:
    """ann creates and takes red, bob takes blue, ann begins: returns the begin interaction."""
    fake, table = h.fake, h.fake.channel("table")
    ann, bob = fake.member("ann"), fake.member("bob")
    assert "dash" in await h.choices(ann, table, "campaign create", "game", game="da")
    assert await h.choices(ann, table, "campaign create", "scenario", game="dash", scenario="") == [
        "sprint"
    ]
    created = await h.slash(ann, table, "campaign create", game="dash", scenario="sprint")
    assert "is set up here" in h.said(created)
    assert await h.choices(ann, table, "campaign join", "role", role="") == ["red", "blue"]
    await h.slash(ann, table, "campaign join", role="red")
    if second:
        assert await h.choices(bob, table, "campaign join", "role", role="") == ["blue"]
        await h.slash(bob, table, "campaign join", role="blue")
    begun = await h.slash(ann, table, "campaign begin")
    assert begun.callback_type == 5, "begin renders the board: it is deferred"
    return begun


async def version(h: Harness) -> int:
    assert h.service is not None
    campaign = await h.service.repo.live_in_channel(str(h.fake.channel("table")))
    assert campaign is not None
    return campaign.version


def public_feed(h: Harness) -> list[str]:
    return [m.content for m in h.fake.feed(h.fake.channel("table"))]


async def run_turn(h: Harness, user: FakeUser) -> tuple[InteractionRecord | None, bool]:
    """Up to two moves towards F6 (autocomplete picks), then End turn by button."""
    table = h.fake.channel("table")
    last: InteractionRecord | None = None
    for _ in range(2):
        moves = await h.choices(user, table, "move", "to", to="")
        if not moves:
            break
        assert len(moves) <= 25
        last = await h.slash(user, table, "move", to=min(moves, key=distance))
        assert last.callback_type == 5 and "runs to" in h.said(last), h.said(last, user)
        if "Mission over" in h.said(last):
            return last, True
    if last is None:
        last = await h.slash(user, table, "end-turn")
    else:
        last = await h.press(user, h.prompt(last), "End turn")
    assert f"{'red' if user.name == 'ann' else 'blue'} ends the turn" in h.said(last)
    return last, "Mission over" in h.said(last)


# ---------------------------------------------------------------------- the whole mission


async def test_whole_mission_with_slash_autocomplete_buttons_and_a_restart(h: Harness) -> None:
    async with asyncio.timeout(TIMEOUT):
        fake, table = h.fake, h.fake.channel("table")
        ann, bob = fake.member("ann"), fake.member("bob")
        begun = await set_up(h)
        opening = h.prompt(begun)
        assert opening.attachments and opening.attachments[0].data.startswith(b"\x89PNG")
        assert opening.pinged == {ann.id, bob.id}
        assert {b["label"] for b in opening.buttons()} == {
            "Pick an action · Red runner, Blue runner",
            "End turn · Red runner, Blue runner",
            "Board",
        }  # no Undo: beginning the mission is not an action anyone can take back

        over = False
        rounds = 0
        before_restart: FakeMessage | None = None
        while not over and rounds < 12:
            rounds += 1
            for user in (ann, bob):
                if rounds == 2 and user is bob:
                    # bob moves, the bot restarts, bob ends his turn with the old button.
                    moves = await h.choices(bob, table, "move", "to", to="")
                    moved = await h.slash(bob, table, "move", to=min(moves, key=distance))
                    if "Mission over" in h.said(moved):
                        over = True
                        break
                    before_restart = h.prompt(moved)
                    await h.restart()
                    pressed = await h.press(bob, before_restart, "End turn")
                    assert "blue ends the turn" in h.said(pressed), h.said(pressed, bob)
                    over = "Mission over" in h.said(pressed)
                    continue
                last, over = await run_turn(h, user)
                if over:
                    break
                if last is not None:
                    # Pings only for players named in the post (the service picks which).
                    prompt = h.prompt(last)
                    assert all(f"<@{u}>" in prompt.content for u in prompt.pinged)
        assert over, f"no winner after {rounds} rounds: {public_feed(h)[-3:]}"
        assert before_restart is not None and h.starts == 2, "\n---\n".join(public_feed(h)[-4:])
        final = [m for m in fake.feed(table) if "Mission over" in m.content][-1]
        assert "victory" in final.content and not final.buttons() and not final.pinged
        assert h.service is not None
        assert all(ok for _, ok, _ in await h.service.verify())
        assert fake.sync_calls == [(None, len(fake.commands[None]))], "synced once, not twice"
        delays = [r.ack_delay for r in fake.interactions.values() if r.ack_delay is not None]
        assert delays and max(delays) < 3.0
        assert fake.violations == []


# ---------------------------------------------------------------------- refusals and buttons


async def test_stale_button_is_refused_privately(h: Harness) -> None:
    async with asyncio.timeout(TIMEOUT):
        fake, table = h.fake, h.fake.channel("table")
        ann = fake.member("ann")
        # The turn post is edited in place with fresh buttons: keep the ones it had at first.
        opening = copy.deepcopy(h.prompt(await set_up(h)))
        moves = await h.choices(ann, table, "move", "to", to="")
        await h.slash(ann, table, "move", to=moves[0])
        before, feed = await version(h), public_feed(h)
        pressed = await h.press(ann, opening, "End turn")
        assert all(m.content in feed for m in h.public(pressed)), "nothing new in public"
        assert [m.content for m in h.private(pressed)] == [STALE]
        assert await version(h) == before and public_feed(h) == feed


async def test_user_without_a_seat_is_refused_by_slash_and_by_button(h: Harness) -> None:
    async with asyncio.timeout(TIMEOUT):
        fake, table = h.fake, h.fake.channel("table")
        eve = fake.member("eve")
        opening = h.prompt(await set_up(h))
        before, feed = await version(h), public_feed(h)
        assert await h.choices(eve, table, "move", "to", to="") == []
        moved = await h.slash(eve, table, "move", to="B2")
        assert not h.public(moved), "the public 'thinking' placeholder is removed"
        assert "no seat" in h.said(moved, eve) and "no seat" not in h.said(moved)
        pressed = await h.press(eve, opening, "End turn")
        assert "no seat" in h.said(pressed, eve) and not h.public(pressed)
        assert await version(h) == before and public_feed(h) == feed


async def test_refusals_and_secrets_stay_ephemeral(h: Harness) -> None:
    async with asyncio.timeout(TIMEOUT):
        fake, table = h.fake, h.fake.channel("table")
        ann, bob = fake.member("ann"), fake.member("bob")
        await set_up(h)
        feed = public_feed(h)
        bad = await h.slash(ann, table, "move", to="Z9")
        assert "not a square" in h.said(bad, ann) and not h.public(bad)
        settings = await h.slash(bob, table, "campaign settings", setting="nudge_hours", value="24")
        assert settings.callback_type == 4 and "Only the campaign owner" in h.said(settings, bob)
        assert public_feed(h) == feed
        peek = await h.slash(ann, table, "act", what="peek")
        assert "peeks" not in h.said(peek) and "peeks" in h.said(peek, ann)
        assert "peeks" not in h.said(peek, bob)
        assert [m.owner_id for m in h.private(peek)] == [ann.id]
        status = await h.slash(bob, table, "campaign status")
        assert status.callback_type == 4 and not h.public(status)
        assert all(not m.pinged for m in fake.messages_of(status))


async def test_undo_and_board_buttons(h: Harness) -> None:
    async with asyncio.timeout(TIMEOUT):
        fake, table = h.fake, h.fake.channel("table")
        ann = fake.member("ann")
        await set_up(h)
        moves = await h.choices(ann, table, "move", "to", to="")
        moved = await h.slash(ann, table, "move", to=moves[0])
        # The Undo button names the seat whose action it takes back, and only follows a step
        # that can be taken back.
        undone = await h.press(ann, h.prompt(moved), "Undo · Red runner")
        assert "takes back" in h.said(undone)
        assert h.prompt(undone).id == h.prompt(moved).id, "the undo edits the same turn post"
        assert not any(b["label"].startswith("Undo") for b in h.prompt(undone).buttons())
        board = await h.press(ann, h.prompt(undone), "Board")
        # A look answers privately: the channel is not a wall of boards.
        assert board.callback_type == 5 and not h.public(board)
        assert h.private(board)[0].attachments


async def test_ephemeral_confirmation_button_ends_the_campaign(h: Harness) -> None:
    async with asyncio.timeout(TIMEOUT):
        fake, table = h.fake, h.fake.channel("table")
        ann, bob = fake.member("ann"), fake.member("bob")
        await set_up(h)
        asked = await h.slash(ann, table, "campaign end")
        confirm = h.private(asked)[0]
        assert confirm.owner_id == ann.id and confirm.buttons()
        with pytest.raises(LookupError):
            await h.press(bob, confirm, "End the campaign")  # bob cannot even see it
        ended = await h.press(ann, confirm, "End the campaign")
        assert "ended by" in h.said(ended)
        again = await h.press(ann, confirm, "End the campaign")
        assert h.said(again, ann) == STALE and not h.public(again)


async def test_a_crash_in_a_deferred_step_is_reported_privately(
    h: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async with asyncio.timeout(TIMEOUT):
        fake, table = h.fake, h.fake.channel("table")
        ann = fake.member("ann")
        opening = h.prompt(await set_up(h))

        async def broken(
            caller: Caller, text: str, expect_version: int | None = None, request: str | None = None
        ) -> list[Reply]:
            raise RuntimeError("boom")

        assert h.service is not None
        monkeypatch.setattr(h.service, "handle", broken)
        for record in (
            await h.slash(ann, table, "move", to="B2"),
            await h.press(ann, opening, "Board"),
        ):
            assert record.callback_type == 5 and not h.public(record)
            assert "error id" in h.said(record, ann)
        assert "boom" in caplog.text


# ---------------------------------------------------------------------- limits and timing


async def test_only_the_users_a_reply_names_are_pinged(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with asyncio.timeout(TIMEOUT):
        fake, table = h.fake, h.fake.channel("table")
        ann, bob, eve = fake.member("ann"), fake.member("bob"), fake.member("eve")

        async def handle(
            caller: Caller, text: str, expect_version: int | None = None, request: str | None = None
        ) -> list[Reply]:
            return [
                Reply(f"<@{ann.id}> and <@{bob.id}>, <@{eve.id}> @everyone", mentions=[str(bob.id)])
            ]

        assert h.service is not None
        monkeypatch.setattr(h.service, "handle", handle)
        record = await h.slash(ann, table, "help")
        assert [m.pinged for m in fake.messages_of(record)] == [{bob.id}]
        allowed = (record.callback_data or {}).get("allowed_mentions")
        assert allowed == {"parse": [], "users": [str(bob.id)], "replied_user": False} or (
            allowed is not None and allowed.get("parse") == []
        )


SLOW_RENDER = 3.2  # seconds: longer than Discord waits for an acknowledgement


async def test_a_slow_step_is_deferred_and_acknowledged_in_time(
    fake: FakeDiscord, sqlite: Database, tmp_path: Path
) -> None:
    async def slow(view: Any, events: list[Event]) -> Attachment:
        await asyncio.sleep(SLOW_RENDER)
        return await default_renderer(view, events)

    h = Harness(fake, sqlite, tmp_path / "state", renderer=slow)
    await h.start()
    try:
        async with asyncio.timeout(TIMEOUT):
            begun = await set_up(h)
            assert begun.ack_delay is not None and begun.ack_delay < 1.0
            message = h.prompt(begun)
            assert not message.loading and message.attachments and "begins" in message.content
            delays = [r.ack_delay for r in fake.interactions.values()]
            assert all(d is not None and d < 3.0 for d in delays), delays
    finally:
        await h.stop()
    assert fake.violations == []


async def test_a_command_that_runs_long_is_deferred_on_the_fly(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with asyncio.timeout(TIMEOUT):
        fake, table = h.fake, h.fake.channel("table")
        bob = fake.member("bob")
        await set_up(h)
        assert h.service is not None
        original = h.service.handle

        async def slow_handle(
            caller: Caller, text: str, expect_version: int | None = None, request: str | None = None
        ) -> list[Reply]:
            await asyncio.sleep(0.5)
            return await original(caller, text, expect_version, request)

        monkeypatch.setattr(adapter, "DEFER_AFTER", 0.1)
        monkeypatch.setattr(h.service, "handle", slow_handle)
        status = await h.slash(bob, table, "campaign status")
        assert status.callback_type == 5, "deferred because the answer took too long"
        assert not h.public(status), "the private answer did not fill a public placeholder"
        assert "Waiting on" in h.said(status, bob)


async def test_images_are_downsized_or_dropped_to_fit_the_attachment_limit(h: Harness) -> None:
    async with asyncio.timeout(TIMEOUT):
        fake, table = h.fake, h.fake.channel("table")
        ann = fake.member("ann")
        await set_up(h)
        full = await h.slash(ann, table, "board", share="yes")
        size = h.public(full)[0].attachments[0].size
        fake.attachment_limit = size // 2
        smaller = await h.slash(ann, table, "board", share="yes")
        shrunk = h.public(smaller)[0].attachments
        assert shrunk and shrunk[0].size <= size // 2
        fake.attachment_limit = 100
        dropped = await h.slash(ann, table, "board", share="yes")
        message = h.public(dropped)[0]
        assert not message.attachments and "Not attached: board.png" in message.content
        assert "panel.png" in message.content


async def test_long_text_is_split_to_discord_limits(h: Harness) -> None:
    async with asyncio.timeout(TIMEOUT):
        fake, table = h.fake, h.fake.channel("table")
        ann = fake.member("ann")
        await set_up(h)
        # Fill the log so /log answers with long lines; the fake rejects anything over 2000.
        for _ in range(3):
            await h.slash(ann, table, "act", what="peek")
        logged = await h.slash(ann, table, "log", last=50)
        assert all(len(m.content) <= 2000 for m in fake.messages_of(logged))
        assert "red /act:" in h.said(logged, ann)  # options of /act stay private


async def test_rate_limited_follow_up_is_retried(h: Harness) -> None:
    async with asyncio.timeout(TIMEOUT):
        fake, table = h.fake, h.fake.channel("table")
        ann = fake.member("ann")
        await set_up(h)
        fake.rate_limit_next("/webhooks/")
        board = await h.slash(ann, table, "board", share="yes")
        assert h.public(board) and h.public(board)[0].attachments


async def test_gateway_reconnect_resumes_the_session(h: Harness) -> None:
    async with asyncio.timeout(TIMEOUT):
        fake, table = h.fake, h.fake.channel("table")
        ann = fake.member("ann")
        assert h.bot is not None
        resumed = asyncio.ensure_future(h.bot.wait_for("resumed", timeout=10))
        await fake.request_reconnect()
        await resumed
        assert fake.gateway_connects == ["identify", "resume"]
        assert ("GET", "/api/v10/gateway/bot") in fake.requests  # sharded start-up asks first
        created = await h.slash(ann, table, "campaign create", game="dash", scenario="sprint")
        assert "set up here" in h.said(created)


async def test_dev_guild_sync_and_guild_scoped_commands(
    fake: FakeDiscord, sqlite: Database, tmp_path: Path
) -> None:
    h = Harness(fake, sqlite, tmp_path / "state", dev_guild=True)
    await h.start()
    try:
        async with asyncio.timeout(TIMEOUT):
            assert [scope for scope, _ in fake.sync_calls] == [fake.guild_id]
            ann = fake.member("ann")
            record = await h.slash(ann, fake.channel("table"), "help")
            assert record.payload["data"]["guild_id"] == str(fake.guild_id)
            assert h.said(record, ann)
    finally:
        await h.stop()
    assert fake.violations == []


async def test_two_channels_two_campaigns(h: Harness) -> None:
    async with asyncio.timeout(TIMEOUT):
        fake = h.fake
        ann, bob = fake.member("ann"), fake.member("bob")
        lounge = fake.channel("lounge")
        await set_up(h)
        other = await h.slash(bob, lounge, "campaign create", game="dash", scenario="sprint")
        assert "set up here" in h.said(other)
        listed = await h.slash(ann, lounge, "campaign list")
        text = h.said(listed, ann)
        assert f"<#{fake.channel('table')}>" in text and f"<#{lounge}>" in text
        assert not h.public(listed)
        stored = json.dumps([m.content for m in fake.feed(lounge)])
        assert "Waiting on" not in stored


async def test_configured_shards_use_the_default_gateway(
    fake: FakeDiscord, sqlite: Database, tmp_path: Path
) -> None:
    h = Harness(fake, sqlite, tmp_path / "state", shard_ids=[0])
    await h.start()
    try:
        async with asyncio.timeout(TIMEOUT):
            assert fake.identified_shards == [[0, 1]]
            assert ("GET", "/api/v10/gateway/bot") not in fake.requests
            ann = fake.member("ann")
            record = await h.slash(ann, fake.channel("table"), "help")
            assert h.said(record, ann)
    finally:
        await h.stop()
    assert fake.violations == []


async def test_the_bot_names_the_channel_permissions_it_lacks(h: Harness) -> None:
    async with asyncio.timeout(TIMEOUT):
        fake, lounge = h.fake, h.fake.channel("lounge")
        ann = fake.member("ann")
        fake.deny_bot(lounge, ATTACH_FILES | EMBED_LINKS)
        refused = await h.slash(ann, lounge, "campaign create", game="dash", scenario="sprint")
        text = h.said(refused, ann)
        assert "attach files" in text and "embed links" in text and not h.public(refused)
        assert h.service is not None
        assert await h.service.repo.live_in_channel(str(lounge)) is None


async def test_seat_handover_and_mirror_with_user_and_channel_options(h: Harness) -> None:
    async with asyncio.timeout(TIMEOUT):
        fake = h.fake
        ann, bob, eve = fake.member("ann"), fake.member("bob"), fake.member("eve")
        table, stands = fake.channel("table"), fake.add_channel("stands")
        await set_up(h)
        mirrored = await h.slash(ann, table, "campaign mirror", channel=stands)
        assert f"<#{stands}>" in h.said(mirrored)
        handed = await h.slash(bob, table, "campaign seat", role="blue", to=eve.id)
        assert f"<@{eve.id}>" in h.said(handed)
        moved = await h.slash(ann, table, "end-turn")
        assert "red ends the turn" in h.said(moved)
        copies = fake.feed(stands)
        assert copies and any("red ends the turn" in m.content for m in copies)
        assert all(not m.pinged for m in copies)
        refused = await h.slash(bob, table, "end-turn")
        assert "no seat" in h.said(refused, bob)


async def test_create_can_open_a_thread_for_the_campaign(h: Harness) -> None:
    async with asyncio.timeout(TIMEOUT):
        fake = h.fake
        ann, bob = fake.member("ann"), fake.member("bob")
        table = fake.channel("table")
        opened = await h.slash(
            ann, table, "campaign create", game="dash", scenario="sprint", thread=True
        )
        assert "Campaign thread opened" in h.said(opened, ann) and not h.public(opened)
        (thread,) = list(fake.threads)
        assert fake.threads[thread] == table
        assert any("set up here" in m.content for m in fake.feed(thread))
        joined = await h.slash(bob, thread, "campaign join", role="blue")
        assert "takes the seat" in h.said(joined)
        assert h.service is not None
        assert await h.service.repo.live_in_channel(str(thread)) is not None
        assert await h.service.repo.live_in_channel(str(table)) is None  # the channel stays free
        bad = await h.slash(ann, table, "campaign create", game="chess", scenario="x", thread=True)
        assert "Unknown game" in h.said(bad, ann)
        assert list(fake.threads) == [thread]  # the failed attempt's thread was removed


async def test_hand_sheet_and_text_board_stay_where_they_belong(h: Harness) -> None:
    async with asyncio.timeout(TIMEOUT):
        fake, table = h.fake, h.fake.channel("table")
        ann, bob, eve = fake.member("ann"), fake.member("bob"), fake.member("eve")
        await set_up(h)
        await h.slash(ann, table, "act", what="peek")
        hand = await h.slash(ann, table, "hand")
        assert "secret" in h.said(hand, ann) and not h.public(hand)
        assert "secret" not in h.said(await h.slash(bob, table, "hand"), bob)
        spectator = await h.slash(eve, table, "board", view="text")
        assert not h.public(spectator) and "```" in h.said(spectator, eve)
        shared = await h.slash(eve, table, "board", view="text", share="yes")
        assert h.public(shared) and "```" in h.said(shared)
        sheet = await h.slash(eve, table, "sheet", unit="drone", **{"for": "me"})
        assert not h.public(sheet) and fake.messages_of(sheet)[0].attachments
        assert all("secret" not in m.content for m in fake.feed(table))
