"""The running version (U7): package version and git commit, worked out once per process.

The version has one source, ``version`` in ``pyproject.toml``; everything that shows it (the
footer, ``/api/site/``, bug reports, the OpenAPI schema) reads it from the installed package's
metadata through :func:`app_version`.
"""

import os
import subprocess
from functools import cache
from importlib import metadata

from django.conf import settings

PACKAGE_NAME = "reversi-service"


@cache
def app_version() -> str:
    """The installed package's version, e.g. ``0.1.0``; ``unknown`` for code run from a
    checkout that was never installed (no metadata)."""
    try:
        return metadata.version(PACKAGE_NAME)
    except metadata.PackageNotFoundError:
        return "unknown"


@cache
def app_commit() -> str:
    """The short git commit of the checkout, else ``$APP_COMMIT`` (e.g. in Docker), else
    ``unknown``."""
    try:
        result = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],  # noqa: S607  # git as installed on PATH
            cwd=settings.BASE_DIR,
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return os.environ.get("APP_COMMIT", "").strip() or "unknown"
    return result.stdout.strip()
