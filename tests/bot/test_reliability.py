"""Export and import, owner rollback, rate limits."""

from __future__ import annotations

import json
from datetime import timedelta

from support import caller, text

from bot.clock import ManualClock
from bot.ratelimit import Limit, RateLimits
from bot.storage.db import Database
from bot.table import TableService, UserError

ANN, BOB = caller("ann"), caller("bob")


async def play_a_little(table: TableService) -> None:
    await table.handle(ANN, "/campaign create game:dash scenario:sprint")
    await table.handle(ANN, "/campaign join role:red")
    await table.handle(BOB, "/campaign join role:blue")
    await table.handle(ANN, "/campaign begin")
    for who in (ANN, BOB, ANN, BOB):
        await table.handle(who, "/act what:peek")
        await table.handle(who, "/end-turn")


async def operator_export(table: TableService, channel: str = "chan-1") -> bytes:
    """The full backup of a live campaign, as the operator's command line makes it."""
    _, data = await table.export_channel(channel)
    return data


async def test_export_then_import_recreates_the_campaign(table: TableService) -> None:
    await play_a_little(table)
    assert "Only the campaign owner" in text(await table.handle(BOB, "/campaign export"))
    exported = await table.handle(ANN, "/campaign export")
    assert exported[0].ephemeral and exported[0].images
    public = json.loads(exported[0].images[0].data)
    assert public["format"] == "sortie-campaign-record" and "seed" not in public
    data = await operator_export(table)
    document = json.loads(data)
    assert document["format"] == "sortie-campaign" and len(document["log"]) >= 5
    message = await table.import_campaign(data, "chan-2", "guild-1")
    assert "Imported as campaign" in message
    original = await table.repo.live_in_channel("chan-1")
    copy = await table.repo.live_in_channel("chan-2")
    assert original is not None and copy is not None
    assert copy.state_json == original.state_json and copy.step == original.step
    assert all(ok for _, ok, _ in await table.verify())
    # The restored campaign plays on.
    assert not (await table.handle(caller("ann", channel="chan-2"), "/act what:peek"))[0].error


async def test_export_of_an_ended_campaign_is_complete(table: TableService) -> None:
    await play_a_little(table)
    await table.handle(ANN, "/campaign end confirm:yes")
    document = json.loads((await table.handle(ANN, "/campaign export"))[0].images[0].data)
    assert document["format"] == "sortie-campaign" and document["seed"] and document["state"]


async def test_import_refuses_damaged_or_busy(table: TableService) -> None:
    await play_a_little(table)
    data = await operator_export(table)
    busy = await _refused(table, data, "chan-1")
    assert "already has a live campaign" in busy
    document = json.loads(data)
    document["state"]["positions"]["red"] = "F5"
    assert "does not reproduce" in await _refused(table, json.dumps(document).encode(), "chan-3")
    assert "not a valid campaign export" in await _refused(table, b'{"format": 1}', "chan-3")
    assert "not a valid campaign export" in await _refused(table, b"garbage", "chan-3")
    document = json.loads(data)
    document["log"] = document["log"][1:]
    assert "complete sequence" in await _refused(table, json.dumps(document).encode(), "chan-3")
    public = (await table.handle(ANN, "/campaign export"))[0].images[0].data
    assert "not a valid campaign export" in await _refused(table, public, "chan-3")


async def _refused(table: TableService, data: bytes, channel: str) -> str:
    # Vouched for by the operator: the damage itself must be caught, not only the signature.
    try:
        await table.import_campaign(data, channel, "guild-1", accept_unsigned=True)
    except UserError as refused:
        return str(refused)
    raise AssertionError("import was accepted")


async def test_owner_rolls_back_with_confirmation_and_it_is_logged(table: TableService) -> None:
    await play_a_little(table)
    campaign = await table.repo.live_in_channel("chan-1")
    assert campaign is not None
    rows = await table.repo.log(campaign.id or 0)
    state_at_3 = None
    assert "Only the campaign owner" in text(await table.handle(BOB, "/campaign rollback to:3"))
    assert "not an earlier step" in text(await table.handle(ANN, "/campaign rollback to:99"))
    assert "To confirm" in text(await table.handle(ANN, "/campaign rollback to:3"))
    done = await table.handle(ANN, "/campaign rollback to:3 confirm:yes")
    assert "rolls the campaign back to step 3" in text(done)
    campaign = await table.repo.live_in_channel("chan-1")
    assert campaign is not None
    after = await table.repo.log(campaign.id or 0)
    assert after[-1].kind == "rollback" and len(after) == len(rows) + 1
    from bot.replay import replay

    state_at_3 = replay(campaign, [r for r in rows if r.seq <= 3]).final
    assert json.loads(campaign.state_json or "") == state_at_3.model_dump(mode="json")
    assert all(ok for _, ok, _ in await table.verify())


async def test_rate_limits_per_user_with_a_friendly_message(db: Database) -> None:
    clock = ManualClock()
    limits = RateLimits(user=Limit(burst=3, per_seconds=30), channel=Limit(burst=5, per_seconds=30))
    table = TableService(db, clock=clock, limits=limits)
    for _ in range(3):
        assert not (await table.handle(ANN, "/help"))[0].error
    limited = await table.handle(ANN, "/help")
    assert limited[0].error and "Try again in 10 s" in limited[0].content
    for _ in range(2):
        assert not (await table.handle(BOB, "/help"))[0].error
    assert "faster than the table" in text(await table.handle(BOB, "/help"))  # channel full
    clock.advance(timedelta(seconds=30))
    assert not (await table.handle(ANN, "/help"))[0].error
