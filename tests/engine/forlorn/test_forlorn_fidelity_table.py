"""The fidelity table in docs/games/forlorn.md names real tests, and every row it calls correct
names at least one black-box rulebook probe (tests/engine/forlorn/rulebook/, issue #30)."""

from __future__ import annotations

import re
from pathlib import Path

from fidelity_table import ROOT, bare_correct_rows, missing_tests, one, rows

HERE = Path(__file__).resolve().parent
BOOK = HERE / "rulebook"
TABLE = rows(ROOT / "docs" / "games" / "forlorn.md", "| Section | Module | Status | Test |")


def _module(prefix: str) -> Path | None:
    """`ch05` -> rulebook/test_ch05_*.py, `rb_07` -> rulebook/test_forlorn_rb_07_*.py,
    `examples` -> test_forlorn_examples.py."""
    if re.fullmatch(r"ch\d\d", prefix):
        return one(sorted(BOOK.glob(f"test_{prefix}_*.py")))
    if re.fullmatch(r"rb_\d\d", prefix):
        return one(sorted(BOOK.glob(f"test_forlorn_{prefix}_*.py")))
    return one([HERE / f"test_forlorn_{prefix}.py"])


def test_every_named_test_exists() -> None:
    assert not (missing := missing_tests(TABLE, _module)), missing


def test_every_correct_row_names_a_black_box_rulebook_test() -> None:
    assert not (bare := bare_correct_rows(TABLE, _module, BOOK)), bare
