"""The engine of an earlier commit, run in a subprocess, as a sparring partner for matches.

``OldEngine("01d94f8")`` extracts that commit's ``ai_worker`` package with ``git archive``
into ``.bench/engine-<commit>/`` (ignored by git; its numba cache is built there on first use)
and starts ``python`` on it, reading a position per line and answering the move its level
plays. Only 8x8 two-player positions cross (in Edax's board form, with the anti-reversi
flag beside it: an anti-reversi position needs an engine whose ``Board`` has ``from_rows``).

``OldEngine(commit, cpu_clock=True)`` gives its searches time on the CPU clock of their thread
(as ``choose_move(..., clock=CPU_CLOCK)`` here), so that a match at equal time stays equal on
a loaded machine: engines with a ``clock`` argument get it; older ones (``01d94f8``) read the
monotonic clock, which the server redirects before their kernels are built, in a copy of
their own (``engine-<commit>-cpu``, so that its numba cache is not the wall-clock one's).
"""

import json
import subprocess
import sys
from pathlib import Path
from types import TracebackType

from ai_worker.engine import Board, Move
from ai_worker.engine.records import write_obf

REPOSITORY = Path(__file__).resolve().parent.parent
CACHE = REPOSITORY / ".bench"
BASELINE_COMMIT = "01d94f8"  # the engine issue 12 starts from
_SERVER = """
import json, sys, time
options = {}
if sys.argv[1] == "cpu":
    from ai_worker.fast import intrinsics
    if hasattr(intrinsics, "_CLOCK_MONOTONIC"):  # an engine of the monotonic clock only
        intrinsics._CLOCK_MONOTONIC = time.CLOCK_THREAD_CPUTIME_ID  # its kernels' clock
        time.monotonic_ns = lambda: time.clock_gettime_ns(time.CLOCK_THREAD_CPUTIME_ID)
    else:
        options["clock"] = time.CLOCK_THREAD_CPUTIME_ID
from ai_worker.search import choose_move
try:
    from ai_worker.search import board_from_obf
except ImportError:  # newer engines read OBF in their records package
    from ai_worker.engine.records import read_obf as board_from_obf
try:
    from ai_worker.search import warmup
except ImportError:  # older engines compile on their first move
    pass
else:
    warmup()
for line in sys.stdin:
    request = json.loads(line)
    board = board_from_obf(request["obf"])
    if request["anti"]:
        from ai_worker.engine import Variant
        board = type(board).from_rows(Variant(anti=True), board.rows(), turn=board.turn)
    result = choose_move(
        board, request["level"], time_limit=request["time"], seed=request["seed"], **options
    )
    print(json.dumps({"move": str(result.move)}), flush=True)
"""


def engine_folder(commit: str, suffix: str = "") -> Path:
    """The folder holding ``commit``'s ``ai_worker`` package (extracted once; ``suffix`` names
    another copy, with a numba cache of its own)."""
    folder = CACHE / f"engine-{commit}{suffix}"
    if not (folder / "ai_worker").is_dir():
        folder.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(
            ["git", "-C", str(REPOSITORY), "archive", commit, "ai_worker"],
            capture_output=True,
            check=True,
        )
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder


def start_old_engine(commit: str, script: str, *, cpu_clock: bool) -> subprocess.Popen[str]:
    """Run ``script`` (Python source reading requests on stdin, answering on stdout) in the
    engine folder of ``commit``, with the CPU or wall clock as its first argument."""
    return subprocess.Popen(
        [sys.executable, "-c", script, "cpu" if cpu_clock else "wall"],
        cwd=engine_folder(commit, "-cpu" if cpu_clock else ""),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


class OldEngine:
    """A running engine of ``commit``; use as a context manager (the process ends on exit)."""

    def __init__(self, commit: str = BASELINE_COMMIT, *, cpu_clock: bool = False) -> None:
        self.commit = commit
        self._process = start_old_engine(commit, _SERVER, cpu_clock=cpu_clock)

    def choose_move(self, board: Board, level: str, *, time_limit: float, seed: int) -> Move:
        """The move ``level`` of the old engine plays in ``board`` (8x8, two players, anti or
        not)."""
        assert self._process.stdin is not None
        assert self._process.stdout is not None
        request = {
            "obf": write_obf(board),
            "anti": board.variant.anti,
            "level": level,
            "time": time_limit,
            "seed": seed,
        }
        self._process.stdin.write(json.dumps(request) + "\n")
        self._process.stdin.flush()
        answer = json.loads(self._process.stdout.readline())
        return Move.from_notation(answer["move"])

    def close(self) -> None:
        if self._process.stdin is not None:
            self._process.stdin.close()
        self._process.wait(timeout=60)

    def __enter__(self) -> "OldEngine":
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()
