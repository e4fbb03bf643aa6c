"""`make run` and `make test` find a Python 3.11+ by themselves (scripts/find-python.sh, issue #35).

The interpreters here are stand-ins on an otherwise empty PATH: a shell script that answers the
version probe, or one that fails the way an unselected pyenv shim does.
"""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "find-python.sh"
SHIM = '#!/bin/sh\necho "pyenv: $(basename "$0"): command not found" >&2\nexit 127\n'


def interpreter(folder: Path, name: str, version: str | None) -> Path:
    """A stand-in that prints `version` for any `-c` probe, or a failing shim when None."""
    path = folder / name
    path.write_text(SHIM if version is None else f"#!/bin/sh\necho {version}\n")
    path.chmod(0o755)
    return path


def find(folder: Path, python: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["/bin/sh", str(SCRIPT), python],
        env={"PATH": str(folder)},
        capture_output=True,
        text=True,
        timeout=30,
    )


def test_the_newest_interpreter_that_runs_is_chosen(tmp_path: Path) -> None:
    interpreter(tmp_path, "python3.13", None)  # a shim for a version pyenv has not selected
    interpreter(tmp_path, "python3.12", "3.12.1")
    interpreter(tmp_path, "python3.11", "3.11.7")
    interpreter(tmp_path, "python3", "3.11.7")
    found = find(tmp_path)
    assert (found.returncode, found.stdout.strip()) == (0, "python3.12")


def test_python3_counts_only_from_3_11_on(tmp_path: Path) -> None:
    interpreter(tmp_path, "python3", "3.14.0")
    assert find(tmp_path).stdout.strip() == "python3"
    interpreter(tmp_path, "python3", "3.10.12")
    refused = find(tmp_path)
    assert refused.returncode == 1 and refused.stdout == ""
    assert "python3: Python 3.10.12, too old" in refused.stderr


def test_none_fits_names_everything_tried(tmp_path: Path) -> None:
    interpreter(tmp_path, "python3.13", None)
    interpreter(tmp_path, "python3", "3.9.18")
    refused = find(tmp_path)
    assert refused.returncode == 1
    lines = refused.stderr.splitlines()
    assert lines[0] == "Sortie needs Python 3.11 or newer. Tried:"
    assert lines[1:5] == [
        f"  python3.13: found at {tmp_path / 'python3.13'} but does not run",
        "  python3.12: not found",
        "  python3.11: not found",
        "  python3: Python 3.9.18, too old",
    ]
    assert "PYTHON=" in lines[5]


def test_python_given_by_hand_wins_and_is_checked(tmp_path: Path) -> None:
    interpreter(tmp_path, "python3.13", "3.13.0")
    own = interpreter(tmp_path, "my-python", "3.11.7")
    assert find(tmp_path, str(own)).stdout.strip() == str(own)
    old = interpreter(tmp_path, "old-python", "3.10.12")
    refused = find(tmp_path, str(old))
    assert refused.returncode == 1 and "3.10.12, too old" in refused.stderr
    assert "python3.13" not in refused.stderr  # a Python named by hand is the only one tried


def test_the_makefile_builds_its_virtualenv_with_the_found_interpreter() -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert "FIND_PYTHON := sh scripts/find-python.sh '$(PYTHON)'" in makefile
    venv_rule = makefile.split("$(BIN)/python:\n", 1)[1].split("\n\n", 1)[0]
    assert "$$($(FIND_PYTHON))" in venv_rule and "$$python -m venv $(VENV)" in venv_rule


def test_the_supported_versions_are_the_ones_searched_and_smoked() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["requires-python"] == ">=3.11"
    classified = {
        c.rsplit(" ", 1)[1]
        for c in project["classifiers"]
        if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)
    }
    assert classified == {"3.11", "3.12", "3.13"}
    searched = re.findall(r"python(3\.\d+)", SCRIPT.read_text().split("for candidate in", 1)[1])
    assert set(searched[:3]) == classified
