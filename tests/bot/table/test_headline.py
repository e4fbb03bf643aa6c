"""A turn post's headline (issue #32, item 3): whose turn and what matters now, one line,
built from the public view and the prompt only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer
from offered import NoPictures

from bot.names import role_names
from bot.playground.server import create_app
from bot.storage.db import Database
from bot.table import TableService
from bot.table.headline import HEADLINE_LIMIT, headline
from engine.core.dice import SeededDice
from engine.core.game import Game, Prompt, advisor_of
from engine.core.view import FigureView, View
from engine.registry import get_game


def opening(game_key: str, scenario: str, seats: list[str]) -> tuple[Game[Any], Any]:
    """The scenario set up and advanced until a seat must act."""
    game = get_game(game_key)
    state = game.new(scenario, seats, {}, SeededDice(1))
    return game, game.advance(state, SeededDice(2)).state


def agent_turn(game: Game[Any], state: Any) -> Any:
    """Galaxy: answer the Strategy phase's questions with their first answer until an agent's
    turn."""
    for _ in range(20):
        prompt = game.waiting_on(state)
        if prompt.kind == "turn" and not prompt.finished:
            return state
        seat = prompt.seats[0]
        action = game.legal_actions(state, seat)[0]
        state = game.apply(state, seat, action, SeededDice(3)).state
        state = game.advance(state, SeededDice(4)).state
    raise AssertionError("no agent turn")


def moved_enemy(view: View, to: str) -> View:
    """The same view with its first enemy (or a new Soldier) standing on `to`."""
    figures = list(view.figures)
    index = next((i for i, f in enumerate(figures) if f.side == "enemy"), None)
    if index is None:
        figures.append(FigureView(id="e", label="S1", name="Soldier 1", side="enemy", coord=to))
    else:
        figures[index] = figures[index].model_copy(update={"coord": to})
    return view.model_copy(update={"figures": figures})


def test_galaxy_names_the_agent_the_aliens_in_reach_and_his_mp() -> None:
    game, state = opening("galaxy-defenders", "m1", ["marine", "sniper"])
    state = agent_turn(game, state)
    prompt = game.waiting_on(state)
    view = game.view(state, None)
    seat = prompt.seats[0]
    agent = next(f for f in view.figures if f.id == seat)
    codename = agent.name.split(" (")[0]
    line = headline(view, prompt, role_names("galaxy-defenders", "m1"))
    assert line.startswith(f"**{codename}'s turn** — "), line
    assert " MP" in line and "round 1/8" in line and "kills 0 of 4" in line, line
    # An alien stepping next to the agent is counted; one far away is not.
    near = next(c.coord for c in view.cells if c.coord != agent.coord and c.terrain != "wall")
    counted = headline(moved_enemy(view, agent.coord), prompt)
    assert "1 alien within" in counted, counted
    far = max(view.cells, key=lambda c: abs(c.col - 99) + abs(c.row - 99)).coord
    assert "no aliens within" in headline(moved_enemy(view, far), prompt)
    assert near  # the board has more than the agent's own hex


def test_strikeback_counts_its_fires() -> None:
    game, state = opening("galaxy-defenders", "os1", ["marine", "sniper"])
    state = agent_turn(game, state)
    line = headline(game.view(state, None), game.waiting_on(state))
    assert "fires 0 burning" in line, line


def test_forlorn_names_the_phase_the_shared_ap_and_the_nearest_enemy() -> None:
    game, state = opening("forlorn-hope", "op-01", ["marines", "marines-2"])
    advisor = advisor_of(game)
    assert advisor is not None
    for _ in range(30):  # deploy as the advisor would, until the Marine phase
        prompt = game.waiting_on(state)
        if game.view(state, None).header.get("phase") == "Marine":
            break
        seat = prompt.seats[0]
        action = advisor.advise(state, seat, game.legal_actions(state, seat))
        assert action is not None
        state = game.apply(state, seat, action, SeededDice(5)).state
        state = game.advance(state, SeededDice(6)).state
    view = game.view(state, None)
    line = headline(view, game.waiting_on(state))
    ap = view.header["ap"].split(" ")[0]
    assert line.startswith(f"**Marine phase, turn 1/7** — {ap} AP shared · "), line
    # one Marine seat: its own points, still named as AP (the header gives the bare number)
    alone = view.model_copy(update={"header": {**view.header, "ap": ap}})
    assert f"— {ap} AP · " in headline(alone, game.waiting_on(state)), headline(alone, prompt)
    marine = next(f for f in view.figures if f.side == "player")
    assert f"on {marine.name}'s square" in headline(moved_enemy(view, marine.coord), prompt)


def test_reichbusters_names_enemies_sharing_a_heros_area_and_the_alarm() -> None:
    game, state = opening("reichbusters", "radio-silence", ["sarge", "hans"])
    prompt = game.waiting_on(state)
    view = game.view(state, None)
    line = headline(view, prompt)
    assert line.startswith("**Heroes' turn** — ") and "alarm off" in line, line
    hero = next(f for f in view.figures if f.side == "player" and f.seat == "sarge")
    engaged = headline(moved_enemy(view, hero.coord), prompt)
    assert f"with {hero.name}" in engaged, engaged


def test_no_headline_once_the_mission_is_over_and_never_longer_than_a_line() -> None:
    game, state = opening("reichbusters", "radio-silence", ["sarge", "hans"])
    view = game.view(state, None)
    assert headline(view, Prompt(finished=True, outcome="failed")) == ""
    crowded = view.model_copy(update={"header": {**view.header, "objective progress": "x" * 300}})
    assert len(headline(crowded, game.waiting_on(state))) <= HEADLINE_LIMIT


async def test_the_turn_post_opens_with_the_headline(tmp_path: Path) -> None:
    """Through the playground: the post with the board starts with the headline, and its
    waiting line does not repeat the turn's own text."""
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'head.db'}")
    await db.init()
    service = TableService(db, new_seed=lambda: 20261205, limits=None, pictures=NoPictures())
    try:
        async with TestClient(TestServer(create_app(service))) as client:
            for user, text in [
                ("p0", "/campaign create game:reichbusters scenario:radio-silence"),
                ("p0", "/campaign join role:sarge"),
                ("p1", "/campaign join role:hans"),
                ("p0", "/campaign begin"),
            ]:
                response = await client.post(
                    "/api/command", json={"channel": "head", "user": user, "text": text}
                )
                assert (await response.json())["ok"]
            page = await (await client.get("/api/channels/head/messages")).json()
    finally:
        await db.close()
    post = [m for m in page["messages"] if m["images"] and m["buttons"]][-1]
    first, *_, last = post["content"].split("\n")
    assert first.startswith("**Heroes' turn** — "), post["content"]
    assert last.startswith("Waiting on ") and "act in any order" not in last, last
