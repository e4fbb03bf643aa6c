"""The fidelity table in docs/games/galaxy.md names real tests, and every row it calls correct
names at least one black-box rulebook probe (tests/engine/galaxy/rulebook/, issue #30)."""

from __future__ import annotations

import re
from pathlib import Path

from fidelity_table import ROOT, bare_correct_rows, missing_tests, one, rows, written_out

HERE = Path(__file__).resolve().parent
BOOK = HERE / "rulebook"
TABLE = rows(ROOT / "docs" / "games" / "galaxy.md", "| rulebook section | module | status | test |")


def _module(prefix: str) -> Path | None:
    """The table's legend: `a05` -> rulebook/test_audit_05_*.py, `t_cards` ->
    test_galaxy_cards.py; a module may also be written out from the project root."""
    if re.fullmatch(r"a\d\d", prefix):
        return one(sorted(BOOK.glob(f"test_audit_{prefix[1:]}_*.py")))
    if prefix.startswith("t_"):
        return one([HERE / f"test_galaxy_{prefix[2:]}.py"])
    return written_out(prefix, HERE)


def test_every_named_test_exists() -> None:
    assert not (missing := missing_tests(TABLE, _module)), missing


def test_every_correct_row_names_a_black_box_rulebook_test() -> None:
    assert not (bare := bare_correct_rows(TABLE, _module, BOOK)), bare
