SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := run

VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
MANAGE := $(PY) manage.py
PURE := RUMMI_PURE_PYTHON=1
NATIVE_CURRENT := $(PY) -c "from games.engine import native; raise SystemExit(native.build_state() != 'current')"
CELERY := $(VENV)/bin/celery
HOST := 127.0.0.1
PORT := 8000

.PHONY: venv native migrate run lint format test bench clean

venv: $(STAMP)

# Reinstalls only when pyproject.toml changes.
$(STAMP): pyproject.toml
	test -x $(PY) || python3.11 -m venv $(VENV) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

# The solver compiled with mypyc, beside solver.py; rebuilt only when games/engine changes, and
# used only while current (games/engine/native.py). A failed build leaves the pure-Python solver.
native: $(STAMP)
	$(PY) tools/build_native.py

migrate: $(STAMP)
	$(MANAGE) migrate --no-input

# Daphne in the foreground; the Celery worker and beat in the background, stopped on exit.
run: $(STAMP) native migrate
	if $(MANAGE) help loadpuzzles >/dev/null 2>&1; then $(MANAGE) loadpuzzles; fi
	mkdir -p var/log
	RUMMI_FRAME_RELAY_URL=$${RUMMI_FRAME_RELAY_URL-http://$(HOST):$(PORT)} \
		$(CELERY) -A rummi_site worker --loglevel INFO --logfile var/log/celery-worker.log & worker=$$!; \
	$(CELERY) -A rummi_site beat --loglevel INFO --schedule var/celerybeat-schedule \
		--logfile var/log/celery-beat.log & beat=$$!; \
	trap 'kill $$worker $$beat 2>/dev/null; wait $$worker $$beat 2>/dev/null || true' EXIT; \
	trap 'exit 130' INT TERM; \
	echo "Rummi on http://$(HOST):$(PORT)/ (worker and beat log to var/log/)"; \
	$(VENV)/bin/daphne -b $(HOST) -p $(PORT) rummi_site.asgi:application

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
# engine's tests run again on the compiled solver, which is what the site and the bench run.
test: lint native
	$(PURE) $(PY) -m pytest -p no:cacheprovider --cov=games.engine --cov-report=term --cov-fail-under=95
	if $(NATIVE_CURRENT); then \
		echo "engine tests on the compiled solver"; \
		$(PY) -m pytest -p no:cacheprovider tests/engine; \
	else echo "no current native solver build: its engine test run is skipped"; fi

bench: $(STAMP) native
	$(PY) -m benchmarks

clean:
	rm -rf var .coverage .coverage.* .pytest_cache .mypy_cache .ruff_cache .benchmarks
	rm -f games/engine/solver.native games/engine/solver*.so
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
