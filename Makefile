# Sortie: `make run` starts the bot (or the playground without a token); `make test` checks all.
# The virtualenv's interpreter: PYTHON=... if given, else the newest of python3.13, python3.12,
# python3.11 that runs, else python3 if it is 3.11 or newer (scripts/find-python.sh).
PYTHON ?=
FIND_PYTHON := sh scripts/find-python.sh '$(PYTHON)'
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Exact versions and hashes of every dependency, one file for every supported Python (markers
# where a package differs, e.g. audioop-lts on 3.13); `make lock` regenerates them.
LOCK := requirements/dev.lock
UV := uv==0.13.9
COMPILE := .lock-venv/bin/uv pip compile --quiet --universal --python-version 3.11 \
	--generate-hashes --custom-compile-command "make lock"

.PHONY: run test test-fast lint typecheck pytest install clean bench selfplay lock smoke

$(BIN)/python:
	@python=$$($(FIND_PYTHON)) && echo "Creating $(VENV) with $$python" && $$python -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The lock is installed on its own: --require-hashes would refuse the editable install of Sortie.
$(STAMP): $(BIN)/python pyproject.toml $(LOCK)
	$(BIN)/python -m pip install --quiet --require-hashes -r $(LOCK)
	$(BIN)/python -m pip install --quiet --no-deps -e .
	@touch $(STAMP)

# After changing dependencies in pyproject.toml: pin them again (runtime for the image, dev here).
# Pins already in a lock are kept; delete the lock first to move everything to the newest.
lock:
	@python=$$($(FIND_PYTHON)) && $$python -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet $(UV)
	$(COMPILE) --extra postgres -o requirements/runtime.lock pyproject.toml
	$(COMPILE) --extra postgres --extra dev -o requirements/dev.lock pyproject.toml
	rm -rf .lock-venv

install: $(STAMP)

run: $(STAMP)
	$(BIN)/python -m bot

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# Tests are checked one folder at a time, the way pytest imports them: each test's folder and the
# folders above it are on the path (helpers are imported by bare name, e.g. `from support import`),
# and three folders have a conftest.py of their own, which one mypy run would see as one module.
typecheck: $(STAMP)
	$(BIN)/mypy engine renders bot bench
	$(BIN)/mypy --strict scripts
	@set -e; for dir in $$(find tests -name '*.py' -printf '%h\n' | sort -u); do \
		path=$$dir; up=$$dir; \
		while [ "$$up" != tests ]; do up=$$(dirname $$up); path=$$path:$$up; done; \
		echo "mypy $$dir"; \
		MYPYPATH=$$path $(BIN)/mypy --explicit-package-bases --cache-dir .mypy_cache/tests \
			--no-error-summary $$dir/*.py; \
	done

# One worker per core (pytest-xdist; work stealing evens out the whole-mission tests); each
# worker has a PostgreSQL database of its own (tests/conftest.py).
pytest: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --dist worksteal

test: lint typecheck pytest

# The inner loop: the engine, renders and structure tests without the slow ones (whole
# missions, properties), no bot, browser or PostgreSQL tests; `make test` stays the whole suite.
FAST_TESTS = tests/engine tests/renders tests/test_engine_structure.py \
	tests/test_strikeback_mission_shape.py tests/test_layering.py
test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --dist worksteal -m "not slow" $(FAST_TESTS)

# The README's `make run` from a fresh clone of HEAD on Python 3.12 and 3.13, each in its own
# virtualenv (CI runs `make test` on 3.11 and then this); SMOKE_PYTHONS="3.13 /path/python" to choose.
SMOKE_PYTHONS ?=
smoke:
	@python=$$($(FIND_PYTHON)) && $$python scripts/smoke_run.py $(SMOKE_PYTHONS)

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
