"""The README's first command from a fresh clone, on each newer Python: `make smoke`.

For each version asked for (3.12 and 3.13 unless told otherwise), clone this repository into a
temporary folder, run `make run` there and let the Makefile pick the interpreter by itself, wait
for the playground to answer, create one campaign through POST /api/command, then stop it.
CI's `make test` covers 3.11; this covers the versions it does not run.

    python scripts/smoke_run.py [VERSION_OR_INTERPRETER ...]

A version (3.12) is looked up as `python3.12` on PATH when it runs, else as a pyenv build
($PYENV_ROOT/versions/3.12.*); a path is used as it is. A version this machine does not have
is skipped with a line saying so; nothing to check at all is a failure. The clone is of the
committed HEAD: uncommitted changes are not part of it.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_VERSIONS = ("3.12", "3.13")
# The Makefile's candidates, newest first (scripts/find-python.sh).
CANDIDATES = ("3.13", "3.12", "3.11")
TIMEOUT_SECONDS = float(os.environ.get("SMOKE_TIMEOUT", "900"))
# Settings and make state of the calling shell that must not leak into the fresh clone's run.
INHERITED = {
    "DISCORD_TOKEN",
    "DATABASE_URL",
    "PLAYGROUND_ENABLED",
    "PLAYGROUND_HOST",
    "PLAYGROUND_PORT",
    "PLAYGROUND_FEED",
    "PYTHON",
    "PYTHONPATH",
    "VIRTUAL_ENV",
    "MAKEFLAGS",
    "MFLAGS",
    "MAKELEVEL",
}
STUB = '#!/bin/sh\necho "{name}: not this one (smoke test stand-in)" >&2\nexit 127\n'


class SmokeFailure(Exception):
    """The fresh clone did not install, serve or create a campaign."""


@dataclass(frozen=True)
class Interpreter:
    version: str  # "3.12"
    path: Path


@dataclass(frozen=True)
class Result:
    install_seconds: float
    serve_seconds: float
    create_seconds: float
    stop_seconds: float
    python: str


def version_of(path: str | Path) -> str | None:
    """The interpreter's major.minor, or None when it does not run (a pyenv shim may not)."""
    try:
        done = subprocess.run(
            [str(path), "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    except OSError:
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def find(wanted: str) -> Interpreter | None:
    """A version ("3.12") on PATH or among the pyenv builds; a path as it is."""
    if os.sep in wanted:
        version = version_of(wanted)
        return Interpreter(version, Path(wanted)) if version else None
    on_path = shutil.which(f"python{wanted}")
    if on_path and version_of(on_path) == wanted:
        return Interpreter(wanted, Path(on_path))
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    builds = sorted(
        pyenv.glob(f"{wanted}.*/bin/python{wanted}"),
        key=lambda p: [int(part) for part in p.parts[-3].split(".") if part.isdigit()],
        reverse=True,
    )
    for build in builds:
        if version_of(build) == wanted:
            return Interpreter(wanted, build)
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def interpreter_dir(folder: Path, python: Interpreter) -> Path:
    """A PATH entry that makes the Makefile's own search land on `python`: the interpreter under
    its name, and a stand-in that does not run (like an unselected pyenv shim) for each newer
    candidate, so a newer Python elsewhere on PATH is passed over."""
    folder.mkdir()
    (folder / f"python{python.version}").symlink_to(python.path)
    for newer in CANDIDATES[: CANDIDATES.index(python.version)]:
        stub = folder / f"python{newer}"
        stub.write_text(STUB.format(name=stub.name))
        stub.chmod(0o755)
    return folder


def http(url: str, body: dict[str, str] | None = None) -> dict[str, object]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        answer: dict[str, object] = json.loads(response.read())
        return answer


def healthy(base: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base}/healthz", timeout=5) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def first_suggestion(base: str, text: str) -> str:
    query = urllib.parse.urlencode({"channel": "smoke", "user": "smoke", "text": text})
    suggestions = http(f"{base}/api/autocomplete?{query}")["suggestions"]
    if not isinstance(suggestions, list) or not suggestions:
        raise SmokeFailure(f"the playground suggested nothing for {text!r}")
    return str(suggestions[0]["value"])


def create_campaign(base: str) -> None:
    """One `/campaign create` through the JSON API, with the first game and scenario offered."""
    game = first_suggestion(base, "/campaign create game:")
    scenario = first_suggestion(base, f"/campaign create game:{game} scenario:")
    text = f"/campaign create game:{game} scenario:{scenario}"
    answer = http(f"{base}/api/command", {"channel": "smoke", "user": "smoke", "text": text})
    if answer.get("ok") is not True:
        raise SmokeFailure(f"{text} was refused: {answer}")


def stop(process: subprocess.Popen[bytes]) -> float:
    """Stop `make run` and the bot under it the way Ctrl-C would; the seconds it took."""
    if process.poll() is not None:
        return 0.0
    began = time.monotonic()
    os.killpg(process.pid, signal.SIGINT)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        raise SmokeFailure("make run did not stop within 30 s of Ctrl-C") from None
    return time.monotonic() - began


def smoke(python: Interpreter, work: Path) -> Result:
    clone = work / "sortie"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if k not in INHERITED}
    command = ["make", "run"]
    if python.version in CANDIDATES:
        found = interpreter_dir(work / "bin", python)
        env["PATH"] = f"{found}{os.pathsep}{env.get('PATH', '')}"
    else:  # a version the Makefile does not look for by itself
        command.append(f"PYTHON={python.path}")
    env |= {"PLAYGROUND_PORT": str(port), "PLAYGROUND_HOST": "127.0.0.1"}
    stamp = clone / ".venv" / ".installed"
    installed: float | None = None
    with (work / "make-run.log").open("wb") as log:
        started = time.monotonic()
        process = subprocess.Popen(
            command,
            cwd=clone,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            while not healthy(base):
                if installed is None and stamp.exists():
                    installed = time.monotonic()
                if process.poll() is not None:
                    raise SmokeFailure(f"make run ended with status {process.returncode}")
                if time.monotonic() - started > TIMEOUT_SECONDS:
                    raise SmokeFailure(f"the playground did not answer in {TIMEOUT_SECONDS:.0f} s")
                time.sleep(0.5)
            serving = time.monotonic()
            installed = installed or serving
            used = version_of(clone / ".venv" / "bin" / "python")
            if used != python.version:
                raise SmokeFailure(f"make run built its virtualenv with Python {used}")
            create_campaign(base)
            created = time.monotonic()
        finally:
            stopped = stop(process)
    return Result(
        installed - started, serving - installed, created - serving, stopped, str(python.path)
    )


def main(argv: list[str]) -> int:
    failures = checked = 0
    # A virtualenv is thousands of files: one clone is deleted while the next one installs.
    cleanups: list[threading.Thread] = []
    for wanted in argv or DEFAULT_VERSIONS:
        python = find(wanted)
        if python is None:
            print(f"smoke {wanted}: no such Python on this machine, skipped", flush=True)
            continue
        checked += 1
        work = Path(tempfile.mkdtemp(prefix=f"sortie-smoke-{python.version}-"))
        try:
            result = smoke(python, work)
        except (SmokeFailure, OSError, subprocess.CalledProcessError) as failure:
            failures += 1
            log = work / "make-run.log"
            tail = log.read_text(errors="replace")[-4000:] if log.exists() else ""
            print(f"smoke {python.version}: FAILED: {failure}\n{tail}", flush=True)
            print(f"smoke {python.version}: the clone and its log are kept in {work}", flush=True)
            continue
        cleanups.append(threading.Thread(target=shutil.rmtree, args=(work,)))
        cleanups[-1].start()
        print(
            f"smoke {python.version} ({result.python}): fresh clone, `make run` made the "
            f"virtualenv and installed in {result.install_seconds:.0f} s, the playground "
            f"answered {result.serve_seconds:.1f} s later, a campaign was created in "
            f"{result.create_seconds:.1f} s, and Ctrl-C stopped it in {result.stop_seconds:.1f} s",
            flush=True,
        )
    for cleanup in cleanups:
        cleanup.join()
    if checked == 0:
        print("smoke: none of the Pythons asked for is on this machine; nothing was checked")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
