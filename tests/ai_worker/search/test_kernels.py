"""The numba kernels agree with the pure-Python rules engine (the reference)."""

import random

import numpy as np
import pytest

from ai_worker.engine import PASS, Board, Move, Variant
from ai_worker.fast import bitboard, generic
from ai_worker.fast.geometry import bitboards_of, discs_of, geometry_of
from tests.ai_worker.search.conftest import random_position


def generic_perft(board: Board, depth: int) -> int:
    rows = board.rows()
    g = geometry_of(rows)
    return generic.perft(
        discs_of(rows), g.masks, g.shifts, board.turn, board.variant.players, depth
    )


def bitboard_perft(board: Board, depth: int) -> int:
    return bitboard.perft(*bitboards_of(board.rows(), board.turn), depth)


def generic_moves(board: Board) -> list[Move]:
    rows = board.rows()
    g = geometry_of(rows)
    bits = generic.move_list(discs_of(rows), g.masks, g.shifts, board.turn, board.variant.players)
    return [Move(b % g.stride, b // g.stride) for b in bits]


def test_bitboard_perft_from_the_start_matches_the_known_counts() -> None:
    start = Board()
    assert [bitboard_perft(start, d) for d in range(1, 9)] == [
        4, 12, 56, 244, 1396, 8200, 55092, 390216,
    ]  # fmt: skip
    assert bitboard_perft(start, 10) == 24571284  # the first games over are at ply 9


@pytest.mark.parametrize("seed", range(6))
def test_bitboard_perft_matches_the_engine_in_8x8_mid_games(seed: int) -> None:
    variant = [Variant(), Variant(blocked=("c3", "f6", "h2")), Variant(handicap=3)][seed % 3]
    board = random_position(variant, 12 + 7 * seed, seed)
    for depth in (1, 2, 3, 4):
        assert bitboard_perft(board, depth) == board.perft(depth)


def test_generic_perft_matches_the_engine_from_the_start(variant: Variant) -> None:
    board = random_position(variant, 4, seed=0) if variant.opening == "free" else Board(variant)
    assert not board.in_placement_phase
    depth = 4 if variant.players == 2 else 3
    assert generic_perft(board, depth) == board.perft(depth)


@pytest.mark.parametrize("seed", range(2))
def test_generic_perft_matches_the_engine_in_mid_games(variant: Variant, seed: int) -> None:
    board = random_position(variant, Board(variant).empties() * (seed + 1) // 3, seed)
    assert not board.is_game_over()
    assert generic_perft(board, 3) == board.perft(3)


def agree_move_by_move(variant: Variant, seed: int) -> None:
    """Every move of a random game: the kernels' legal moves and flips are the engine's."""
    rng = random.Random(seed)
    board = Board(variant)
    two_player_8x8 = variant.players == 2 and variant.board == "8x8"
    while not board.is_game_over():
        legal = board.legal_moves
        if board.in_placement_phase:
            board.push(rng.choice(legal))
            continue
        expected = [] if legal == [PASS] else sorted(legal, key=lambda m: (m.row, m.col))
        assert sorted(generic_moves(board), key=lambda m: (m.row, m.col)) == expected
        if two_player_8x8:
            p, o, w = bitboards_of(board.rows(), board.turn)
            bits = int(bitboard.legal_moves(p, o, w))
            assert bits == sum(1 << (m.row * 8 + m.col) for m in expected)
        move = rng.choice(legal)
        after = board.copy()
        after.push(move)
        if move != PASS:
            rows = board.rows()
            g = geometry_of(rows)
            discs = discs_of(rows)
            flipped = generic.play(discs, g.shifts, move.row * g.stride + move.col, board.turn)
            assert np.array_equal(discs, discs_of(after.rows()))
            assert flipped == len(board.flips_for(move))
            if two_player_8x8:
                f = bitboard.flips(p, o, move.row * 8 + move.col)
                assert int(f) == sum(1 << (m.row * 8 + m.col) for m in board.flips_for(move))
        board = after


def test_random_games_agree_move_by_move(variant: Variant) -> None:
    agree_move_by_move(variant, 7)


WALLED_GROUPS = {
    "3-players-octagon-walls": Variant(players=3, board="octagon", blocked=("d4", "g7")),
    "4-players-8x8-walls": Variant(players=4, blocked=("b2", "c6", "g7")),
    "3-players-10x10-walls-anti": Variant(players=3, board="10x10", anti=True, blocked=("e9",)),
}


@pytest.mark.parametrize("name", sorted(WALLED_GROUPS))
def test_generic_kernels_with_walls_and_three_or_four_players(name: str) -> None:
    variant = WALLED_GROUPS[name]
    for seed in range(3):
        agree_move_by_move(variant, seed)
        board = random_position(variant, 8 + 20 * seed, seed)
        if not board.is_game_over():
            assert generic_perft(board, 3) == board.perft(3)
