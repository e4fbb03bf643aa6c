"""Through the table service: one action from command to reply-with-image ready, the floors
we compare against, and throughput with many stored and active campaigns."""

from __future__ import annotations

import asyncio
import io
import json
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

from PIL import Image
from sqlmodel import col, select

from bench.common import cpu_seconds, rss_mb, summary
from bench.players import choose_from_row, choose_in_file, player_seed, players_process
from bot.app import settle_heap
from bot.pictures import worker_pids
from bot.storage.db import Database
from bot.storage.models import ActionLog, Campaign, Seat
from bot.table import Caller, TableService
from bot.table.pictures import WorkerPictures
from engine.core.dice import SeededDice
from engine.registry import games
from engine.selfplay import default_seats

USER = "bench-user"


def caller(channel: str) -> Caller:
    return Caller(USER, "bench", channel, "bench-guild")


async def open_service(url: str, seed: int) -> tuple[Database, TableService]:
    """A fresh database and a table service over it, without rate limits."""
    db = Database(url)
    await db.init()
    service = TableService(db, new_seed=lambda: seed, limits=None)
    settle_heap()  # as the bot does after start-up
    return db, service


async def start_campaign(service: TableService, game_key: str, scenario: str, channel: str) -> None:
    game = games()[game_key]
    who = caller(channel)
    await service.handle(who, f"/campaign create game:{game_key} scenario:{scenario}")
    for role in default_seats(game, scenario, None):
        await service.handle(who, f"/campaign join role:{role}")
    await service.handle(who, "/campaign begin")


async def play_one(service: TableService, channel: str, policy: SeededDice) -> float | None:
    """One legal action for whoever the game waits on; milliseconds to the replies."""
    campaign = await service.repo.live_in_channel(channel)
    if campaign is None:
        return None
    command = choose_from_row(
        campaign.game, campaign.status, campaign.state_json, policy.randrange(2**31)
    )
    if command is None:
        return None
    start = time.perf_counter()
    await service.handle(caller(channel), command)
    return (time.perf_counter() - start) * 1000


async def bench_action(
    database_url: str | None, tmp: Path, game_key: str, scenario: str, actions: int
) -> dict[str, Any]:
    url = database_url or f"sqlite+aiosqlite:///{tmp / f'action-{game_key}.db'}"
    db, service = await open_service(url, seed=1)
    # Unique per run, and within the 32 characters a channel id column holds (PostgreSQL
    # enforces the length; Discord's ids are at most 20 digits).
    channel = f"act-{game_key[:8]}-{os.getpid() % 10_000}-{time.monotonic_ns() % 10**8}"
    await start_campaign(service, game_key, scenario, channel)
    policy = SeededDice(99)
    samples: list[float] = []
    last_png = b""
    for _ in range(actions):
        ms = await play_one(service, channel, policy)
        if ms is None:
            break
        samples.append(ms)
    campaign = await service.repo.live_in_channel(channel) or await service.repo.latest_in_channel(
        channel
    )
    if campaign is not None and campaign.state_json:
        game = games()[campaign.game]
        image = await WorkerPictures().step(
            game.view(game.load(json.loads(campaign.state_json)), None), []
        )
        last_png = image.data
    await db.close()
    result: dict[str, Any] = {"action_to_reply": summary(samples)}
    if last_png:
        result.update(floors(last_png, tmp / f"floor-{game_key}.db", max(20, len(samples))))
        floor = result["floor_png_encode"]["p50"] + result["floor_sqlite_commit"]["p50"]
        if samples and floor:
            result["pipeline_to_floors_ratio_p50"] = round(
                result["action_to_reply"]["p50"] / floor, 2
            )
    return result


def floors(png: bytes, path: Path, repeats: int) -> dict[str, Any]:
    """Encoding the final PNG alone, and a bare SQLite insert-and-commit of the same bytes."""
    decoded = Image.open(io.BytesIO(png))
    decoded.load()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE IF NOT EXISTS blob (id INTEGER PRIMARY KEY, data BLOB)")
    encode, commit = [], []
    for _ in range(repeats):
        buffer = io.BytesIO()
        start = time.perf_counter()
        decoded.save(buffer, format="PNG", compress_level=6)
        encode.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        conn.execute("INSERT INTO blob (data) VALUES (?)", (buffer.getvalue(),))
        conn.commit()
        commit.append((time.perf_counter() - start) * 1000)
    conn.close()
    return {"floor_png_encode": summary(encode), "floor_sqlite_commit": summary(commit)}


async def clone_campaigns(
    db: Database, templates: list[Campaign], count: int, prefix: str = "stored"
) -> None:
    """Store `count` campaigns by copying begun templates (with seats and logs), in bulk."""
    async with db.session() as session:
        seat_rows: dict[int, list[Seat]] = {}
        log_rows: dict[int, list[ActionLog]] = {}
        for t in templates:
            seat_rows[t.id or 0] = list(
                (await session.exec(select(Seat).where(Seat.campaign_id == t.id))).all()
            )
            log_rows[t.id or 0] = list(
                (
                    await session.exec(
                        select(ActionLog)
                        .where(ActionLog.campaign_id == t.id)
                        .order_by(col(ActionLog.seq))
                    )
                ).all()
            )
    for start in range(0, count, 500):
        async with db.session() as session:
            for i in range(start, min(count, start + 500)):
                t = templates[i % len(templates)]
                channel = f"{prefix}-{i}"
                copy = Campaign(
                    channel_id=channel,
                    live_channel=channel,
                    guild_id=t.guild_id,
                    game=t.game,
                    scenario=t.scenario,
                    options_json=t.options_json,
                    settings_json=t.settings_json,
                    seed=t.seed + i,
                    status=t.status,
                    owner_id=t.owner_id,
                    state_json=t.state_json,
                    version=t.version,
                    step=t.step,
                )
                session.add(copy)
                await session.flush()
                for s in seat_rows[t.id or 0]:
                    session.add(
                        Seat(
                            campaign_id=copy.id or 0,
                            role=s.role,
                            user_id=s.user_id,
                            user_name=s.user_name,
                        )
                    )
                for r in log_rows[t.id or 0]:
                    session.add(
                        ActionLog(
                            campaign_id=copy.id or 0,
                            seq=r.seq,
                            kind=r.kind,
                            seat=r.seat,
                            user_id=r.user_id,
                            action_json=r.action_json,
                            events_json=r.events_json,
                            random_used=r.random_used,
                        )
                    )
            await session.commit()


async def loop_lag(stop: asyncio.Event, samples: list[float]) -> None:
    """How late a 10 ms timer fires: the longest stretch the event loop was blocked."""
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(0.01)
        samples.append(max(0.0, (time.perf_counter() - start) * 1000 - 10))


async def bench_throughput(
    database_url: str | None,
    tmp: Path,
    stored: int,
    active: int,
    seconds: float,
    rate: float | None = None,
) -> dict[str, Any]:
    """Players acting concurrently on `active` of `stored` campaigns for `seconds`.

    Closed loop (`rate` None): every player acts again as soon as its reply arrives, which
    measures capacity; latency is then mostly queueing. Open loop: the players together
    offer `rate` actions per second on a fixed schedule, and each latency runs from the
    moment the action was due (so a backlog is counted, not hidden).
    """
    mode = f"open-{rate:g}" if rate else "closed"
    # Channel names unique to this run, so a reused database (PostgreSQL) has no clashes.
    run = f"tp{time.monotonic_ns() % 10**9}"
    url = database_url or f"sqlite+aiosqlite:///{tmp / f'throughput-{stored}-{mode}.db'}"
    db, service = await open_service(url, seed=7)
    keys = [(key, game.scenarios()[0].key) for key, game in games().items() if key != "dash"]
    templates = []
    for index, (key, scenario) in enumerate(keys):
        channel = f"{run}-t{index}"
        await start_campaign(service, key, scenario, channel)
        campaign = await service.repo.live_in_channel(channel)
        assert campaign is not None
        templates.append(campaign)
    rss_before = rss_mb()
    await clone_campaigns(db, templates, stored, run)
    channels = [f"{run}-{i}" for i in range(min(active, stored))]
    db_path = Path(url.split(":///", 1)[-1]) if url.startswith("sqlite") else None
    size_before = db_path.stat().st_size if db_path else 0
    latencies: list[float] = []
    lag: list[float] = []
    stop = asyncio.Event()
    players = players_process() if db_path else None
    loop = asyncio.get_running_loop()

    async def next_command(channel: str, seed: int) -> str | None:
        if players is not None and db_path is not None:
            return await loop.run_in_executor(players, choose_in_file, str(db_path), channel, seed)
        campaign = await service.repo.live_in_channel(channel)
        if campaign is None:
            return None
        return choose_from_row(campaign.game, campaign.status, campaign.state_json, seed)

    async def player(channel: str, index: int) -> None:
        turn = 0
        while time.perf_counter() < deadline:
            command = await next_command(channel, player_seed(index, turn))
            if command is None:
                return
            start = time.perf_counter()
            if rate:
                # Player i acts at started + (i + k * active) / rate: together, `rate` per second.
                due = started + (index + turn * len(channels)) / rate
                if due >= deadline:
                    return
                await asyncio.sleep(max(0.0, due - start))
                start = due
            await service.handle(caller(channel), command)
            latencies.append((time.perf_counter() - start) * 1000)
            turn += 1

    if players is not None:  # start the players' process before the clock runs
        await loop.run_in_executor(players, choose_in_file, str(db_path), channels[0], 0)
    ticker = asyncio.create_task(loop_lag(stop, lag))
    render_before = {pid: cpu_seconds(pid) for pid in worker_pids()}
    player_pids = sorted(getattr(players, "_processes", None) or {})
    players_before = sum(cpu_seconds(pid) for pid in player_pids)
    cpu_before = time.process_time()
    deadline = time.perf_counter() + seconds
    started = time.perf_counter()
    await asyncio.gather(*(player(c, i) for i, c in enumerate(channels)))
    elapsed = time.perf_counter() - started
    cpu_bot = time.process_time() - cpu_before
    cpu_render = sum(cpu_seconds(pid) - render_before.get(pid, 0.0) for pid in worker_pids())
    cpu_players = sum(cpu_seconds(pid) for pid in player_pids) - players_before
    stop.set()
    await ticker
    if players is not None:
        players.shutdown()
    rss_after = rss_mb()
    await db.close()
    if db_path:
        for suffix in ("-wal",):
            wal = Path(str(db_path) + suffix)
            if wal.exists():
                sqlite3.connect(db_path).execute("PRAGMA wal_checkpoint(TRUNCATE)").close()
        size_after = db_path.stat().st_size
    else:
        size_after = size_before
    steps = len(latencies)
    return {
        "loop": "closed" if rate is None else "open",
        "offered_per_second": rate,
        "stored_campaigns": stored,
        "active_campaigns": len(channels),
        "seconds": round(elapsed, 1),
        "actions": steps,
        "actions_per_second": round(steps / elapsed, 1) if elapsed else 0,
        "latency": summary(latencies),
        "event_loop_lag": summary(lag),
        # CPU spent per action: the bot's own process (all its threads) and its renderers.
        "cpu_ms_per_action": {
            "bot_process": round(cpu_bot * 1000 / steps, 1) if steps else None,
            "render_workers": round(cpu_render * 1000 / steps, 1) if steps else None,
            # The simulated players' own process: a cost of the benchmark, not of the bot.
            "players_process": round(cpu_players * 1000 / steps, 1) if steps else None,
        },
        "players": "separate process" if db_path else "in the bot's process",
        "rss_mb_after_templates": rss_before,
        "rss_mb_end": rss_after,
        "db_bytes_per_step": round((size_after - size_before) / steps)
        if steps and db_path
        else None,
    }


async def storage_per_game(tmp: Path, steps: int) -> dict[str, Any]:
    """Average stored bytes per step for each game: log row (action and events) plus the state
    snapshot that step rewrote."""
    out: dict[str, Any] = {}
    for key, game in games().items():
        if key == "dash":
            continue
        db, service = await open_service(f"sqlite+aiosqlite:///{tmp / f'storage-{key}.db'}", seed=3)
        await start_campaign(service, key, game.scenarios()[0].key, "storage")
        policy = SeededDice(5)
        for _ in range(steps):
            if await play_one(service, "storage", policy) is None:
                break
        campaign = await service.repo.latest_in_channel("storage")
        assert campaign is not None
        rows = await service.repo.log(campaign.id or 0)
        log_bytes = sum(len(r.action_json) + len(r.events_json) for r in rows) / max(1, len(rows))
        state_bytes = len(campaign.state_json or "")
        out[key] = {
            "steps": len(rows),
            "log_bytes_per_step": round(log_bytes),
            "state_snapshot_bytes": state_bytes,
        }
        await db.close()
    return out
