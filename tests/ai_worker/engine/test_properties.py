"""Random games in every variant keep the engine's invariants (hypothesis)."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ai_worker.engine import COLOR_NAMES, Board, Move, Variant
from tests.ai_worker.engine.naive import NaiveGame
from tests.ai_worker.engine.variants import ALL_VARIANTS

DISC_CHARS = set("XORGN")


def cells(board: Board) -> dict[Move, str]:
    return {
        Move(col, row): char
        for row, line in enumerate(board.rows())
        for col, char in enumerate(line)
    }


def disc_total(board: Board) -> int:
    return sum(char in DISC_CHARS for char in cells(board).values())


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(ALL_VARIANTS),
    choices=st.lists(st.integers(min_value=0, max_value=1 << 16), min_size=40, max_size=130),
)
def test_random_games_keep_the_invariants(variant: Variant, choices: list[int]) -> None:
    board = Board(variant)
    naive = NaiveGame.start(variant)
    fixed = {square: char for square, char in cells(board).items() if char in "# "}
    size = disc_total(board) + board.empties()
    texts = [board.to_text()]
    for choice in choices:
        legal = board.legal_moves
        assert [str(move) for move in legal] == naive.moves()
        assert board.is_game_over() == (not legal)
        if not legal:
            assert board.outcome() is not None
            break
        for candidate in legal:
            expected = (
                []
                if candidate.is_pass or naive.placing()
                else naive.flips((candidate.col, candidate.row), naive.turn)
            )
            assert board.flips_for(candidate) == [Move(col, row) for col, row in expected]
        move = legal[choice % len(legal)]
        before = cells(board)
        mover = "XORG"[board.turn]
        flips = board.flips_for(move)
        board.push(move)
        naive = naive.play(str(move))
        after = cells(board)
        assert {square for square in after if after[square] != before[square]} == (
            set() if move.is_pass else {move, *flips}
        )
        assert all(after[square] == mover and before[square] in DISC_CHARS for square in flips)
        assert {square: after[square] for square in fixed} == fixed
        assert disc_total(board) + board.empties() == size
        assert disc_total(board) == sum(char in DISC_CHARS for char in before.values()) + (
            0 if move.is_pass else 1
        )
        assert board.counts() == tuple(naive.counts())
        text = board.to_text()
        assert Board.from_text(text).to_text() == text
        assert text.splitlines()[1] == f"turn: {COLOR_NAMES[naive.turn]}"
        texts.append(text)
    while board.move_stack:
        texts.pop()
        board.pop()
        assert board.to_text() == texts[-1]
