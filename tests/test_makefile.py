"""``make run`` on a database that does not exist yet: it creates and migrates it, serves the
site, and a Ctrl-C (SIGINT to the terminal's process group) or a SIGTERM to make stops the web
processes, both Celery workers and beat once, and make ends when they have, leaving no process
behind."""

import os
import signal
import subprocess
import time
from contextlib import suppress
from pathlib import Path

import httpx
import psycopg
import pytest
from django.conf import settings
from psycopg import sql

from tests.servers import ROOT, free_port

pytestmark = pytest.mark.slow

# Generous bounds, never a measure: a fresh database's migrations and the search's warm-up on a
# loaded machine take minutes at worst; stopping takes Celery's warm shutdown.
START_SECONDS = 600
STOP_SECONDS = 120


def session_processes(session: int) -> dict[int, str]:
    """The processes of ``session`` still alive (zombies are dead), with their command lines."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
        except OSError:
            continue  # ended meanwhile
        # After "pid (name)": state, ppid, pgrp, session.
        state, _, _, sid = stat.rsplit(")", 1)[1].split()[:4]
        if int(sid) == session and state != "Z":
            found[int(entry.name)] = command
    return found


def postgres(database: str = "postgres") -> psycopg.Connection:
    db = settings.DATABASES["default"]
    return psycopg.connect(
        host=str(db["HOST"]),
        port=str(db["PORT"]),
        user=str(db["USER"]),
        password=str(db["PASSWORD"]) or None,
        dbname=database,
        autocommit=True,
    )


@pytest.fixture
def fresh_database() -> str:
    """The name of a database that does not exist; dropped afterwards."""
    name = f"{settings.DATABASES['default']['NAME']}_make_run_{os.getpid()}"
    drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
    with postgres() as conn:
        conn.execute(drop)
    yield name
    with postgres() as conn:
        conn.execute(drop)


@pytest.mark.parametrize(
    ("stop_signal", "to_the_group"),
    [(signal.SIGINT, True), (signal.SIGTERM, False)],
    ids=["ctrl-c", "sigterm-to-make"],
)
def test_make_run_sets_itself_up_and_stops_everything(
    fresh_database: str, tmp_path: Path, stop_signal: signal.Signals, to_the_group: bool
) -> None:
    port = free_port()
    env = os.environ | {"POSTGRES_DB": fresh_database, "DJANGO_DEBUG": "1"}
    log = tmp_path / "make-run.log"
    with log.open("wb") as output:
        make = subprocess.Popen(
            ["make", "--no-print-directory", "run", f"PORT={port}", "WEB_WORKERS=2"],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own session: every process it starts is found by it
        )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + START_SECONDS
        while True:
            assert make.poll() is None, f"make run ended ({make.returncode}):\n{log.read_text()}"
            assert time.monotonic() < deadline, (
                f"no /healthz after {START_SECONDS} s:\n{log.read_text()}"
            )
            try:
                if httpx.get(f"{url}/healthz", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(1)
        # The fresh database was created and migrated: a page that reads it answers.
        assert httpx.get(f"{url}/api/games/", timeout=30).status_code == 200
        running = session_processes(make.pid)
        commands = " ".join(running.values())
        for part in ("uvicorn", "beat", "quick@", "strong@"):  # web, beat and both workers
            assert part in commands, running
        # The strong worker's searches and reviews run at the idle CPU priority, the rest not.
        idle = {pid for pid in running if os.sched_getscheduler(pid) == os.SCHED_IDLE}
        assert idle, running
        assert all("strong@" in running[pid] for pid in idle), running

        if to_the_group:
            os.killpg(make.pid, stop_signal)  # what a terminal does on Ctrl-C
        else:
            make.send_signal(stop_signal)  # a supervisor stopping make alone
        make.wait(timeout=STOP_SECONDS)
        deadline = time.monotonic() + STOP_SECONDS
        while (left := session_processes(make.pid)) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert not left, f"left running after make ended: {left}\n{log.read_text()}"
        # The trap fired once: it used to send its own SIGTERM to itself again and again until
        # the shell crashed ("Segmentation fault"), each worker warned of shutdown 900 times.
        output = log.read_text()
        assert "Segmentation fault" not in output, output
        assert output.count("Warm shutdown") <= 4, output  # two workers, Ctrl-C and the trap
    finally:
        for pid in session_processes(make.pid):
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if make.poll() is None:
            make.kill()
            make.wait()
