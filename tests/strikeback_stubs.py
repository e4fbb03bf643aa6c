"""Test-only stand-ins for Operation Strikeback missions 2-6, so the campaign's branching can
be exercised before the real missions exist. They live in a temporary content folder that a
test points the loader at: nothing here is shipped content.

Each stub is mission 1's file with its own key and the storybook's next-mission column, no
Special Events (generic Event cards in their places) and a plain table: half the team dead
fails it, the end of round 7 gives `result`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.galaxy.strikeback import missions as mission_files

# The storybook's Objectives tables, last column (storybook 7)
BRANCHES: dict[str, dict[str, str | None]] = {
    "os2": {"accomplished": "os4", "failed": "os3"},
    "os3": {"accomplished": "os5", "partial": "os5", "failed": "os3"},
    "os4": {"accomplished": "os5", "failed": "os4"},
    "os5": {"accomplished": "os6", "partial": "os6", "failed": "os5"},
    "os6": {"accomplished": None, "failed": "os6"},
}
GENERIC = {"os1-a": "ev05", "os1-b": "ev06", "os1-d": "ev07", "os1-c": "ev08"}


def install_stubs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Point the mission loader at the shipped missions plus a stub for each storybook mission
    not shipped yet (undone by `remove_stubs`); returns the stubbed keys."""
    source = mission_files.CONTENT
    keys = [k for k in BRANCHES if not (source / "missions" / f"{k}.json").exists()]
    for folder in ("missions", "close_encounters"):
        (tmp_path / folder).mkdir(parents=True)
        for path in (source / folder).glob("*.json"):
            (tmp_path / folder / path.name).write_text(path.read_text())
    os1 = json.loads((source / "missions" / "os1.json").read_text())
    for key in keys:
        stub = dict(os1)
        stub.update(
            key=key,
            title=f"Stub {key}",
            summary=f"A test stand-in for {key}.",
            special_events=[],
            stacks=[[GENERIC.get(c, c) for c in stack] for stack in os1["stacks"]],
            objectives=[
                {"when": ["dead>=half"], "result": "failed", "text": "Half dead."},
                {"when": ["round>7"], "result": "accomplished", "text": "Held out."},
            ],
            branches=BRANCHES[key],
        )
        (tmp_path / "missions" / f"{key}.json").write_text(json.dumps(stub))
    monkeypatch.setattr(mission_files, "CONTENT", tmp_path)
    mission_files._load.cache_clear()
    return keys


def remove_stubs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.undo()
    mission_files._load.cache_clear()
