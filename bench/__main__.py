"""`python -m bench`: benchmark figures as JSON. Benchmarks report; they never fail a build.

Sections: engine (apply per verb, the automatic phases, legal_actions), render (focus and
full board per game), action (one player action end to end through the table service, with
the PNG-encode and SQLite-commit floors), throughput (many stored campaigns, 100 active ones
played concurrently), storage (bytes per step per game), web (the campaign page and step
images of a 500-step campaign, cold and cached), multiprocess (one bot process against two on
one PostgreSQL). `DATABASE_URL` (or `--database-url`) runs the service
sections on PostgreSQL instead of a temporary SQLite file; multiprocess needs it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.engine_bench import bench_engine
from bench.multiprocess_bench import bench_multiprocess
from bench.service_bench import bench_action, bench_throughput, storage_per_game
from bench.web_bench import bench_web
from bot.pictures import configure_workers, shutdown_workers
from engine.registry import games

SECTIONS = ("engine", "render", "action", "throughput", "storage", "multiprocess", "web")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("--only", choices=SECTIONS, action="append", help="run these sections")
    parser.add_argument("--game", default=None, help="only this game key")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--actions", type=int, default=40)
    parser.add_argument("--stored", default="100,1000,10000")
    parser.add_argument("--active", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument(
        "--active-per-process-run",
        type=int,
        default=20,
        help="multiprocess: active campaigns, split between the processes",
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=40.0,
        help="also offer this many actions per second on a schedule (open loop); 0: skip",
    )
    parser.add_argument(
        "--web-steps", type=int, default=500, help="web: the campaign's length in steps"
    )
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL"))
    parser.add_argument(
        "--render-workers",
        type=int,
        default=2,
        help="render processes for the service sections (0: threads)",
    )
    args = parser.parse_args(argv)
    configure_workers(args.render_workers)
    sections = set(args.only or SECTIONS)
    selected = {
        k: g for k, g in games().items() if k != "dash" and (args.game is None or k == args.game)
    }
    report: dict[str, Any] = {
        "machine": {
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
        },
        "database": "postgresql" if args.database_url else "sqlite",
    }
    if "engine" in sections:
        report["engine"] = {
            key: {
                info.key: bench_engine(game, info.key, args.seeds, args.steps)
                for info in game.scenarios()
            }
            for key, game in selected.items()
        }
    if "render" in sections:
        from renders.bench import benchmark_renders

        report["render"] = benchmark_renders()
    with tempfile.TemporaryDirectory() as tmp:
        if "action" in sections:
            report["action"] = {
                key: asyncio.run(
                    bench_action(
                        args.database_url, Path(tmp), key, game.scenarios()[0].key, args.actions
                    )
                )
                for key, game in selected.items()
            }
        if "throughput" in sections:
            rates: list[float | None] = [None] + ([args.rate] if args.rate else [])
            report["throughput"] = [
                asyncio.run(
                    bench_throughput(
                        args.database_url, Path(tmp), int(n), args.active, args.seconds, rate
                    )
                )
                for n in args.stored.split(",")
                for rate in rates
            ]
        if "storage" in sections:
            report["storage"] = asyncio.run(storage_per_game(Path(tmp), 200))
        if "web" in sections:
            report["web"] = asyncio.run(bench_web(Path(tmp), args.web_steps))
        if "multiprocess" in sections:
            url = args.database_url or ""
            report["multiprocess"] = (
                bench_multiprocess(url, args.active_per_process_run, args.seconds)
                if url.startswith("postgresql")
                else {"skipped": "needs PostgreSQL: --database-url postgresql+asyncpg://..."}
            )
    shutdown_workers()
    report["render_workers"] = args.render_workers
    json.dump(report, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
