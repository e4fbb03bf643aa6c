"""`python -m bot` runs Sortie; `verify` replays stored campaigns; `commands` prints the tree;
`export` and `import` move one campaign in and out of the database (see the README's backup and
restore steps); `signing-key` shows or manages the export-signing key; `health` is the
container's health check."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import signal
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from bot.app import build_service
from bot.config import (
    DatabasePasswordError,
    Settings,
    get_settings,
    playground_refusal,
    playground_warning,
)
from bot.health import check as health_check
from bot.logs import configure_logging
from bot.pictures import shutdown_workers
from bot.signing import SigningKeyError, configured_key
from bot.storage.db import Database
from bot.storage.repo import CampaignRepo
from bot.table import TableService, UserError
from bot.web.server import WebView
from bot.web.server import serve as serve_web

log = logging.getLogger("sortie")


def _stop_on_signals(stop: asyncio.Event) -> None:
    """SIGTERM (docker stop, systemd) and SIGINT end the process the same orderly way."""
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)


async def _until(task: asyncio.Future[None], stop: asyncio.Event) -> bool:
    """Wait for the task to end or a stop signal; True when the signal came first."""
    stopping: asyncio.Future[object] = asyncio.ensure_future(stop.wait())
    waited: set[asyncio.Future[object]] = {task, stopping}  # type: ignore[arg-type]
    done, _ = await asyncio.wait(waited, return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    return task not in done


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
    stop = asyncio.Event()
    _stop_on_signals(stop)
    service = await build_service(settings)
    try:
        if settings.discord_token is None:
            await _serve_playground(service, settings, stop)
        else:
            await _serve_discord(service, settings, stop)
    finally:
        shutdown_workers()
        await service.db.close()
        log.info("stopped")
    return 0


async def _serve_playground(service: TableService, settings: Settings, stop: asyncio.Event) -> None:
    from bot.playground.server import serve

    print(
        f"No DISCORD_TOKEN: serving the playground on "
        f"http://{settings.playground_host}:{settings.playground_port}",
        flush=True,
    )
    serving = asyncio.ensure_future(
        serve(
            service,
            settings.playground_host,
            settings.playground_port,
            dev_clock=settings.playground_dev_clock,
            scan_interval_seconds=settings.scan_interval_seconds,
            feed_path=settings.playground_feed,
            web_base_url=settings.web_base_url,
        )
    )
    if await _until(serving, stop):
        log.info("stop signal: closing the playground")
        serving.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await serving


async def _serve_discord(service: TableService, settings: Settings, stop: asyncio.Event) -> None:
    from bot.discord.client import SortieBot

    assert settings.discord_token is not None
    bot = SortieBot(service, settings)
    pages = _serve_web(service, settings)
    try:
        async with bot:
            running = asyncio.ensure_future(bot.start(settings.discord_token.get_secret_value()))
            if await _until(running, stop):
                log.info("stop signal: disconnecting from Discord")
                await bot.close()
            await running
    finally:
        if pages is not None:
            pages.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pages


def _serve_web(service: TableService, settings: Settings) -> asyncio.Future[None] | None:
    """Beside the Discord client: the campaigns' web pages, when WEB_BASE_URL says where
    they are reached (the operator's reverse proxy forwards it to WEB_HOST:WEB_PORT)."""
    if not settings.web_base_url:
        return None
    service.web.set_base(settings.web_base_url)
    view = WebView(service, trust_proxy=settings.web_trust_proxy)
    log.info(
        "web view at %s (listening on %s:%s)",
        settings.web_base_url,
        settings.web_host,
        settings.web_port,
    )
    return asyncio.ensure_future(serve_web(view, settings.web_host, settings.web_port))


async def _offline_service() -> TableService:
    """The service for one-shot commands: no render processes to start and stop."""
    return await build_service(get_settings().model_copy(update={"render_workers": 0}))


async def verify() -> int:
    service = await _offline_service()
    try:
        results = await service.verify()
    finally:
        await service.db.close()
    for campaign_id, ok, detail in results:
        print(f"campaign {campaign_id}: {'ok' if ok else 'FAILED'} ({detail})")
    bad = sum(1 for _, ok, _ in results if not ok)
    print(f"{len(results)} campaigns checked, {len(results) - bad} reproducible, {bad} failed")
    return 1 if bad else 0


async def export_file(channel: str, out: str) -> int:
    from bot.archive import compress

    service = await _offline_service()
    try:
        campaign, data = await service.export_channel(channel)
    except UserError as refused:
        print(f"error: {refused}", file=sys.stderr)
        return 1
    finally:
        await service.db.close()
    if out.endswith(".gz"):
        data = compress(data)
    if out == "-":
        sys.stdout.buffer.write(data)
    else:
        Path(out).write_bytes(data)
        print(
            f"Exported campaign #{campaign.id} ({campaign.game} / {campaign.scenario}, "
            f"{campaign.status}, step {campaign.step}) to {out}."
        )
    return 0


async def import_file(path: str, channel: str, guild: str | None, accept_unsigned: bool) -> int:
    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as error:
        print(f"error: cannot read {path}: {error.strerror}", file=sys.stderr)
        return 1
    service = await _offline_service()
    try:
        print(await service.import_campaign(data, channel, guild, accept_unsigned))
        return 0
    except UserError as refused:
        print(f"error: {refused}", file=sys.stderr)
        return 1
    finally:
        await service.db.close()


async def signing_key(new: bool, move_to: str | None) -> int:
    """Show which export-signing key is in use; start over with a new one (`--new`); or move
    the database's key into a file (`--move-to`), to be given as SORTIE_SIGNING_KEY_FILE."""
    settings = get_settings()
    key = configured_key(settings.sortie_signing_key, settings.sortie_signing_key_file)
    db = Database(settings.database_url_with_password())
    try:
        await db.init()
        repo = CampaignRepo(db, key)
        if new:
            await repo.forget_signing_key(keep_mark=False)
            print("The old key is forgotten; the next export is signed with a new key.")
            return 0
        if move_to is not None:
            return await _move_key(repo, move_to)
        used, current, stored = await repo.signing_status()
        where = "SORTIE_SIGNING_KEY(_FILE)" if key else "the database" if stored else "nowhere yet"
        print(f"key in use: {current or 'none'} (from {where}); last used: {used or 'never'}")
        return 0
    finally:
        await db.close()


async def _move_key(repo: CampaignRepo, path: str) -> int:
    _, _, stored = await repo.signing_status()
    if not stored:
        print("error: the database holds no signing key to move.", file=sys.stderr)
        return 1
    key = await repo.signing_key()
    target = Path(path)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(key + "\n")
    await repo.forget_signing_key(keep_mark=True)
    print(
        f"The key is in {target} (mode 0600) and no longer in the database. Set "
        f"SORTIE_SIGNING_KEY_FILE={target} before the next start."
    )
    return 0


async def health() -> int:
    """Exit 0 when the database answers and the gateway is connected (or the playground
    serves); one line per check."""
    ok, lines = await health_check(get_settings())
    for line in lines:
        print(line)
    return 0 if ok else 1


async def print_commands() -> int:
    from bot.discord.client import command_tree_json

    print(json.dumps(await command_tree_json(), indent=2))
    return 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    commands = top.add_subparsers(dest="command", metavar="command")
    commands.add_parser("run", help="run the bot (the playground without DISCORD_TOKEN)")
    commands.add_parser("verify", help="replay every stored campaign and compare its state")
    commands.add_parser("commands", help="print the slash-command tree as JSON")
    export = commands.add_parser("export", help="write one channel's campaign to a file")
    export.add_argument("--channel", required=True, help="the channel (or thread) id")
    export.add_argument("--out", required=True, help="the file (.gz: compressed; -: stdout)")
    restore = commands.add_parser(
        "import", help="recreate an exported campaign in a channel without a live campaign"
    )
    restore.add_argument("file", help="an export (.json or .json.gz; -: stdin)")
    restore.add_argument("--channel", required=True, help="the channel (or thread) id")
    restore.add_argument("--guild", default=None, help="the server id (none: a direct message)")
    restore.add_argument(
        "--accept-unsigned",
        action="store_true",
        help="import a file another deployment exported (its signature cannot be checked)",
    )
    commands.add_parser(
        "health", help="exit 0 when the database answers and the bot is connected or serving"
    )
    keys = commands.add_parser("signing-key", help="show or manage the export-signing key")
    which = keys.add_mutually_exclusive_group()
    which.add_argument(
        "--new", action="store_true", help="forget the old key: earlier exports become unsigned"
    )
    which.add_argument("--move-to", metavar="FILE", help="write the database's key to FILE")
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    settings = get_settings()
    configure_logging(settings.log_level, settings.log_json)
    action: Callable[[], Coroutine[Any, Any, int]] = {
        None: run,
        "run": run,
        "verify": verify,
        "commands": print_commands,
        "export": lambda: export_file(args.channel, args.out),
        "import": lambda: import_file(args.file, args.channel, args.guild, args.accept_unsigned),
        "signing-key": lambda: signing_key(args.new, args.move_to),
        "health": health,
    }[args.command]
    try:
        return asyncio.run(action())
    except KeyboardInterrupt:
        return 0
    except (SigningKeyError, DatabasePasswordError) as missing:
        print(f"error: {missing}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
