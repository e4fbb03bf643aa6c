"""The pictures the table posts: close-up after a step, the animated enemy phase, the board
on request in three views, and figure sheets."""

from __future__ import annotations

import io
import json

from PIL import Image
from support import caller, text

from bot.storage.db import Database
from bot.table import TableService
from engine.core.dice import SeededDice
from engine.registry import get_game
from engine.selfplay import choose_action

ANN, BOB, EVE = caller("ann"), caller("bob"), caller("eve")


async def begin_dash(table: TableService) -> None:
    await table.handle(ANN, "/campaign create game:dash scenario:sprint")
    await table.handle(ANN, "/campaign join role:red")
    await table.handle(BOB, "/campaign join role:blue")
    await table.handle(ANN, "/campaign begin")


async def test_board_views_and_audiences(table: TableService) -> None:
    await begin_dash(table)
    full = await table.handle(EVE, "/board")
    # A look is private; the whole board comes with its side panel as a second image.
    assert full[0].ephemeral
    assert [i.filename for i in full[0].images] == ["board.png", "panel.png"]
    shared = await table.handle(EVE, "/board share:yes")
    assert not shared[0].ephemeral and shared[0].images[0].filename == "board.png"
    refused = await table.handle(EVE, "/board for:me share:yes")
    assert refused[0].error and "never shared" in refused[0].content
    focus = await table.handle(EVE, "/board view:focus")
    assert focus[0].images[0].filename == "focus.png"
    grid = await table.handle(EVE, "/board view:text for:me")
    assert grid[0].ephemeral and grid[0].content.startswith("```") and not grid[0].images
    assert len(grid[0].content) <= 2000
    assert "view must be one of" in text(await table.handle(EVE, "/board view:huge"))
    assert "for must be all or me" in text(await table.handle(EVE, "/board for:them"))
    assert [s.value for s in await table.autocomplete(EVE, "/board view:f")] == ["full", "focus"]


async def test_sheet_of_a_figure(table: TableService) -> None:
    await begin_dash(table)
    units = [s.value for s in await table.autocomplete(ANN, "/sheet unit:")]
    assert "red" in units and "drone" in units
    sheet = await table.handle(ANN, "/sheet unit:drone")
    assert sheet[0].images and Image.open(io.BytesIO(sheet[0].images[0].data)).size[0] > 100
    assert "No figure 'ghost'" in text(await table.handle(ANN, "/sheet unit:ghost"))


async def test_an_enemy_phase_is_posted_as_one_animation_ending_on_the_final_board(
    db: Database,
) -> None:
    service = TableService(db, new_seed=lambda: 11, limits=None)
    game = get_game("galaxy-defenders")
    await service.handle(ANN, "/campaign create game:galaxy-defenders scenario:m1")
    await service.handle(ANN, "/campaign join role:marine")
    await service.handle(ANN, "/campaign begin")
    policy = SeededDice(2)
    animated = None
    for _ in range(200):
        campaign = await service.repo.live_in_channel("chan-1")
        assert campaign is not None and campaign.state_json
        state = game.load(json.loads(campaign.state_json))
        prompt = game.waiting_on(state)
        actions = game.legal_actions(state, prompt.seats[0])
        ender = next((a for a in actions if a.verb == "end-turn"), None)
        action = ender or choose_action(actions, policy, 0)
        replies = await service.handle(ANN, action.command())
        names = [i.filename for r in replies for i in r.images]
        if "phase.gif" in names:
            animated = replies
            break
    assert animated is not None, "no enemy phase was animated in 200 steps"
    post = next(r for r in animated if r.images)
    (gif,) = post.images  # no still copy of the final board: the last frame is that board
    assert gif.data[:6] in (b"GIF87a", b"GIF89a") and len(gif.data) < 2_000_000
    assert getattr(Image.open(io.BytesIO(gif.data)), "n_frames", 1) >= 2
    assert "ending on the final board" in gif.description


def test_pictures_travel_to_the_workers_unchanged() -> None:
    from bot.pictures import _pack, _unpack

    game = get_game("forlorn-hope")
    info = game.scenarios()[0]
    seats = [r.key for r in info.roles if r.required]
    state = game.new(info.key, seats, info.resolve_options({}), SeededDice(1))
    policy, events = SeededDice(3), []
    for n in range(200):  # play until a step says something
        state = game.advance(state, SeededDice(n)).state
        seat = game.waiting_on(state).seats[0]
        action = choose_action(game.legal_actions(state, seat), policy, 0)
        step = game.apply(state, seat, action, SeededDice(1000 + n))
        state, events = step.state, step.events
        if events:
            break
    view = game.view(state, None)
    assert events and view.figures
    assert _unpack(_pack(view, events)) == (view, events)


async def test_pictures_render_in_worker_processes() -> None:
    from bot.pictures import board_image, configure_workers, worker_pids

    game = get_game("dash")
    info = game.scenarios()[0]
    state = game.new(info.key, ["red", "blue"], info.resolve_options({}), SeededDice(1))
    configure_workers(1)
    try:
        assert len(worker_pids()) == 1  # started up front, not on first use
        image = await board_image(game.view(state, None))
    finally:
        configure_workers(0)
    assert Image.open(io.BytesIO(image.data)).format == "PNG"
