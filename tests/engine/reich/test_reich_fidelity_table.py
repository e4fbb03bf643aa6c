"""The fidelity table in docs/games/reich.md names real tests, and every row it calls correct
names at least one black-box rulebook probe (tests/engine/reich/rulebook/, issue #30)."""

from __future__ import annotations

import re
from pathlib import Path

from fidelity_table import ROOT, bare_correct_rows, missing_tests, one, rows, written_out

HERE = Path(__file__).resolve().parent
BOOK = HERE / "rulebook"
TABLE = rows(ROOT / "docs" / "games" / "reich.md", "| section | module | status | test |")
# The table's legend for the white-box modules.
SHORT = {
    "ex": "examples",
    "sk": "skills",
    "kw": "keywords",
    "df": "defects",
    "au": "audit",
    "lc": "legal_contract",
}


def _module(prefix: str) -> Path | None:
    """`a05` -> rulebook/test_audit_05_*.py, `rb_alarm` -> rulebook/test_reich_rb_alarm.py,
    `ex` -> test_reich_examples.py (and the others of the legend); `test_x.py` written out."""
    if re.fullmatch(r"a\d\d", prefix):
        return one(sorted(BOOK.glob(f"test_audit_{prefix[1:]}_*.py")))
    if prefix.startswith("rb_"):
        return one([BOOK / f"test_reich_{prefix}.py"])
    if prefix in SHORT:
        return one([HERE / f"test_reich_{SHORT[prefix]}.py"])
    return written_out(prefix, HERE)


def test_every_named_test_exists() -> None:
    assert not (missing := missing_tests(TABLE, _module)), missing


def test_every_correct_row_names_a_black_box_rulebook_test() -> None:
    assert not (bare := bare_correct_rows(TABLE, _module, BOOK)), bare
