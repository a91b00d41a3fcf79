"""Hand-built positions for every rule edge of spec R1-R8."""

import pytest

from ai_worker.engine import (
    BLACK,
    NEUTRAL,
    PASS,
    RED,
    WHITE,
    Board,
    IllegalMoveError,
    Move,
    Outcome,
    Variant,
)
from tests.ai_worker.engine.positions import position


def squares(names: str) -> list[Move]:
    return [Move.from_notation(name) for name in names.split()]


def error_code(board: Board, move: str) -> str:
    with pytest.raises(IllegalMoveError) as caught:
        board.check_move(Move.from_notation(move))
    return caught.value.code


# -- lines --------------------------------------------------------------------------------


def test_a_line_broken_by_an_empty_cell_does_not_flip() -> None:
    board = position(["XO-O"])
    assert error_code(board, "e1") == "no_flips"
    assert board.legal_moves == squares("c1")


def test_a_line_broken_by_a_wall_does_not_flip() -> None:
    board = position(["XO-O"], blocked=["c1"])
    assert board.legal_moves == []
    assert error_code(board, "e1") == "game_over"
    open_line = position(["XOOO"])
    assert open_line.flips_for(Move.from_notation("e1")) == squares("d1 c1 b1")


def test_a_line_that_runs_off_the_board_does_not_flip() -> None:
    board = position(["OOO", "", "", "", "", "", "", "XO"])
    assert error_code(board, "d1") == "no_flips"
    assert board.legal_moves == squares("c8")


def test_flipped_discs_never_flip_further() -> None:
    board = position(["-OX", "-O", "-X"])
    board.push_notation("a1")
    assert board.rows()[:3] == ["XXX-----", "-O------", "-X------"]
    assert board.piece_at(1, 1) == WHITE


def test_the_search_stops_at_the_first_own_disc() -> None:
    board = position(["-OXOX"])
    assert board.flips_for(Move.from_notation("a1")) == squares("b1")
    board.push_notation("a1")
    assert board.rows()[0] == "XXXOX---"


def test_every_bracketed_direction_flips_nearest_first() -> None:
    board = position(["X--X--X", "-O-O-O", "--OOO", "XOO-OOX", "--OOO", "-O-O-O", "X--X--X"])
    flips = board.flips_for(Move.from_notation("d4"))
    # Distance 1 all round in reading order (up-left ... down-right), then distance 2.
    assert flips == squares("c3 d3 e3 c4 e4 c5 d5 e5 b2 d2 f2 b4 f4 b6 d6 f6")
    assert board.legal_moves_with_flips()[Move.from_notation("d4")] == flips
    board.push_notation("d4")
    assert board.counts() == (8 + 16 + 1, 0)


def test_a_near_disc_of_a_short_line_comes_before_the_far_discs_of_a_long_one() -> None:
    board = position(["XOOO-OX"])
    # Left runs d1 c1 b1, right only f1: by distance, then left before right.
    assert board.flips_for(Move.from_notation("e1")) == squares("d1 f1 c1 b1")


def test_legal_moves_with_flips_lists_every_move_in_square_order() -> None:
    start = Board()
    assert start.legal_moves_with_flips() == {
        Move.from_notation("d3"): squares("d4"),
        Move.from_notation("c4"): squares("d4"),
        Move.from_notation("f5"): squares("e5"),
        Move.from_notation("e6"): squares("e5"),
    }
    assert list(start.legal_moves_with_flips()) == start.legal_moves
    assert position(["XO"], turn="white").legal_moves_with_flips() == {PASS: []}
    assert position(["XX"]).legal_moves_with_flips() == {}
    free = Board(Variant(opening="free"))
    assert free.legal_moves_with_flips() == {move: [] for move in squares("d4 e4 d5 e5")}
    table = position(["X-O"], players=3)  # black flips nothing: it places next to a disc
    placements = table.legal_moves_with_flips()
    assert list(placements) == table.legal_moves == squares("b1 d1 a2 b2 c2 d2")
    assert set(map(len, placements.values())) == {0}


# -- passes and the end of 2-player games -------------------------------------------------


def test_compulsory_pass() -> None:
    board = position(["XO"], turn="white")
    assert board.legal_moves == [PASS]
    assert error_code(board, "c1") == "must_pass"
    assert error_code(board, "b1") == "occupied"
    board.push(PASS)
    assert board.turn == BLACK
    assert error_code(board, "pass") == "cannot_pass"
    assert board.legal_moves == squares("c1")
    assert not board.is_game_over()


def test_a_wipe_out_ends_the_game_and_empties_go_to_the_winner() -> None:
    board = position(["XX", "XX", "X"], turn="white")
    assert board.is_game_over()
    assert board.legal_moves == []
    assert error_code(board, "pass") == "game_over"
    assert board.outcome() == Outcome((5, 0), 59, (64, 0), BLACK, False)


def test_a_mutual_block_is_a_32_32_draw_in_the_tournament_count() -> None:
    board = position(["X", "", "", "", "", "", "", "-------O"])
    assert board.is_game_over()
    assert board.outcome() == Outcome((1, 1), 62, (32, 32), None, True)


def test_a_full_board_draw_reads_32_32() -> None:
    board = position(["XO" * 4] * 8)
    assert board.outcome() == Outcome((32, 32), 0, (32, 32), None, True)


def test_anti_reversi_fewest_discs_wins_and_no_empties_are_added() -> None:
    board = position(["XXX", "", "", "", "", "", "", "-------O"], anti=True)
    assert board.outcome() == Outcome((3, 1), 60, (3, 1), WHITE, False)


def test_a_game_in_progress_has_no_outcome() -> None:
    assert Board().outcome() is None


# -- 3 and 4 players -----------------------------------------------------------------------


def test_a_line_of_rivals_and_neutral_discs_flips_to_the_mover() -> None:
    board = position(["-NORX"], players=3)
    board.push_notation("a1")
    assert board.rows()[0] == "XXXXX---"
    assert board.turn == WHITE


def test_the_neutral_disc_counts_for_nobody() -> None:
    board = Board(Variant(players=3))
    assert board.counts() == (1, 1, 1)
    assert board.piece_at(3, 4) == NEUTRAL


def test_a_flipping_move_is_compulsory_in_multi_player_games() -> None:
    board = position(["-OX"], players=3)
    assert board.legal_moves == squares("a1")
    assert error_code(board, "d1") == "no_flips"
    assert error_code(board, "pass") == "cannot_pass"


def test_without_a_flipping_move_a_disc_goes_next_to_any_disc() -> None:
    board = position(["", "", "-OR"], players=3)
    assert board.legal_moves == squares("a2 b2 c2 d2 a3 d3 a4 b4 c4 d4")
    assert error_code(board, "h8") == "not_adjacent"
    assert error_code(board, "pass") == "cannot_pass"
    assert board.flips_for(Move.from_notation("d3")) == []
    board.push_notation("d3")
    assert board.rows()[2] == "-ORX----"
    assert board.turn == WHITE


def test_a_player_without_discs_stays_in_the_game() -> None:
    board = position(["XXX", "XXX"], turn="red", players=4)
    assert board.counts() == (6, 0, 0, 0)
    assert board.legal_moves == squares("d1 d2 a3 b3 c3 d3")
    board.push_notation("d3")
    assert board.piece_at(3, 2) == RED


def test_the_game_ends_when_the_empties_are_cut_off_by_walls() -> None:
    rows = ["-#XXXXXX", "##XXXXXX"] + ["XXOOOOOR"] * 3 + ["RRRRRRRR"] * 3
    board = position(rows, turn="white", players=3, blocked=["b1", "a2", "b2"])
    assert board.is_game_over()
    assert board.legal_moves == []
    assert board.outcome() == Outcome((18, 15, 27), 1, (18, 15, 28), RED, False)


def test_a_tie_for_most_discs_is_a_table_draw() -> None:
    rows = ["XXXXXXXX"] * 2 + ["OOOOOOOO"] * 2 + ["RRRRRRRR"] * 2 + ["GGGGGGGG"] * 2
    board = position(rows, players=4)
    assert board.outcome() == Outcome((16, 16, 16, 16), 0, (16, 16, 16, 16), None, True)


def test_anti_reversi_with_three_players() -> None:
    rows = ["XXXXXXXX"] * 3 + ["OOOOOOOO"] * 3 + ["RRRRRRRR"] + ["RRRRRRRN"]
    board = position(rows, players=3, anti=True)
    assert board.outcome() == Outcome((24, 24, 15), 0, (24, 24, 15), RED, False)


@pytest.mark.parametrize(("players", "board_name", "each"), [(3, "octagon", 28), (4, "10x10", 24)])
def test_without_walls_every_player_places_the_same_number_of_discs(
    players: int, board_name: str, each: int
) -> None:
    board = Board(Variant(players=players, board=board_name))
    while board.legal_moves:
        board.push(board.legal_moves[len(board.legal_moves) // 2])
    assert board.empties() == 0
    assert board.ply == players * each
    assert PASS not in board.move_stack


# -- openings and handicaps ----------------------------------------------------------------


def test_the_free_opening_places_four_centre_discs_without_flipping() -> None:
    board = Board(Variant(opening="free"))
    assert board.in_placement_phase
    assert board.legal_moves == squares("d4 e4 d5 e5")
    assert error_code(board, "c3") == "not_adjacent"
    for name in ("d4", "e4", "e5"):
        board.push_notation(name)
        assert board.in_placement_phase
    assert board.rows()[3:5] == ["---XO---", "----X---"]
    assert board.turn == WHITE
    board.push_notation("d5")
    assert not board.in_placement_phase
    assert board.rows()[3:5] == ["---XO---", "---OX---"]
    assert board.turn == BLACK
    assert board.legal_moves == squares("e3 f4 c5 d6")


@pytest.mark.parametrize(
    ("board_name", "handicap", "corners"),
    [
        ("8x8", 1, "a1"),
        ("8x8", 2, "a1 h8"),
        ("8x8", 3, "a1 h8 h1"),
        ("8x8", 4, "a1 h8 h1 a8"),
        ("6x6", 4, "a1 f6 f1 a6"),
        ("10x10", 3, "a1 j10 j1"),
    ],
)
@pytest.mark.parametrize("colour", ["black", "white"])
def test_corner_handicap(board_name: str, handicap: int, corners: str, colour: str) -> None:
    board = Board(Variant(board=board_name, handicap=handicap, handicap_color=colour))
    expected = BLACK if colour == "black" else WHITE
    handicap_squares = squares(corners)
    last = board.width - 1
    for corner in [Move(0, 0), Move(last, last), Move(last, 0), Move(0, last)]:
        wanted = expected if corner in handicap_squares else -1
        assert board.piece_at(corner.col, corner.row) == wanted
    assert board.turn == BLACK


def test_the_parallel_opening() -> None:
    board = Board(Variant(opening="parallel"))
    assert board.rows()[3:5] == ["---OO---", "---XX---"]
    assert board.legal_moves == squares("c3 d3 e3 f3")
