"""URLs of the community pages and API (spec C1-C5, U7)."""

from django.urls import path

from games.community import api, pages
from games.community.services import COMMENT_ACTIONS_BY_SLUG

app_name = "community"

urlpatterns = [
    # Pages
    path("community/", pages.community_page, name="community"),
    path("community/rate/", pages.rate, name="rate"),
    path("community/comments/", pages.post_comment, name="post-comment"),
    path(
        "community/comments/<int:comment_id>/report/",
        pages.report_comment,
        name="report-comment",
    ),
    path("community/bug-reports/", pages.submit_bug_report, name="bug-report"),
    path("moderation/", pages.moderation_page, name="moderation"),
    path(
        "moderation/comments/<int:comment_id>/<slug:action>/",
        pages.moderate_comment,
        name="moderate-comment",
    ),
    path(
        "moderation/bug-reports/<int:bug_report_id>/resolve/",
        pages.resolve_bug_report,
        name="resolve-bug-report",
    ),
    path(
        "moderation/bug-reports/<int:bug_report_id>/note/",
        pages.note_bug_report,
        name="note-bug-report",
    ),
    path("changelog/", pages.changelog_page, name="changelog"),
    # API
    path("api/site/", api.SiteView.as_view(), name="api-site"),
    path("api/ratings/", api.RatingView.as_view(), name="api-ratings"),
    path("api/comments/", api.CommentListView.as_view(), name="api-comments"),
    path(
        "api/comments/<int:comment_id>/report/",
        api.CommentReportView.as_view(),
        name="api-comment-report",
    ),
    path("api/bug-reports/", api.BugReportView.as_view(), name="api-bug-reports"),
    path(
        "api/moderation/comments/",
        api.ModerationCommentListView.as_view(),
        name="api-moderation-comments",
    ),
    *[
        path(
            f"api/moderation/comments/<int:comment_id>/{name}/",
            api.ModerationCommentActionView.as_view(moderation_action=action),
            name=f"api-moderation-comment-{name}",
        )
        for name, action in COMMENT_ACTIONS_BY_SLUG.items()
    ],
    path(
        "api/moderation/bug-reports/",
        api.ModerationBugReportListView.as_view(),
        name="api-moderation-bug-reports",
    ),
    path(
        "api/moderation/bug-reports/<int:bug_report_id>/resolve/",
        api.ModerationBugReportResolveView.as_view(),
        name="api-moderation-bug-report-resolve",
    ),
    path(
        "api/moderation/bug-reports/<int:bug_report_id>/note/",
        api.ModerationBugReportNoteView.as_view(),
        name="api-moderation-bug-report-note",
    ),
    path(
        "api/moderation/refused/",
        api.ModerationRefusedCommentListView.as_view(),
        name="api-moderation-refused",
    ),
    path("api/moderation/log/", api.ModerationLogView.as_view(), name="api-moderation-log"),
]
