"""Hidden information through the Discord surface, against the strict fake (issue #14).

One game of each rule system with hidden cards is played for a few dozen steps as players
would on Discord: typed slash commands, and a question to a seat holding secrets answered
through the public "Answer in private" button and its ephemeral panel. Everything a
spectator's client receives is checked as it arrives: message text, button labels and the
custom ids buttons carry, attachment descriptions, embeds, the spectators' mirror channel and
every invocation line ("used /choose ...") of a command whose answer was public.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from discord_harness import Harness
from fake_discord import FakeDiscord, FakeMessage, FakeUser, InteractionRecord
from hidden_info import Chooser, SecretTracker, fast_renderer

from bot.disclosure import public_texts
from bot.storage.db import Database
from engine.core.events import parse_events
from engine.registry import get_game

STEPS = 40
GAMES = [
    ("forlorn-hope", "op-01", {"marines": "ann", "xeno": "bob"}, "xeno:human"),
    ("reichbusters", "radio-silence", {"sarge": "ann", "hans": "bob"}, None),
    ("galaxy-defenders", "m1", {"marine": "ann", "sniper": "bob"}, None),
]


@pytest.fixture
async def quick(fake: FakeDiscord, sqlite: Database, tmp_path: Path) -> AsyncIterator[Harness]:
    """The bot against the fake, drawing no pixels (alt text and the public view are real)."""
    h = Harness(fake, sqlite, tmp_path / "state", renderer=fast_renderer)
    await h.start()
    yield h
    await h.stop()
    assert [str(v) for v in fake.violations] == []


def values(options: list[dict[str, Any]]) -> list[str]:
    """Every option value of an interaction, subcommands included."""
    found = []
    for option in options:
        if "value" in option:
            found.append(f"{option['name']}:{option['value']}")
        found += values(option.get("options") or [])
    return found


def invocation(record: InteractionRecord) -> str:
    data = record.payload.get("data") or {}
    return " ".join([f"/{data.get('name', '')}", *values(data.get("options") or [])])


def seen_by_everyone(message: FakeMessage) -> list[str]:
    """What every client in the channel receives of a public message."""
    found = [message.content]
    for button in message.buttons():
        found += [str(button.get("label") or ""), str(button.get("custom_id") or "")]
    found += [a.description or "" for a in message.attachments]
    found += [json.dumps(embed) for embed in message.embeds]
    return found


class Spectator:
    """Reads the channel and its mirror as a member without a seat, checking each new thing."""

    def __init__(self, h: Harness, game_key: str, channels: list[int]) -> None:
        self.h = h
        self.game = get_game(game_key)
        self.channels = channels
        self.seen: set[int] = set()
        self.invocations: set[int] = set()
        self.leaks: list[str] = []
        self.checked = 0
        self.learned = 0
        self.tracker: SecretTracker | None = None

    async def check(self) -> None:
        assert self.h.service is not None
        repo = self.h.service.repo
        campaign = await repo.latest_in_channel(str(self.channels[0]))
        if campaign is None or not campaign.state_json:
            return
        if self.tracker is None:
            self.tracker = SecretTracker(self.game.key, campaign.seed)
        for row in await repo.log(campaign.id or 0, after_seq=self.learned):
            self.tracker.learn(public_texts(parse_events(json.loads(row.events_json))))
            self.learned = row.seq
        state = self.game.load(json.loads(campaign.state_json))
        self.tracker.title = self.game.view(state, None).title
        secrets = self.tracker.now(state)
        texts: list[tuple[str, str]] = []
        fake = self.h.fake
        for channel in self.channels:
            for message in fake.feed(channel):  # what everyone sees
                if message.id not in self.seen:
                    self.seen.add(message.id)
                    texts += [("message", t) for t in seen_by_everyone(message)]
        for record in fake.interactions.values():
            if record.type != 2 or record.id in self.invocations:
                continue
            shown = [fake.messages[i] for i in record.message_ids]
            # A public answer (even one deleted later) showed the command to the channel.
            if any(not m.ephemeral for m in shown):
                self.invocations.add(record.id)
                texts.append(("invocation", invocation(record)))
        for where, text in texts:
            self.checked += 1
            self.leaks += [f"{where}: {leak} in {text[:160]!r}" for leak in secrets.found_in(text)]


async def answer_privately(h: Harness, user: FakeUser, channel: int, command: str) -> bool:
    """Press "Answer in private" under the latest public post, then the panel's answer."""
    posts = [m for m in h.fake.feed(channel) if m.buttons()]
    labels = [str(b.get("label", "")) for b in posts[-1].buttons()] if posts else []
    label = next((x for x in labels if x.startswith("Answer in private")), None)
    if label is None:
        return False
    record = await h.press(user, posts[-1], label)
    panels = [m for m in h.private(record) if m.buttons()]
    assert panels, h.said(record, user)
    for button in panels[-1].buttons():
        if str(button.get("custom_id", "")).endswith(command.removeprefix("/").replace(" ", "~")):
            await h.press(user, panels[-1], str(button["label"]))
            return True
    return False


@pytest.mark.parametrize(("game_key", "scenario", "seats", "options"), GAMES)
async def test_a_spectator_on_discord_sees_no_secret(
    quick: Harness,
    game_key: str,
    scenario: str,
    seats: dict[str, str],
    options: str | None,
) -> None:
    h, fake = quick, quick.fake
    table, lounge = fake.channel("table"), fake.channel("lounge")
    users = {role: fake.member(name) for role, name in seats.items()}
    owner = next(iter(users.values()))
    spectator = Spectator(h, game_key, [table, lounge])
    async with asyncio.timeout(240):
        create = {"game": game_key, "scenario": scenario, "options": options}
        await h.slash(owner, table, "campaign create", **create)
        for role, user in users.items():
            await h.slash(user, table, "campaign join", role=role)
        await h.slash(owner, table, "campaign mirror", channel=lounge)
        await h.slash(owner, table, "campaign begin")
        await spectator.check()
        game = get_game(game_key)
        chooser, privately = Chooser(13), 0
        assert h.service is not None
        for _ in range(STEPS):
            campaign = await h.service.repo.latest_in_channel(str(table))
            assert campaign is not None and campaign.state_json
            chosen = chooser.next(game, game.load(json.loads(campaign.state_json)))
            if chosen is None:
                break
            seat, action = chosen
            user = users[seat]
            if action.verb == "choose" and await answer_privately(h, user, table, action.command()):
                privately += 1
            else:
                await h.slash(user, table, action.verb, **action.args)
            await spectator.check()
        await h.slash(users[next(iter(users))], table, "log", last=50)
        await spectator.check()
    assert spectator.checked > 50
    assert spectator.leaks == [], "\n".join(spectator.leaks[:20])
    if game_key == "forlorn-hope":
        assert privately >= 1  # the Xeno's mulligan, through her private panel


async def test_a_private_command_answers_its_author_when_the_bot_may_not_post(
    quick: Harness,
) -> None:
    """The public post of a `/act` goes to the channel as the bot's own message; without Send
    Messages there, its author still learns the step was made (and nobody sees the command)."""
    from fake_discord import SEND_MESSAGES

    h, fake = quick, quick.fake
    table = fake.channel("table")
    ann, bob = fake.member("ann"), fake.member("bob")
    await h.slash(ann, table, "campaign create", game="dash", scenario="sprint")
    await h.slash(ann, table, "campaign join", role="red")
    await h.slash(bob, table, "campaign join", role="blue")
    await h.slash(ann, table, "campaign begin")
    acted = await h.slash(ann, table, "act", what="peek")
    # Nothing public happened: at most the open turn post is refreshed, never a new post.
    assert all(m.edits for m in h.public(acted)) and "/act" not in h.said(acted)
    assert "peek" not in h.said(acted) and "Done" not in h.said(acted, ann)
    fake.deny_bot(table, SEND_MESSAGES)
    await h.slash(ann, table, "end-turn")  # edits the open turn post: no new message
    ended = await h.slash(bob, table, "end-turn")  # a new round: a new post, refused
    assert "may not post in this channel" in h.said(ended, bob)
    assert all(m.content in [p.content for p in fake.feed(table)] for m in h.public(ended))
