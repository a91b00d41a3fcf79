"""The import contracts of pyproject.toml hold, and break when an arrow is reversed."""

import os
import pkgutil
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import games

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
ENGINE_CONTRACT = "ai_worker.engine and ai_worker.levels import only the standard library"
WEB_CONTRACT = "ai_worker imports no Django, Celery, Channels, DRF, games or reversi_site"
APPS_CONTRACT = "accounts and community use the game service only through games.public"
SHARED_CONTRACT = "games.shared is the bottom layer of the apps"
CORE_CONTRACT = "the game service does not import the accounts or community app"
# What accounts and community may import of games, besides themselves.
OPEN_TO_THE_APPS = {"games.public", "games.shared", "games.accounts", "games.community"}


def lint_imports(project: Path) -> subprocess.CompletedProcess[str]:
    """Run the CLI in ``project``, with lines wide enough that no contract name wraps."""
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo"],
        cwd=project,
        env={**os.environ, "COLUMNS": "200"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def python_sources(directory: str, names: list[str]) -> list[str]:
    """``copytree`` ignore: everything but folders and Python files (and their caches)."""
    return [
        name
        for name in names
        if name == "__pycache__"
        or not (name.endswith(".py") or os.path.isdir(os.path.join(directory, name)))
    ]


@pytest.fixture
def project_copy(tmp_path: Path) -> Path:
    """The packages' Python files and the contracts in a temporary folder, to break there."""
    for package in ("ai_worker", "games", "reversi_site"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=python_sources)
    (tmp_path / "tests").mkdir()
    for name in ("__init__.py", "import_contracts.py"):
        shutil.copy(ROOT / "tests" / name, tmp_path / "tests" / name)
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_the_contracts_hold() -> None:
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{ENGINE_CONTRACT} KEPT" in result.stdout
    assert f"{WEB_CONTRACT} KEPT" in result.stdout
    assert f"{APPS_CONTRACT} KEPT" in result.stdout
    assert f"{SHARED_CONTRACT} KEPT" in result.stdout
    assert f"{CORE_CONTRACT} KEPT" in result.stdout


@pytest.mark.parametrize(
    ("module", "source", "broken", "kept", "reported"),
    [
        # The engine uses a third-party package, or the rest of ai_worker.
        ("ai_worker/engine/probe.py", "import numpy\n", ENGINE_CONTRACT, WEB_CONTRACT,
         "ai_worker.engine.probe -> numpy (l.1)"),
        ("ai_worker/engine/probe.py", "\nfrom ai_worker import search\n", ENGINE_CONTRACT,
         WEB_CONTRACT, "ai_worker.engine.probe -> ai_worker.search (l.2)"),
        # The level list, which the web process imports, loads numba.
        ("ai_worker/levels.py", "import numba\n", ENGINE_CONTRACT, WEB_CONTRACT,
         "ai_worker.levels -> numba (l.1)"),
        # ai_worker uses the web side: Django itself, or games (the arrow reversed).
        ("ai_worker/probe.py", "import django\n", WEB_CONTRACT, ENGINE_CONTRACT,
         "ai_worker.probe -> django (l.1)"),
        ("ai_worker/probe.py", "from games import selectors\n", WEB_CONTRACT, ENGINE_CONTRACT,
         "ai_worker.probe -> games.selectors (l.1)"),
        # An app reaches into the game service, or the shared layer into an app.
        ("games/community/probe.py", "from games.models import Game\n", APPS_CONTRACT,
         SHARED_CONTRACT, "games.community.probe -> games.models (l.1)"),
        ("games/shared/probe.py", "from games.services import cpu\n", SHARED_CONTRACT,
         APPS_CONTRACT, "games.shared.probe -> games.services.cpu (l.1)"),
        # The game service reaches into the accounts app (the websocket gate read its tokens).
        ("games/consumers.py", "from games.accounts import tokens\n", CORE_CONTRACT,
         APPS_CONTRACT, "games.consumers -> games.accounts.tokens (l.1)"),
        ("games/services/probe.py", "\nfrom games.accounts.models import AccessToken\n",
         CORE_CONTRACT, APPS_CONTRACT, "games.services.probe -> games.accounts.models (l.2)"),
        # ... or into the community app (the pages counted their views with its decorator).
        ("games/pages/probe.py", "from games.community.pages import community_page\n",
         CORE_CONTRACT, APPS_CONTRACT, "games.pages.probe -> games.community.pages (l.1)"),
    ],
)  # fmt: skip
def test_a_reversed_arrow_breaks_its_contract(
    project_copy: Path, module: str, source: str, broken: str, kept: str, reported: str
) -> None:
    (project_copy / module).write_text(source)
    result = lint_imports(project_copy)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"{broken} BROKEN" in result.stdout
    assert f"{kept} KEPT" in result.stdout
    assert reported in result.stdout


def test_the_apps_contracts_name_every_module_of_games_they_close() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contracts = {entry["name"]: entry for entry in config["tool"]["importlinter"]["contracts"]}
    modules = {f"games.{info.name}" for info in pkgutil.iter_modules(games.__path__)}
    closed = modules - OPEN_TO_THE_APPS - {"games.apps"}
    assert set(contracts[APPS_CONTRACT]["forbidden_modules"]) == closed
    shared = set(contracts[SHARED_CONTRACT]["forbidden_modules"])
    assert shared == modules - {"games.shared", "games.apps"}
    core = set(contracts[CORE_CONTRACT]["source_modules"])
    assert core == modules - {"games.accounts", "games.community", "games.shared"}
