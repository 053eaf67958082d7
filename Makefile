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

.PHONY: venv native migrate run lint format test bench clean chromium axe nginx prod faults

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
# restarted when it dies, and Ctrl-C stops all three. DEBUG is off (RUMMI_DEBUG=1 for debug
# pages): static files are collected under hashed names into var/static/ and served by the
# site. rummi_site/lan.py prints the addresses to open, sets the hosts the site answers to for
# HOST (HOST=0.0.0.0: every interface, to play on a LAN) and a relay secret fresh for this run.
run: $(STAMP) native migrate
	if $(MANAGE) help loadpuzzles >/dev/null 2>&1; then $(MANAGE) loadpuzzles; fi
	$(MANAGE) collectstatic --no-input -v 0
	mkdir -p var/log
	exec $(PY) -m rummi_site.lan --host $(HOST) --port $(PORT) -- \
		$(VENV)/bin/supervisord -c deploy/supervisord.conf

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# Three passes. First the rules engine (tests/engine and its doctests) on the pure-Python
# solver under the coverage gate, which measures the engine only (coverage cannot trace compiled
# code). Then everything else (the site, its browser tests, the docs' examples: pyproject.toml's
# testpaths and --doctest-modules) without coverage, whose tracing had tripled the site tests'
# time, on the solver the site itself runs: compiled when current. Then the engine's tests again
# on the compiled solver. The longest solver tests (marked heavy_solver, minutes of pure Python)
# run in that compiled pass only, when a current build exists; without one they run in the first.
ENGINE_TESTS := tests/engine games/engine

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
	$(PURE) $(PY) -m pytest -p no:cacheprovider -n $(TEST_WORKERS) -m "$$skip" \
		--cov=games.engine --cov-report=term --cov-fail-under=95 $(ENGINE_TESTS)
	$(PY) -m pytest -p no:cacheprovider -n $(TEST_WORKERS) --durations=15 \
		$(addprefix --ignore=,$(ENGINE_TESTS))
	if $(NATIVE_CURRENT); then \
		echo "engine tests on the compiled solver"; \
		$(PY) -m pytest -p no:cacheprovider -n $(TEST_WORKERS) tests/engine; \
	else echo "no current native solver build: its engine test run is skipped"; fi

# The production layout of docs/deploy.md on this machine (deploy/prod.py): nginx ending TLS in
# front of two daphne processes, two Celery workers and beat, under supervisord
# (deploy/supervisord-prod.conf), on PostgreSQL and Redis: DATABASE_URL and REDIS_URL from the
# environment, the local servers by default (the database is created when missing). Migrates,
# collects static files and loads the puzzles first; Ctrl-C stops everything.
NGINX ?= /usr/sbin/nginx
PROD_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/rummi
PROD_REDIS_URL ?= redis://127.0.0.1:6379/0
# Other ports or bind address: make prod PROD_ARGS="--https-port 9443 --web-ports 9001,9002"
PROD_ARGS ?=

nginx:
	@if [ ! -x $(NGINX) ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "make prod: installing Debian's nginx for the proxy"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx; \
		else \
			echo "make prod: the proxy needs nginx at $(NGINX): run 'sudo apt-get install nginx'" >&2; \
			exit 1; \
		fi; \
	fi

prod: $(STAMP) native nginx
	DATABASE_URL=$${DATABASE_URL:-$(PROD_DATABASE_URL)} REDIS_URL=$${REDIS_URL:-$(PROD_REDIS_URL)} \
		exec $(PY) deploy/prod.py --nginx $(NGINX) $(PROD_ARGS)

# The fault suite against make prod's layout (tests/faults/, docs/deploy.md "The fault suite"), on
# PostgreSQL and Redis (each test starts a Redis of its own); .ci/run runs it after the
# PostgreSQL leg's make test. It writes var/faults/report.json.
faults: $(STAMP) native nginx
	DATABASE_URL=$${DATABASE_URL:-$(PROD_DATABASE_URL)} REDIS_URL=$${REDIS_URL:-$(PROD_REDIS_URL)} \
		RUMMI_FAULT_SUITE=1 $(PY) -m pytest -p no:cacheprovider -s -rxX tests/faults/test_it_survives_faults_behind_the_proxy.py

bench: $(STAMP) native
	$(PY) -m benchmarks

clean:
	rm -rf var .coverage .coverage.* .pytest_cache .mypy_cache .ruff_cache .benchmarks
	rm -f games/engine/solver.native games/engine/solver*.so games/engine/solver/*.so
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
