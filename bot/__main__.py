"""`python -m bot` runs Sortie; `verify` replays stored campaigns; `commands` prints the tree."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import signal
import sys

from bot.app import build_service
from bot.config import get_settings, playground_refusal, playground_warning
from bot.logs import configure_logging as setup_logging
from bot.pictures import shutdown_workers


async def run() -> int:
    settings = get_settings()
    if settings.discord_token is None:
        refusal = playground_refusal(settings)
        if refusal:
            print(refusal, file=sys.stderr, flush=True)
            return 2
        warning = playground_warning(settings)
        if warning:
            print(f"WARNING: {warning}", file=sys.stderr, flush=True)
    service = await build_service(settings)
    try:
        if settings.discord_token is None:
            from bot.playground.server import serve

            print(
                f"No DISCORD_TOKEN: serving the playground on "
                f"http://{settings.playground_host}:{settings.playground_port}",
                flush=True,
            )
            await serve(
                service,
                settings.playground_host,
                settings.playground_port,
                dev_clock=settings.playground_dev_clock,
                scan_interval_seconds=settings.scan_interval_seconds,
            )
        else:
            from bot.discord.client import SortieBot

            bot = SortieBot(service, settings)
            loop = asyncio.get_running_loop()
            for signum in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(signum, lambda: asyncio.ensure_future(bot.close()))
            async with bot:
                await bot.start(settings.discord_token.get_secret_value())
    finally:
        shutdown_workers()
        await service.db.close()
    return 0


async def verify() -> int:
    service = await build_service(get_settings())
    try:
        results = await service.verify()
    finally:
        await service.db.close()
    for campaign_id, ok, detail in results:
        print(f"campaign {campaign_id}: {'ok' if ok else 'FAILED'} ({detail})")
    bad = sum(1 for _, ok, _ in results if not ok)
    print(f"{len(results)} campaigns checked, {len(results) - bad} reproducible, {bad} failed")
    return 1 if bad else 0


async def import_file(path: str, channel: str, guild: str | None) -> int:
    from pathlib import Path

    from bot.table import UserError

    service = await build_service(get_settings())
    try:
        print(await service.import_campaign(Path(path).read_bytes(), channel, guild))
        return 0
    except UserError as refused:
        print(f"error: {refused}", file=sys.stderr)
        return 1
    finally:
        await service.db.close()


async def print_commands() -> int:
    from bot.discord.client import command_tree_json

    print(json.dumps(await command_tree_json(), indent=2))
    return 0


def configure_logging() -> None:
    settings = get_settings()
    setup_logging(settings.log_level, settings.log_json)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot")
    parser.add_argument("command", nargs="?", default="run", choices=["run", "verify", "commands"])
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=get_settings().log_level, format="%(asctime)s %(levelname)s %(name)s %(message)s"
    )
    action = {"run": run, "verify": verify, "commands": print_commands}[args.command]
    try:
        return asyncio.run(action())
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
