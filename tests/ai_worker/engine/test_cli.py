"""The ``python -m ai_worker perft`` command."""

import subprocess
import sys

import pytest

from ai_worker.cli import main
from ai_worker.engine import Board, Variant
from tests.ai_worker.engine.naive import NaiveGame


@pytest.mark.parametrize(("depth", "count"), [(0, 1), (1, 4), (3, 56), (6, 8200)])
def test_perft_of_the_standard_start(
    depth: int, count: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["perft", "--depth", str(depth)]) == 0
    assert capsys.readouterr().out == f"{count}\n"


@pytest.mark.parametrize(
    ("arguments", "variant", "moves"),
    [
        (["--moves", "f5,d6,c3"], Variant(), "f5 d6 c3"),
        (["--board", "6x6", "--opening", "parallel"], Variant(board="6x6", opening="parallel"), ""),
        (["--opening", "free", "--moves", "d4"], Variant(opening="free"), "d4"),
        (
            ["--players", "4", "--board", "octagon", "--anti"],
            Variant(players=4, board="octagon", anti=True),
            "",
        ),
        (["--players", "3", "--board", "10x10"], Variant(players=3, board="10x10"), ""),
        (
            ["--blocked", "c4, d3", "--handicap", "2", "--handicap-color", "white"],
            Variant(blocked=("c4", "d3"), handicap=2, handicap_color="white"),
            "",
        ),
    ],
)
def test_perft_of_variants_and_moves(
    arguments: list[str], variant: Variant, moves: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["perft", "--depth", "4", *arguments]) == 0
    naive = NaiveGame.start(variant)
    for move in moves.split():
        naive = naive.play(move)
    assert capsys.readouterr().out == f"{naive.perft(4)}\n"


def test_a_forced_pass_is_written_pass(capsys: pytest.CaptureFixture[str]) -> None:
    moves = "d3,c3,e6,d2,d1,e1,b2,c1"  # black has no move here
    naive = NaiveGame.start(Variant())
    for move in moves.split(","):
        naive = naive.play(move)
    assert naive.moves() == ["pass"]
    assert main(["perft", "--depth", "3", "--moves", moves]) == 0
    assert main(["perft", "--depth", "2", "--moves", moves + ",pass"]) == 0
    assert capsys.readouterr().out == f"{naive.perft(3)}\n{naive.play('pass').perft(2)}\n"
    assert main(["perft", "--depth", "2", "--moves", moves + ",f5"]) == 2
    assert "must pass" in capsys.readouterr().err


def test_an_illegal_move_names_the_move_and_why(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--depth", "2", "--moves", "f5,a1"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "'a1'" in captured.err
    assert "move 2" in captured.err
    assert "flips no disc" in captured.err


def test_junk_in_the_moves_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--depth", "2", "--moves", "f5,zz9"]) == 2
    assert "'zz9'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("arguments", "setting"),
    [
        (["--players", "3", "--board", "6x6"], "board"),
        (["--board", "octagon", "--handicap", "1"], "handicap"),
        (["--blocked", "d4"], "blocked"),
        (["--opening", "sideways"], "opening"),
        (["--handicap-color", "green"], "handicap_color"),
    ],
)
def test_a_bad_variant_names_the_setting(
    arguments: list[str], setting: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["perft", "--depth", "2", *arguments]) == 2
    assert f"bad variant setting {setting}:" in capsys.readouterr().err


def test_the_module_runs_as_a_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ai_worker", "perft", "--depth", "5", "--moves", "f5,f4"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) == NaiveGame.start(Variant()).play("f5").play("f4").perft(5)
    illegal = subprocess.run(
        [sys.executable, "-m", "ai_worker", "perft", "--depth", "2", "--moves", "e6,e6"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert illegal.returncode == 2
    assert "Traceback" not in illegal.stderr
    assert "'e6'" in illegal.stderr
    assert "already taken" in illegal.stderr


@pytest.mark.parametrize(
    "arguments",
    [[], ["--moves", "f5,d6,c3"], ["--board", "10x10"], ["--players", "3"], ["--opening", "free"]],
)
def test_the_kernels_and_the_reference_count_alike(
    arguments: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["perft", "--depth", "4", *arguments]) == 0
    assert main(["perft", "--depth", "4", "--reference", *arguments]) == 0
    kernels, reference = capsys.readouterr().out.splitlines()
    assert kernels == reference


def test_perft_counts_with_the_kernels_unless_asked_for_the_reference(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def refuse(board: Board, depth: int) -> int:
        raise AssertionError("the pure-Python perft ran")

    monkeypatch.setattr(Board, "perft", refuse)
    assert main(["perft", "--depth", "10"]) == 0
    assert capsys.readouterr().out == "24571284\n"
    with pytest.raises(AssertionError, match="pure-Python"):
        main(["perft", "--depth", "1", "--reference"])
