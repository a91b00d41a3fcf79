"""Servers for the tests that need a real ASGI server (daphne) and Celery worker as processes,
and a private redis-server: started on free ports, stopped (or killed) afterwards."""

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from pathlib import Path

import httpx
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
    """uvicorn with ``workers`` processes, as ``make run`` serves the site; yields its base URL
    and its master process (a test may signal it)."""
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
