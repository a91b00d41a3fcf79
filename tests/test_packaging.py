"""The distribution: the wheel holds (and runs with) everything the app reads at run time, and
the lock files pin every dependency that pyproject.toml declares."""

import os
import re
import shutil
import subprocess
import sys
import textwrap
import tomllib
import zipfile
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PACKAGES = ("ai_worker", "games", "reversi_site")
# Files the repository does not hold, put into the copy that is built: engine data must be
# packed, numba's and Python's caches must not.
PLANTED_ENGINE_DATA = "ai_worker/data/planted-weights.bin"
PLANTED_CACHES = (
    "ai_worker/fast/__pycache__/bitboard.planted-1.py311.nbi",
    "ai_worker/fast/__pycache__/bitboard.planted-1.py311.1.nbc",
    "games/__pycache__/planted.cpython-311.pyc",
)
# A pin of a lock file: `name==version ; marker \` (the hashes follow on their own lines).
LOCK_LINE = re.compile(
    r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>[^\s;]+)"
    r"(?:\s*;\s*(?P<marker>[^\\]+?))?\s*\\?$"
)


def tracked_package_files() -> set[str]:
    """Every file git tracks inside the packages, as the wheel names it."""
    listing = subprocess.run(
        ["git", "ls-files", "-z", *PACKAGES], cwd=ROOT, capture_output=True, check=True, text=True
    ).stdout
    return {path for path in listing.split("\0") if path}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built, offline, from a copy of this checkout with planted data and caches."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    shutil.copytree(
        ROOT,
        source,
        symlinks=True,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "node_modules", "build", "dist", "*.egg-info", "test-artifacts"
        ),
    )
    for planted in (PLANTED_ENGINE_DATA, *PLANTED_CACHES):
        (source / planted).parent.mkdir(parents=True, exist_ok=True)
        (source / planted).write_bytes(b"\x00planted\x01")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-index",
            "--no-build-isolation",
            "--wheel-dir",
            str(work),
            str(source),
        ],
        check=True,
        capture_output=True,
    )
    (built,) = work.glob("reversi_service-*.whl")
    return built


@pytest.fixture(scope="module")
def wheel_files(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


def test_the_wheel_holds_every_file_of_the_packages(wheel_files: set[str]) -> None:
    missing = tracked_package_files() - wheel_files
    assert not missing, f"pyproject.toml [tool.setuptools.package-data] leaves out {missing}"
    for needed in (
        "games/templates/base.html",
        "games/static/games/js/game.js",
        "games/static/games/css/reversi.css",
        "games/locale/ja/LC_MESSAGES/django.mo",
        "games/locale/ru/LC_MESSAGES/django.po",
        "games/community/data/blocklist.txt",
        "games/community/CHANGELOG.md",
        PLANTED_ENGINE_DATA,
    ):
        assert needed in wheel_files, needed


def test_the_wheel_holds_no_tests_caches_or_tools(wheel_files: set[str]) -> None:
    top_level = {name.split("/")[0] for name in wheel_files}
    assert top_level == {*PACKAGES, f"reversi_service-{PYPROJECT['project']['version']}.dist-info"}
    leaked = {name for name in wheel_files if re.search(r"\.(nbi|nbc|pyc)$|__pycache__", name)}
    assert not leaked


def test_the_wheel_carries_the_changelog_version_and_licence(wheel: Path) -> None:
    version = PYPROJECT["project"]["version"]
    dist_info = f"reversi_service-{version}.dist-info"
    with zipfile.ZipFile(wheel) as archive:
        changelog = archive.read("games/community/CHANGELOG.md")
        metadata = archive.read(f"{dist_info}/METADATA").decode()
        licence = archive.read(f"{dist_info}/licenses/LICENSE")
    assert changelog == (ROOT / "CHANGELOG.md").read_bytes()  # the file, not the symlink
    assert f"\nVersion: {version}\n" in metadata
    assert "\nLicense-Expression: MIT\n" in metadata
    assert licence == (ROOT / "LICENSE").read_bytes()


def test_the_app_runs_from_the_unpacked_wheel_alone(wheel: Path, tmp_path: Path) -> None:
    """As installed by pip (the Docker image): no checkout on the path, no BASE_DIR files."""
    site = tmp_path / "site-packages"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    script = textwrap.dedent(
        """
        import django
        from django.conf import settings
        from django.contrib.staticfiles import finders
        from django.template.loader import get_template
        from django.utils import translation

        django.setup()
        import games
        from games.community.changelog import read_changelog
        from games.community.text_rules import blocked_terms
        from games.community.version import app_version

        print(games.__file__)
        print(get_template("base.html").origin.name)
        print(finders.find("games/js/game.js"))
        print(app_version(), settings.SPECTACULAR_SETTINGS["VERSION"])
        with translation.override("ja"):
            print(translation.gettext("Log in"))
        with translation.override("ru"):
            print(translation.gettext("Log in"))
        print("<h3>0.1.0 (unreleased)</h3>" in read_changelog())
        print(len(blocked_terms()) > 0)
        """
    )
    environment = os.environ | {
        "PYTHONPATH": str(site),
        "DJANGO_SETTINGS_MODULE": "reversi_site.settings",
    }
    run = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    module, template, static, versions, japanese, russian, changelog, blocked = (
        run.stdout.splitlines()
    )
    for path in (module, template, static):
        assert Path(path).is_relative_to(site), path
    version = PYPROJECT["project"]["version"]
    assert versions == f"{version} {version}"
    assert japanese == "ログイン"
    assert russian == "Войти"
    assert changelog == "True"
    assert blocked == "True"


def locked_versions(lock_file: str) -> dict[str, str]:
    """The pins of a lock file that apply to this interpreter, by canonical name."""
    pins: dict[str, str] = {}
    for line in (ROOT / lock_file).read_text().splitlines():
        match = LOCK_LINE.match(line)
        if match and (match["marker"] is None or Marker(match["marker"]).evaluate()):
            pins[canonicalize_name(match["name"])] = match["version"]
    return pins


@pytest.mark.parametrize(
    ("lock_file", "requirements"),
    [
        ("requirements.txt", PYPROJECT["project"]["dependencies"]),
        (
            "requirements-dev.txt",
            PYPROJECT["project"]["dependencies"]
            + PYPROJECT["project"]["optional-dependencies"]["dev"],
        ),
    ],
)
def test_the_lock_files_pin_every_dependency_of_pyproject(
    lock_file: str, requirements: list[str]
) -> None:
    pins = locked_versions(lock_file)
    for text in requirements:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is not in {lock_file}: run `make lock`"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"{lock_file} pins {name}=={pins[name]}, outside {requirement}: run `make lock`"
        )


def test_the_dev_lock_keeps_the_runtime_pins() -> None:
    runtime, dev = locked_versions("requirements.txt"), locked_versions("requirements-dev.txt")
    assert {name: dev.get(name) for name in runtime} == runtime
