"""One full round of a game with three seats, and the post budget it is held to.

Shared by the playground test (`tests/bot/test_post_budget.py`) and the fake-Discord test
(`tests/bot/discord/test_discord_post_budget.py`): a seeded policy picks legal actions from the
stored state, a transport sends each as a slash command, and a transport-specific counter says
what the channel saw. The budget (issue #16): at most one public post per player turn plus one
per automatic phase, and at most one mention per waited-on player per step.

A player turn is a run of steps by one seat; it ends when another seat acts or an automatic
phase (an enemy or Event phase that did something) runs. Which steps ran an automatic phase
is worked out here from the engine itself (the same dice as the table), not from the posts.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.pictures import has_activity
from bot.replay import run_action
from bot.storage.models import Campaign
from engine.core.dice import SeededDice
from engine.core.game import Action
from engine.registry import get_game
from engine.selfplay import choose_action

MAX_STEPS = 400

# (game, scenario, three seats, creation options): one round of each is measured.
Round = tuple[str, str, list[str], dict[str, str]]
ROUNDS: list[Round] = [
    ("galaxy-defenders", "m1", ["marine", "sniper", "biotech"], {}),
    ("forlorn-hope", "op-01", ["marines", "xeno", "marines-2"], {"xeno": "human"}),
    ("reichbusters", "radio-silence", ["sarge", "hans", "claudine"], {}),
]


@dataclass
class Seen:
    """What the channel's public feed gained with one step."""

    posts: int = 0  # new public messages by the bot (edits are not posts)
    images: int = 0  # images on those new posts and on edits that replaced images
    edits: int = 0
    pings: list[str] = field(default_factory=list)  # users pinged by the new posts
    edit_pings: int = 0  # pings carried by edits (must stay 0)


@dataclass
class Tally:
    game: str
    steps: int = 0
    turns: int = 0
    phases: int = 0
    posts: int = 0
    images: int = 0
    edits: int = 0
    mentions: int = 0
    look_posts: int = 0  # public posts caused by /board, /log, /sheet (must stay 0)
    worst_pings: int = 0  # most pings of one user in one step
    unwaited_pings: list[str] = field(default_factory=list)
    edit_pings: int = 0

    @property
    def budget(self) -> int:
        return self.turns + self.phases

    def line(self) -> str:
        return (
            f"{self.game}: {self.steps} steps, {self.turns} turns + {self.phases} phases "
            f"(budget {self.budget}) -> {self.posts} posts, {self.edits} edits, "
            f"{self.images} images, {self.mentions} mentions; looks posted {self.look_posts}"
        )


Send = Callable[[str, str], Awaitable[None]]  # (user, slash text)
Latest = Callable[[], Awaitable[Campaign]]  # the channel's campaign as stored now
Watch = Callable[[], Awaitable[Seen]]  # what the public feed gained since the last call


async def play_round(
    game_key: str,
    roles: list[str],
    players: dict[str, str],
    send: Send,
    latest: Latest,
    watch: Watch,
) -> Tally:
    """Play from the first prompt until the round number moves on (or the mission ends),
    after one look of each kind by the first player; count what the channel saw."""
    game = get_game(game_key)
    tally = Tally(game_key)
    await watch()  # forget the set-up posts
    first = players[roles[0]]
    for look in ("/board", "/log", f"/sheet unit:{await _a_figure(latest)}"):
        await send(first, look)
        tally.look_posts += (await watch()).posts
    policy = SeededDice(7)
    patience = 0
    last_seat: str | None = None
    start_round: int | None = None
    for _ in range(MAX_STEPS):
        campaign = await latest()
        state = game.load(json.loads(campaign.state_json or "{}"))
        view = game.view(state, None)
        start_round = view.round if start_round is None else start_round
        prompt = game.waiting_on(state)
        if prompt.finished or view.round != start_round:
            break
        waited = {players[s] for s in prompt.seats if s in players}
        seat = prompt.seats[0]
        action: Action = choose_action(game.legal_actions(state, seat), policy, patience)
        patience = 0 if action.verb == "end-turn" else patience + 1
        ran = run_action(game, state, campaign.seed, campaign.step + 1, seat, action)
        phase = has_activity(ran.automatic)
        if seat != last_seat:
            tally.turns += 1
        last_seat = None if phase else seat
        tally.phases += int(phase)
        await send(players[seat], action.command())
        seen = await watch()
        tally.steps += 1
        tally.posts += seen.posts
        tally.images += seen.images
        tally.edits += seen.edits
        tally.mentions += len(seen.pings)
        tally.edit_pings += seen.edit_pings
        for user in set(seen.pings):
            tally.worst_pings = max(tally.worst_pings, seen.pings.count(user))
        after = await latest()
        after_state = game.load(json.loads(after.state_json or "{}"))
        now_waited = {players[s] for s in game.waiting_on(after_state).seats if s in players}
        tally.unwaited_pings += [u for u in seen.pings if u not in now_waited | waited]
    else:
        raise AssertionError(f"{game_key}: the round did not end in {MAX_STEPS} steps")
    return tally


async def _a_figure(latest: Latest) -> str:
    campaign = await latest()
    game = get_game(campaign.game)
    view = game.view(game.load(json.loads(campaign.state_json or "{}")), None)
    return view.figures[0].id


def check_budget(tally: Tally) -> None:
    assert tally.steps > 0, tally.line()
    assert tally.posts <= tally.budget, tally.line()
    assert tally.look_posts == 0, tally.line()
    assert tally.worst_pings <= 1, tally.line()
    assert tally.edit_pings == 0, tally.line()
    assert not tally.unwaited_pings, (tally.unwaited_pings, tally.line())
