"""A private thread per player (issue #32, item 12), through the fake Discord: where the bot may
create private threads in the campaign channel, a player's hand and the action picker's panels
go to their own private thread (the player added by the bot), which only they and the bot see;
without Create Private Threads they stay ephemeral replies, as before."""

from __future__ import annotations

import asyncio

from discord_harness import Harness
from fake_discord import CREATE_PRIVATE_THREADS, SEND_MESSAGES_IN_THREADS, FakeUser

TIMEOUT = 120


async def seated(h: Harness) -> tuple[int, FakeUser, FakeUser]:
    """Reichbusters radio-silence, Ann as Sarge and Bob as Hans, begun, on a server that lets
    the bot create private threads (Discord's default for @everyone; the fake's other tests
    play without it, with ephemeral panels)."""
    fake, table = h.fake, h.fake.channel("table")
    fake.grant(CREATE_PRIVATE_THREADS)
    ann, bob = fake.member("ann"), fake.member("bob")
    await h.slash(ann, table, "campaign create", game="reichbusters", scenario="radio-silence")
    await h.slash(ann, table, "campaign join", role="sarge")
    await h.slash(bob, table, "campaign join", role="hans")
    await h.slash(ann, table, "campaign begin")
    return table, ann, bob


async def test_the_hand_and_the_picker_go_to_the_players_private_thread(h: Harness) -> None:
    async with asyncio.timeout(TIMEOUT):
        fake = h.fake
        table, ann, bob = await seated(h)
        record = await h.slash(ann, table, "hand")
        threads = [t for t, parent in fake.threads.items() if parent == table]
        assert len(threads) == 1, threads
        thread = threads[0]
        assert fake.private_threads[thread] == {fake.bot_user.id, ann.id}  # Ann added by the bot
        assert fake.channel_payload(thread)["type"] == 12
        kept = fake.feed(thread, ann)
        assert kept and "Cards in hand" not in kept[0].content  # her hand itself, not a panel
        assert not kept[0].ephemeral  # a message that outlives an app restart
        # Only Ann (and the bot) can read it; the channel shows nothing of it.
        assert fake.feed(thread, bob) == [] and fake.feed(thread) == []
        assert all(kept[0].content not in m.content for m in fake.feed(table))
        # Her interaction's answer points to it, privately.
        pointer = h.private(record)
        assert len(pointer) == 1 and f"<#{thread}>" in pointer[0].content, pointer
        # The picker's panel goes there too, in the same thread; a choice made in it acts on
        # the campaign channel's table.
        await h.slash(ann, table, "pick")
        assert [t for t, parent in fake.threads.items() if parent == table] == [thread]
        panel = next(m for m in reversed(fake.feed(thread, ann)) if m.menus() or m.buttons())
        before = await h.service.campaign_version(str(table)) if h.service else None
        if panel.menus():
            option = panel.menus()[0]["options"][0]["value"]
            chosen = await h.select(ann, panel, 0, option)
        else:
            chosen = await h.press(ann, panel, panel.buttons()[0]["label"])
        said = h.said(chosen, ann)
        assert "another channel" not in said and "moved on" not in said, said
        after = await h.service.campaign_version(str(table)) if h.service else None
        assert before is not None and after is not None
        # Bob's hand opens his own thread, not Ann's.
        await h.slash(bob, table, "hand")
        mine = {t for t, parent in fake.threads.items() if parent == table}
        assert len(mine) == 2 and thread in mine
        bobs = (mine - {thread}).pop()
        assert fake.private_threads[bobs] == {fake.bot_user.id, bob.id}
        assert fake.feed(bobs, ann) == []


async def test_without_the_permission_the_hand_stays_ephemeral(h: Harness) -> None:
    async with asyncio.timeout(TIMEOUT):
        fake = h.fake
        table, ann, _ = await seated(h)
        for missing in (CREATE_PRIVATE_THREADS, SEND_MESSAGES_IN_THREADS):
            fake.deny_bot(table, missing)
            record = await h.slash(ann, table, "hand")
            assert not fake.threads, fake.threads
            answer = h.private(record)
            assert answer and "private thread" not in answer[0].content
            assert all(m.ephemeral for m in h.messages_of(record) if m.owner_id == ann.id)


async def test_a_command_typed_in_the_private_thread_acts_on_the_campaign_channel(
    h: Harness,
) -> None:
    """Not only the thread's buttons: a slash command typed in the player's private thread
    finds the campaign of the channel the thread belongs to, and answers there in private
    (the thread and the interaction stay hers; a step still posts in the campaign channel)."""
    async with asyncio.timeout(TIMEOUT):
        fake = h.fake
        table, ann, bob = await seated(h)
        await h.slash(ann, table, "hand")
        (thread,) = [t for t, parent in fake.threads.items() if parent == table]
        looked = await h.slash(ann, thread, "log")
        said = h.said(looked, ann)
        assert "no campaign" not in said.lower() and "the mission begins" in said, said
        assert all(m.ephemeral for m in h.messages_of(looked) if m.channel_id == thread)
        assert fake.feed(thread, bob) == []
        before = await h.service.campaign_version(str(table)) if h.service else None
        shown = {m.id: m.edits for m in fake.feed(table)}
        ended = await h.slash(ann, thread, "end-turn")
        assert "no campaign" not in h.said(ended, ann).lower(), h.said(ended, ann)
        after = await h.service.campaign_version(str(table)) if h.service else None
        assert before is not None and after is not None and after > before
        # The step's turn post is the campaign channel's, posted or edited there.
        assert any(shown.get(m.id) != m.edits for m in fake.feed(table))
        # A private thread of the channel that the bot did not open for her is no way in.
        notes = fake.add_channel("ann's notes")
        fake.threads[notes], fake.private_threads[notes] = table, {ann.id}
        assert "no campaign" in h.said(await h.slash(ann, notes, "log"), ann).lower()
