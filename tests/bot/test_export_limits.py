"""Exports that fit a Discord upload, imports that take what an upload can carry, and an
empty DISCORD_TOKEN that means the playground."""

from __future__ import annotations

import gzip
import json

import pytest
from support import caller, text
from test_import_validation import exported

from bot import archive
from bot.config import Settings
from bot.table import TableService

ANN, BOB = caller("ann"), caller("bob")


async def started(table: TableService) -> None:
    await exported(table)


async def test_a_large_export_is_compressed_and_imports(
    table: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    await started(table)
    monkeypatch.setattr(archive, "COMPRESS_ABOVE", 100)
    # While the campaign is live the owner's export is its public record (compressed too),
    # which cannot be imported: it holds neither the seed nor the state.
    (live,) = await table.handle(ANN, "/campaign export")
    (record,) = live.images
    assert record.filename.endswith("-public.json.gz")
    assert json.loads(gzip.decompress(record.data))["format"] == "sortie-campaign-record"
    with pytest.raises(Exception, match="not a valid campaign export"):
        await table.import_campaign(record.data, "chan-2", "guild-1")
    # Once it is over, the export is complete and imports.
    await table.handle(ANN, "/campaign end confirm:yes")
    (reply,) = await table.handle(ANN, "/campaign export")
    (attachment,) = reply.images
    assert attachment.filename.endswith(".json.gz")
    assert json.loads(gzip.decompress(attachment.data))["format"] == "sortie-campaign"
    assert "Imported as campaign" in await table.import_campaign(
        attachment.data, "chan-2", "guild-1"
    )


async def test_an_export_too_large_for_discord_says_where_to_get_it(
    table: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue #22: an export larger than the upload limit disappeared on Discord.
    await started(table)
    monkeypatch.setattr(archive, "COMPRESS_ABOVE", 100)
    monkeypatch.setattr("bot.table.campaigns.MAX_IMPORT_BYTES", 200)
    answer = text(await table.handle(ANN, "/campaign export"))
    assert "more than Discord lets me attach" in answer
    assert "python -m bot export --channel chan-1 --out FILE" in answer


async def test_imports_take_what_an_upload_allows(table: TableService) -> None:
    # Issue #22: imports stopped at 8 MB while uploads allow 10 MB.
    await started(table)
    _, data = await table.export_channel("chan-1")
    padded = data + b" " * (9 * 1024 * 1024)
    assert "Imported as campaign" in await table.import_campaign(padded, "chan-2", "guild-1")
    too_big = data + b" " * (10 * 1024 * 1024)
    with pytest.raises(Exception, match="an import takes at most 10 MiB"):
        await table.import_campaign(too_big, "chan-3", "guild-1")


def test_a_gzip_bomb_is_refused() -> None:
    bomb = gzip.compress(b" " * (archive.MAX_EXPANDED_BYTES + 10))
    assert len(bomb) < archive.MAX_IMPORT_BYTES
    with pytest.raises(ValueError, match="expands to more"):
        archive.read_archive(bomb)


@pytest.mark.parametrize("value", ["", "  "])
def test_an_empty_discord_token_means_the_playground(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    # Issue #22: `DISCORD_TOKEN=` made the bot try to log in to Discord.
    monkeypatch.setenv("DISCORD_TOKEN", value)
    assert Settings(_env_file=None).discord_token is None
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    token = Settings(_env_file=None).discord_token
    assert token is not None and token.get_secret_value() == "abc"
