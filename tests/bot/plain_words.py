"""The plain-words scan (issue #32): whole missions played through the playground's API, every
text a person can read kept, and each searched for engine keys and command syntax.

The keys searched for are not a hand-made list: they are every identifier the game's own state
holds while the mission runs (card, unit, figure, seat, content and option ids: any string of
the stored state shaped like an identifier), gathered step by step, plus the seat and figure ids
of the public view. A text a person reads may name a figure by the label drawn on the board
("x1", "D4"), never by a key.

What a person reads: every reply's text (public posts, their edits and private answers), button
labels, select placeholders, option labels and descriptions, image alt text, the lines the
pictures draw (header, panels, summary), `/log`, `/campaign status`, `/hand`, `/board view:text`,
`/sheet`, and the web view's step headlines. Commands and custom ids are not read by people and
are not scanned.
"""

from __future__ import annotations

import json
import random
import re
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from aiohttp.test_utils import TestClient
from offered import NoPictures

from bot.replies import Attachment
from bot.table import TableService
from engine.core.dice import SeededDice, derive_seed
from engine.core.events import Event
from engine.core.game import Game, scenario_info
from engine.core.view import View
from engine.registry import get_game
from engine.selfplay import advisor_for, choose_action, default_seats
from renders import alt_text, text_board

CHANNEL = "ops"
MAX_STEPS = 1500
MAX_PICKS = 8
MAX_NARRATED_STEPS = 5000

# An identifier: words joined by '-' or '_', or letters followed by digits ("soldier20", "r01").
SHAPED = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+|[a-z]+[0-9][a-z0-9]*")
# Typed command syntax: a slash command with an option, or any `key:value` / `key=value`.
COMMAND = re.compile(r"(?<![\w/])/[a-z][a-z-]*(?= [a-z_-]+:)|/choose option:")
OPTION = re.compile(r"(?<![\w:/@])[a-z][a-z_-]+[:=](?:[a-z0-9<+-][\w<>|+-]*)")


class AltPictures(NoPictures):
    """No pixels, but the real alt text (people who use a screen reader read it)."""

    async def step(
        self, view: View, events: list[Event], deadline: datetime | None = None
    ) -> Attachment:
        return Attachment("board.png", b"", alt_text(view, events))

    async def board(self, view: View, mode: str) -> list[Attachment]:
        return [Attachment("board.png", b"", alt_text(view))]

    async def summary(self, view: View) -> Attachment:
        return Attachment("summary.png", b"", alt_text(view))


@dataclass
class Keys:
    """The identifiers a game holds, gathered from its states as a mission runs."""

    shaped: set[str] = field(default_factory=set)  # matched anywhere as a whole word
    plain: set[str] = field(default_factory=set)  # seat/figure ids that are plain words
    labels: set[str] = field(default_factory=set)  # what the board draws: not a key

    def learn(self, dumped: Any, view: View) -> None:
        for text in strings(dumped):
            if SHAPED.fullmatch(text):
                self.shaped.add(text)
        self.labels.update(token.label for token in view.tokens)
        for figure in view.figures:
            self.labels.add(figure.label)
            self.plain.add(figure.id)
            if figure.seat:
                self.plain.add(figure.seat)
        self.plain.update(view.waiting)

    def pattern(self) -> re.Pattern[str]:
        words = (self.shaped | self.plain) - self.labels
        alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
        return re.compile(rf"(?<![\w/:-])(?:{alternatives})(?![\w-])")


def strings(data: Any) -> Iterable[str]:
    """Every string of a dumped state: dict keys and values."""
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(key, str):
                yield key
            yield from strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from strings(value)
    elif isinstance(data, str):
        yield data


# Stiff engine wording a person would not write in the story of a game: "1 Wound(s)", a count
# or a token as "x1", a rank colour in capitals ("GREEN Xeno-Beta"), dice faces joined with '+'.
STIFF = re.compile(
    r"\w\((?:s|es|ies)\)"
    r"|(?<![\w/:-])x\d+\b"
    r"|\b(?:GREEN|BLUE|RED|YELLOW|PURPLE|ORANGE|BLACK|WHITE)\b(?! dic?e\b)"  # "RED dice": the
    # game's own name for its dice (card texts say it so); an alien's rank is not in capitals
    r"|\b(?:hit|shield|bolt|ammo|jam|alien|gd)\+[a-z]"
)


def stiff(lines: Iterable[str]) -> dict[str, list[str]]:
    """Each piece of stiff wording found in narration lines, with the lines it was in."""
    found: dict[str, list[str]] = {}
    for line in lines:
        for match in STIFF.finditer(line):
            found.setdefault(match[0], []).append(line)
    return found


def narration(game_key: str, scenario: str, seed: int, players: int) -> list[str]:
    """Every event text of one mission played by the game's own advisor (as `selfplay` plays it):
    the story the table reads, step by step."""
    game: Game[Any] = get_game(game_key)
    advisor = advisor_for(game, "advisor")
    seats = default_seats(game, scenario, players)
    chosen = scenario_info(game, scenario).resolve_options({})
    state = game.new(scenario, seats, chosen, SeededDice(derive_seed(seed, "setup")))
    policy = SeededDice(derive_seed(seed, "policy"))
    lines: list[str] = []
    patience = 0
    for step_no in range(MAX_NARRATED_STEPS):
        dice = SeededDice(derive_seed(seed, step_no))
        step = game.advance(state, dice)
        state = step.state
        lines += [e.text for e in step.events if e.text]
        prompt = game.waiting_on(state)
        if prompt.finished:
            return lines
        seat = prompt.seats[0]
        actions = game.legal_actions(state, seat)
        advice = advisor.advise(state, seat, actions) if advisor else None
        action = advice or choose_action(actions, policy, patience)
        patience = 0 if action.verb == "end-turn" else patience + 1
        step = game.apply(state, seat, action, dice)
        state = step.state
        lines += [e.text for e in step.events if e.text]
    raise AssertionError(f"{game_key} {scenario} did not finish in {MAX_NARRATED_STEPS} steps")


# "Soldier 3 appears in 2B": an Enemy as the table names it when it appears (Reichbusters).
APPEARS = re.compile(r"([A-ZÜ][\w']*(?: [A-Z0-9][\w']*)*) (\d+) appears in ")


@dataclass
class Read:
    """One text a person reads, and where."""

    where: str
    text: str
    public: bool


@dataclass
class Scan:
    """What a mission showed people, and the keys and command syntax found in it."""

    label: str
    keys: Keys = field(default_factory=Keys)
    read: list[Read] = field(default_factory=list)
    post_lengths: list[int] = field(default_factory=list)  # public text above each image
    steps: int = 0
    enemy_names: dict[str, set[str]] = field(default_factory=dict)  # figure id -> names shown

    def keep_enemies(self, view: View) -> None:
        """Each Enemy figure's name and board label, step by step: they must be one text that
        never changes while the figure is on the board."""
        for figure in view.figures:
            if figure.side == "enemy":
                self.enemy_names.setdefault(figure.id, set()).update({figure.name, figure.label})

    def appearances(self) -> dict[str, list[int]]:
        """Per Enemy type, the numbers the step texts gave its figures as they appeared, in
        the order they appeared (the web view's step list holds every step)."""
        out: dict[str, list[int]] = {}
        for read in self.read:
            if read.where == "web step text":
                for match in APPEARS.finditer(read.text):
                    out.setdefault(match[1], []).append(int(match[2]))
        return out

    def keep_reply(self, reply: dict[str, Any], where: str) -> None:
        public = not reply["ephemeral"]
        kind = "post" if public else "private reply"
        self.read.append(Read(f"{where} {kind}", reply["content"], public))
        if public and reply["images"] and not reply["error"]:
            self.post_lengths.append(len(reply["content"]))
        for alt in reply["image_alts"]:
            self.read.append(Read(f"{where} alt text", alt, public))
        for button in reply["buttons"]:
            self.read.append(Read(f"{where} button", button["label"], public))
        for menu in reply["menus"]:
            self.read.append(Read(f"{where} select", menu["placeholder"], public))
            for entry in menu["entries"]:
                self.read.append(Read(f"{where} option", entry["label"], public))
                self.read.append(Read(f"{where} option text", entry["description"], public))

    def keep_view(self, view: View) -> None:
        """What the pictures draw: the header, the side panels, the summary card."""
        drawn = [f"{k}: {v}" for k, v in view.header.items()]
        drawn += [line for panel in view.panels for line in [panel.title, *panel.lines]]
        drawn += [f.name for f in view.figures]
        if view.summary is not None:
            drawn += [view.summary.result, *view.summary.losses, *view.summary.objectives]
        self.read += [Read("picture", line, True) for line in drawn]

    def findings(self) -> dict[str, list[str]]:
        """Each key (or piece of command syntax) found, with where it was first seen."""
        keys = self.keys.pattern()
        found: dict[str, list[str]] = {}
        for read in self.read:
            if read.where.startswith("refusal"):
                continue
            for match in keys.finditer(read.text):
                found.setdefault(match[0], []).append(excerpt(read, match.start()))
            for pattern in (COMMAND, OPTION):
                for match in pattern.finditer(read.text):
                    where = excerpt(read, match.start())
                    found.setdefault(f"syntax {match[0]}", []).append(where)
        return found

    def lengths(self) -> tuple[float, int]:
        return statistics.median(self.post_lengths or [0]), max(self.post_lengths or [0])


def excerpt(read: Read, at: int) -> str:
    """Where a finding was: the text around it."""
    return f"{read.where}: {read.text[max(0, at - 70) : at + 90]!r}"


class Player:
    """The channel's players: the game says whom it awaits, the seat's player acts by a typed
    command, and before that looks through what the bot offers (the picker's menus)."""

    def __init__(self, client: TestClient[Any, Any], service: TableService, scan: Scan) -> None:
        self.client = client
        self.service = service
        self.scan = scan
        self.rng = random.Random(5)

    async def send(self, user: str, text: str, where: str) -> list[dict[str, Any]]:
        response = await self.client.post(
            "/api/command", json={"channel": CHANNEL, "user": user, "text": text}
        )
        assert response.status == 200, await response.text()
        body = await response.json()
        for reply in body["replies"]:
            self.scan.keep_reply(reply, "refusal" if reply["error"] else where)
        replies: list[dict[str, Any]] = body["replies"]
        return replies

    async def browse(self, user: str) -> None:
        """Open the picker and follow one random path through it, without acting."""
        replies = await self.send(user, "/pick", "picker")
        for _ in range(MAX_PICKS):
            entries = [e["command"] for r in replies for m in r["menus"] for e in m["entries"]]
            deeper = [c for c in entries if c.startswith("/pick")]
            if not deeper:
                return
            replies = await self.send(user, self.rng.choice(deeper), "picker")


async def play_and_scan(
    client: TestClient[Any, Any],
    service: TableService,
    label: str,
    game_key: str,
    scenario: str,
    roles: list[str],
    options: dict[str, str],
    look_every: int = 20,
) -> Scan:
    """A whole mission, every text read kept (see the module's docstring)."""
    scan = Scan(label)
    player = Player(client, service, scan)
    users = {role: f"p{i}" for i, role in enumerate(roles)}
    extra = " ".join(f"{k}:{v}" for k, v in options.items())
    await player.send(
        "p0", f"/campaign create game:{game_key} scenario:{scenario} {extra}", "setup"
    )
    for role, user in users.items():
        await player.send(user, f"/campaign join role:{role}", "setup")
    begun = await player.send("p0", "/campaign begin", "setup")
    assert begun and not any(r["error"] for r in begun), begun
    game: Game[Any] = get_game(game_key)
    policy = SeededDice(11)
    patience = 0
    for step in range(MAX_STEPS):
        campaign = await service.repo.latest_in_channel(CHANNEL)
        assert campaign is not None and campaign.state_json
        state = game.load(json.loads(campaign.state_json))
        view = game.view(state, None)
        scan.keys.learn(game.dump(state), view)
        scan.keep_enemies(view)
        if step % look_every == 0:
            scan.keep_view(view)
            await look(player, users, view)
        prompt = game.waiting_on(state)
        if prompt.finished or campaign.status == "finished":
            scan.keep_view(view)
            await look(player, users, view)
            break
        seat = prompt.seats[0]
        if step % 3 == 0:
            await player.browse(users[seat])
        action = choose_action(game.legal_actions(state, seat), policy, patience)
        patience = 0 if action.verb == "end-turn" else patience + 1
        replies = await player.send(users[seat], action.command(), "turn")
        assert not any(r["error"] for r in replies), (action.command(), replies)
        scan.steps = step + 1
    else:
        raise AssertionError(f"{label} did not finish in {MAX_STEPS} steps")
    await web_headlines(client, service, scan)
    return scan


async def look(player: Player, users: dict[str, str], view: View) -> None:
    """What a player or a spectator may ask for at any time."""
    for text in ("/log last:30", "/campaign status", "/board view:text"):
        await player.send("spectator", text, "look")
    for user in users.values():
        await player.send(user, "/hand", "hand")
    figure = next((f for f in view.figures if f.side == "player"), None)
    if figure is not None:
        await player.send("spectator", f"/sheet unit:{figure.id}", "look")
    player.scan.read.append(Read("text board", text_board(view), True))


async def web_headlines(client: TestClient[Any, Any], service: TableService, scan: Scan) -> None:
    """The web view's step list: each step's headline."""
    campaign = await service.repo.latest_in_channel(CHANNEL)
    assert campaign is not None and campaign.id is not None
    token = await service.web.links.token(campaign.id)
    response = await client.get(f"/t/{token}/steps.json")
    assert response.status == 200, await response.text()
    for step in await response.json():
        scan.read.append(Read("web headline", step["headline"], True))
        scan.read.append(Read("web step text", step["text"], True))
