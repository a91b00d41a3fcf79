"""Pages of the community features: the community page, moderation and the changelog.

Forms post to small views that call the services and redirect back (no JavaScript needed).
"""

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.community import selectors, services
from games.community.changelog import read_changelog
from games.community.models import RatingValue
from games.community.moderators import is_moderator
from games.community.selectors import BUG_REPORT_FILTERS, COMMENT_QUEUES, FILTER_LABELS
from games.community.text_rules import (
    BUG_REPORT_MAX_LENGTH,
    REASON_MAX_LENGTH,
)
from games.community.version import app_commit, app_version
from games.community.visitors import visitor_from_request
from games.shared.errors import NotFound, ServiceError
from games.shared.pages import counts_as_page_view

THREADS_ON_PAGE = 50
LOG_ENTRIES_ON_PAGE = 50
MODERATION_ITEMS_ON_PAGE = 100


@require_GET
@counts_as_page_view
def community_page(request: HttpRequest) -> HttpResponse:
    """Counters, the rating buttons, comments and replies, and the bug report form."""
    return _render_community(request, visitor_from_request(request).key)


def _render_community(
    request: HttpRequest, visitor_key: str, *, status: int = 200, **form_state: Any
) -> HttpResponse:
    context = {
        "info": selectors.site_info(visitor_key),
        "threads": selectors.public_threads()[:THREADS_ON_PAGE],
        "rating_choices": RatingValue.choices,
        "reason_max_length": REASON_MAX_LENGTH,
        "bug_report_max_length": BUG_REPORT_MAX_LENGTH,
        **form_state,
    }
    return render(request, "community/community.html", context, status=status)


@require_POST
def rate(request: HttpRequest) -> HttpResponse:
    visitor = visitor_from_request(request)
    try:
        services.rate_site(visitor=visitor, value=request.POST.get("value", ""))
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Thank you for rating!"))
    return _back_to_community("rating")


@require_POST
def post_comment(request: HttpRequest) -> HttpResponse:
    """Publish a comment or reply; on a broken rule the page comes back with the text kept."""
    visitor = visitor_from_request(request)
    text = request.POST.get("text", "")
    parent = request.POST.get("parent", "")
    try:
        services.post_comment(visitor=visitor, text=text, parent_id=_parent_id(parent))
    except ServiceError as error:
        return _render_community(
            request,
            visitor.key,
            status=error.status_code,
            comment_error=error.message,
            comment_text=text,
            comment_parent=parent,
        )
    messages.success(request, _("Your comment is published."))
    return _back_to_community("comments")


def _parent_id(raw: str) -> int | None:
    """The reply form's ``parent`` field: empty for a new comment, else a comment id."""
    if not raw:
        return None
    if not raw.isdigit():
        raise NotFound("comment_not_found", field="parent")
    return int(raw)


@require_POST
def report_comment(request: HttpRequest, comment_id: int) -> HttpResponse:
    try:
        services.report_comment(
            visitor=visitor_from_request(request),
            comment_id=comment_id,
            reason=request.POST.get("reason", ""),
        )
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Thank you. The moderators will look at this comment."))
    return _back_to_community("comments")


@require_POST
def submit_bug_report(request: HttpRequest) -> HttpResponse:
    try:
        services.submit_bug_report(
            visitor=visitor_from_request(request), text=request.POST.get("text", "")
        )
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Thank you. Only the moderators will read your report."))
    return _back_to_community("bug-report")


def _back_to_community(anchor: str) -> HttpResponse:
    return HttpResponseRedirect(f"{reverse('community:community')}#{anchor}")


def _require_moderator(request: HttpRequest) -> None:
    if not is_moderator(request.user):
        raise PermissionDenied(_("Only moderators may see this page."))


@require_GET
def moderation_page(request: HttpRequest) -> HttpResponse:
    """The moderators' queue: comments (by queue), bug reports, the log and the comments the
    rules refused."""
    _require_moderator(request)
    queue = request.GET.get("queue")
    queue = queue if queue in COMMENT_QUEUES else "reported"
    bugs = request.GET.get("bugs")
    bugs = bugs if bugs in BUG_REPORT_FILTERS else "open"
    context = {
        "queue": queue,
        "queues": [(name, FILTER_LABELS[name]) for name in COMMENT_QUEUES],
        "comments": selectors.moderation_comments(queue)[:MODERATION_ITEMS_ON_PAGE],
        "bugs": bugs,
        "bug_filters": [(name, FILTER_LABELS[name]) for name in BUG_REPORT_FILTERS],
        "bug_reports": selectors.moderation_bug_reports(bugs)[:MODERATION_ITEMS_ON_PAGE],
        "log": selectors.moderation_log()[:LOG_ENTRIES_ON_PAGE],
        "refused": selectors.refused_comments()[:LOG_ENTRIES_ON_PAGE],
        "reason_max_length": REASON_MAX_LENGTH,
    }
    return render(request, "community/moderation.html", context)


@require_POST
def moderate_comment(request: HttpRequest, comment_id: int, action: str) -> HttpResponse:
    _require_moderator(request)
    if action not in services.COMMENT_ACTIONS_BY_SLUG:
        raise Http404(_("Unknown moderation action."))
    _run_moderation(
        request,
        services.moderate_comment,
        comment_id=comment_id,
        action=services.COMMENT_ACTIONS_BY_SLUG[action],
        reason=request.POST.get("reason", ""),
    )
    return _back_to_moderation(request)


@require_POST
def resolve_bug_report(request: HttpRequest, bug_report_id: int) -> HttpResponse:
    _require_moderator(request)
    _run_moderation(
        request,
        services.resolve_bug_report,
        bug_report_id=bug_report_id,
        reason=request.POST.get("reason", ""),
    )
    return _back_to_moderation(request)


@require_POST
def note_bug_report(request: HttpRequest, bug_report_id: int) -> HttpResponse:
    _require_moderator(request)
    _run_moderation(
        request,
        services.add_bug_report_note,
        bug_report_id=bug_report_id,
        text=request.POST.get("text", ""),
    )
    return _back_to_moderation(request)


def _run_moderation(request: HttpRequest, service: Any, **arguments: Any) -> None:
    try:
        service(moderator=request.user, **arguments)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Done; the action is in the moderation log."))


def _back_to_moderation(request: HttpRequest) -> HttpResponse:
    """Back to the queues the moderator was looking at (only known values pass)."""
    known = {"queue": COMMENT_QUEUES, "bugs": BUG_REPORT_FILTERS}
    query = {
        key: request.POST[key] for key, values in known.items() if request.POST.get(key) in values
    }
    query_string = urlencode(query)
    url = reverse("community:moderation")
    return HttpResponseRedirect(f"{url}?{query_string}" if query_string else url)


@require_GET
def changelog_page(request: HttpRequest) -> HttpResponse:
    """CHANGELOG.md, rendered safely."""
    context = {
        "changelog": read_changelog(get_language()),
        "version": app_version(),
        "commit": app_commit(),
    }
    return render(request, "community/changelog.html", context)
