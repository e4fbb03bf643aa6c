"""The engine's import structure: no cycles, no imports inside functions, a core that does not
name the Strikeback expansion (issue #29). Read from the source by tests/engine_imports.py.

Where the restructuring is not finished, the figure still standing is pinned exactly: the test
fails if it grows, and fails if it shrinks without the pin being lowered, so a stale allowance
cannot hide a regression.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import engine_imports
import pytest
from engine_imports import (
    ROOT,
    ModuleImports,
    all_edges,
    cycles,
    expansion_references,
    is_core_galaxy,
    read_imports,
)

from engine.galaxy import expansion
from engine.galaxy.game import GalaxyDefenders
from engine.selfplay import play_one

# Figures still standing, by game package (an empty map is the goal). Every package is at 0
# function-level imports and 0 modules in cycles; only core references to the expansion remain.
FUNCTION_LEVEL_IMPORTS: dict[str, int] = {}
MODULES_IN_CYCLES: dict[str, int] = {}
CORE_REFERENCES_TO_EXPANSION = 0

GRAPH = read_imports()


def package(module: str) -> str:
    return ".".join(module.split(".")[:2])


def nested_report(graph: dict[str, ModuleImports]) -> list[str]:
    return [
        f"{info.path.relative_to(ROOT)}:{line} imports {target}"
        for info in graph.values()
        for line, target in sorted(set(info.nested))
    ]


def test_no_import_inside_a_function() -> None:
    found: Counter[str] = Counter()
    for name, info in GRAPH.items():
        found[package(name)] += info.nested_statements
    assert +found == FUNCTION_LEVEL_IMPORTS, "\n".join(nested_report(GRAPH))


def test_no_import_cycle() -> None:
    found: Counter[str] = Counter()
    for component in cycles(all_edges(GRAPH)):
        found[package(component[0])] += len(component)
    assert dict(found) == MODULES_IN_CYCLES, cycles(all_edges(GRAPH))


def test_the_modules_import_each_other_one_way_at_load() -> None:
    """Imports that run when a module loads never loop (else Python fails half-way)."""
    assert cycles({name: info.top - {name} for name, info in GRAPH.items()}) == []


def test_core_galaxy_does_not_name_the_expansion() -> None:
    found = expansion_references(GRAPH)
    assert sum(len(v) for v in found.values()) == CORE_REFERENCES_TO_EXPANSION, found


# The checker itself, on small sources, so a silent reader cannot pass the checks above.


def test_the_reader_sees_every_engine_module() -> None:
    assert {"engine.galaxy.game", "engine.galaxy.strikeback.play", "engine.reich"} <= set(GRAPH)
    assert is_core_galaxy("engine.galaxy.phases")
    assert not is_core_galaxy("engine.galaxy.strikeback.play")
    assert not is_core_galaxy("engine.reich.game")
    assert not is_core_galaxy("engine.galaxy")  # the assembly: core + expansion


def test_the_core_plays_a_core_mission_with_no_expansion_loaded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every core rule moment runs without asking an expansion; an expansion rule is refused."""
    monkeypatch.setattr(expansion, "_LOADED", [])
    game = GalaxyDefenders()
    for scenario in ("m1", "m4"):
        result = play_one(game, scenario, 1, policy_name="advisor")
        assert result.error is None and result.finished, result
    unknown = play_one(game, "os1", 1)  # the expansion's missions are not offered
    assert unknown.error is not None and "Unknown scenario 'os1'" in unknown.error, unknown
    switched = play_one(game, "m1", 1, options={"high-impact": "on"})  # an expansion rule
    assert switched.error is not None and "NotSupportedYet" in switched.error, switched


def test_cycles_are_found() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_reader_tells_load_time_function_and_typing_imports_apart(tmp_path: Path) -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "from engine.a import x\n"
        "if TYPE_CHECKING:\n"
        "    from engine.b import y\n"
        "def f() -> None:\n"
        "    from engine.c import z\n"
        "    import json\n"
    )
    root = tmp_path
    (root / "engine").mkdir()
    for name in ("__init__", "a", "b", "c"):
        (root / "engine" / f"{name}.py").write_text("")
    (root / "engine" / "m.py").write_text(source)
    old = engine_imports.ROOT, engine_imports.ENGINE
    engine_imports.ROOT, engine_imports.ENGINE = root, root / "engine"
    try:
        graph = engine_imports.read_imports()
    finally:
        engine_imports.ROOT, engine_imports.ENGINE = old
    info = graph["engine.m"]
    assert info.top == {"engine.a"}
    assert info.typing_only == {"engine.b"}
    assert sorted(info.nested) == [(6, "engine.c"), (7, "(outside engine)")]
    assert info.nested_statements == 2
    assert ast.parse(source)  # the probe is valid Python
