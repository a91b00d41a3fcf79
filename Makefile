# The two commands of the README, `make run` and `make test`, and the steps they are made of.
# Python packages come from the lock files (requirements*.txt, `make lock`), JavaScript tools
# from package-lock.json; every target installs what it needs first.
PYTHON ?= python3.11
VENV ?= .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
PORT ?= 8000
HOST ?= 127.0.0.1
# ASGI worker processes of `make run` (and of `make bench-service`): one per core.
WEB_WORKERS ?= $(shell nproc)
# The Celery workers: the quick levels (one process per core), and strong searches, hints and
# post-game reviews on their own queue, so a quick reply never waits behind them; the strong
# worker at Linux's idle CPU priority (SCHED_IDLE): its work, bounded by its own deadlines,
# runs on the time the web, the quick replies and PostgreSQL leave and gives way to them at
# once (at nice 10 it still took a share of a busy core). nice 10 where chrt is missing.
STRONG_PRIORITY ?= $(shell command -v chrt >/dev/null 2>&1 && echo "chrt --idle 0" || echo "nice -n 10")
SERVE_WORKERS = POSTGRES_POOL_SIZE=0 POSTGRES_CONN_MAX_AGE=600 $(BIN)/celery -A reversi_site worker --loglevel=info \
		-Q celery,$${CELERY_CPU_QUEUE:-cpu} -n quick@%h & \
	POSTGRES_POOL_SIZE=0 POSTGRES_CONN_MAX_AGE=600 $(STRONG_PRIORITY) $(BIN)/celery -A reversi_site worker --loglevel=info \
		-Q $${CELERY_STRONG_QUEUE:-$${CELERY_CPU_QUEUE:-cpu}-strong} -c 1 -n strong@%h
CHROMIUM ?= /usr/bin/chromium
# Local development and the checks run with DEBUG on (the settings default to production, which
# refuses to start without a secret key of its own); set DJANGO_DEBUG=0 to try production.
export DJANGO_DEBUG ?= 1
# Extra flags for `make lock`: LOCK_ARGS=--upgrade (every pin) or LOCK_ARGS="--upgrade-package django".
LOCK_ARGS ?=
LOCK := $(BIN)/uv pip compile pyproject.toml --universal --python-version 3.11 --generate-hashes \
	--quiet --custom-compile-command "make lock" $(LOCK_ARGS)

.PHONY: run test lint typecheck test-python test-slow test-js bench bench-service soak fault-test lock \
	screenshots install install-dev install-js browser scaling-tools db clean

# The steps of `make test` share one test database: never run them side by side (make -j).
.NOTPARALLEL:

$(VENV)/.installed: requirements.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --require-hashes -r requirements.txt
	$(PY) -m pip install --quiet --no-deps -e .
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed requirements-dev.txt
	$(PY) -m pip install --quiet --require-hashes -r requirements-dev.txt
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

install: $(VENV)/.installed

install-dev: $(VENV)/.installed-dev

install-js: node_modules/.installed

## Pin every dependency of pyproject.toml (and of its dev extra) with hashes, keeping the
## current pins where they still fit: run after changing the dependencies, commit both files.
lock: install-dev
	$(LOCK) -o requirements.txt
	$(LOCK) --extra dev --constraint requirements.txt -o requirements-dev.txt

# Debian's Chromium drives the browser tests; a browser download does not work here.
browser:
	@test -x $(CHROMIUM) || { \
		echo "Installing Debian's chromium for the browser tests"; \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk) \
			|| { echo "Could not install chromium; install it (apt-get install chromium) and retry"; exit 1; }; \
	}

# Debian's PgBouncer and HAProxy for the scaling tests (tests/games/test_scaling.py): the
# write path through PgBouncer in transaction mode, web processes behind the compose file's balancer.
scaling-tools:
	@test -x /usr/sbin/pgbouncer -a -x /usr/sbin/haproxy || { \
		echo "Installing Debian's pgbouncer and haproxy for the scaling tests"; \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgbouncer haproxy) \
			|| { echo "Could not install them; install them (apt-get install pgbouncer haproxy) and retry"; exit 1; }; \
	}

db: install
	$(PY) manage.py ensure_database
	$(PY) manage.py migrate --noinput

## Set up and run the service in the foreground (Ctrl-C stops it all): WEB_WORKERS uvicorn
## processes (one per core by default) sharing the Redis channel layer, a Celery worker for the
## quick levels, one for strong searches and hints, and Celery beat (the stalled-turn sweep).
## Ctrl-C, or a SIGTERM to make, sends every one of them one SIGTERM (the trap ignores the
## signals once it has fired: re-sending its own `kill 0` to itself looped until the shell
## crashed, each worker warned of shutdown a thousand times) and make returns when all have
## stopped (the second `wait`). tests/test_makefile.py checks it; PORT and HOST choose the address.
run: db
	$(PY) -m ai_worker warmup
	@echo "Reversi is running at http://$(HOST):$(PORT)/  (Ctrl-C stops web and workers)"
	@trap 'trap "" INT TERM; kill 0' INT TERM; \
	$(SERVE_WORKERS) & \
	$(BIN)/celery -A reversi_site beat --loglevel=info --schedule $(VENV)/celerybeat-schedule & \
	$(BIN)/uvicorn reversi_site.asgi:application --host $(HOST) --port $(PORT) \
		--workers $(WEB_WORKERS) --no-access-log & \
	wait; wait

## The live path's figures: a private stack (web processes and workers on a free port, its own
## database and queues) under benchmarks/loadtest.py's scenarios (SCENARIO: hot-seat, easy,
## mixed, knee, max, soak, comma-separated; all = every one but the soak); BENCH_ARGS go to
## benchmarks/service.py, e.g. "--duration 20" or "--checkout ../main --stack daphne --legacy-auth".
SCENARIO ?= all
bench-service: install-dev
	nice $(PY) -m benchmarks.service --scenario $(SCENARIO) $(BENCH_ARGS)

## The soak: 200 games at once for 10 minutes (SOAK_SECONDS) on a private stack, sockets dropped
## and opened again at random; ends with every record replayed and every client's version checked.
SOAK_SECONDS ?= 600
soak: install-dev
	nice $(PY) -m benchmarks.service --scenario soak --soak-duration $(SOAK_SECONDS) $(BENCH_ARGS)

## Screenshots of every main page at 375 and 1440 px in English, Japanese and Russian, saved to
## screenshots/ (gitignored); the same test checks that no page is wider than the screen.
screenshots: install-dev install-js browser
	rm -rf screenshots
	SCREENSHOTS_DIR=screenshots CHROMIUM=$(CHROMIUM) $(BIN)/pytest tests/browser/test_screenshots.py -q

## Set up and run every check: linters, type check, JavaScript tests, the test suite, the slow tests.
test: lint typecheck test-js test-python test-slow

## The hooks of .pre-commit-config.yaml on every file git tracks: ruff, ruff format, the import
## contracts (lint-imports), ESLint, whitespace and file checks.
lint: install-dev install-js
	$(BIN)/pre-commit run --all-files --show-diff-on-failure

typecheck: install-dev
	$(BIN)/mypy

test-js: install-js
	node --test tests/js/

test-python: install-dev browser scaling-tools
	$(PY) manage.py ensure_database
	$(BIN)/pytest

## The tests marked slow (deep perft, hard endgames, a level match, the service through PgBouncer
## and behind HAProxy, `make run` started and stopped), some minutes; the marathon ones (tens of minutes) run by hand:
## `.venv/bin/pytest -m marathon`.
test-slow: install-dev scaling-tools
	$(BIN)/pytest -m "slow and not marathon"

bench: install
	$(PY) -m benchmarks.engine

## A private stack (PostgreSQL, Redis, uvicorn, worker, beat) plays games while its worker, Redis,
## web server and database fail in turn; prints moves lost, games stuck, 500s for saved writes.
fault-test: install-dev
	$(PY) -m benchmarks.faults

clean:
	rm -rf $(VENV) node_modules staticfiles .pytest_cache .mypy_cache .ruff_cache .hypothesis \
		.import_linter_cache .grimp_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
