# Sortie: `make run` starts the bot (or the playground without a token); `make test` checks all.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Exact versions of every dependency (pip-compile output); `make lock` regenerates them.
LOCK := requirements/dev.lock
PIP_TOOLS := pip-tools==7.6.2

.PHONY: run test lint typecheck pytest install clean bench selfplay lock

$(BIN)/python:
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Sortie needs Python 3.11+ as $(PYTHON) (set PYTHON=...)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml $(LOCK)
	$(BIN)/python -m pip install --quiet -r $(LOCK)
	$(BIN)/python -m pip install --quiet --no-deps -e .
	@touch $(STAMP)

# After changing dependencies in pyproject.toml: pin them again (runtime for the image, dev here).
lock:
	$(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet $(PIP_TOOLS)
	.lock-venv/bin/pip-compile --quiet --strip-extras --no-emit-find-links --no-emit-index-url \
		--extra postgres -o requirements/runtime.lock pyproject.toml
	.lock-venv/bin/pip-compile --quiet --strip-extras --no-emit-find-links --no-emit-index-url \
		--extra postgres --extra dev -o requirements/dev.lock pyproject.toml
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

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
