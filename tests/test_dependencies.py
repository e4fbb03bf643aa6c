"""Every package the code imports is declared, and every declared one is pinned in the locks."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIRST_PARTY = {"bot", "engine", "renders", "bench"}


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_names(requirements: list[str]) -> set[str]:
    return {canonical(re.split(r"[<>=!~\[; ]", r, maxsplit=1)[0]) for r in requirements}


def pyproject() -> dict:  # type: ignore[type-arg]
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def imported_top_level(folders: list[str]) -> set[str]:
    names: set[str] = set()
    for folder in folders:
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Import):
                    names |= {alias.name.split(".")[0] for alias in node.names}
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    names.add(node.module.split(".")[0])
    return names - FIRST_PARTY - set(sys.stdlib_module_names) - {"__future__"}


def distributions_of(modules: set[str]) -> set[str]:
    known = packages_distributions()
    missing = sorted(m for m in modules if m not in known)
    assert not missing, f"imported but not installed: {missing}"
    return {canonical(known[m][0]) for m in modules}


def test_every_package_the_product_imports_is_a_dependency() -> None:
    # Issue #22: aiohttp was imported by the playground but not declared.
    project = pyproject()["project"]
    declared = requirement_names(project["dependencies"]) | requirement_names(
        project["optional-dependencies"]["postgres"]
    )
    used = distributions_of(imported_top_level(["bot", "engine", "renders", "bench"]))
    assert used <= declared, f"imported but not declared: {sorted(used - declared)}"


def test_every_package_the_tests_import_is_a_dev_dependency() -> None:
    project = pyproject()["project"]
    declared = requirement_names(project["dependencies"]) | requirement_names(
        project["optional-dependencies"]["dev"]
    )
    modules = imported_top_level(["tests"]) - {
        p.stem for p in (ROOT / "tests").rglob("*.py")
    }  # the tests' own helper modules
    used = distributions_of(modules)
    assert used <= declared, f"imported by tests but not declared: {sorted(used - declared)}"


def locked(path: Path) -> dict[str, str]:
    pins = re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", path.read_text(), re.M)
    return {canonical(name): version for name, version in pins}


def test_the_locks_pin_every_declared_dependency() -> None:
    project = pyproject()["project"]
    runtime = requirement_names(project["dependencies"]) | requirement_names(
        project["optional-dependencies"]["postgres"]
    )
    dev = runtime | requirement_names(project["optional-dependencies"]["dev"])
    for path, wanted in (
        (ROOT / "requirements/runtime.lock", runtime),
        (ROOT / "requirements/dev.lock", dev),
    ):
        pins = locked(path)
        assert wanted <= pins.keys(), f"{path.name} lacks {sorted(wanted - pins.keys())}"
    # The image and the tests run the same versions of what they share.
    shared = locked(ROOT / "requirements/runtime.lock")
    assert all(locked(ROOT / "requirements/dev.lock")[n] == v for n, v in shared.items())


def test_the_image_and_the_makefile_install_from_the_locks() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11\.\d+-slim-\w+(@sha256:[0-9a-f]{64})?$", dockerfile, re.M)
    assert "pip install --no-cache-dir --require-hashes -r requirements/runtime.lock" in dockerfile
    makefile = (ROOT / "Makefile").read_text()
    assert "LOCK := requirements/dev.lock" in makefile
    assert "pip install --quiet --require-hashes -r $(LOCK)" in makefile


def pinned_blocks(path: Path) -> list[str]:
    """One `name==version ...` requirement per entry, with its continuation lines."""
    return re.findall(
        r"^[A-Za-z0-9_.-]+==.*?(?=^[A-Za-z0-9_.-]+==|\Z)", path.read_text(), re.M | re.S
    )


def test_every_pin_carries_its_hashes() -> None:
    # Issue #33: pip installs the locks with --require-hashes, which refuses any pin without one.
    for name in ("runtime.lock", "dev.lock"):
        blocks = pinned_blocks(ROOT / "requirements" / name)
        assert len(blocks) == len(locked(ROOT / "requirements" / name))
        bare = [b.split()[0] for b in blocks if not re.search(r"--hash=sha256:[0-9a-f]{64}", b)]
        assert not bare, f"{name}: pinned without a hash: {bare}"


def test_one_lock_serves_every_supported_python() -> None:
    # Issue #35: discord.py needs audioop-lts from Python 3.13 on (the stdlib audioop is gone).
    for name in ("runtime.lock", "dev.lock"):
        text = (ROOT / "requirements" / name).read_text()
        assert re.search(r"^audioop-lts==\S+ ; python_full_version >= '3\.13'", text, re.M), name
