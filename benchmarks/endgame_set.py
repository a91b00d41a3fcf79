"""Build the strong level's endgame test set: ``python -m benchmarks.endgame_set``.

Positions of 18 to 24 empties from varied games (random openings, then moves of the normal
level with now and then a random one), each with the exact value of every legal move from
the solver. Seeded: the same seed and count give the same file, and ``--start N`` builds only
the lines from the N-th on (the positions before it are played, not solved), so a run can be
split in parts or resumed. The bench (``python -m benchmarks.engine --endgame-set 0``) scores
strong against it.
"""

import argparse
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from ai_worker.engine import Board, Move
from ai_worker.engine.records import read_obf, write_obf
from ai_worker.fast.api import Position, Searcher, SearchTables
from ai_worker.search import choose_move

SET_FILE = Path(__file__).resolve().parent / "data" / "strong-endgames.txt"
EMPTIES = range(18, 25)


@dataclass(frozen=True)
class ScoredPosition:
    """A position and the exact final disc difference after each legal move."""

    board: Board
    move_values: dict[Move, int]

    @property
    def best(self) -> int:
        return max(self.move_values.values())


def read_set(path: Path = SET_FILE) -> list[ScoredPosition]:
    """The positions of a test set file: an OBF position, then ``move:value`` pairs."""
    positions = []
    for line in path.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        obf, _, pairs = line.partition(";")
        values = {}
        for pair in pairs.split():
            move, _, value = pair.partition(":")
            values[Move.from_notation(move)] = int(value)
        positions.append(ScoredPosition(read_obf(obf), values))
    return positions


def random_game_position(rng: random.Random, empties: int) -> Board | None:
    """A position with ``empties`` empties from a varied game, or None if it ended first."""
    board = Board()
    for _ in range(rng.randint(2, 8)):
        board.push(rng.choice(board.legal_moves))
    while board.empties() > empties:
        if board.is_game_over():
            return None
        legal = board.legal_moves
        if rng.random() < 0.15:
            board.push(rng.choice(legal))
        else:
            board.push(choose_move(board, "normal", time_limit=5, seed=rng.randrange(1 << 30)).move)
    if board.is_game_over() or len(board.legal_moves) < 2:
        return None
    return board


def exact_move_values(board: Board) -> dict[Move, int]:
    """The exact final disc difference after every legal move, for the side to move."""
    tables = SearchTables()
    position = Position.of(board)
    values = {}
    for square in position.legal_squares():
        searcher = Searcher(time.monotonic_ns() + 3600 * 10**9, tables)
        value = searcher.exact(position.play(square))
        assert value is not None
        values[Move(square % 8, square // 8)] = -value
    return values


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.endgame_set", description=__doc__)
    parser.add_argument("--count", type=int, default=200, help="positions to build")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--start", type=int, default=0, help="first position to solve")
    parser.add_argument("--out", type=Path, default=SET_FILE)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("a" if args.start else "w") as out:
        if not args.start:
            out.write(f"# strong's endgame test set: seed {args.seed}; OBF; move:exact value ...\n")
        built = 0
        while built < args.count:
            empties = EMPTIES[built % len(EMPTIES)]
            board = random_game_position(rng, empties)
            if board is None:
                continue
            if built < args.start:
                built += 1
                continue
            started = time.process_time()
            values = exact_move_values(board)
            pairs = " ".join(
                f"{move}:{value:+d}"
                for move, value in sorted(values.items(), key=lambda mv: -mv[1])
            )
            out.write(f"{write_obf(board)}; {pairs}\n")
            out.flush()
            built += 1
            print(
                f"{built}/{args.count}: {empties} empties, {time.process_time() - started:.1f} s",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
