"""The table service's shape, checked on the source: explicit collaborators, no mixins, no
string dispatch, short parameter lists, and shells that go through the service only."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TABLE = sorted((ROOT / "bot" / "table").glob("*.py"))
MAX_PARAMETERS = 6
# The shells and the scheduler speak to the service, never to the repository behind it.
OUTSIDE = [
    *sorted((ROOT / "bot" / "discord").glob("*.py")),
    *sorted((ROOT / "bot" / "playground").glob("*.py")),
    ROOT / "bot" / "scheduler.py",
]


def parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


@pytest.mark.parametrize("path", TABLE, ids=lambda p: p.name)
def test_no_function_takes_more_than_six_parameters(path: Path) -> None:
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = node.args
            names = [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]]
            names = [n for n in names if n not in ("self", "cls")]
            assert len(names) <= MAX_PARAMETERS, f"{path.name}:{node.lineno} {node.name}{names}"


@pytest.mark.parametrize("path", TABLE, ids=lambda p: p.name)
def test_no_mixins_and_no_string_dispatch(path: Path) -> None:
    tree = parsed(path)
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            bases = [ast.unparse(b) for b in node.bases]
            assert len(bases) <= 1, f"{node.name} mixes {bases}"
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "getattr":
            assert not isinstance(node.args[1], ast.JoinedStr), f"{path.name}:{node.lineno}"


@pytest.mark.parametrize("path", OUTSIDE, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_shells_never_reach_the_repository(path: Path) -> None:
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Attribute):
            assert node.attr != "repo", f"{path.name}:{node.lineno} uses .repo"
        if isinstance(node, ast.ImportFrom):
            assert node.module != "bot.storage.repo", f"{path.name} imports the repository"
