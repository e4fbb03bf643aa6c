"""Reading a game's fidelity table in `docs/games/`: its rows, the tests its Test column names,
and whether a row names a black-box rulebook probe (issue #30). The checkers beside each game's
tests say how that game's legend spells a test module; this module only applies it."""

from __future__ import annotations

import ast
import fnmatch
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# `prefix::test_name`, where the prefix is a legend's short name (`a05`, `rb9`, `M`, `6`) or a
# module written out (`test_reich_selfplay.py`, `tests/bot/test_games_e2e.py`).
NAMED = re.compile(r"(?<![\w./])([\w./]+)::(test_[A-Za-z0-9_*]+)")

Resolver = Callable[[str], Path | None]


@dataclass(frozen=True)
class Row:
    """One table row: its cells as written."""

    cells: list[str]

    @property
    def section(self) -> str:
        return self.cells[0]

    @property
    def status(self) -> str:
        return self.cells[2]

    @property
    def named(self) -> list[tuple[str, str]]:
        """The (prefix, test name) pairs the Test column names."""
        return NAMED.findall(self.cells[-1])


def rows(doc: Path, header: str) -> list[Row]:
    """The rows of the table whose header line is `header` (up to the first non-row line)."""
    lines = doc.read_text(encoding="utf-8").splitlines()
    start = lines.index(header) + 2
    found = []
    for line in lines[start:]:
        if not line.startswith("| "):
            break
        found.append(Row([c.strip() for c in line.strip("|").split(" | ")]))
    return found


def one(paths: list[Path]) -> Path | None:
    """The single existing module a legend prefix names, or None when it names none or several."""
    return paths[0] if len(paths) == 1 and paths[0].exists() else None


def written_out(prefix: str, here: Path) -> Path | None:
    """A module written out in the column: `tests/...py` from the project root, a bare
    `test_x.py` beside the game's tests. None when the prefix is a legend's short name."""
    if not prefix.endswith(".py"):
        return None
    return one([ROOT / prefix if "/" in prefix else here / prefix])


def tests_in(path: Path) -> set[str]:
    """The test functions a module defines at its top level."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}


def missing_tests(table: list[Row], resolve: Resolver) -> list[str]:
    """Every `prefix::name` the table names that no module's test function matches."""
    missing = []
    for row in table:
        for prefix, name in row.named:
            module = resolve(prefix)
            if module is None or not fnmatch.filter(tests_in(module), name):
                missing.append(f"{row.section}: {prefix}::{name}")
    return missing


def bare_correct_rows(table: list[Row], resolve: Resolver, rulebook: Path) -> list[str]:
    """The rows whose status starts with "correct" and that name no test kept in `rulebook`
    (the black-box probes written from the rulebook alone)."""
    bare = []
    for row in table:
        if not row.status.startswith("correct"):
            continue
        modules = [resolve(prefix) for prefix, _ in row.named]
        if not any(m is not None and m.parent == rulebook for m in modules):
            bare.append(row.section)
    return bare
