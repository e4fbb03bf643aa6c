"""One set of live controls (issue #32, item 5): when a public post is superseded by a newer
one with buttons, the older one's buttons are taken away by an edit through the outbox (its
text and board stay), so only the latest post offers anything to press."""

from __future__ import annotations

import asyncio

from choosers import Wanderer
from discord_harness import Harness
from fake_discord import FakeMessage, FakeUser

from engine.registry import games
from engine.selfplay import default_seats

TIMEOUT = 240


async def drained(h: Harness) -> None:
    assert h.bot is not None
    for _ in range(100):
        if not await h.bot.deliverer.store.pending():
            return
        await h.bot.deliverer.sweep()
        await asyncio.sleep(0.05)
    raise AssertionError("the outbox did not drain")


def with_controls(h: Harness, channel: int) -> list[FakeMessage]:
    """Every public message of the channel with buttons or menus: the bot's own posts and the
    answers to interactions alike (the campaign-create post's Join buttons among them)."""
    return [m for m in h.fake.feed(channel) if m.buttons() or m.menus()]


async def test_only_the_latest_post_keeps_its_buttons(h: Harness) -> None:
    async with asyncio.timeout(TIMEOUT):
        fake, table = h.fake, h.fake.channel("table")
        game_key, scenario = "galaxy-defenders", "m1"
        game = games()[game_key]
        users = [fake.member("ann"), fake.member("bob")]
        seat_of: dict[str, FakeUser] = {}
        await h.slash(users[0], table, "campaign create", game=game_key, scenario=scenario)
        await drained(h)
        created = with_controls(h, table)  # the create post offers its seats as buttons
        assert len(created) == 1 and created[0].buttons(), [m.content for m in created]
        for user, role in zip(users, default_seats(game, scenario, 2), strict=True):
            await h.slash(user, table, "campaign join", role=role)
            seat_of[role] = user
        await h.slash(users[0], table, "campaign begin")
        posts_with_controls: set[int] = set()

        async def one_set_of_controls(*_: object) -> None:
            await drained(h)
            live = with_controls(h, table)
            assert len(live) <= 1, [(m.id, m.content[:60]) for m in live]
            posts_with_controls.update(m.id for m in live)
            if live:
                # The live one is the channel's latest post that has had controls.
                assert live[0].id == max(posts_with_controls)

        chooser = Wanderer(3, eager=8)
        await h.play(table, game, seat_of, chooser, 60, after=one_set_of_controls, must_end=False)
        superseded = len(posts_with_controls) - len(with_controls(h, table))
        assert superseded >= 3, posts_with_controls
        # The create post, an answer to a command, lost its buttons too.
        assert not fake.messages[created[0].id].buttons()
        # A superseded post keeps its text and board; only its controls are gone.
        old = fake.messages[min(posts_with_controls)]
        assert old.content and not old.deleted and not old.buttons()
