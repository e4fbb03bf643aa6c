"""Adding an Operation Strikeback mission adds files and one registration line (issue #29).

A mission's rules and state live in its own module (`mission_rules/<key>.py`); the shared
expansion state carries the mission's part without naming it, and the rest of the code (core,
expansion, renderers) names neither the mission's key nor its state type. The pictures draw a
mission's marks and tokens from the view (`View.symbols`), so `renders/` names no mission word.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from engine_imports import ROOT

from engine.core.dice import SeededDice
from engine.galaxy import GAME
from engine.galaxy.strikeback.mission_rules import MissionRules, all_rules, shipped
from engine.galaxy.strikeback.status import StrikebackState

RULES_DIR = ROOT / "engine" / "galaxy" / "strikeback" / "mission_rules"


def code(*roots: str) -> dict[Path, str]:
    return {
        p: p.read_text(encoding="utf-8") for r in roots for p in sorted((ROOT / r).rglob("*.py"))
    }


def own_module(rules: MissionRules) -> Path:
    return RULES_DIR / f"{type(rules).__module__.rsplit('.', 1)[-1]}.py"


def test_every_shipped_mission_registers_its_rules_and_its_state() -> None:
    registered = all_rules()
    assert [r.key for r in registered] == ["os1", "os2", "os3", "os4", "os5", "os6"]
    tree = ast.parse(Path(shipped.__file__).read_text(encoding="utf-8"))
    imports = [n for n in tree.body if isinstance(n, ast.ImportFrom)]
    assert len(imports) == 1  # the one line a new mission joins
    assert sorted(a.name for a in imports[0].names) == sorted(
        own_module(r).stem for r in registered
    )
    for rules in registered:
        assert rules.state is not None and rules.state().key == rules.key
        text = own_module(rules).read_text(encoding="utf-8")
        assert text.count("\nregister(") == 1, rules.key


def test_the_shared_expansion_state_has_no_mission_only_field() -> None:
    """Every field of StrikebackState is read by some expansion or core module that is not a
    mission's: a field only missions use belongs in their own state."""
    outside = {
        p: t
        for p, t in code("engine/galaxy").items()
        if RULES_DIR not in p.parents and p.name != "status.py"
    }
    for field in StrikebackState.model_fields:
        pattern = re.compile(rf"\.{field}\b|\b{field}=")
        assert any(pattern.search(t) for t in outside.values()), field


def test_no_module_outside_a_mission_names_its_key_or_its_state() -> None:
    sources = code("engine", "renders", "bot")
    for rules in all_rules():
        mine = own_module(rules)
        assert rules.state is not None
        words = [rf"[\"']{rules.key}[\"']", rf"\b{rules.state.__name__}\b"]
        for path, text in sources.items():
            if path == mine:
                continue
            for word in words:
                assert not re.search(word, text), f"{path.relative_to(ROOT)} names {word}"


def test_renders_name_no_mission_and_none_of_its_marks() -> None:
    """A mission's marks and tokens reach the pictures as `View.symbols`; renders/ knows none."""
    words = {rf"\b{r.key}\b" for r in all_rules()}
    words |= {rf"\b{s.kind}s?\b" for r in all_rules() for s in r.symbols if not s.numbered}
    assert len(words) > len(all_rules())
    for path, text in code("renders").items():
        for word in words:
            found = re.search(word, text, re.IGNORECASE)
            assert found is None, f"{path.relative_to(ROOT)} names {found and found.group()}"


def test_a_missions_marks_travel_in_the_view() -> None:
    state = GAME.new("os6", ["marine", "hulk"], {}, SeededDice(3))
    symbols = GAME.view(state, None).symbols
    assert {(s.kind, s.on) for s in symbols} == {
        ("rift", "mark"),
        ("probe", "mark"),
        ("probe", "token"),
    }
    assert GAME.view(GAME.new("m1", ["marine"], {}, SeededDice(3)), None).symbols == []
