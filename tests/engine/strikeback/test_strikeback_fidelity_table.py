"""The fidelity table in docs/games/strikeback.md names real tests, and every row it calls
correct names at least one black-box rulebook probe (tests/engine/strikeback/rulebook/, #30)."""

from __future__ import annotations

import re
from pathlib import Path

from fidelity_table import ROOT, bare_correct_rows, missing_tests, one, rows, written_out

HERE = Path(__file__).resolve().parent
BOOK = HERE / "rulebook"
CORE = ROOT / "tests" / "engine" / "galaxy"
TABLE = rows(ROOT / "docs" / "games" / "strikeback.md", "| section | module | status | test |")
# The table's legend: short name -> test_strikeback_<x>.py.
SHORT = {
    "m": "mission1",
    "m2": "mission2",
    "m3": "mission3",
    "m4": "mission4",
    "m5": "mission5",
    "6": "mission6",
    "c45": "missions45_contract",
    "r": "rules",
    "l": "live",
    "p": "poses",
    "b": "barrier",
    "n": "npcs",
    "M": "masters",
    "x": "cards",
    "dg": "diggers",
    "c": "campaign",
    "k": "columns",
    "s": "suits",
    "w": "arsenal",
    "v": "powers",
    "d": "devices",
    "tx": "texts",
}


def _module(prefix: str) -> Path | None:
    """`rb9` -> rulebook/test_sb_rb_09_*.py, `m4` -> test_strikeback_mission4.py (and the
    others of the legend), core `t_cards` -> the core game's test_galaxy_cards.py; a module may
    be written out."""
    if re.fullmatch(r"rb\d+", prefix):
        return one(sorted(BOOK.glob(f"test_sb_rb_{int(prefix[2:]):02d}_*.py")))
    if prefix in SHORT:
        return one([HERE / f"test_strikeback_{SHORT[prefix]}.py"])
    if prefix.startswith("t_"):
        return one([CORE / f"test_galaxy_{prefix[2:]}.py"])
    return written_out(prefix, HERE)


def test_every_named_test_exists() -> None:
    assert not (missing := missing_tests(TABLE, _module)), missing


def test_every_correct_row_names_a_black_box_rulebook_test() -> None:
    assert not (bare := bare_correct_rows(TABLE, _module, BOOK)), bare
