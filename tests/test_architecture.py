"""The import contracts (``[tool.importlinter]`` in ``pyproject.toml``) hold, cover every module
of ``games``, and break when an arrow is reversed."""

import pkgutil
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import games

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("ai_worker", "games", "reversi_site")
# What the other apps may import of games, and the apps themselves.
OPEN_TO_THE_APPS = {"games.public", "games.shared", "games.accounts", "games.community"}


def contracts() -> dict[str, dict]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return {contract["name"]: contract for contract in config["tool"]["importlinter"]["contracts"]}


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "from importlinter.cli import lint_imports_command; lint_imports_command()",
        ],
        cwd=root,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_contracts_hold() -> None:
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_contracts_name_every_module_of_games_they_close() -> None:
    modules = {f"games.{info.name}" for info in pkgutil.iter_modules(games.__path__)}
    apps = contracts()["accounts and community use the game service only through games.public"]
    assert set(apps["forbidden_modules"]) == modules - OPEN_TO_THE_APPS - {"games.apps"}
    shared = contracts()["games.shared is the bottom layer of the apps"]
    assert set(shared["forbidden_modules"]) == modules - {"games.shared", "games.apps"}


def test_a_reversed_arrow_breaks_a_contract(tmp_path: Path) -> None:
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package,
            tmp_path / package,
            ignore=lambda folder, names: [n for n in names if n == "__pycache__"],
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    (tmp_path / "games/community/leak.py").write_text("from games.models import Game\n")
    result = lint_imports(tmp_path)
    assert result.returncode == 1
    assert "accounts and community use the game service only through games.public BROKEN" in (
        result.stdout
    )
    assert "games.community.leak -> games.models" in result.stdout
