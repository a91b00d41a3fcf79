"""Template context for the footer on every page (U7)."""

from django.http import HttpRequest

from games.community.version import app_commit, app_version


def site_info(request: HttpRequest) -> dict[str, str]:
    """``app_version`` and ``app_commit`` for ``community/footer.html``."""
    return {"app_version": app_version(), "app_commit": app_commit()}
