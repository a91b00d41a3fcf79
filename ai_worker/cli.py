"""Sub-commands of ``python -m ai_worker``."""

import argparse


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m ai_worker", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    warmup = commands.add_parser("warmup", help="compile or load the numba kernels once")
    warmup.set_defaults(handler=run_warmup)
    return parser


def run_warmup(args: argparse.Namespace) -> int:
    print("nothing to warm up yet")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.handler(args))
