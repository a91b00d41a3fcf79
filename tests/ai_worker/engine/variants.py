"""One variant of each kind the engine supports, for tests that run over all of them."""

from ai_worker.engine import Variant

ALL_VARIANTS = [
    Variant(),
    Variant(board="6x6"),
    Variant(board="10x10", anti=True),
    Variant(board="octagon", opening="parallel"),
    Variant(opening="free"),
    Variant(blocked=("b2", "c6", "f3", "g7")),
    Variant(handicap=3, handicap_color="white"),
    Variant(players=3),
    Variant(players=4),
    Variant(players=3, board="10x10", anti=True, blocked=("a1", "c3", "h8")),
    Variant(players=4, board="octagon", blocked=("c3", "e8")),
    Variant(players=3, board="octagon"),
]
