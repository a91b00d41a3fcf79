"""Template context of every page: the footer's version (U7), whether the menu links to the
moderation page (C5), the site's counters (C1) and the comment limits (C2)."""

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from games.community.moderators import is_moderator
from games.community.selectors import site_counters
from games.community.text_rules import COMMENT_MAX_LENGTH, COMMENT_MAX_LINES
from games.community.version import app_commit, app_version


def site_info(request: HttpRequest) -> dict[str, object]:
    """``app_version`` and ``app_commit`` for ``community/footer.html``; ``moderator`` for the
    menu's link to the moderation page; ``site_counters`` for ``community/counters.html`` (read
    from the database only by a page that shows them); ``comment_max_length`` and
    ``comment_max_lines`` for the comment forms and the comment rules."""
    return {
        "app_version": app_version(),
        "app_commit": app_commit(),
        "moderator": is_moderator(getattr(request, "user", None)),
        "site_counters": SimpleLazyObject(site_counters),
        "comment_max_length": COMMENT_MAX_LENGTH,
        "comment_max_lines": COMMENT_MAX_LINES,
    }
