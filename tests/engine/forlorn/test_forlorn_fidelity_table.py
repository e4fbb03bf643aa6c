"""The fidelity table in docs/games/forlorn.md names real tests, and every row it calls correct
names at least one black-box rulebook probe (tests/engine/forlorn/rulebook/, issue #30)."""

from __future__ import annotations

import ast
import fnmatch
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
BOOK = HERE / "rulebook"
DOC = ROOT / "docs" / "games" / "forlorn.md"
NAMED = re.compile(r"\b([a-z_0-9]+)::(test_[A-Za-z0-9_*]+)")


def _rows() -> list[list[str]]:
    lines = DOC.read_text(encoding="utf-8").splitlines()
    start = lines.index("| Section | Module | Status | Test |") + 2
    rows = []
    for line in lines[start:]:
        if not line.startswith("| "):
            break
        rows.append([c.strip() for c in line.strip("|").split(" | ")])
    return rows


def _module(prefix: str) -> Path | None:
    """`ch05` -> rulebook/test_ch05_*.py, `rb_07` -> rulebook/test_forlorn_rb_07_*.py,
    `examples` -> test_forlorn_examples.py."""
    if re.fullmatch(r"ch\d\d", prefix):
        found = sorted(BOOK.glob(f"test_{prefix}_*.py"))
    elif re.fullmatch(r"rb_\d\d", prefix):
        found = sorted(BOOK.glob(f"test_forlorn_{prefix}_*.py"))
    else:
        found = [HERE / f"test_forlorn_{prefix}.py"]
    return found[0] if len(found) == 1 and found[0].exists() else None


def _tests(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}


def test_every_named_test_exists() -> None:
    missing = []
    for row in _rows():
        for prefix, name in NAMED.findall(row[-1]):
            module = _module(prefix)
            if module is None or not fnmatch.filter(_tests(module), name):
                missing.append(f"{row[0]}: {prefix}::{name}")
    assert not missing, missing


def test_every_correct_row_names_a_black_box_rulebook_test() -> None:
    bare = [
        row[0]
        for row in _rows()
        if row[2].startswith("correct")
        and not any(re.fullmatch(r"ch\d\d|rb_\d\d", p) for p, _ in NAMED.findall(row[-1]))
    ]
    assert not bare, bare
