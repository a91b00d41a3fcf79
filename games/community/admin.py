"""Django admin of the community models.

Bug reports are only for moderators (C4), so their admin pages need moderator status on top of
the usual admin permissions. Moderation (hiding comments, resolving bug reports) happens on the
moderation page or API so that it is logged; here those fields are read-only, and the
moderation log itself is read-only.
"""

from django.contrib import admin
from django.http import HttpRequest

from games.community.models import (
    BugReport,
    BugReportNote,
    Comment,
    CommentReport,
    ModerationLogEntry,
    PageView,
    RefusedComment,
    SiteRating,
)
from games.community.moderators import is_moderator


@admin.register(PageView)
class PageViewAdmin(admin.ModelAdmin):
    list_display = ["visitor_key", "day"]
    list_filter = ["day"]


@admin.register(SiteRating)
class SiteRatingAdmin(admin.ModelAdmin):
    list_display = ["visitor_key", "value", "updated_at"]
    list_filter = ["value"]


class CommentReportInline(admin.TabularInline):
    model = CommentReport
    extra = 0
    readonly_fields = ["visitor_key", "user", "ip_address", "reason", "created_at", "reviewed_at"]


@admin.register(Comment)
class CommentAdmin(admin.ModelAdmin):
    """Status changes go through the moderation page or API, so they are logged."""

    list_display = ["id", "text", "status", "user", "visitor_key", "ip_address", "created_at"]
    readonly_fields = ["status"]
    list_filter = ["status"]
    search_fields = ["text", "visitor_key"]
    raw_id_fields = ["parent", "user"]
    inlines = [CommentReportInline]


@admin.register(CommentReport)
class CommentReportAdmin(admin.ModelAdmin):
    list_display = ["comment", "reason", "visitor_key", "created_at", "reviewed_at"]
    raw_id_fields = ["comment", "user"]
    readonly_fields = ["reviewed_at"]


class ModeratorOnlyAdmin(admin.ModelAdmin):
    """Visible in the admin only to moderators (and superusers)."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_moderator(request.user) and super().has_module_permission(request)

    def has_view_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return is_moderator(request.user) and super().has_view_permission(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return is_moderator(request.user) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return is_moderator(request.user) and super().has_delete_permission(request, obj)


class BugReportNoteInline(admin.TabularInline):
    model = BugReportNote
    extra = 0
    readonly_fields = ["author", "text", "created_at"]


@admin.register(BugReport)
class BugReportAdmin(ModeratorOnlyAdmin):
    list_display = ["id", "status", "app_version", "app_commit", "created_at"]
    list_filter = ["status", "app_version"]
    search_fields = ["text"]
    readonly_fields = [
        "app_version",
        "app_commit",
        "user_agent",
        "visitor_key",
        "ip_address",
        "status",
        "resolved_at",
        "resolved_by",
    ]
    raw_id_fields = ["user"]
    inlines = [BugReportNoteInline]


@admin.register(BugReportNote)
class BugReportNoteAdmin(ModeratorOnlyAdmin):
    list_display = ["bug_report", "author", "created_at"]
    raw_id_fields = ["bug_report", "author"]


@admin.register(ModerationLogEntry)
class ModerationLogEntryAdmin(admin.ModelAdmin):
    list_display = ["created_at", "moderator_name", "action", "comment", "bug_report", "reason"]
    list_filter = ["action", "moderator_name"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(RefusedComment)
class RefusedCommentAdmin(ModeratorOnlyAdmin):
    """What the comment rules refused; a record, so read-only."""

    list_display = ["created_at", "rule", "fragment", "text", "visitor_key", "ip_address"]
    list_filter = ["rule"]
    search_fields = ["text", "fragment", "visitor_key"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
