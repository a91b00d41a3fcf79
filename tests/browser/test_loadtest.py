"""The load test (benchmarks/loadtest.py), run briefly against this package's live servers: it
plays real games through the HTTP API and the websocket and reports no error.

It runs as a subprocess, as the README gives it (and away from Playwright's event loop).
"""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_short_load_test_plays_games_and_reports_no_error(live_url: str) -> None:
    run = subprocess.run(
        [
            sys.executable,
            "benchmarks/loadtest.py",
            "--games",
            "2",
            "--duration",
            "6",
            "--levels",
            "easy",
            "--base-url",
            live_url,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "errors: 0" in run.stdout
    moves = re.search(r"^moves applied: (\d+) ", run.stdout, re.MULTILINE)
    assert moves, run.stdout
    assert int(moves[1]) > 0, run.stdout
    assert re.search(r"^CPU reply latency easy +p50", run.stdout, re.MULTILINE), run.stdout
