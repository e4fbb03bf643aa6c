"""Tools for the hidden-information tests: what is secret at a moment of a game, and a table
harness that plays through the table service and keeps every public artefact it produced.

A secret is a hidden card's id, its name and its text (while no card of that name has been
revealed), and the campaign seed. A public artefact is anything more than one player can see:
post text, button labels and the commands buttons carry, image alt text, the public view the
images are drawn from, the text board, `/log`, `/campaign status`, mirror copies, digests and
reminders, mentions, the live export and every public invocation line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from bot.disclosure import invocation_is_public, public_texts
from bot.replies import Attachment, Reply
from bot.table import Caller, TableService
from bot.web.server import WebView
from bot.web.server import create_app as create_web_app
from engine.core.dice import SeededDice
from engine.core.events import Event, parse_events
from engine.core.game import Action, Game
from engine.core.view import View
from engine.forlorn.content import cards
from engine.forlorn.reactions import rules_text
from engine.registry import get_game
from engine.reich.content import load_content
from engine.selfplay import choose_action
from renders import alt_text, text_board

GUILD = "guild-1"
CHANNEL = "chan-1"
MIRROR = "spectators"


def who(user: str, channel: str = CHANNEL, admin: bool = False) -> Caller:
    return Caller(f"id-{user}", user, channel, GUILD, is_admin=admin)


async def fast_renderer(view: View, events: list[Event]) -> Attachment:
    """No pixels (the images are drawn from the public view, which is checked itself), but the
    real alt text."""
    return Attachment("board.png", b"", alt_text(view, events))


# ---------------------------------------------------------------------- secrets


@dataclass
class Secrets:
    ids: set[str] = field(default_factory=set)  # matched as whole words, case-sensitive
    names: set[str] = field(default_factory=set)
    texts: set[str] = field(default_factory=set)
    seed: int = 0

    def found_in(self, text: str) -> list[str]:
        # A plain substring test first (fast), the whole-word test only for what it finds.
        found = [f"seed {self.seed}" for _ in [0] if str(self.seed) in text]
        found += [
            f"card id {i}"
            for i in self.ids
            if i in text and re.search(rf"(?<![\w-]){re.escape(i)}\b", text)
        ]
        found += [
            f"card name {n!r}"
            for n in self.names
            if n in text and re.search(rf"\b{re.escape(n)}\b", text)
        ]
        found += [f"card text {t[:30]!r}" for t in self.texts if t in text]
        return found


# The narration names a played card by its name ("Sarge plays Brawl: +2 Successes.").
PLAYED = re.compile(r"(?:plays|supports with|discards) ([A-Z][\w' -]*?)(?=[:(.,]| for|$)")


class SecretTracker:
    """The secrets of a campaign as it goes: a card name (or text) stops being secret once a card
    with that name (or text) has been revealed (played, discarded face up)."""

    def __init__(self, game_key: str, seed: int) -> None:
        self.game_key = game_key
        self.seed = seed
        self.revealed: set[str] = set()
        self.title = ""  # the mission's public title (set by the table once it has begun)

    def learn(self, public_texts: list[str]) -> None:
        """A card the engine's public narration shows being played (or discarded face up) is
        known from then on, even once shuffled back into a deck."""
        if self.game_key != "reichbusters":
            return  # Forlorn's played cards are kept in the state (mutation.played)
        by_name: dict[str, list[Any]] = {}
        for template in load_content().cards.values():
            by_name.setdefault(template.name, []).append(template)
        for text in public_texts:
            for name in PLAYED.findall(text):
                for template in by_name.get(name.strip(), []):
                    self.revealed |= {template.name, template.text}

    def now(self, state: Any) -> Secrets:
        if self.game_key == "forlorn-hope":
            return self._forlorn(state)
        if self.game_key == "reichbusters":
            return self._reich(state)
        return Secrets(seed=self.seed)

    def _forlorn(self, state: Any) -> Secrets:
        catalogue = cards()
        mutation = state.mutation
        self.revealed |= {catalogue[c].title for c in mutation.played}
        self.revealed |= {catalogue[c].text for c in mutation.played}
        # Cards discarded face down for a boost (newer engines) stay hidden too.
        face_down = list(getattr(mutation, "discarded", []))
        hidden = [*mutation.hand, *mutation.draw_pile, *mutation.set_aside, *face_down]
        found = self._of(hidden, {c: (catalogue[c].title, catalogue[c].text) for c in hidden})
        if getattr(state, "reaction_rules", None) is not None:
            # Her standing reaction rules (issue #32) are hers alone, like the hand: their
            # words never reach a public text.
            found.texts |= {"Standing reactions", rules_text(state)}
        return found

    def _reich(self, state: Any) -> Secrets:
        templates = load_content().cards
        hidden: list[str] = []
        for hero in state.heroes.values():
            shown = [*hero.deck.discard_pile, *hero.in_play, *hero.removed]
            for card in shown:
                template = templates[card.rsplit("-", 1)[0]]
                self.revealed |= {template.name, template.text}
            hidden += [*hero.hand, *hero.deck.draw_pile]
        known = {}
        for card in hidden:
            template = templates[card.rsplit("-", 1)[0]]
            known[card] = (template.name, template.text)
        return self._of(hidden, known)

    def _of(self, hidden: list[str], known: dict[str, tuple[str, str]]) -> Secrets:
        hidden = [card for card in hidden if card not in self.revealed]
        known = {card: known[card] for card in hidden}
        names = {name for name, _ in known.values()} - self.revealed
        # A secret that is part of a revealed card's wording shows up with that card: no leak.
        names = {n for n in names if not any(n in shown for shown in self.revealed)}
        # A card named like a word of the mission's title ("Breach", "Hive Breach") is no leak.
        names = {name for name in names if not re.search(rf"\b{re.escape(name)}\b", self.title)}
        texts = {text for _, text in known.values()} - self.revealed
        texts = {t for t in texts if not any(t in shown for shown in self.revealed)}
        return Secrets(ids=set(hidden), names=names, texts=texts, seed=self.seed)


# ---------------------------------------------------------------------- the table


def around(text: str, leak: str) -> str:
    """The part of a text where a leak was found (its last word is what leaked)."""
    word = leak.rsplit(" ", 1)[-1].strip("'")
    at = max(0, text.find(word))
    return text[max(0, at - 120) : at + 80]


@dataclass
class Artefact:
    where: str
    text: str


def reply_artefacts(command: str, replies: Iterable[Reply]) -> list[Artefact]:
    """What the channel (and its mirrors) sees of one command's replies."""
    public = [r for r in replies if not r.ephemeral]
    found: list[Artefact] = []
    if public and invocation_is_public(command):
        found.append(Artefact("invocation", command))
    for reply in public:
        found.append(Artefact("post", reply.content))
        found += [Artefact("button label", b.label) for b in reply.buttons]
        found += [Artefact("button command", b.command) for b in reply.buttons]
        found += [Artefact("alt text", image.description) for image in reply.images]
        found += [Artefact("mention", m) for m in reply.mentions]
        if reply.mirror_to:
            found.append(Artefact("mirror copy", reply.content))
    return found


class Table:
    """A campaign played through the table service, every public artefact checked as made."""

    def __init__(self, service: TableService, game_key: str, seed: int) -> None:
        self.service = service
        self.game: Game[Any] = get_game(game_key)
        self.tracker = SecretTracker(game_key, seed)
        self.leaks: list[str] = []
        self.checked = 0
        self.private_seen: list[str] = []  # what the acting players saw in private
        self.learned = 0  # the last log row whose public events the tracker has read
        self._state: tuple[int, Any] | None = None  # (campaign version, state) last loaded
        # The secrets of each moment checked, by the campaign's last step then: the web view's
        # page of step n is held to the secrets of the first moment at or after n.
        self.moments: dict[int, Secrets] = {}

    async def state(self) -> Any:
        campaign = await self.service.repo.latest_in_channel(CHANNEL)
        assert campaign is not None
        if self._state is None or self._state[0] != campaign.version:
            self._state = (
                campaign.version,
                self.game.load(json.loads(campaign.state_json or "{}")),
            )
        return self._state[1]

    async def say(self, user: str, command: str, admin: bool = False) -> list[Reply]:
        replies = await self.service.handle(who(user, admin=admin), command)
        self.private_seen += [r.content for r in replies if r.ephemeral]
        await self.check(reply_artefacts(command, replies))
        return replies

    async def look(self, user: str, command: str) -> list[Reply]:
        """A command whose answer anyone may ask for (`/log`, `/board`): public by nature."""
        replies = await self.service.handle(who(user), command)
        found = [Artefact(command, r.content) for r in replies]
        found += [Artefact(f"{command} alt text", i.description) for r in replies for i in r.images]
        await self.check(found)
        return replies

    async def check(self, found: list[Artefact]) -> None:
        campaign = await self.service.repo.latest_in_channel(CHANNEL)
        if campaign is not None:
            rows = await self.service.repo.log(campaign.id or 0, after_seq=self.learned)
            for row in rows:
                self.tracker.learn(public_texts(parse_events(json.loads(row.events_json))))
                self.learned = row.seq
        if campaign is None or not campaign.state_json:
            secrets = Secrets(seed=self.tracker.seed)
        else:
            state = await self.state()
            view = self.game.view(state, None)
            self.tracker.title = view.title
            secrets = self.tracker.now(state)
            self.moments.setdefault(campaign.step, secrets)
            found = [
                *found,
                Artefact("public view", view.model_dump_json()),
                Artefact("text board", text_board(view)),
            ]
        for artefact in found:
            self.checked += 1
            for leak in secrets.found_in(artefact.text):
                self.leaks.append(f"{artefact.where}: {leak} in {around(artefact.text, leak)!r}")

    def secrets_at(self, step: int) -> Secrets:
        """The secrets of the first moment checked at or after `step`."""
        later = [n for n in self.moments if n >= step]
        return self.moments[min(later)] if later else Secrets(seed=self.tracker.seed)

    def hold(self, secrets: Secrets, found: list[Artefact]) -> None:
        for artefact in found:
            self.checked += 1
            for leak in secrets.found_in(artefact.text):
                self.leaks.append(f"{artefact.where}: {leak} in {around(artefact.text, leak)!r}")


async def check_web(table: Table, images: int = 3) -> int:
    """Every page and JSON of the campaign's web view (issue #34), each step's page held to the
    secrets of its own moment, so a step never shows what a later one reveals; a few step
    images are fetched too (they are drawn from the public view checked here). Returns the
    number of steps checked."""
    service = table.service
    campaign = await service.repo.latest_in_channel(CHANNEL)
    assert campaign is not None and campaign.id is not None
    service.web.set_base("http://web.test")
    view = WebView(service, limit=None)
    token = await service.web.links.token(campaign.id)
    async with TestClient(TestServer(create_web_app(view))) as client:
        listed = await client.get(f"/t/{token}/steps.json")
        assert listed.status == 200
        steps = await listed.json()
        table.hold(
            table.tracker.now(await table.state()), [Artefact("steps.json", json.dumps(steps))]
        )
        timeline = await view.timeline(campaign)
        for step in steps:
            n = step["n"]
            page = await client.get(f"/t/{token}", params={"step": str(n)})
            assert page.status == 200, n
            shown = timeline.view_at(n)
            found = [
                Artefact(f"web page of step {n}", await page.text()),
                Artefact(f"steps.json entry {n}", json.dumps(step)),
            ]
            if shown is not None:
                found.append(Artefact(f"web view of step {n}", shown.model_dump_json()))
            table.hold(table.secrets_at(n), found)
        for step in steps[:: max(1, len(steps) // images)][:images]:
            image = await client.get(f"/t/{token}/steps/{step['n']}.png")
            assert image.status == 200 and (await image.read()).startswith(b"\x89PNG")
    return len(steps)


class Chooser:
    """Seeded self-play: a uniform pick among the legal actions of the seat the game waits on,
    ending the turn more and more often the longer that seat has acted."""

    def __init__(self, seed: int) -> None:
        self.policy = SeededDice(seed)
        self.patience = 0

    def next(self, game: Game[Any], state: Any) -> tuple[str, Action] | None:
        prompt = game.waiting_on(state)
        if prompt.finished:
            return None
        seat = prompt.seats[0]
        action = choose_action(game.legal_actions(state, seat), self.policy, self.patience)
        self.patience = 0 if action.verb == "end-turn" else self.patience + 1
        return seat, action


async def self_play(
    table: Table,
    players: dict[str, str],
    policy_seed: int,
    max_steps: int,
    spectator: str = "eve",
    look_every: int = 25,
) -> int:
    """Play until the mission ends (or `max_steps`): each seat's player picks among its legal
    actions; a question to a seat holding secrets is answered through its private panel."""
    chooser = Chooser(policy_seed)
    steps = 0
    for steps in range(1, max_steps + 1):
        chosen = chooser.next(table.game, await table.state())
        if chosen is None:
            break
        seat, action = chosen
        command = action.command()
        if action.verb == "choose" and chooser.policy.randrange(2):
            # Through the panel, as a player pressing "Answer in private" would.
            panel = await table.say(players[seat], "/hand")
            offered = {b.command for r in panel for b in r.buttons}
            if command in offered:
                command = next(b.command for r in panel for b in r.buttons if b.command == command)
        replies = await table.say(players[seat], command)
        assert not any(r.error for r in replies), (command, [r.content for r in replies])
        if steps % look_every == 0:
            await table.look(spectator, "/log last:50")
            await table.look(spectator, "/board view:text")
            await table.look(spectator, "/campaign status")
    return steps
