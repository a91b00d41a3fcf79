"""Sub-commands of ``python -m ai_worker``; each has an ``add_<name>`` and a ``run_<name>``."""

import argparse
import sys

from ai_worker.engine import Board, IllegalMoveError, Variant, VariantError


def add_warmup(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    warmup = commands.add_parser("warmup", help="compile or load the numba kernels once")
    warmup.set_defaults(handler=run_warmup)


def run_warmup(args: argparse.Namespace) -> int:
    print("nothing to warm up yet")
    return 0


def add_perft(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    perft = commands.add_parser(
        "perft",
        help="count the leaves of the move tree (a forced pass is a ply, an ended game a leaf)",
    )
    perft.add_argument("--depth", type=int, required=True, help="plies to look ahead")
    perft.add_argument("--players", type=int, default=2, help="2, 3 or 4")
    perft.add_argument("--board", default="8x8", help="6x6, 8x8, 10x10 or octagon")
    perft.add_argument("--opening", default="cross", help="cross, parallel or free")
    perft.add_argument("--anti", action="store_true", help="anti-reversi (fewest discs wins)")
    perft.add_argument("--blocked", default="", help="blocked cells, e.g. c3,f6")
    perft.add_argument("--handicap", type=int, default=0, help="corners given as a handicap")
    perft.add_argument("--handicap-color", default="black", help="black or white")
    perft.add_argument("--moves", default="", help="moves played first, e.g. f5,d6,pass")
    perft.set_defaults(handler=run_perft)


def run_perft(args: argparse.Namespace) -> int:
    if args.depth < 0:
        return _fail("--depth must be 0 or more")
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
        return _fail(f"bad variant setting {error.field}: {error.message}")
    board = Board(variant)
    for number, text in enumerate(_split(args.moves), start=1):
        try:
            board.push_notation(text)
        except IllegalMoveError as error:
            return _fail(f"illegal move {text!r} (move {number} of --moves): {error.message}")
    print(board.perft(args.depth))
    return 0


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
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.handler(args))
