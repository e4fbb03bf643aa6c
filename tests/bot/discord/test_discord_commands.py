"""`python -m bot commands` prints the whole slash surface, and it obeys Discord's rules."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fake_discord import command_errors

from bot.commands import GROUPS, TOP_LEVEL
from bot.discord.client import command_tree_json

ROOT = Path(__file__).resolve().parents[3]
SUBCOMMAND = 1
GLOBAL_COMMAND_LIMIT = 100

# The options each command must offer (name -> required?), beyond what the service parses.
EXPECTED: dict[str, dict[str, bool]] = {
    "campaign create": {"game": True, "scenario": True, "options": False},
    "campaign join": {"role": False},
    "campaign leave": {"role": False},
    "campaign begin": {},
    "campaign status": {},
    "campaign settings": {"setting": False, "value": False},
    "campaign end": {"confirm": False},
    "campaign list": {},
    "move": {"to": True, "unit": False},
    "attack": {"target": True, "unit": False, "weapon": False},
    "act": {"what": True, "unit": False, "target": False},
    "orders": {"order": True, "unit": False},
    "choose": {"option": True},
    "end-turn": {"unit": False},
    "undo": {},
    "board": {"for": False},
    "log": {"last": False},
    "help": {"topic": False},
}


@pytest.fixture(scope="module")
def printed() -> list[dict[str, Any]]:
    env = {**os.environ, "DISCORD_TOKEN": "", "PYTHONPATH": str(ROOT)}
    env.pop("DISCORD_TOKEN")
    result = subprocess.run(
        [sys.executable, "-m", "bot", "commands"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    tree: list[dict[str, Any]] = json.loads(result.stdout)
    return tree


def flatten(tree: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Every invocable command by its full name ('campaign create', 'move' ...)."""
    found: dict[str, dict[str, Any]] = {}
    for command in tree:
        subs = [o for o in command.get("options") or [] if o["type"] == SUBCOMMAND]
        if subs:
            for sub in subs:
                found[f"{command['name']} {sub['name']}"] = sub
        else:
            found[command["name"]] = command
    return found


def test_cli_prints_every_command_the_service_understands(printed: list[dict[str, Any]]) -> None:
    names = {c["name"] for c in printed}
    assert names == set(GROUPS) | set(TOP_LEVEL)
    commands = flatten(printed)
    for group, subs in GROUPS.items():
        assert {n.split()[1] for n in commands if n.startswith(group + " ")} == set(subs)
    for name, options in EXPECTED.items():
        declared = {o["name"]: bool(o.get("required")) for o in commands[name].get("options", [])}
        for option, required in options.items():
            assert declared.get(option) == required, (name, option, declared)


def test_names_and_descriptions_follow_discord_rules(printed: list[dict[str, Any]]) -> None:
    assert len(printed) <= GLOBAL_COMMAND_LIMIT
    problems = [problem for command in printed for problem in command_errors(command)]
    assert problems == []
    for name, command in flatten(printed).items():
        for option in command.get("options") or []:
            assert option["name"] == option["name"].lower() and 1 <= len(option["name"]) <= 32
            assert 1 <= len(option["description"]) <= 100, (name, option)


def test_every_free_text_play_option_offers_autocomplete(printed: list[dict[str, Any]]) -> None:
    commands = flatten(printed)
    for verb in ("move", "attack", "act", "orders", "choose", "end-turn"):
        for option in commands[verb].get("options") or []:
            # Free text completes from the legal actions; a fixed set comes as choices.
            assert option.get("autocomplete") or option.get("choices"), (verb, option["name"])


def test_the_checker_catches_what_discord_refuses() -> None:
    bad = {
        "name": "Move",
        "description": "",
        "options": [
            {"type": 3, "name": "x" * 33, "description": "ok"},
            {"type": 3, "name": "to", "description": "ok", "required": True},
            *({"type": 3, "name": f"o{i}", "description": "d"} for i in range(24)),
        ],
    }
    text = "\n".join(command_errors(bad))
    for expected in ("lowercase", "description must be", "26 options", "required option after"):
        assert expected in text


async def test_offline_tree_matches_the_cli(printed: list[dict[str, Any]]) -> None:
    assert await command_tree_json() == printed
