"""A real Celery worker for the tests that need one: a solo pool on a private queue of this
suite's Redis database, against the test database."""

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import redis
from django.conf import settings
from django.db import connection

BIN = Path(sys.executable).parent


def private_queue() -> str:
    """A queue name no other worker on this Redis takes tasks from."""
    return f"cpu-test-{uuid.uuid4().hex}"


def worker_command(queue: str) -> list[str]:
    return [
        str(BIN / "celery"),
        "-A",
        "reversi_site",
        "worker",
        "-Q",
        queue,
        "--pool=solo",
        "--loglevel=warning",
        "--without-gossip",
        "--without-mingle",
    ]


def worker_environment(queue: str) -> dict[str, str]:
    """The environment of a server or worker on the test database and ``queue``."""
    return os.environ | {"POSTGRES_DB": connection.settings_dict["NAME"], "CELERY_CPU_QUEUE": queue}


def stop(processes: list[subprocess.Popen], queue: str) -> None:
    """Stop the processes (killed when they linger) and drop the queue."""
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    redis.Redis.from_url(settings.REDIS_URL).delete(queue)


@contextmanager
def celery_worker(queue: str) -> Iterator[subprocess.Popen]:
    """A worker taking the tasks of ``queue`` while the block runs."""
    worker = subprocess.Popen(worker_command(queue), env=worker_environment(queue))
    try:
        yield worker
    finally:
        stop([worker], queue)
