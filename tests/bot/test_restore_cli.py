"""Backup, export and import through the real command line, as the README tells an operator.

The README's shell blocks under "Backup and restore" are run line by line (only `python -m bot`
becomes the test launcher that also knows the test-only Dash game), against a playground that
really runs and is stopped with SIGTERM, as `docker stop` would.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
import re
import shlex
import sqlite3
import subprocess
from pathlib import Path

import aiohttp
import pytest
from processes import Bot, bot_command, clean_env, cli

README = Path(__file__).resolve().parents[2] / "README.md"
TIMEOUT = aiohttp.ClientTimeout(total=30)


def readme_blocks() -> list[list[str]]:
    """The shell lines of each code block in the README's "Backup and restore" section."""
    text = README.read_text()
    section = text[text.index("## Backup and restore") :]
    section = section[: section.index("\n## ", 3)]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    return [
        [line for line in block.splitlines() if line and not line.startswith("#")]
        for block in blocks
    ]


def run_line(
    line: str, cwd: Path, env: dict[str, str], **names: str
) -> subprocess.CompletedProcess[str]:
    """One README line, with placeholders filled in and `python -m bot` as the launcher."""
    for placeholder, value in names.items():
        line = line.replace(placeholder, value)
    words = shlex.split(line)
    if words[:3] == ["python", "-m", "bot"]:
        words = bot_command(*words[3:])
    return subprocess.run(words, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def steps(db: Path) -> list[tuple[int, str]]:
    # Closed at once: a connection left open would write its own WAL back over a restored file.
    with contextlib.closing(sqlite3.connect(db)) as conn:
        return list(conn.execute("SELECT seq, kind FROM action_log ORDER BY campaign_id, seq"))


async def play(bot: Bot, session: aiohttp.ClientSession, *lines: tuple[str, str]) -> None:
    for user, text in lines:
        answer = await bot.send(session, user, text)
        assert answer["ok"], (text, answer)


SETUP = (
    ("ann", "/campaign create game:dash scenario:sprint"),
    ("ann", "/campaign join role:red"),
    ("bob", "/campaign join role:blue"),
    ("ann", "/campaign begin"),
    ("ann", "/act what:peek"),
)


async def test_the_readme_backup_and_restore_steps_work_as_written(
    tmp_path: Path, bots: list[Bot]
) -> None:
    backup, one_campaign = readme_blocks()
    assert backup[0] == 'sqlite3 data/sortie.db ".backup backup.db"'
    assert any(line.startswith("python -m bot import") for line in one_campaign)
    env = clean_env()  # the default database: ./data/sortie.db, as the README says
    bot = Bot(tmp_path, env=env, cwd=tmp_path)
    bots.append(bot)
    db = tmp_path / "data" / "sortie.db"
    async with aiohttp.ClientSession(timeout=TIMEOUT) as session:
        bot.start()
        await bot.wait_ready(session)
        await play(bot, session, *SETUP)
        # The backup, taken while the bot runs.
        made = run_line(backup[0], tmp_path, env)
        assert made.returncode == 0, made.stderr
        kept = steps(tmp_path / "backup.db")
        await play(bot, session, ("bob", "/act what:peek"), ("bob", "/end-turn"))
    code, logged = bot.stop()
    assert code == 0, logged
    assert "Traceback" not in logged and "leaked semaphore" not in logged, logged
    assert len(steps(db)) == len(kept) + 2
    # The restore, with the bot stopped.
    for line in backup[1:]:
        done = run_line(line, tmp_path, env)
        assert done.returncode == 0, (line, done.stdout, done.stderr)
    assert steps(db) == kept
    assert "1 reproducible, 0 failed" in done.stdout
    # One campaign into another channel, then play on there.
    for line in one_campaign:
        done = run_line(line, tmp_path, env, CHANNEL_ID="war-room", GUILD_ID="playground")
        if " import " in line:
            assert done.returncode == 1 and "already has a live campaign" in done.stderr
            done = run_line(line, tmp_path, env, CHANNEL_ID="restored", GUILD_ID="playground")
        assert done.returncode == 0, (line, done.stdout, done.stderr)
    assert "2 campaigns checked, 2 reproducible, 0 failed" in done.stdout
    async with aiohttp.ClientSession(timeout=TIMEOUT) as session:
        bot.start()
        await bot.wait_ready(session)
        moved = await bot.send(session, "bob", "/act what:peek", channel="restored")
        assert moved["ok"], moved
        status = await bot.send(session, "ann", "/campaign status", channel="restored")
        assert "(campaign #2, active)" in " ".join(r["content"] for r in status["replies"])
    bot.stop()


@pytest.fixture
def played(tmp_path: Path, bots: list[Bot]) -> tuple[dict[str, str], Path]:
    """A database with one Dash campaign in channel war-room, played by the real process."""
    env = clean_env(DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'cli.db'}")

    async def go() -> None:
        bot = Bot(tmp_path, env=env)
        bots.append(bot)
        async with aiohttp.ClientSession(timeout=TIMEOUT) as session:
            bot.start()
            await bot.wait_ready(session)
            await play(bot, session, *SETUP)
            exported = await bot.send(session, "ann", "/campaign export")
            image = exported["replies"][0]["images"][0]
            (tmp_path / "owner.json").write_bytes(await bot.fetch(session, image))
        bot.stop()

    asyncio.run(go())
    return env, tmp_path


def test_export_and_import_refuse_clearly(played: tuple[dict[str, str], Path]) -> None:
    env, tmp = played
    out = tmp / "c.json.gz"
    made = cli("export", "--channel", "war-room", "--out", str(out), env=env)
    assert made.returncode == 0 and "Exported campaign #1" in made.stdout, made.stderr
    assert json.loads(gzip.decompress(out.read_bytes()))["format"] == "sortie-campaign"
    missing = cli("export", "--channel", "nowhere", "--out", str(tmp / "x.json"), env=env)
    assert missing.returncode == 1 and "No campaign in channel nowhere" in missing.stderr
    plain = cli("export", "--channel", "war-room", "--out", str(tmp / "plain.json"), env=env)
    assert plain.returncode == 0, plain.stderr
    # The owner's export of a live campaign is its public record (no seed, no state): it does
    # not import; the operator's exports, plain and compressed, both do.
    record = cli("import", str(tmp / "owner.json"), "--channel", "copy-0", env=env)
    assert record.returncode == 1 and "not a valid campaign export" in record.stderr
    for name, channel in (("plain.json", "copy-1"), ("c.json.gz", "copy-2")):
        done = cli(
            "import", str(tmp / name), "--channel", channel, "--guild", "playground", env=env
        )
        assert done.returncode == 0 and "Imported as campaign" in done.stdout, done.stderr
    # An edited file names what is wrong; nothing is imported.
    document = json.loads((tmp / "plain.json").read_bytes())
    document["status"] = "banana"
    (tmp / "bad.json").write_text(json.dumps(document))
    refused = cli("import", str(tmp / "bad.json"), "--channel", "copy-3", env=env)
    assert refused.returncode == 1 and "status" in refused.stderr, refused.stderr
    document["status"] = "active"
    document["owner_id"] = "pg:mallory"
    (tmp / "bad.json").write_text(json.dumps(document))
    refused = cli("import", str(tmp / "bad.json"), "--channel", "copy-3", env=env)
    assert refused.returncode == 1 and "not signed by this Sortie" in refused.stderr
    unreadable = cli("import", str(tmp / "absent.json"), "--channel", "copy-3", env=env)
    assert unreadable.returncode == 1 and "cannot read" in unreadable.stderr
    checked = cli("verify", env=env)
    assert "3 campaigns checked, 3 reproducible, 0 failed" in checked.stdout, checked.stdout
