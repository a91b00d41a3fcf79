# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3.11
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8000
HOST ?= 127.0.0.1
CHROMIUM ?= /usr/bin/chromium

.PHONY: run test install install-dev browser lint check-db worker web bench clean

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

install: $(VENV)/.installed

install-dev: $(VENV)/.installed-dev

# Debian's Chromium drives the browser tests; a browser download does not work here.
browser:
	@test -x $(CHROMIUM) || { \
		echo "Installing Debian's chromium for the browser tests"; \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk) \
			|| { echo "Could not install chromium; install it (apt-get install chromium) and retry"; exit 1; }; \
	}

db: install
	$(PY) manage.py ensure_database
	$(PY) manage.py migrate --noinput

## Set up and run the service (web and worker) in the foreground; Ctrl-C stops both.
run: db
	$(PY) -m ai_worker warmup
	@echo "Reversi is running at http://$(HOST):$(PORT)/  (Ctrl-C stops web and worker)"
	@trap 'kill 0' INT TERM; \
	POSTGRES_CONN_MAX_AGE=600 $(VENV)/bin/celery -A reversi_site worker --loglevel=info -Q celery,cpu & \
	$(VENV)/bin/daphne -b $(HOST) -p $(PORT) reversi_site.asgi:application & \
	wait

## Set up and run every test, the linters, the type check and the import contracts.
test: install-dev browser
	$(PY) manage.py ensure_database
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-cache --no-logo
	$(VENV)/bin/pytest

bench: install
	$(PY) -m benchmarks.engine

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache .hypothesis .import_linter_cache .grimp_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
