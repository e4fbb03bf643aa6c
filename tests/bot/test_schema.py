"""The Discord tree, the playground's suggestions and the text parser agree with the schema."""

from __future__ import annotations

from typing import Any

import pytest
from support import caller

from bot.commands import CommandError, allowed_keys, parse
from bot.discord.client import command_tree_json
from bot.pacing import CAMPAIGN_SETTINGS
from bot.playground.suggest import suggest
from bot.schema import COMMANDS, MAX_DESCRIPTION, Spec
from bot.table import TableService

DISCORD_TYPES = {"text": 3, "integer": 4, "boolean": 5, "user": 6, "channel": 7}


def discord_command(tree: list[dict[str, Any]], spec: Spec) -> dict[str, Any]:
    top = next(c for c in tree if c["name"] == spec.name)
    if spec.sub is None:
        return top
    return next(o for o in top["options"] if o["name"] == spec.sub)


async def test_the_discord_tree_is_the_schema() -> None:
    tree = await command_tree_json()
    assert {c["name"] for c in tree} == {spec.name for spec in COMMANDS}
    for spec in COMMANDS:
        command = discord_command(tree, spec)
        assert command["description"] == spec.description
        assert len(spec.description) <= MAX_DESCRIPTION
        options = {o["name"]: o for o in command.get("options") or []}
        assert set(options) == {o.name for o in spec.options}, spec.path
        for option in spec.options:
            sent = options[option.name]
            where = f"/{spec.path} {option.name}"
            assert sent["type"] == DISCORD_TYPES[option.kind], where
            assert sent["description"] == option.description, where
            assert len(option.description) <= MAX_DESCRIPTION, where
            assert bool(sent.get("required")) == option.required, where
            assert bool(sent.get("autocomplete")) == (option.complete != "none"), where
            assert [c["value"] for c in sent.get("choices") or []] == [
                c.value for c in option.choices
            ], where
            if option.min_value is not None:
                assert sent["min_value"] == option.min_value, where
            if option.max_value is not None:
                assert sent["max_value"] == option.max_value, where


def text_keys(spec: Spec) -> list[str]:
    keys = allowed_keys(spec.name, spec.sub)
    return list(spec.text_options if keys is None else keys)


@pytest.mark.parametrize("spec", COMMANDS, ids=lambda s: s.path)
async def test_the_playground_offers_exactly_the_schema_options(
    table: TableService, spec: Spec
) -> None:
    offered = await suggest(table, caller("ann"), f"/{spec.path} ")
    assert [s.value for s in offered] == [f"{key}:" for key in text_keys(spec)]


@pytest.mark.parametrize("spec", COMMANDS, ids=lambda s: s.path)
def test_the_parser_takes_exactly_the_schema_options(spec: Spec) -> None:
    for key in text_keys(spec):
        assert parse(f"/{spec.path} {key}:x").options == {key: "x"}
    if spec.text_keys == "scenario":
        return  # the scenario's options, checked by /campaign create against the scenario
    with pytest.raises(CommandError) as refused:
        parse(f"/{spec.path} extra:@everyone")
    message = str(refused.value)
    assert "'extra'" in message
    assert all(key in message for key in text_keys(spec))


def test_a_typo_is_refused_with_a_suggestion() -> None:
    with pytest.raises(CommandError, match=r"Did you mean view\? Its options: view, for, share\."):
        parse("/board viwe:text")
    with pytest.raises(CommandError, match="takes no options"):
        parse("/undo now:yes")
    with pytest.raises(CommandError, match="Did you mean nudge_hours"):
        parse("/campaign settings nudge_hour:12")
    assert set(CAMPAIGN_SETTINGS) == set(
        text_keys(next(s for s in COMMANDS if s.text_keys == "settings"))
    )


async def test_every_command_has_exactly_one_handler(table: TableService) -> None:
    assert set(table.commands) == {(spec.name, spec.sub) for spec in COMMANDS}
