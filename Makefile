SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := run

VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
MANAGE := $(PY) manage.py
PURE := RUMMI_PURE_PYTHON=1
NATIVE_CURRENT := $(PY) -c "from games.engine import native; raise SystemExit(native.build_state() != 'current')"
HOST := 127.0.0.1
PORT := 8000
CHROMIUM ?= /usr/bin/chromium
# pytest-xdist processes for make test: one per core (the suite's tests keep their own databases,
# ports and folders, so they run side by side); the 15 slowest are listed after each run.
TEST_WORKERS ?= auto

.PHONY: venv native migrate run lint format test bench clean chromium axe

venv: $(STAMP)

# Reinstalls only when pyproject.toml changes.
$(STAMP): pyproject.toml
	test -x $(PY) || python3.11 -m venv $(VENV) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

# The solver package compiled with mypyc, beside its sources; rebuilt only when games/engine
# changes, and used only while current (games/engine/native.py). A failed build leaves the
# pure-Python solver.
native: $(STAMP)
	$(PY) tools/build_native.py

migrate: $(STAMP)
	$(MANAGE) migrate --no-input

# Web (daphne), the Celery worker and beat under supervisord (deploy/supervisord.conf): each is
# restarted when it dies, and Ctrl-C stops all three. The worker relays its frames to the web
# process with a secret made fresh for this run.
run: $(STAMP) native migrate
	if $(MANAGE) help loadpuzzles >/dev/null 2>&1; then $(MANAGE) loadpuzzles; fi
	mkdir -p var/log
	echo "Rummi on http://$(HOST):$(PORT)/ (worker and beat log to var/log/; Ctrl-C stops all)"
	RUMMI_HOST=$(HOST) RUMMI_PORT=$(PORT) \
	RUMMI_FRAME_RELAY_URL=$${RUMMI_FRAME_RELAY_URL-http://$(HOST):$(PORT)} \
	RUMMI_FRAME_RELAY_SECRET=$$($(PY) -c 'import secrets; print(secrets.token_hex(32))') \
		exec $(VENV)/bin/supervisord -c deploy/supervisord.conf

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# The coverage gate measures the rules engine only; the site is covered by behaviour tests.
# The first run also runs the doctests: the apps' docstring examples and those of docs/*.md
# (pyproject.toml's testpaths and --doctest-modules), so the documents' examples stay true.
# Coverage cannot trace compiled code, so the whole suite runs on the pure-Python solver; then the
# engine's tests run again on the compiled solver, which is what the site and the bench run. The
# longest solver tests (marked heavy_solver, minutes of pure Python) run in that compiled pass
# only, when a current build exists; without one they run in the first.
# The browser tests drive Debian's Chromium (/usr/bin/chromium): installed here when missing and
# we are root, else make test stops at once with one line saying what to install.
chromium:
	@if [ ! -x $(CHROMIUM) ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "make test: installing Debian's chromium for the browser tests"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
		else \
			echo "make test: the browser tests need Chromium at $(CHROMIUM): run 'sudo apt-get install chromium'" >&2; \
			exit 1; \
		fi; \
	fi

# axe-core for the page walk's accessibility check (tests/browser/test_it_walks_every_page.py),
# from the npm registry at the version package-lock.json pins; reinstalled when the lock changes.
axe: node_modules/.package-lock.json

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --prefer-offline
	touch $@

test: chromium lint native axe
	@if $(NATIVE_CURRENT); then echo "heavy solver tests: in the compiled pass"; \
		skip="not heavy_solver"; else skip=""; fi; set -x; \
	$(PURE) $(PY) -m pytest -p no:cacheprovider -n $(TEST_WORKERS) \
		--durations=15 -m "$$skip" --cov=games.engine --cov-report=term --cov-fail-under=95
	if $(NATIVE_CURRENT); then \
		echo "engine tests on the compiled solver"; \
		$(PY) -m pytest -p no:cacheprovider -n $(TEST_WORKERS) tests/engine; \
	else echo "no current native solver build: its engine test run is skipped"; fi

bench: $(STAMP) native
	$(PY) -m benchmarks

clean:
	rm -rf var .coverage .coverage.* .pytest_cache .mypy_cache .ruff_cache .benchmarks
	rm -f games/engine/solver.native games/engine/solver*.so games/engine/solver/*.so
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
