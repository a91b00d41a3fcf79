"""Shared positions of the search tests: variants of every family and random mid-games."""

import random

import pytest

from ai_worker.engine import Board, Variant

FAMILIES = {
    "8x8": Variant(),
    "8x8-parallel": Variant(opening="parallel"),
    "8x8-free": Variant(opening="free"),
    "8x8-anti": Variant(anti=True),
    "8x8-walls": Variant(blocked=("b2", "c6", "f3", "g7")),
    "8x8-handicap": Variant(handicap=2),
    "6x6": Variant(board="6x6"),
    "10x10": Variant(board="10x10"),
    "octagon": Variant(board="octagon"),
    "10x10-walls-anti": Variant(board="10x10", anti=True, blocked=("c3", "h8", "e9")),
    "3-players": Variant(players=3),
    "4-players-10x10": Variant(players=4, board="10x10"),
    "4-players-octagon": Variant(players=4, board="octagon"),
}


def random_position(variant: Variant, plies: int, seed: int) -> Board:
    """The position after ``plies`` random legal moves (fewer if the game ends first)."""
    rng = random.Random(seed)
    board = Board(variant)
    for _ in range(plies):
        moves = board.legal_moves
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


@pytest.fixture(params=sorted(FAMILIES), name="variant")
def every_variant(request: pytest.FixtureRequest) -> Variant:
    return FAMILIES[request.param]


def random_endgame(variant: Variant, empties: int, seed: int) -> Board:
    """A random position with ``empties`` empty cells and the game not over."""
    rng = random.Random(seed)
    while True:
        board = Board(variant)
        while board.empties() > empties and not board.is_game_over():
            board.push(rng.choice(board.legal_moves))
        if not board.is_game_over():
            return board
