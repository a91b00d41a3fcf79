"""Browser tests: headless Chromium (Playwright) against a live daphne server and a real Celery
worker, both started once for this package on the test database (and stopped after it, so they
never serve the rest of the suite).

pytest-django's ``live_server`` is WSGI (no websockets), so the ASGI server runs as a subprocess.
"""

import os
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.db import connection
from playwright.sync_api import Browser, Page, sync_playwright
from pytest_django import DjangoDbBlocker

from tests.mail import Inbox, smtp_server
from tests.servers import connect_to, free_port, stop

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SERVER_START_SECONDS = 60
SHORT_TIME_CONTROL = "0.1+0"


def _wait_until_serving(url: str, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + SERVER_START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the server did not answer {url} in {SERVER_START_SECONDS} s")


@pytest.fixture(scope="package")
def server_database(django_db_blocker: DjangoDbBlocker) -> Iterator[str]:
    """The name of a fresh, migrated database for the servers, dropped afterwards.

    The servers get their own database rather than pytest-django's: a test process that held
    connections while Playwright's event loop runs could not close them, and the test database
    could not be dropped at the end of the session.
    """
    name = f"test_{settings.DATABASES['default']['NAME'].removeprefix('test_')}_browser"
    with django_db_blocker.unblock(), connection._nodb_cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        cursor.execute(f'CREATE DATABASE "{name}"')
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=ROOT,
            env=os.environ | {"POSTGRES_DB": name},
            check=True,
        )
        yield name
    finally:
        with django_db_blocker.unblock(), connection._nodb_cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="package")
def numba_warmup() -> subprocess.Popen:
    """Compile (or load) the numba kernels, as `make run` does, while the database is made: the
    worker's first CPU move must not wait for the compiler."""
    return subprocess.Popen(
        [sys.executable, "-m", "ai_worker", "warmup"], cwd=ROOT, stdout=subprocess.DEVNULL
    )


@pytest.fixture(scope="package")
def mail_inbox() -> Iterator[Inbox]:
    """A real SMTP server that the live server sends its mail to (verification links,
    password resets)."""
    with smtp_server() as inbox:
        yield inbox


@pytest.fixture(scope="package")
def live_url(
    numba_warmup: subprocess.Popen, server_database: str, mail_inbox: Inbox
) -> Iterator[str]:
    """Base URL of daphne serving the ASGI app (HTTP + websockets) with a Celery worker."""
    assert numba_warmup.wait() == 0, "python -m ai_worker warmup failed"
    yield from _serve(server_database, mail_port=mail_inbox.port)


@pytest.fixture
def server_sql(server_database: str):
    """Run one SQL statement on the servers' database (to stage a situation, such as a player
    away for minutes, that a browser cannot reach quickly)."""

    def execute(statement: str, params: tuple = ()) -> None:
        with connect_to(server_database) as database:
            database.execute(statement, params)

    return execute


def _serve(database: str, *, mail_port: int) -> Iterator[str]:
    port = free_port()
    # A private CPU queue: a worker of another checkout or of `make run` on the same Redis
    # database never takes these tasks, and no earlier run left tasks in it.
    cpu_queue = f"cpu-browser-{uuid.uuid4().hex}"
    env = os.environ | {
        "POSTGRES_DB": database,
        "CELERY_CPU_QUEUE": cpu_queue,
        "DJANGO_DEBUG": "1",
        "PYTHONUNBUFFERED": "1",
        # a 6-second game for the clock tests, before the offered ones
        "REVERSI_TIME_CONTROLS": f"{SHORT_TIME_CONTROL},{','.join(settings.TIME_CONTROLS)}",
        # Mail goes to the catcher from the worker (its tasks on the private queue); its
        # throttle and caps count in Redis and outlive a run, so they are wide.
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(mail_port),
        "CELERY_MAIL_QUEUE": cpu_queue,
        "THROTTLE_MAIL": "100/min",
        "MAIL_CAP_PER_ADDRESS": "1000",
        "MAIL_CAP_PER_REQUESTER": "1000",
    }
    logs = ROOT / "test-artifacts"
    logs.mkdir(exist_ok=True)
    with (logs / "daphne.log").open("w") as web_log, (logs / "worker.log").open("w") as worker_log:
        web = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "daphne",
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                "reversi_site.asgi:application",
            ],
            cwd=ROOT,
            env=env,
            stdout=web_log,
            stderr=subprocess.STDOUT,
        )
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "reversi_site",
                "worker",
                "--pool=solo",
                f"--queues={cpu_queue},{cpu_queue}-strong",
                "--without-gossip",
                "--without-mingle",
                "--loglevel=WARNING",
            ],
            cwd=ROOT,
            env=env,
            stdout=worker_log,
            stderr=subprocess.STDOUT,
        )
        try:
            url = f"http://127.0.0.1:{port}"
            _wait_until_serving(f"{url}/healthz", web)
            yield url
        finally:
            stop(worker)
            stop(web)
            store = redis.Redis.from_url(settings.REDIS_URL)
            for pattern in (f"{cpu_queue}*", f"_kombu.binding*.{cpu_queue}*"):
                for key in store.scan_iter(match=pattern):
                    store.delete(key)


@pytest.fixture(scope="package")
def browser(live_url: str) -> Iterator[Browser]:
    """Chromium, started after the test database and the servers (Playwright's event loop must
    not be running while Django opens the connections it later closes to drop the database)."""
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator:
    """Remember each phase's report on the test item (the page fixture looks at it)."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture
def new_page(browser: Browser, live_url: str, request: pytest.FixtureRequest) -> Iterator:
    """Factory of pages, each in its own browser context (its own cookies: its own guest).

    When the test fails, every page's screenshot and HTML go to ``test-artifacts/``.
    """
    contexts = []
    pages: list[Page] = []
    errors: list[str] = []

    def make(**options: object) -> Page:
        context = browser.new_context(base_url=live_url, **options)
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        pages.append(page)
        return page

    yield make
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        for index, page in enumerate(pages):
            if page.is_closed():
                continue
            stem = ROOT / "test-artifacts" / f"{request.node.name}-{index}"
            page.screenshot(path=f"{stem}.png", full_page=True)
            Path(f"{stem}.html").write_text(page.content())
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture
def page(new_page) -> Page:
    return new_page()
