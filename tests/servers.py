"""Servers for the tests that need a real ASGI server (daphne, uvicorn) and Celery worker as
processes, a private redis-server, PgBouncer and HAProxy: started on free ports, stopped (or
killed) afterwards."""

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from pathlib import Path

import httpx
import psycopg
import pytest
import redis
from django.conf import settings

ROOT = Path(__file__).resolve().parents[1]
START_SECONDS = 60
# A server in production mode (DEBUG off) as the tests run it: a key of its own, plain HTTP.
PRODUCTION = {
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
    "DJANGO_HTTPS": "0",
}


def http_scope(path: str) -> dict:
    """The ASGI scope of a plain ``GET path``, for calling an ASGI application in the test's
    process."""
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }


def free_port() -> int:
    """A TCP port nothing listens on (for a server to take, or to stand for one that is down)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def stop(process: subprocess.Popen) -> None:
    """Terminate ``process``; kill it when it does not end within 10 s."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextmanager
def daphne(env: Mapping[str, str], *, ready_path: str = "/healthz") -> Iterator[str]:
    """daphne serving the site with ``env`` added to this environment; yields its base URL once
    ``ready_path`` answers (any status: a server whose database is down still answers)."""
    port = free_port()
    command = ["-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "reversi_site.asgi:application"]
    with serving([sys.executable, *command], port, env, ready_path=ready_path) as (url, _):
        yield url


@contextmanager
def uvicorn(env: Mapping[str, str], *, workers: int = 2) -> Iterator[tuple[str, subprocess.Popen]]:
    """uvicorn with ``workers`` processes, as ``make run`` serves the site (1: a single process,
    no supervisor); yields its base URL and its master process (a test may signal it)."""
    port = free_port()
    command = [sys.executable, "-m", "uvicorn", "reversi_site.asgi:application", "--host"]
    command += ["127.0.0.1", "--port", str(port), "--workers", str(workers), "--no-access-log"]
    with serving(command, port, env) as served:
        yield served


@contextmanager
def serving(
    command: list[str], port: int, env: Mapping[str, str], *, ready_path: str = "/healthz"
) -> Iterator[tuple[str, subprocess.Popen]]:
    """``command`` serving the site on ``port`` with ``env`` added to this environment; yields
    its base URL and process once ``ready_path`` answers (any status: a server whose database is
    down still answers), and stops it afterwards."""
    process = subprocess.Popen(
        command, cwd=ROOT, env=os.environ | dict(env), start_new_session=True
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"{command} exited with {process.returncode}")
            try:
                httpx.get(url + ready_path, timeout=5)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield url, process
    finally:
        if process.poll() is None:
            stop(process)
        with suppress(ProcessLookupError):  # its children too (uvicorn's workers), if any is left
            os.killpg(process.pid, signal.SIGKILL)


class RedisServer:
    """A private redis-server on a free port (no persistence), which a test may stop and start."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port)
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)
            self.process = None


@contextmanager
def redis_server() -> Iterator[RedisServer]:
    """A running private ``RedisServer``, stopped afterwards."""
    server = RedisServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@contextmanager
def celery_worker(queue: str, env: Mapping[str, str]) -> Iterator[subprocess.Popen]:
    """A solo-pool Celery worker taking the tasks of ``queue`` and of its strong queue (private
    ones: no other worker on this Redis takes them) with ``env`` added; stopped, and the queues
    dropped, afterwards."""
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "reversi_site",
            "worker",
            "-Q",
            f"{queue},{queue}-strong",
            "--pool=solo",
            "--loglevel=warning",
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=ROOT,
        env=os.environ | dict(env) | {"CELERY_CPU_QUEUE": queue},
    )
    try:
        yield process
    finally:
        stop(process)
        redis.Redis.from_url(settings.REDIS_URL).delete(queue, f"{queue}-strong")


def tool(name: str) -> str:
    """The path of Debian's ``name`` (pgbouncer, haproxy: /usr/sbin is not always on PATH);
    the test is skipped where it is not installed (`apt-get install pgbouncer haproxy`)."""
    path = shutil.which(name) or shutil.which(name, path="/usr/sbin")
    if path is None:
        pytest.skip(f"{name} is not installed (apt-get install {name})")
    return path


@contextmanager
def pgbouncer(database: Mapping[str, object], **settings: str) -> Iterator[int]:
    """A private PgBouncer in transaction mode in front of ``database`` (Django's settings dict),
    on a free port (yielded); ``settings`` add to or override its [pgbouncer] section. Its log
    is checked afterwards: an error there fails the test."""
    port = free_port()
    user = str(database["USER"])
    options = {
        "listen_addr": "127.0.0.1",
        "listen_port": str(port),
        "unix_socket_dir": "",
        "pool_mode": "transaction",
        "auth_type": "trust",
        "admin_users": user,
    } | settings
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder)
        (config / "users.txt").write_text(f'"{user}" ""\n')
        lines = [f"{key} = {value}" for key, value in options.items()]
        target = f"host={database['HOST']} port={database['PORT']} user={user}"
        (config / "pgbouncer.ini").write_text(
            "\n".join(["[databases]", f"* = {target}", "[pgbouncer]", *lines])
            + f"\nauth_file = {config / 'users.txt'}\n"
        )
        # PgBouncer refuses to run as root: it then drops to the postgres user, who reads this.
        config.chmod(0o755)
        command = [tool("pgbouncer"), str(config / "pgbouncer.ini")]
        if os.geteuid() == 0:
            command[1:1] = ["-u", "postgres"]
        log = config / "pgbouncer.log"
        with log.open("w") as output:
            process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
        try:
            wait_for_port(port, process)
            yield port
        finally:
            stop(process)
        errors = [line for line in log.read_text().splitlines() if " ERROR " in line]
        assert not errors, errors


@contextmanager
def haproxy(config: str, port: int) -> Iterator[Path]:
    """Debian's HAProxy running ``config`` (text), listening on ``port``; yields the file its
    log goes to (stdout), stopped afterwards."""
    with tempfile.TemporaryDirectory() as folder:
        config_file, log = Path(folder) / "haproxy.cfg", Path(folder) / "haproxy.log"
        config_file.write_text(config)
        with log.open("w") as output:
            process = subprocess.Popen(
                [tool("haproxy"), "-db", "-f", str(config_file)], stdout=output, stderr=output
            )
        try:
            wait_for_port(port, process)
            yield log
        finally:
            stop(process)


def wait_for_port(port: int, process: subprocess.Popen) -> None:
    """Return once something listens on ``port`` of 127.0.0.1; raise if ``process`` exits."""
    deadline = time.monotonic() + START_SECONDS
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args[0]} exited with {process.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def connect_to(database: str) -> psycopg.Connection:
    """An autocommit connection to ``database`` on the configured server (a live server's)."""
    options = settings.DATABASES["default"]
    return psycopg.connect(
        dbname=database,
        host=options["HOST"],
        port=options["PORT"],
        user=options["USER"],
        password=options["PASSWORD"],
        autocommit=True,
    )
