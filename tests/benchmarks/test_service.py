"""``make bench-service`` (benchmarks/service.py): the web CPU it counts per move, the settings
its stacks run with, and its table of two checkouts."""

import os
import subprocess
import sys
import time

from django.core.exceptions import ImproperlyConfigured

from benchmarks import service
from benchmarks.loadtest import Figures
from reversi_site.security import secret_key

# A child that burns about 0.5 s of CPU, then waits to be stopped.
BURN = "import time\nend = time.process_time() + 0.5\nwhile time.process_time() < end: pass\n"
BURN += "print('done', flush=True)\ntime.sleep(60)\n"


def test_the_cpu_of_a_process_counts_the_processes_under_it() -> None:
    """As uvicorn's workers under its supervisor: the parent's figure has the child's CPU."""
    parent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"import subprocess, sys, time\n"
            f"child = subprocess.Popen([sys.executable, '-c', {BURN!r}], stdout=subprocess.PIPE)\n"
            f"child.stdout.readline()\nprint('ready', flush=True)\ntime.sleep(60)\n",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert parent.stdout is not None
        assert parent.stdout.readline().strip() == "ready"
        used = service.Processes.read().tree_cpu(parent.pid)
        assert 0.4 <= used < 30, used  # wide: the machine may be shared
        assert service.Processes.read().tree_cpu(os.getpid()) >= time.process_time() * 0.9
    finally:
        parent.kill()
        parent.wait()


def test_stacks_run_the_production_settings_unless_asked_for_debug() -> None:
    production = service.django_settings(debug=False)
    assert (production["DJANGO_DEBUG"], production["DJANGO_HTTPS"]) == ("0", "0")
    assert secret_key(production["DJANGO_SECRET_KEY"], debug=False)  # the server would start
    assert (
        production["DJANGO_SECRET_KEY"] != service.django_settings(debug=False)["DJANGO_SECRET_KEY"]
    )
    assert service.django_settings(debug=True) == {"DJANGO_DEBUG": "1"}
    try:
        secret_key("", debug=False)
    except ImproperlyConfigured:
        pass
    else:
        raise AssertionError("production without a key must refuse to start")


def test_the_table_has_a_column_per_commit_and_scenario_and_the_cpu_per_move() -> None:
    figures = Figures(
        move=[0.05], push=[0.04], baseline=[0.01], client_lag=[0.002], moves_applied=200,
        seconds=50.0,  # the players' time; the CPU's window (60 s) also holds their start
    )  # fmt: skip
    runs = [
        service.Run("hot-seat", "aaaaaaa", 50, ["hot-seat"], 60.0, figures, tiers(4.0)),
        service.Run("hot-seat", "bbbbbbb", 50, ["hot-seat"], 60.0, figures, tiers(2.0)),
    ]
    lines = service.table(runs).splitlines()
    assert lines[0] == "| scenario | aaaaaaa hot-seat | bbbbbbb hot-seat |"
    assert "| web CPU per move applied (ms) | 20.0 | 10.0 |" in lines
    assert "| moves/s | 4.0 | 4.0 |" in lines
    assert "| the load client's lag p50 / p99 (ms) | 2 / 2 | 2 / 2 |" in lines
    by_tier = (
        "web 10.0, quick worker 3.0, strong worker 2.0, PostgreSQL 2.5, Redis 0.5, load client 8.0"
    )
    assert (
        f"| CPU per move by tier (ms) | {by_tier.replace('10.0', '20.0', 1)} | {by_tier} |" in lines
    )
    # (4 + 1 + 0.5 + 0.1 + 1.6) s over 60 s, and (2 + 1 + 0.5 + 0.1 + 1.6) s
    assert "| cores busy (all tiers) | 0.12 | 0.09 |" in lines


def tiers(web: float) -> dict[str, float]:
    return {
        "web": web,
        "quick worker": 0.6,
        "strong worker": 0.4,
        "PostgreSQL": 0.5,
        "Redis": 0.1,
        "load client": 1.6,
    }


def test_the_tiers_cpu_counts_the_database_and_this_process() -> None:
    """PostgreSQL's processes by name (its ended backends through the postmaster's children's
    time), and the load client as this process."""
    table = service.Processes.read()
    assert table.named_cpu("postgres") > 0
    assert table.named_cpu("no-such-command") == 0
    assert table.tree_cpu(os.getpid()) >= time.process_time() * 0.9


def test_against_names_the_other_checkout_and_debug_is_off_by_default() -> None:
    options, rest = service.parse_arguments(["--against", "../main", "--duration", "20"])
    assert (str(options.against), options.debug, rest) == ("../main", False, ["--duration", "20"])
    assert service.parse_arguments(["--debug"])[0].debug


def test_the_median_table_merges_the_rounds_of_each_commit_and_scenario() -> None:
    """With ``--rounds``: one column per commit and scenario, each number the median of the
    rounds' (p50 and p99 apart, every tier apart); a cell left empty in every round stays so."""
    header = ["a hot-seat", "b hot-seat", "b hot-seat", "a hot-seat", "a hot-seat", "b hot-seat"]
    rows = [
        (
            "push p50 / p99 (ms)",
            ["30 / 200", "31 / 140", "29 / 500", "28 / 130", "35 / 400", "33 / 90"],
        ),
        (
            "by tier (ms)",
            [
                "web 16.1, redis 0.2",
                "web 9.0, redis 0.1",
                "web 9.4, redis 0.3",
                "web 17.9, redis 0.1",
                "web 15.0, redis 0.3",
                "web 8.0, redis 0.2",
            ],
        ),
        ("CPU reply easy p50 / p99 (ms)", [""] * 6),
    ]
    assert service.median_table(header, rows).splitlines() == [
        "| scenario | a hot-seat | b hot-seat |",
        "| --- | --- | --- |",
        "| push p50 / p99 (ms) | 30 / 200 | 31 / 140 |",
        "| by tier (ms) | web 16.1, redis 0.2 | web 9.0, redis 0.2 |",
        "| CPU reply easy p50 / p99 (ms) |  |  |",
    ]


def test_rounds_repeat_every_scenario_with_the_stacks_order_swapped_each_round() -> None:
    assert service.parse_arguments(["--rounds", "3"])[0].rounds == 3
    assert service.parse_arguments([])[0].rounds == 1
    order = [(name, turn % 2) for turn, name in service.turns(["hot-seat", "max"], 2)]
    assert order == [("hot-seat", 0), ("max", 1), ("hot-seat", 1), ("max", 0)]
