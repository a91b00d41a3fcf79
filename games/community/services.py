"""The only code that changes community state (spec C1-C5). Each function is one transaction."""

from dataclasses import dataclass
from datetime import date, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db import connection, models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.community.errors import RuleViolation
from games.community.models import (
    BugReport,
    BugReportNote,
    BugReportStatus,
    Comment,
    CommentReport,
    CommentStatus,
    ModerationAction,
    ModerationLogEntry,
    PageView,
    RatingValue,
    RefusedComment,
    SiteRating,
)
from games.community.moderators import is_moderator
from games.community.text_rules import (
    BUG_REPORT_MAX_LENGTH,
    REASON_MAX_LENGTH,
    check_comment_text,
    check_length,
    clean_text,
)
from games.community.version import app_commit, app_version
from games.community.visitors import Visitor
from games.shared.errors import Conflict, Forbidden, NotFound, RateLimited, ServiceError


@dataclass(frozen=True)
class RateLimit:
    """At most ``per_visitor`` posts of one visitor and ``per_ip`` guest posts of one client
    address in ``window_seconds``."""

    per_visitor: int
    per_ip: int
    window_seconds: int


DEFAULT_RATE_LIMITS = {
    "comment": RateLimit(per_visitor=3, per_ip=10, window_seconds=60),
    "report": RateLimit(per_visitor=10, per_ip=30, window_seconds=60),
    "bug_report": RateLimit(per_visitor=3, per_ip=10, window_seconds=600),
    # Refused comments kept for the moderators; past this, refusals are answered but not kept.
    "refusal": RateLimit(per_visitor=10, per_ip=30, window_seconds=60),
}


def rate_limit(kind: str) -> RateLimit:
    """The limit for ``kind``; ``settings.COMMUNITY_RATE_LIMITS[kind]`` (a dict of the
    :class:`RateLimit` fields) overrides the default."""
    override = getattr(settings, "COMMUNITY_RATE_LIMITS", {}).get(kind)
    return RateLimit(**override) if override else DEFAULT_RATE_LIMITS[kind]


def record_page_view(*, visitor: Visitor, day: date | None = None) -> bool:
    """Count a page view; only the visitor's first on ``day`` (default today) counts.

    Returns whether this view was counted.
    """
    _view, created = PageView.objects.get_or_create(
        visitor_key=visitor.key, day=day or timezone.localdate()
    )
    return created


def rate_site(*, visitor: Visitor, value: str) -> SiteRating:
    """Set the visitor's rating (good / so-so / bad); a second call changes it."""
    if value not in RatingValue.values:
        raise ServiceError("invalid_rating", field="value", choices=", ".join(RatingValue.values))
    with transaction.atomic():
        rating, _created = SiteRating.objects.update_or_create(
            visitor_key=visitor.key, defaults={"value": value, "user_id": visitor.user_id}
        )
        return rating


def post_comment(*, visitor: Visitor, text: str, parent_id: int | None = None) -> Comment:
    """Publish a comment, or a reply when ``parent_id`` is given.

    Replies are one level deep: a reply to a reply joins the same top-level comment. The text
    must pass the comment rules (:func:`check_comment_text`); a text that breaks one is kept
    as a :class:`RefusedComment` for the moderators (up to the ``refusal`` rate limit).
    """
    text = clean_text(text)
    try:
        check_comment_text(text)
    except RuleViolation as refused:
        if refused.fragment:
            _keep_refusal(visitor, text, refused)
        raise
    with transaction.atomic():
        parent = None
        if parent_id is not None:
            parent = _visible_comment(parent_id, field="parent")
            parent = parent.parent or parent
            if parent.status != CommentStatus.VISIBLE:
                raise _comment_not_found("parent")
        _enforce_rate_limit(Comment.objects.all(), visitor, "comment")
        return Comment.objects.create(
            parent=parent,
            text=text,
            user_id=visitor.user_id,
            visitor_key=visitor.key,
            ip_address=visitor.ip_address,
        )


def _keep_refusal(visitor: Visitor, text: str, refused: RuleViolation) -> None:
    """Keep a refused comment for the moderators, unless the visitor or IP is past the
    ``refusal`` limit (a flood of refused posts is answered, not stored)."""
    limit = rate_limit("refusal")
    recent = RefusedComment.objects.filter(
        created_at__gte=timezone.now() - timedelta(seconds=limit.window_seconds)
    )
    if recent.filter(visitor_key=visitor.key).count() >= limit.per_visitor:
        return
    if visitor.ip_address and recent.filter(ip_address=visitor.ip_address).count() >= limit.per_ip:
        return
    RefusedComment.objects.create(
        text=text,
        rule=refused.code,
        fragment=refused.fragment[: RefusedComment.FRAGMENT_MAX_LENGTH],
        user_id=visitor.user_id,
        visitor_key=visitor.key,
        ip_address=visitor.ip_address,
    )


def report_comment(*, visitor: Visitor, comment_id: int, reason: str) -> CommentReport:
    """Report a visible comment to the moderators; reporting it again updates the reason."""
    reason = clean_text(reason)
    check_length(reason, field="reason", max_length=REASON_MAX_LENGTH)
    with transaction.atomic():
        comment = _visible_comment(comment_id, field=None)
        _enforce_rate_limit(CommentReport.objects.all(), visitor, "report")
        report, _created = CommentReport.objects.update_or_create(
            comment=comment,
            visitor_key=visitor.key,
            defaults={
                "reason": reason,
                "reviewed_at": None,
                "user_id": visitor.user_id,
                "ip_address": visitor.ip_address,
            },
        )
        return report


def submit_bug_report(*, visitor: Visitor, text: str) -> BugReport:
    """Store a bug report with the app version, commit and browser attached."""
    text = clean_text(text)
    check_length(text, field="text", max_length=BUG_REPORT_MAX_LENGTH)
    with transaction.atomic():
        _enforce_rate_limit(BugReport.objects.all(), visitor, "bug_report")
        return BugReport.objects.create(
            text=text,
            app_version=app_version(),
            app_commit=app_commit(),
            user_agent=visitor.user_agent,
            visitor_key=visitor.key,
            user_id=visitor.user_id,
            ip_address=visitor.ip_address,
        )


# Comment moderation: action -> (states it applies to, state afterwards).
_COMMENT_TRANSITIONS = {
    ModerationAction.HIDE_COMMENT: ({CommentStatus.VISIBLE}, CommentStatus.HIDDEN),
    ModerationAction.DELETE_COMMENT: (
        {CommentStatus.VISIBLE, CommentStatus.HIDDEN},
        CommentStatus.DELETED,
    ),
    ModerationAction.RESTORE_COMMENT: (
        {CommentStatus.HIDDEN, CommentStatus.DELETED},
        CommentStatus.VISIBLE,
    ),
    ModerationAction.DISMISS_REPORTS: ({CommentStatus.VISIBLE}, CommentStatus.VISIBLE),
}
# URL slugs of the comment actions (pages and API).
COMMENT_ACTIONS_BY_SLUG = {
    "hide": ModerationAction.HIDE_COMMENT,
    "delete": ModerationAction.DELETE_COMMENT,
    "restore": ModerationAction.RESTORE_COMMENT,
    "dismiss": ModerationAction.DISMISS_REPORTS,
}


def moderate_comment(
    *, moderator: AbstractBaseUser | AnonymousUser, comment_id: int, action: str, reason: str
) -> Comment:
    """Hide, delete, restore a comment, or dismiss its reports; logged with the reason.

    Every action marks the comment's open reports as reviewed.
    """
    moderator = _require_moderator(moderator)
    reason = _checked_reason(reason)
    if action not in _COMMENT_TRANSITIONS:
        raise ServiceError("invalid_action", field="action")
    allowed_from, new_status = _COMMENT_TRANSITIONS[ModerationAction(action)]
    with transaction.atomic():
        comment = Comment.objects.select_for_update().filter(pk=comment_id).first()
        if comment is None:
            raise _comment_not_found(None)
        if comment.status not in allowed_from:
            raise Conflict(
                "invalid_state", what=_("comment"), status=comment.get_status_display().lower()
            )
        open_reports = comment.reports.filter(reviewed_at__isnull=True)
        if action == ModerationAction.DISMISS_REPORTS and not open_reports.exists():
            raise Conflict("no_open_reports")
        open_reports.update(reviewed_at=timezone.now())
        comment.status = new_status
        comment.save(update_fields=["status"])
        _log(moderator, action, reason, comment=comment)
        return comment


def resolve_bug_report(
    *, moderator: AbstractBaseUser | AnonymousUser, bug_report_id: int, reason: str
) -> BugReport:
    """Mark an open bug report resolved; logged with the reason."""
    moderator = _require_moderator(moderator)
    reason = _checked_reason(reason)
    with transaction.atomic():
        report = _locked_bug_report(bug_report_id)
        if report.status == BugReportStatus.RESOLVED:
            raise Conflict(
                "invalid_state", what=_("bug report"), status=report.get_status_display().lower()
            )
        report.status = BugReportStatus.RESOLVED
        report.resolved_at = timezone.now()
        report.resolved_by = moderator
        report.save(update_fields=["status", "resolved_at", "resolved_by"])
        _log(moderator, ModerationAction.RESOLVE_BUG_REPORT, reason, bug_report=report)
        return report


def add_bug_report_note(
    *, moderator: AbstractBaseUser | AnonymousUser, bug_report_id: int, text: str
) -> BugReportNote:
    """Add a moderator's note to a bug report; the note is logged as the reason."""
    moderator = _require_moderator(moderator)
    text = clean_text(text)
    check_length(text, field="text", max_length=BUG_REPORT_MAX_LENGTH)
    with transaction.atomic():
        report = _locked_bug_report(bug_report_id)
        note = BugReportNote.objects.create(bug_report=report, author=moderator, text=text)
        _log(moderator, ModerationAction.NOTE_BUG_REPORT, text, bug_report=report)
        return note


def _require_moderator(user: AbstractBaseUser | AnonymousUser) -> User:
    """The user, when they moderate; ``Forbidden`` otherwise."""
    if not isinstance(user, User) or not is_moderator(user):
        raise Forbidden("not_moderator")
    return user


def _checked_reason(reason: str) -> str:
    reason = clean_text(reason)
    check_length(reason, field="reason", max_length=REASON_MAX_LENGTH)
    return reason


def _log(
    moderator: User,
    action: str,
    reason: str,
    *,
    comment: Comment | None = None,
    bug_report: BugReport | None = None,
) -> None:
    ModerationLogEntry.objects.create(
        moderator=moderator,
        moderator_name=moderator.get_username(),
        action=action,
        comment=comment,
        bug_report=bug_report,
        reason=reason,
    )


def _visible_comment(comment_id: int, *, field: str | None) -> Comment:
    comment = (
        Comment.objects.select_for_update(of=("self",))
        .filter(pk=comment_id, status=CommentStatus.VISIBLE)
        .select_related("parent")
        .first()
    )
    if comment is None:
        raise _comment_not_found(field)
    return comment


def _comment_not_found(field: str | None) -> NotFound:
    return NotFound("comment_not_found", field=field)


def _locked_bug_report(bug_report_id: int) -> BugReport:
    report = BugReport.objects.select_for_update().filter(pk=bug_report_id).first()
    if report is None:
        raise NotFound("bug_report_not_found")
    return report


def _enforce_rate_limit(queryset: models.QuerySet, visitor: Visitor, kind: str) -> None:
    """Refuse a post over the visitor's limit (an account's, or a guest's session's) or, for a
    guest, over the guest posts of its client address (a guest who drops the session cookie
    is still counted; accounts on the same address are not held back by it). Serialised per
    visitor and address with transaction-scoped advisory locks, so concurrent posts cannot
    both slip through."""
    limit = rate_limit(kind)
    since = timezone.now() - timedelta(seconds=limit.window_seconds)
    checks: list[tuple[str, dict[str, object], int]] = [
        (f"visitor:{visitor.key}", {"visitor_key": visitor.key}, limit.per_visitor)
    ]
    if visitor.ip_address and visitor.user_id is None:
        guests_of_address = {"ip_address": visitor.ip_address, "user__isnull": True}
        checks.append((f"ip:{visitor.ip_address}", guests_of_address, limit.per_ip))
    with connection.cursor() as cursor:
        for lock_name, _filter, _count in checks:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(hashtext(%s))", [f"community:{kind}:{lock_name}"]
            )
    for _lock_name, filters, allowed in checks:
        if queryset.filter(created_at__gte=since, **filters).count() >= allowed:
            raise RateLimited(
                retry_after=limit.window_seconds, count=allowed, seconds=limit.window_seconds
            )
