"""`make bench-service`: start a private stack, run the load test against it, print the figures.

    .venv/bin/python -m benchmarks.service [--checkout DIR] [--stack uvicorn|daphne] [options]

The stack is this checkout's (or ``--checkout``'s, e.g. a worktree of another commit) web
processes and Celery workers on a free port, with a database of their own (created, migrated,
dropped at the end) and private Celery queues on this shell's Redis: nothing else running on
the machine is touched. ``--stack uvicorn`` (the default, as ``make run``) runs one uvicorn
process per core, a worker for the quick levels and one for strong searches and hints;
``--stack daphne`` one daphne and one worker, as ``make run`` did before. Every option it does
not know goes to ``benchmarks/loadtest.py`` (``--games``, ``--duration``, ``--think``,
``--levels``, ``--hot-seat``, ``--legacy-auth``).
"""

import argparse
import os
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psycopg
import redis

from benchmarks import loadtest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
START_TIMEOUT = 120


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def commands(stack: str, port: int, queue: str) -> list[list[str]]:
    """The stack's processes: the web tier and the Celery workers (which keep their database
    connection, as ``make run``'s; the web processes open one per request)."""
    celery = ["env", "POSTGRES_POOL_SIZE=0", "POSTGRES_CONN_MAX_AGE=600", str(BIN / "celery")]
    celery += ["-A", "reversi_site"]
    celery += ["worker", "--loglevel=warning"]
    celery += ["--without-gossip", "--without-mingle"]
    if stack == "daphne":
        return [
            [
                str(BIN / "daphne"),
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                "reversi_site.asgi:application",
            ],
            [*celery, "-Q", f"{queue},{queue}-strong", "-n", f"all-{queue}@%h"],
        ]
    web = [str(BIN / "uvicorn"), "reversi_site.asgi:application", "--host", "127.0.0.1"]
    web += ["--port", str(port), "--workers", str(os.cpu_count() or 1), "--no-access-log"]
    web += ["--log-level", "warning"]
    return [
        web,
        [*celery, "-Q", queue, "-n", f"quick-{queue}@%h"],
        [*celery, "-Q", f"{queue}-strong", "-c", "1", "-n", f"strong-{queue}@%h"],
    ]


def wait_until_serving(url: str, processes: list[subprocess.Popen[bytes]]) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        if any(process.poll() is not None for process in processes):
            raise RuntimeError("a process of the stack exited while starting")
        try:
            if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"{url} did not answer within {START_TIMEOUT} s")
        time.sleep(0.5)


def stop(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def drop_database(name: str, env: dict[str, str]) -> None:
    with psycopg.connect(
        host=env.get("POSTGRES_HOST", "127.0.0.1"),
        port=env.get("POSTGRES_PORT", "5432"),
        user=env.get("POSTGRES_USER", "root"),
        password=env.get("POSTGRES_PASSWORD", ""),
        dbname="postgres",
        autocommit=True,
    ) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.service", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--checkout", type=Path, default=ROOT, help="the code to serve")
    parser.add_argument("--stack", choices=("uvicorn", "daphne"), default="uvicorn")
    args, load_args = parser.parse_known_args(argv)
    checkout = args.checkout.resolve()
    tag = secrets.token_hex(4)
    database = f"reversi_bench_{tag}"
    queue = f"cpu-bench-{tag}"
    port = free_port()
    env = os.environ | {
        "POSTGRES_DB": database,
        "CELERY_CPU_QUEUE": queue,
        "CELERY_STRONG_QUEUE": f"{queue}-strong",
        "PYTHONPATH": str(checkout),
        "DJANGO_DEBUG": os.environ.get("DJANGO_DEBUG", "1"),  # as `make run`
        # Every player of the load test signs up and plays from this one address: the stack's
        # rate limits per address would refuse them (the limits per player still hold).
        "THROTTLE_AUTH": "100000/min",
        "THROTTLE_WRITE": "100000/min",
        "THROTTLE_GAME_CREATE": "100000/min",
    }
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=checkout, capture_output=True, text=True
    ).stdout.strip()
    load = os.getloadavg()
    print(
        f"commit {commit} ({checkout}), stack {args.stack}, {os.cpu_count()} cores, "
        f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}",
        flush=True,
    )
    python = [sys.executable, "manage.py"]
    subprocess.run([*python, "ensure_database"], cwd=checkout, env=env, check=True)
    subprocess.run([*python, "migrate", "--noinput", "-v0"], cwd=checkout, env=env, check=True)
    # The numba cache, so that the workers are ready as soon as the web tier (as `make run`).
    subprocess.run([sys.executable, "-m", "ai_worker", "warmup"], cwd=checkout, env=env, check=True)
    processes = [
        subprocess.Popen(command, cwd=checkout, env=env)
        for command in commands(args.stack, port, queue)
    ]
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(url, processes)
        code = loadtest.main([*load_args, "--base-url", url])
    finally:
        stop(processes)
        store = redis.Redis.from_url(env.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
        for key in store.scan_iter(match=f"*{queue}*"):
            store.delete(key)
        drop_database(database, env)
    return code


if __name__ == "__main__":
    sys.exit(main())
