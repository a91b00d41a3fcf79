"""Sub-commands of ``python -m ai_worker``; each has an ``add_<name>`` and a ``run_<name>``."""

import argparse
import sys
import time
from pathlib import Path

from ai_worker.engine import Board, IllegalMoveError, Variant, VariantError
from ai_worker.engine.records import RecordError, read_obf


def add_warmup(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    warmup = commands.add_parser("warmup", help="compile or load the numba kernels once")
    warmup.set_defaults(handler=run_warmup)


def run_warmup(args: argparse.Namespace) -> int:
    started = time.monotonic()
    from ai_worker.search import warmup

    warmup()
    print(f"numba kernels ready in {time.monotonic() - started:.2f} s")
    return 0


def add_perft(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    perft = commands.add_parser(
        "perft",
        help="count the leaves of the move tree (a forced pass is a ply, an ended game a leaf)",
    )
    perft.add_argument("--depth", type=int, required=True, help="plies to look ahead")
    perft.add_argument(
        "--reference",
        action="store_true",
        help="count with the pure-Python rules engine (slow) instead of the numba kernels",
    )
    _add_position_options(perft)
    perft.set_defaults(handler=run_perft)


def run_perft(args: argparse.Namespace) -> int:
    if args.depth < 0:
        return _fail("--depth must be 0 or more")
    board = _position(args)
    if isinstance(board, str):
        return _fail(board)
    if args.reference:
        print(board.perft(args.depth))
    else:
        from ai_worker.fast.api import perft

        print(perft(board, args.depth))
    return 0


def add_solve(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    solve = commands.add_parser(
        "solve", help="solve an 8x8 position exactly: best move and final disc difference"
    )
    solve.add_argument(
        "position",
        help='OBF: "<64 chars of X, O or - for a1..h8, row by row> <X|O to move>[; comment]"',
    )
    solve.add_argument("--time", type=float, default=3600.0, help="give up after S seconds")
    solve.set_defaults(handler=run_solve)


def run_solve(args: argparse.Namespace) -> int:
    from ai_worker.search import solve_endgame

    try:
        board = read_obf(args.position)
    except RecordError as error:
        return _fail(f"bad position: {error.message}")
    if board.is_game_over():
        return _fail("the game is over in this position")
    result = solve_endgame(board, time_limit=args.time)
    if result is None:
        return _fail(f"not solved within {args.time:g} s")
    print(f"best move: {result.move}  final disc difference: {result.score:+.0f}")
    print(
        f"{board.empties()} empties, {result.nodes} nodes, {result.elapsed:.2f} s"
        f" ({result.nodes / max(result.elapsed, 1e-9) / 1e6:.1f} M nodes/s)"
    )
    return 0


def add_play(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    play = commands.add_parser("play", help="the move a CPU level chooses in a position")
    play.add_argument("--level", default="strong", help="easy, normal or strong")
    play.add_argument("--time", type=float, default=None, help="seconds (default: the level's)")
    play.add_argument("--seed", type=int, default=None, help="seed of the level's randomness")
    _add_position_options(play)
    play.set_defaults(handler=run_play)


def run_play(args: argparse.Namespace) -> int:
    from ai_worker.levels import LEVELS
    from ai_worker.search import choose_move

    if args.level not in LEVELS:
        return _fail(f"--level must be one of {', '.join(LEVELS)}")
    board = _position(args)
    if isinstance(board, str):
        return _fail(board)
    if board.is_game_over():
        return _fail("the game is over in this position")
    result = choose_move(board, args.level, time_limit=args.time, seed=args.seed)
    kind = "final disc difference" if result.exact else "evaluation"
    print(f"{args.level} plays {result.move}")
    print(
        f"{kind} {result.score:+.2f}, depth {result.depth}, {result.nodes} nodes,"
        f" {result.elapsed:.3f} s, pv {' '.join(str(m) for m in result.pv)}"
    )
    return 0


def add_train(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    from ai_worker.training.pipeline import Settings

    defaults = Settings(folder=Path(), out=Path())
    train = commands.add_parser(
        "train",
        help="train the pattern evaluation (resumable: stages are kept in --folder)",
        description="Positions from random play and self-play, labelled by the exact solver"
        " near the end and by searches one phase deep above, fitted by least squares per"
        " phase from the end of the game back; the weights file goes to --out.",
    )
    train.add_argument("--folder", type=Path, default=Path(".training"), help="stage files")
    train.add_argument("--out", type=Path, default=None, help="weights file to write")
    train.add_argument("--seed", type=int, default=defaults.seed)
    train.add_argument("--games", type=int, default=defaults.games)
    train.add_argument(
        "--positions",
        type=int,
        default=defaults.positions_per_phase,
        help="positions labelled per phase",
    )
    train.add_argument(
        "--exact-empties",
        type=int,
        default=defaults.exact_empties,
        help="phases ending at this many empties or fewer are solved exactly",
    )
    train.add_argument(
        "--depth",
        type=int,
        default=defaults.search_depth,
        help="plies of the labelling searches (at least one phase)",
    )
    train.add_argument("--ridge", type=float, default=defaults.ridge)
    train.add_argument("--iterations", type=int, default=defaults.iterations)
    train.add_argument("--anti", action="store_true", help="weights for anti-reversi")
    train.set_defaults(handler=run_train)


def run_train(args: argparse.Namespace) -> int:
    from ai_worker.training.pipeline import Settings, run
    from ai_worker.weights import DATA

    variant = "anti" if args.anti else "reversi"
    settings = Settings(
        folder=args.folder,
        out=args.out or DATA / f"patterns-{variant}.bin",
        seed=args.seed,
        games=args.games,
        positions_per_phase=args.positions,
        exact_empties=args.exact_empties,
        search_depth=args.depth,
        ridge=args.ridge,
        iterations=args.iterations,
        anti=args.anti,
    )
    try:
        run(settings, log=lambda line: print(line, flush=True))
    except ValueError as error:
        return _fail(str(error))
    return 0


def add_train_linear(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    from ai_worker.training.linear import LinearSettings

    defaults = LinearSettings()
    train = commands.add_parser(
        "train-linear",
        help="train the linear evaluation of the 6x6, 10x10, octagon and 3-4 player search",
        description="Self-play games by the generic search per board and player count, every"
        " position labelled by the game's final margin for each player, fitted by least"
        " squares per phase; the weights file goes to --out.",
    )
    train.add_argument("--out", type=Path, default=defaults.out, help="weights file to write")
    train.add_argument("--seed", type=int, default=defaults.seed)
    train.add_argument("--games", type=int, default=defaults.games, help="games per set")
    train.add_argument(
        "--depth", type=int, default=defaults.search_depth, help="plies of the self-play search"
    )
    train.add_argument(
        "--random-share",
        type=float,
        default=defaults.random_share,
        help="share of the self-play moves chosen at random",
    )
    train.add_argument("--ridge", type=float, default=defaults.ridge)
    train.set_defaults(handler=run_train_linear)


def run_train_linear(args: argparse.Namespace) -> int:
    from ai_worker.training.linear import LinearSettings, run_linear

    if args.games < 1 or args.depth < 1:
        return _fail("--games and --depth must be 1 or more")
    if not 0 <= args.random_share <= 1:
        return _fail("--random-share must be between 0 and 1")
    settings = LinearSettings(
        out=args.out,
        seed=args.seed,
        games=args.games,
        search_depth=args.depth,
        random_share=args.random_share,
        ridge=args.ridge,
    )
    run_linear(settings, log=lambda line: print(line, flush=True))
    return 0


def _add_position_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=2, help="2, 3 or 4")
    parser.add_argument("--board", default="8x8", help="6x6, 8x8, 10x10 or octagon")
    parser.add_argument("--opening", default="cross", help="cross, parallel or free")
    parser.add_argument("--anti", action="store_true", help="anti-reversi (fewest discs wins)")
    parser.add_argument("--blocked", default="", help="blocked cells, e.g. c3,f6")
    parser.add_argument("--handicap", type=int, default=0, help="corners given as a handicap")
    parser.add_argument("--handicap-color", default="black", help="black or white")
    parser.add_argument("--moves", default="", help="moves played first, e.g. f5,d6,pass")


def _position(args: argparse.Namespace) -> Board | str:
    """The position of the variant and move options, or an error message."""
    try:
        variant = Variant(
            players=args.players,
            board=args.board,
            opening=args.opening,
            anti=args.anti,
            blocked=tuple(_split(args.blocked)),
            handicap=args.handicap,
            handicap_color=args.handicap_color,
        )
    except VariantError as error:
        return f"bad variant setting {error.field}: {error.message}"
    board = Board(variant)
    for number, text in enumerate(_split(args.moves), start=1):
        try:
            board.push_notation(text)
        except IllegalMoveError as error:
            return f"illegal move {text!r} (move {number} of --moves): {error.message}"
    return board


def _split(listing: str) -> list[str]:
    return [item.strip() for item in listing.split(",") if item.strip()]


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m ai_worker", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    add_warmup(commands)
    add_perft(commands)
    add_solve(commands)
    add_play(commands)
    add_train(commands)
    add_train_linear(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.handler(args))
