"""Reads of community state for pages and the API (spec C1-C5)."""

from dataclasses import dataclass

from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils.translation import gettext_lazy as _

from games.community.models import (
    BugReport,
    BugReportNote,
    BugReportStatus,
    Comment,
    CommentStatus,
    ModerationLogEntry,
    PageView,
    RatingValue,
    RefusedComment,
    SiteRating,
)
from games.community.version import app_commit, app_version

COMMENT_QUEUES = ("reported", "recent", "hidden", "deleted")
BUG_REPORT_FILTERS = ("open", "resolved", "all")
FILTER_LABELS = {
    "reported": _("Reported"),
    "recent": _("Recent"),
    "hidden": _("Hidden"),
    "deleted": _("Deleted"),
    "open": _("Open"),
    "resolved": _("Resolved"),
    "all": _("All"),
}


@dataclass(frozen=True)
class SiteCounters:
    """C1 counters and C2 totals."""

    views: int
    ratings: int
    comments: int
    rating_totals: dict[str, int]


@dataclass(frozen=True)
class SiteInfo:
    """What ``GET /api/site/`` and the community page show."""

    version: str
    commit: str
    counters: SiteCounters
    my_rating: str | None


def _public_comments() -> QuerySet[Comment]:
    """Visible comments whose thread is visible too."""
    return Comment.objects.filter(status=CommentStatus.VISIBLE).filter(
        Q(parent__isnull=True) | Q(parent__status=CommentStatus.VISIBLE)
    )


def site_counters() -> SiteCounters:
    """Page views (one per visitor per day), ratings, and public comments."""
    by_value = dict(
        SiteRating.objects.values_list("value").annotate(n=Count("id")).values_list("value", "n")
    )
    totals = {value: by_value.get(value, 0) for value in RatingValue.values}
    return SiteCounters(
        views=PageView.objects.count(),
        ratings=sum(totals.values()),
        comments=_public_comments().count(),
        rating_totals=totals,
    )


def visitor_rating(visitor_key: str | None) -> str | None:
    """The visitor's current rating value, if any."""
    if visitor_key is None:
        return None
    return (
        SiteRating.objects.filter(visitor_key=visitor_key).values_list("value", flat=True).first()
    )


def site_info(visitor_key: str | None) -> SiteInfo:
    """Version, commit, counters and the visitor's own rating."""
    return SiteInfo(
        version=app_version(),
        commit=app_commit(),
        counters=site_counters(),
        my_rating=visitor_rating(visitor_key),
    )


def public_threads() -> QuerySet[Comment]:
    """Visible top-level comments, newest first, with their visible replies (oldest first)
    prefetched as ``visible_replies``."""
    replies = Comment.objects.filter(status=CommentStatus.VISIBLE).order_by("created_at", "id")
    return (
        Comment.objects.filter(parent__isnull=True, status=CommentStatus.VISIBLE)
        .select_related("user")
        .prefetch_related(
            Prefetch("replies", queryset=replies.select_related("user"), to_attr="visible_replies")
        )
        .order_by("-created_at", "-id")
    )


def moderation_comments(queue: str) -> QuerySet[Comment]:
    """Comments for the moderators: ``reported`` (open reports, most reported first),
    ``recent`` (all, newest first), ``hidden`` or ``deleted``. Each has ``open_reports``
    counted and its reports prefetched."""
    comments = (
        Comment.objects.select_related("user", "parent")
        .prefetch_related("reports")
        .annotate(open_reports=Count("reports", filter=Q(reports__reviewed_at__isnull=True)))
    )
    if queue == "reported":
        return comments.filter(open_reports__gt=0).order_by("-open_reports", "-created_at")
    if queue in (CommentStatus.HIDDEN, CommentStatus.DELETED):
        comments = comments.filter(status=queue)
    return comments.order_by("-created_at", "-id")


def moderation_bug_reports(status: str) -> QuerySet[BugReport]:
    """Bug reports for the moderators, newest first, with notes: ``open``, ``resolved``, ``all``."""
    reports = BugReport.objects.select_related("user", "resolved_by").prefetch_related(
        Prefetch("notes", queryset=BugReportNote.objects.select_related("author"))
    )
    if status in BugReportStatus.values:
        reports = reports.filter(status=status)
    return reports.order_by("-created_at", "-id")


def moderation_log() -> QuerySet[ModerationLogEntry]:
    """The moderation log, newest first."""
    return ModerationLogEntry.objects.order_by("-created_at", "-id")


def refused_comments() -> QuerySet[RefusedComment]:
    """Comments the rules refused, newest first, with the rule and the fragment."""
    return RefusedComment.objects.select_related("user").order_by("-created_at", "-id")
