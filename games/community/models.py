"""Models of the community features (spec C1-C5); their tables keep the names they had in
``games``.

A *visitor* is a signed-in user (``user:<id>``) or an anonymous browser session
(``session:<key>``); see :mod:`games.community.visitors`.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

VISITOR_KEY_LENGTH = 80


def _optional_user() -> models.ForeignKey:
    """A link to a user that survives the user's deletion (kept as NULL)."""
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )


class PageView(models.Model):
    """One visitor seen on one day (C1 counts page views one per visitor per day)."""

    visitor_key = models.CharField(max_length=VISITOR_KEY_LENGTH)
    day = models.DateField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "games_pageview"
        constraints = [
            models.UniqueConstraint(fields=["visitor_key", "day"], name="pageview_once_per_day")
        ]

    def __str__(self) -> str:
        return f"{self.visitor_key} on {self.day}"


class RatingValue(models.TextChoices):
    GOOD = "good", _("Good")
    SO_SO = "so_so", _("So-so")
    BAD = "bad", _("Bad")


class SiteRating(models.Model):
    """A visitor's one-button rating of the game (C2); one per visitor, changeable."""

    visitor_key = models.CharField(max_length=VISITOR_KEY_LENGTH, unique=True)
    user = _optional_user()
    value = models.CharField(max_length=8, choices=RatingValue.choices)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "games_siterating"

    def __str__(self) -> str:
        return f"{self.visitor_key}: {self.value}"


class CommentStatus(models.TextChoices):
    VISIBLE = "visible", _("Visible")
    HIDDEN = "hidden", _("Hidden")
    DELETED = "deleted", _("Deleted")


class Comment(models.Model):
    """A comment or a reply (C3). Replies are one level deep: ``parent`` is a top-level comment.

    Hidden and deleted comments keep their text for the moderators and can be restored.
    """

    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="replies"
    )
    text = models.TextField()
    user = _optional_user()
    visitor_key = models.CharField(max_length=VISITOR_KEY_LENGTH)
    ip_address = models.GenericIPAddressField(null=True, blank=True)
    status = models.CharField(
        max_length=8, choices=CommentStatus.choices, default=CommentStatus.VISIBLE
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        db_table = "games_comment"
        indexes = [
            models.Index(fields=["visitor_key", "created_at"], name="comment_visitor_time"),
            models.Index(fields=["ip_address", "created_at"], name="comment_ip_time"),
        ]

    def __str__(self) -> str:
        return f"Comment {self.pk}: {self.text[:40]}"


class CommentReport(models.Model):
    """A visitor's report of a comment, with a reason; one per visitor and comment."""

    comment = models.ForeignKey(Comment, on_delete=models.CASCADE, related_name="reports")
    visitor_key = models.CharField(max_length=VISITOR_KEY_LENGTH)
    user = _optional_user()
    ip_address = models.GenericIPAddressField(null=True, blank=True)
    reason = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    reviewed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "games_commentreport"
        constraints = [
            models.UniqueConstraint(
                fields=["comment", "visitor_key"], name="commentreport_once_per_visitor"
            )
        ]

    def __str__(self) -> str:
        return f"Report of comment {self.comment_id} by {self.visitor_key}"


class BugReportStatus(models.TextChoices):
    OPEN = "open", _("Open")
    RESOLVED = "resolved", _("Resolved")


class BugReport(models.Model):
    """A bug report (C4): seen only by moderators; version and browser attached automatically."""

    text = models.TextField()
    app_version = models.CharField(max_length=40)
    app_commit = models.CharField(max_length=40)
    user_agent = models.CharField(max_length=512, blank=True)
    visitor_key = models.CharField(max_length=VISITOR_KEY_LENGTH)
    user = _optional_user()
    ip_address = models.GenericIPAddressField(null=True, blank=True)
    status = models.CharField(
        max_length=8, choices=BugReportStatus.choices, default=BugReportStatus.OPEN
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = _optional_user()

    class Meta:
        db_table = "games_bugreport"

    def __str__(self) -> str:
        return f"Bug report {self.pk} ({self.status})"


class BugReportNote(models.Model):
    """A moderator's note on a bug report."""

    bug_report = models.ForeignKey(BugReport, on_delete=models.CASCADE, related_name="notes")
    author = _optional_user()
    text = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "games_bugreportnote"

    def __str__(self) -> str:
        return f"Note on bug report {self.bug_report_id}"


class RefusedComment(models.Model):
    """A comment or reply the comment rules refused (C3): kept for the moderators (C5), with the
    rule and the fragment that broke it, so they can see why and spot abusers."""

    FRAGMENT_MAX_LENGTH = 200

    text = models.TextField()
    rule = models.CharField(max_length=32)
    fragment = models.CharField(max_length=FRAGMENT_MAX_LENGTH, blank=True)
    user = _optional_user()
    visitor_key = models.CharField(max_length=VISITOR_KEY_LENGTH)
    ip_address = models.GenericIPAddressField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        db_table = "games_refusedcomment"
        indexes = [
            models.Index(fields=["visitor_key", "created_at"], name="refused_visitor_time"),
            models.Index(fields=["ip_address", "created_at"], name="refused_ip_time"),
        ]

    def __str__(self) -> str:
        return f"Refused ({self.rule}): {self.text[:40]}"


class ModerationAction(models.TextChoices):
    HIDE_COMMENT = "hide_comment", _("Hide comment")
    DELETE_COMMENT = "delete_comment", _("Delete comment")
    RESTORE_COMMENT = "restore_comment", _("Restore comment")
    DISMISS_REPORTS = "dismiss_reports", _("Dismiss reports (keep comment)")
    RESOLVE_BUG_REPORT = "resolve_bug_report", _("Resolve bug report")
    NOTE_BUG_REPORT = "note_bug_report", _("Add note to bug report")


class ModerationLogEntry(models.Model):
    """Who did what to which comment or bug report, when and why (C5)."""

    moderator = _optional_user()
    moderator_name = models.CharField(max_length=150)
    action = models.CharField(max_length=24, choices=ModerationAction.choices)
    comment = models.ForeignKey(Comment, null=True, blank=True, on_delete=models.SET_NULL)
    bug_report = models.ForeignKey(BugReport, null=True, blank=True, on_delete=models.SET_NULL)
    reason = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        db_table = "games_moderationlogentry"
        verbose_name_plural = "moderation log entries"

    def __str__(self) -> str:
        return f"{self.moderator_name}: {self.action} at {self.created_at:%Y-%m-%d %H:%M}"
