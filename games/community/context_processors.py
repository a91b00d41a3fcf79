"""Template context of every page: the footer's version (U7) and whether the menu links to the
moderation page (C5)."""

from django.http import HttpRequest

from games.community.moderators import is_moderator
from games.community.version import app_commit, app_version


def site_info(request: HttpRequest) -> dict[str, object]:
    """``app_version`` and ``app_commit`` for ``community/footer.html``; ``moderator`` for the
    menu's link to the moderation page."""
    return {
        "app_version": app_version(),
        "app_commit": app_commit(),
        "moderator": is_moderator(getattr(request, "user", None)),
    }
