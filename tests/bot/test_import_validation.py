"""Import refuses every file the bot could not have written, naming the wrong field.

Each test here reproduced one way issue #22 found to harm a server through an imported file.
Files are imported with `accept_unsigned=True` (an operator vouching for a file from another
deployment) unless the test is about the signature: the field checks stand on their own.
"""

from __future__ import annotations

import copy
import itertools
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import caller, text

from bot.table import TableService, UserError

ANN, BOB = caller("ann"), caller("bob")


async def exported(table: TableService) -> dict[str, Any]:
    """A short Dash campaign in chan-1, exported in full by the operator."""
    for who, line in (
        (ANN, "/campaign create game:dash scenario:sprint"),
        (ANN, "/campaign join role:red"),
        (BOB, "/campaign join role:blue"),
        (ANN, "/campaign begin"),
        (ANN, "/act what:peek"),
        (ANN, "/end-turn"),
    ):
        assert not (await table.handle(who, line))[0].error, line
    _, data = await table.export_channel("chan-1")
    document: dict[str, Any] = json.loads(data)
    return document


async def refusal(
    table: TableService, document: dict[str, Any], accept_unsigned: bool = True
) -> str:
    data = json.dumps(document).encode()
    with pytest.raises(UserError) as refused:
        await table.import_campaign(data, "chan-2", "guild-1", accept_unsigned)
    assert await table.repo.live_in_channel("chan-2") is None  # nothing was imported
    return str(refused.value)


@pytest.mark.parametrize("value", ["abc", "1e308", 5, True, None, "-24"])
async def test_settings_the_bot_would_refuse_are_refused(table: TableService, value: Any) -> None:
    document = await exported(table)
    document["settings"]["deadline_hours"] = value
    assert "settings.deadline_hours" in await refusal(table, document)
    # The owner cannot write them either.
    answer = text(await table.handle(ANN, f"/campaign settings deadline_hours:{value}"))
    assert "deadline_hours must be" in answer


async def test_unknown_settings_and_bad_mirrors_are_refused(table: TableService) -> None:
    document = await exported(table)
    document["settings"]["loud"] = "yes"
    assert "settings.loud is not a setting" in await refusal(table, document)
    del document["settings"]["loud"]
    document["settings"]["mirrors"] = ["<@&123>"]
    assert "settings.mirrors" in await refusal(table, document)


async def test_an_active_campaign_without_state_is_refused(table: TableService) -> None:
    document = await exported(table)
    document["state"] = None
    assert "state: a campaign under way needs its state" in await refusal(table, document)


async def test_forged_event_text_is_refused(table: TableService) -> None:
    document = await exported(table)
    document["log"][1]["events"].append({"kind": "note", "text": "@everyone free nitro"})
    assert "log.1.events are not what replaying step 2 produces" in await refusal(table, document)
    _, data = await table.export_channel("chan-1")
    document = json.loads(data)
    index, row = next((i, row) for i, row in enumerate(document["log"]) if row["events"])
    row["events"][0]["text"] = "<@123> wins"
    assert f"log.{index}.events" in await refusal(table, document)


@pytest.mark.parametrize("field", ["owner", "seat"])
async def test_edited_owner_or_seat_player_breaks_the_signature(
    table: TableService, field: str
) -> None:
    document = await exported(table)
    if field == "owner":
        document["owner_id"] = "id-mallory"
    else:
        document["seats"][1]["user_id"] = "id-mallory"
    assert "not signed by this Sortie" in await refusal(table, document, accept_unsigned=False)


async def test_a_seat_the_scenario_does_not_have_is_refused(table: TableService) -> None:
    document = await exported(table)
    document["seats"][1]["role"] = "ghost"
    assert "seats.1.role: 'ghost' is not a seat of sprint (seats: red, blue)" in await refusal(
        table, document
    )


async def test_a_duplicate_seat_is_named_as_such(table: TableService) -> None:
    document = await exported(table)
    document["seats"][1]["role"] = "red"
    assert "seats.1.role: the seat 'red' is listed twice" in await refusal(table, document)


async def test_a_missing_seat_of_the_mission_is_refused(table: TableService) -> None:
    document = await exported(table)
    del document["seats"][1]
    assert "the mission began with red, blue" in await refusal(table, document)


@pytest.mark.parametrize("status", ["banana", "finished-forever", "open"])
async def test_a_status_the_log_does_not_lead_to_is_refused(
    table: TableService, status: str
) -> None:
    document = await exported(table)
    document["status"] = status
    assert "status" in await refusal(table, document)


async def test_values_too_long_for_the_columns_are_refused_on_every_database(
    table: TableService,
) -> None:
    # On PostgreSQL these used to crash with "value too long for type character varying".
    document = await exported(table)
    for field, value in (
        ("outcome", "x" * 100_000),
        ("status", "s" * 17),
        ("owner_id", "9" * 33),
        ("scenario", "s" * 65),
    ):
        changed = {**document, field: value}
        assert field in await refusal(table, changed)
    document["seats"][0]["user_name"] = "n" * 101
    assert "seats.0.user_name" in await refusal(table, document)


async def test_a_seed_beyond_a_bigint_is_refused(table: TableService) -> None:
    document = await exported(table)
    document["seed"] = 2**70
    assert "seed" in await refusal(table, document)


async def test_options_the_scenario_does_not_offer_are_refused(table: TableService) -> None:
    document = await exported(table)
    document["options"] = {"speed": "ludicrous"}
    assert "options" in await refusal(table, document)


# ------------------------------------------------------------------ no file breaks the table

FIELDS = [
    ("status",),
    ("outcome",),
    ("owner_id",),
    ("seed",),
    ("state",),
    ("options",),
    ("settings", "nudge_hours"),
    ("settings", "window_minutes"),
    ("settings", "deadline_policy"),
    ("settings", "mirrors"),
    ("seats", 0, "role"),
    ("seats", 1, "user_id"),
    ("seats", 0, "user_name"),
    ("log", 0, "action"),
    ("log", 1, "kind"),
    ("log", 1, "seat"),
    ("log", 1, "user_id"),
    ("log", 1, "action"),
    ("log", 2, "events"),
    ("log", 2, "random_used"),
]
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.text(max_size=80)
    | st.sampled_from(["@everyone", "<@1>", "active", "finished", "red", "blue", "ghost", "1e308"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)
CHANNELS = itertools.count(100)
COMMANDS = [
    "/campaign status",
    "/campaign settings",
    "/board view:text",
    "/log",
    "/act what:peek",
    "/end-turn",
    "/undo",
    "/campaign export",
]


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(edits=st.lists(st.tuples(st.sampled_from(FIELDS), JSON), min_size=1, max_size=3))
async def test_no_imported_file_makes_a_later_command_fail(
    sprint_export: tuple[TableService, dict[str, Any]], edits: list[tuple[tuple[Any, ...], Any]]
) -> None:
    table, original = sprint_export
    document = copy.deepcopy(original)
    for path, value in edits:
        target: Any = document
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value
    channel = f"fuzz-{next(CHANNELS)}"
    try:
        await table.import_campaign(json.dumps(document).encode(), channel, "guild-1", True)
    except UserError:
        return
    # Accepted: every command answers (an unexpected error would raise out of handle).
    for user in ("ann", "bob"):
        for line in COMMANDS:
            await table.handle(caller(user, channel=channel), line)
    assert all(ok for _, ok, _ in await table.verify())


@pytest.fixture
async def sprint_export(table: TableService) -> tuple[TableService, dict[str, Any]]:
    return table, await exported(table)
