"""The engine of an earlier commit, run in a subprocess, as a sparring partner for matches.

``OldEngine("01d94f8")`` extracts that commit's ``ai_worker`` package with ``git archive``
into ``.bench/engine-<commit>/`` (ignored by git; its numba cache is built there on first use)
and starts ``python`` on it, reading a position per line and answering the move its level
plays. Only 8x8 two-player positions cross (in Edax's board form, with the anti-reversi
flag beside it: an anti-reversi position needs an engine whose ``Board`` has ``from_rows``).
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
import json, sys
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
    result = choose_move(board, request["level"], time_limit=request["time"], seed=request["seed"])
    print(json.dumps({"move": str(result.move)}), flush=True)
"""


def engine_folder(commit: str) -> Path:
    """The folder holding ``commit``'s ``ai_worker`` package (extracted once)."""
    folder = CACHE / f"engine-{commit}"
    if not (folder / "ai_worker").is_dir():
        folder.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(
            ["git", "-C", str(REPOSITORY), "archive", commit, "ai_worker"],
            capture_output=True,
            check=True,
        )
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder


class OldEngine:
    """A running engine of ``commit``; use as a context manager (the process ends on exit)."""

    def __init__(self, commit: str = BASELINE_COMMIT) -> None:
        self.commit = commit
        self._process = subprocess.Popen(
            [sys.executable, "-c", _SERVER],
            cwd=engine_folder(commit),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

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
