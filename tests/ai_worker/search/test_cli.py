"""The solve, play and warmup commands of ``python -m ai_worker``."""

import pytest

from ai_worker.cli import main

# FFO #20 (fforum-20-39.obf, line 1): 6 empties, black's best is h5 for +6.
FFO_20 = "XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X"


def test_solve_prints_the_best_move_and_the_exact_score(capsys: pytest.CaptureFixture) -> None:
    assert main(["solve", FFO_20]) == 0
    assert "best move: h5  final disc difference: +6" in capsys.readouterr().out


def test_solve_reads_an_ffo_line_with_its_comment(capsys: pytest.CaptureFixture) -> None:
    assert main(["solve", FFO_20 + "; H5:+6; G6:-2;"]) == 0
    assert "best move: h5  final disc difference: +6" in capsys.readouterr().out


def test_solve_rejects_a_malformed_position(capsys: pytest.CaptureFixture) -> None:
    assert main(["solve", "XO X"]) == 2
    assert capsys.readouterr().err == "error: bad position: expected 64 squares, found 2\n"


def test_play_prints_the_move_and_the_search_figures(capsys: pytest.CaptureFixture) -> None:
    assert (
        main(["play", "--level", "normal", "--moves", "f5,d6", "--seed", "1", "--time", "60"]) == 0
    )
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("normal plays ")
    assert "depth 4" in out[1]


def test_play_takes_the_variant_options(capsys: pytest.CaptureFixture) -> None:
    args = ["play", "--level", "strong", "--players", "3", "--board", "10x10", "--time", "0.2"]
    assert main(args) == 0
    assert capsys.readouterr().out.startswith("strong plays ")


def test_play_rejects_an_unknown_level(capsys: pytest.CaptureFixture) -> None:
    assert main(["play", "--level", "hard"]) == 2
    assert "--level must be one of easy, normal, strong" in capsys.readouterr().err


def test_warmup_reports_its_time(capsys: pytest.CaptureFixture) -> None:
    assert main(["warmup"]) == 0
    assert capsys.readouterr().out.startswith("numba kernels ready in ")
