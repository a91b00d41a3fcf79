"""DRF serializers of the community API: input shapes and plain-text output (no HTML)."""

from rest_framework import serializers

from games.community.models import RatingValue
from games.community.selectors import BUG_REPORT_FILTERS, COMMENT_QUEUES
from games.community.text_rules import (
    BUG_REPORT_MAX_LENGTH,
    COMMENT_MAX_LENGTH,
    REASON_MAX_LENGTH,
)
from games.shared.api import StrictSerializer


def _text_field(help_text: str) -> serializers.CharField:
    """A text input; the service checks emptiness, length and the comment rules."""
    return serializers.CharField(allow_blank=True, trim_whitespace=False, help_text=help_text)


class CountersSerializer(serializers.Serializer):
    views = serializers.IntegerField(help_text="Page views, one per visitor per day.")
    ratings = serializers.IntegerField()
    comments = serializers.IntegerField(help_text="Published comments and replies.")


class RatingTotalsSerializer(serializers.Serializer):
    good = serializers.IntegerField()
    so_so = serializers.IntegerField()
    bad = serializers.IntegerField()


class SiteSerializer(serializers.Serializer):
    version = serializers.CharField()
    commit = serializers.CharField()
    counters = CountersSerializer()
    ratings = RatingTotalsSerializer(source="counters.rating_totals")
    my_rating = serializers.CharField(
        allow_null=True, help_text="This visitor's rating (good, so_so or bad), null if none."
    )


class RatingInputSerializer(StrictSerializer):
    value = serializers.ChoiceField(choices=RatingValue.choices)


class CommentSerializer(serializers.Serializer):
    """A published comment; ``text`` is plain text (escape it when you render it as HTML)."""

    id = serializers.IntegerField()
    text = serializers.CharField()
    author = serializers.CharField(source="user.username", allow_null=True, default=None)
    # A field named like DRF's ``Field.parent`` attribute (the metaclass takes it off the class).
    parent = serializers.IntegerField(source="parent_id", allow_null=True)  # type: ignore[assignment]
    created_at = serializers.DateTimeField()


class ThreadSerializer(CommentSerializer):
    """A top-level comment with its replies (one level), oldest reply first."""

    replies = CommentSerializer(many=True, source="visible_replies")


class CommentInputSerializer(StrictSerializer):
    text = _text_field(
        f"1-{COMMENT_MAX_LENGTH} characters; no URLs, e-mail addresses, phone numbers, "
        "messenger IDs or blocked words."
    )
    parent = serializers.IntegerField(  # type: ignore[assignment]  # a field, not Field.parent
        allow_null=True,
        required=False,
        default=None,
        help_text="The comment this replies to; a reply to a reply joins its thread.",
    )


class ReasonInputSerializer(StrictSerializer):
    reason = _text_field(f"Why; 1-{REASON_MAX_LENGTH} characters.")


class BugReportInputSerializer(StrictSerializer):
    text = _text_field(
        f"What went wrong; 1-{BUG_REPORT_MAX_LENGTH} characters. The app version and the "
        "browser's user agent are attached automatically."
    )


class StatusSerializer(serializers.Serializer):
    status = serializers.CharField()


class ReportSerializer(serializers.Serializer):
    reason = serializers.CharField()
    created_at = serializers.DateTimeField()
    reviewed_at = serializers.DateTimeField(allow_null=True)


class ModerationCommentSerializer(CommentSerializer):
    status = serializers.CharField()
    visitor_key = serializers.CharField()
    ip_address = serializers.IPAddressField(allow_null=True)
    open_reports = serializers.IntegerField()
    reports = ReportSerializer(many=True)


class CommentQueueQuerySerializer(serializers.Serializer):
    queue = serializers.ChoiceField(choices=COMMENT_QUEUES, default="reported")


class BugReportQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=BUG_REPORT_FILTERS, default="open")


class BugReportNoteSerializer(serializers.Serializer):
    author = serializers.CharField(source="author.username", allow_null=True, default=None)
    text = serializers.CharField()
    created_at = serializers.DateTimeField()


class BugReportSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    text = serializers.CharField()
    app_version = serializers.CharField()
    app_commit = serializers.CharField()
    user_agent = serializers.CharField()
    reporter = serializers.CharField(source="user.username", allow_null=True, default=None)
    status = serializers.CharField()
    created_at = serializers.DateTimeField()
    resolved_at = serializers.DateTimeField(allow_null=True)
    resolved_by = serializers.CharField(
        source="resolved_by.username", allow_null=True, default=None
    )
    notes = BugReportNoteSerializer(many=True)


class NoteInputSerializer(StrictSerializer):
    text = _text_field(f"The note; 1-{BUG_REPORT_MAX_LENGTH} characters.")


class ModerationLogEntrySerializer(serializers.Serializer):
    moderator = serializers.CharField(source="moderator_name")
    action = serializers.CharField()
    comment = serializers.IntegerField(source="comment_id", allow_null=True)
    bug_report = serializers.IntegerField(source="bug_report_id", allow_null=True)
    reason = serializers.CharField()
    created_at = serializers.DateTimeField()


class RefusedCommentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    text = serializers.CharField()
    rule = serializers.CharField(help_text="The error code the author was answered with.")
    fragment = serializers.CharField(help_text="What broke the rule, as the rules read it.")
    author = serializers.CharField(source="user.username", allow_null=True, default=None)
    visitor_key = serializers.CharField()
    ip_address = serializers.IPAddressField(allow_null=True)
    created_at = serializers.DateTimeField()
