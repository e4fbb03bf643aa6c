"""Throughput of one bot process against two, on one PostgreSQL database.

Each process is a table service of its own (its own engine, connection pools and render
threads), as a bot process per group of shards is; the active campaigns are split between
the processes as guilds are between shards. Closed loop: every campaign's player acts again
as soon as its reply arrives, so the figure is capacity. Every command takes its channel's
advisory lock, as in production.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from multiprocessing.synchronize import Barrier
from typing import Any

from bench.common import summary
from bench.players import choose_from_row, player_seed
from bench.service_bench import caller, open_service, start_campaign
from bot.pictures import configure_workers
from bot.storage.db import Database
from bot.table import TableService
from engine.registry import games


async def _play(url: str, channels: list[str], seconds: float, barrier: Barrier) -> list[float]:
    configure_workers(0)  # renders in this process's threads: the process is the unit
    db = Database(url)
    service = TableService(db, limits=None)
    latencies: list[float] = []
    await asyncio.to_thread(barrier.wait)
    deadline = time.perf_counter() + seconds

    async def player(channel: str, index: int) -> None:
        turn = 0
        while time.perf_counter() < deadline:
            campaign = await service.repo.live_in_channel(channel)
            if campaign is None:
                return
            command = choose_from_row(
                campaign.game, campaign.status, campaign.state_json, player_seed(index, turn)
            )
            if command is None:
                return
            start = time.perf_counter()
            await service.handle(caller(channel), command)
            latencies.append((time.perf_counter() - start) * 1000)
            turn += 1

    await asyncio.gather(*(player(c, i) for i, c in enumerate(channels)))
    await db.close()
    return latencies


def _worker(url: str, channels: list[str], seconds: float, barrier: Barrier, results: Any) -> None:
    results.put(asyncio.run(_play(url, channels, seconds, barrier)))


async def _campaigns(url: str, active: int) -> list[str]:
    run = f"mp{time.monotonic_ns() % 10**9}"
    db, service = await open_service(url, seed=11)
    keys = [(key, game.scenarios()[0].key) for key, game in games().items() if key != "dash"]
    channels = [f"{run}-{i}" for i in range(active)]
    for index, channel in enumerate(channels):
        key, scenario = keys[index % len(keys)]
        await start_campaign(service, key, scenario, channel)
    await db.close()
    return channels


def bench_multiprocess(url: str, active: int, seconds: float) -> list[dict[str, Any]]:
    """The same number of active campaigns played by one process, then by two."""
    context = multiprocessing.get_context("spawn")
    report = []
    for processes in (1, 2):
        channels = asyncio.run(_campaigns(url, active))
        barrier = context.Barrier(processes + 1)
        results = context.Queue()
        workers = [
            context.Process(
                target=_worker,
                args=(url, channels[n::processes], seconds, barrier, results),
            )
            for n in range(processes)
        ]
        for worker in workers:
            worker.start()
        barrier.wait()  # every process is up: the clock starts for all of them at once
        started = time.perf_counter()
        latencies = [ms for _ in workers for ms in results.get()]
        elapsed = time.perf_counter() - started
        for worker in workers:
            worker.join()
        report.append(
            {
                "processes": processes,
                "active_campaigns": active,
                "seconds": round(elapsed, 1),
                "actions": len(latencies),
                "actions_per_second": round(len(latencies) / elapsed, 1) if elapsed else 0,
                "latency": summary(latencies),
            }
        )
    return report
