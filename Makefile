SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := run

VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
MANAGE := $(PY) manage.py
CELERY := $(VENV)/bin/celery
HOST := 127.0.0.1
PORT := 8000

.PHONY: venv migrate run lint format test bench clean

venv: $(STAMP)

# Reinstalls only when pyproject.toml changes.
$(STAMP): pyproject.toml
	test -x $(PY) || python3.11 -m venv $(VENV) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

migrate: $(STAMP)
	$(MANAGE) migrate --no-input

# Daphne in the foreground; the Celery worker and beat in the background, stopped on exit.
run: $(STAMP) migrate
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
test: lint
	$(PY) -m pytest -p no:cacheprovider --cov=games.engine --cov-report=term --cov-fail-under=95

bench: $(STAMP)
	$(PY) -m benchmarks

clean:
	rm -rf var .coverage .coverage.* .pytest_cache .mypy_cache .ruff_cache .benchmarks
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
