"""Secrets at rest: the SQLite files are private, and the export-signing key can live outside
the database, is never made anew while an earlier key's exports may exist, and rotates on
purpose only (issue #33, item 6)."""

from __future__ import annotations

import asyncio
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import SecretStr
from support import caller

from bot.signing import SigningKeyError, configured_key, fingerprint
from bot.storage.db import Database
from bot.table import TableService

ANN, BOB = caller("ann"), caller("bob")
KEY = "k" * 40
ROOT = Path(__file__).resolve().parents[2]


def keyed(db: Database, key: str) -> TableService:
    """A service whose signing key is configured (as `bot.app` sets it from the settings)."""
    table = TableService(db)
    table.set_signing_key(key)
    return table


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def played(table: TableService) -> None:
    for who, line in (
        (ANN, "/campaign create game:dash scenario:sprint"),
        (ANN, "/campaign join role:red"),
        (BOB, "/campaign join role:blue"),
        (ANN, "/campaign begin"),
        (ANN, "/end-turn"),
    ):
        assert not (await table.handle(who, line))[0].error, line


async def test_the_sqlite_files_are_readable_by_their_owner_only(tmp_path: Path) -> None:
    old = os.umask(0o022)  # the usual umask: files come out 0644 unless the bot says otherwise
    try:
        db = Database(f"sqlite+aiosqlite:///{tmp_path / 'data' / 'sortie.db'}")
        await db.init()
        table = TableService(db)
        await played(table)
        files = sorted((tmp_path / "data").iterdir())
        assert {f.name for f in files} >= {"sortie.db", "sortie.db-wal", "sortie.db-shm"}
        assert {f.name: mode(f) for f in files} == {f.name: 0o600 for f in files}
        await db.close()
    finally:
        os.umask(old)


async def test_an_older_world_readable_database_is_narrowed(tmp_path: Path) -> None:
    path = tmp_path / "sortie.db"
    path.touch(mode=0o644)
    os.chmod(path, 0o644)
    db = Database(f"sqlite+aiosqlite:///{path}")
    await db.init()
    assert mode(path) == 0o600
    await db.close()


def test_the_key_comes_from_the_variable_or_its_file(tmp_path: Path) -> None:
    file = tmp_path / "key"
    file.write_text("f" * 64 + "\n")
    assert configured_key(SecretStr(KEY), str(file)) == KEY
    assert configured_key(None, str(file)) == "f" * 64
    assert configured_key(None, None) is None
    with pytest.raises(SigningKeyError, match="cannot be read"):
        configured_key(None, str(tmp_path / "absent"))
    with pytest.raises(SigningKeyError, match="at least 32"):
        configured_key(SecretStr("short"), None)


async def test_a_configured_key_signs_and_is_not_stored(db: Database) -> None:
    table = keyed(db, KEY)
    await played(table)
    _, data = await table.export_channel("chan-1")
    assert await table.repo.signing_key() == KEY
    used, current, stored = await table.repo.signing_status()
    assert used == current == fingerprint(KEY) and not stored
    # Another deployment reading the same file with the same key accepts its signature.
    await table.handle(ANN, "/campaign end")
    other = keyed(db, KEY)
    assert "imported" in (await other.import_campaign(data, "chan-9", "guild-1")).lower()


async def test_a_lost_key_is_an_error_not_a_new_key(db: Database) -> None:
    table = TableService(db)
    await played(table)
    await table.export_channel("chan-1")  # signed with a key made in the database
    await table.repo.forget_signing_key(keep_mark=True)  # the row lost (a partial restore)
    restarted = TableService(db)
    with pytest.raises(SigningKeyError, match="signing-key --new"):
        await restarted.repo.check_signing_key()
    with pytest.raises(SigningKeyError):
        await restarted.export_channel("chan-1")
    assert (await restarted.repo.signing_status())[2] is False  # no key was made


async def test_a_configured_key_dropped_later_is_an_error(db: Database) -> None:
    await played(keyed(db, KEY))
    await keyed(db, KEY).export_channel("chan-1")
    with pytest.raises(SigningKeyError, match=fingerprint(KEY)):
        await TableService(db).repo.check_signing_key()


async def test_a_rotation_is_noted_and_then_signs_with_the_new_key(db: Database) -> None:
    await played(TableService(db))
    await TableService(db).export_channel("chan-1")
    rotated = keyed(db, KEY)
    note = await rotated.repo.check_signing_key()
    assert note is not None and "--accept-unsigned" in note
    await rotated.export_channel("chan-1")
    assert await keyed(db, KEY).repo.check_signing_key() is None


def test_the_cli_moves_the_key_out_of_the_database(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'sortie.db'}"
    env = {**os.environ, "DATABASE_URL": url, "DISCORD_TOKEN": ""}
    env.pop("SORTIE_SIGNING_KEY", None)
    env.pop("SORTIE_SIGNING_KEY_FILE", None)

    def cli(*args: str, **extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "bot", *args],
            cwd=tmp_path,
            env={**env, "PYTHONPATH": str(ROOT), **extra},
            capture_output=True,
            text=True,
            timeout=60,
        )

    async def make_key() -> str:
        db = Database(url)
        await db.init()
        key = await TableService(db).repo.signing_key()
        await db.close()
        return key

    key = asyncio.run(make_key())
    moved = cli("signing-key", "--move-to", str(tmp_path / "key"))
    assert moved.returncode == 0, moved.stderr
    assert (tmp_path / "key").read_text().strip() == key and mode(tmp_path / "key") == 0o600
    refused = cli("verify")
    assert refused.returncode == 2 and "SORTIE_SIGNING_KEY_FILE" in refused.stderr
    fine = cli("verify", SORTIE_SIGNING_KEY_FILE=str(tmp_path / "key"))
    assert fine.returncode == 0, fine.stderr
    shown = cli("signing-key", SORTIE_SIGNING_KEY_FILE=str(tmp_path / "key"))
    assert fingerprint(key) in shown.stdout
