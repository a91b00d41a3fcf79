"""Thin DRF views of the community API; rules live in services, reads in selectors.

Errors are answered in the API's one shape by ``games.shared.api.api_exception_handler``.
"""

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.community import selectors, services
from games.community.models import ModerationAction
from games.community.moderators import is_moderator
from games.community.serializers import (
    BugReportInputSerializer,
    BugReportQuerySerializer,
    BugReportSerializer,
    CommentInputSerializer,
    CommentQueueQuerySerializer,
    CommentSerializer,
    ModerationCommentSerializer,
    ModerationLogEntrySerializer,
    NoteInputSerializer,
    RatingInputSerializer,
    ReasonInputSerializer,
    RefusedCommentSerializer,
    SiteSerializer,
    StatusSerializer,
    ThreadSerializer,
)
from games.community.visitors import visitor_from_request
from games.shared.api import validated, with_errors

# Statuses of the moderators' endpoints for anonymous (401) and other (403) visitors.
NOT_A_MODERATOR = (401, 403)


class IsModerator(permissions.BasePermission):
    """Superusers and members of the ``moderators`` group."""

    message = _("Only moderators may see this.")

    def has_permission(self, request: Request, view: APIView) -> bool:
        return is_moderator(request.user)


class CommunityPagination(LimitOffsetPagination):
    default_limit = 20
    max_limit = 100


class SiteView(APIView):
    """Counters (C1), rating totals (C2), version and commit (U7)."""

    @extend_schema(responses=SiteSerializer, tags=["community"])
    def get(self, request: Request) -> Response:
        visitor = visitor_from_request(request, create_session=False)
        info = selectors.site_info(visitor.key if visitor else None)
        return Response(SiteSerializer(info).data)


class RatingView(APIView):
    """The one-button rating (C2): one per visitor, a second post changes it."""

    throttle_scope = "community"

    @extend_schema(
        request=RatingInputSerializer,
        responses=with_errors({200: SiteSerializer}, 400),
        tags=["community"],
    )
    def post(self, request: Request) -> Response:
        data = validated(RatingInputSerializer, request.data)
        visitor = visitor_from_request(request)
        services.rate_site(visitor=visitor, value=data["value"])
        return Response(SiteSerializer(selectors.site_info(visitor.key)).data)


class CommentListView(APIView):
    """Published comments with their replies (C3), and posting a comment or reply."""

    throttle_scope = "community"

    pagination_class = CommunityPagination

    @extend_schema(responses=ThreadSerializer(many=True), tags=["community"])
    def get(self, request: Request) -> Response:
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(selectors.public_threads(), request, view=self)
        return paginator.get_paginated_response(ThreadSerializer(page, many=True).data)

    @extend_schema(
        request=CommentInputSerializer,
        responses=with_errors({201: CommentSerializer}, 400, 404, 429),
        tags=["community"],
    )
    def post(self, request: Request) -> Response:
        data = validated(CommentInputSerializer, request.data)
        comment = services.post_comment(
            visitor=visitor_from_request(request), text=data["text"], parent_id=data["parent"]
        )
        return Response(CommentSerializer(comment).data, status=status.HTTP_201_CREATED)


class CommentReportView(APIView):
    """Anyone can report a published comment, with a reason."""

    throttle_scope = "community"

    @extend_schema(
        request=ReasonInputSerializer,
        responses=with_errors({201: StatusSerializer}, 400, 404, 429),
        tags=["community"],
    )
    def post(self, request: Request, comment_id: int) -> Response:
        data = validated(ReasonInputSerializer, request.data)
        services.report_comment(
            visitor=visitor_from_request(request), comment_id=comment_id, reason=data["reason"]
        )
        return Response({"status": "reported"}, status=status.HTTP_201_CREATED)


class BugReportView(APIView):
    """Send a bug report (C4); only moderators can ever read it, so nothing is echoed."""

    throttle_scope = "community"

    @extend_schema(
        request=BugReportInputSerializer,
        responses=with_errors({201: StatusSerializer}, 400, 429),
        tags=["community"],
    )
    def post(self, request: Request) -> Response:
        data = validated(BugReportInputSerializer, request.data)
        services.submit_bug_report(visitor=visitor_from_request(request), text=data["text"])
        return Response({"status": "received"}, status=status.HTTP_201_CREATED)


class ModeratorAPIView(APIView):
    """Base of the moderators' API (C5)."""

    permission_classes = [IsModerator]
    pagination_class = CommunityPagination

    def paginated(self, queryset: Any, serializer_class: type, request: Request) -> Response:
        paginator = self.pagination_class()
        page: list[Any] | None = paginator.paginate_queryset(queryset, request, view=self)
        return paginator.get_paginated_response(serializer_class(page, many=True).data)


class ModerationCommentListView(ModeratorAPIView):
    """The moderators' comment queues: reported, recent, hidden, deleted."""

    @extend_schema(
        parameters=[CommentQueueQuerySerializer],
        responses=with_errors({200: ModerationCommentSerializer(many=True)}, 400, *NOT_A_MODERATOR),
        tags=["moderation"],
    )
    def get(self, request: Request) -> Response:
        query = validated(CommentQueueQuerySerializer, request.query_params)
        comments = selectors.moderation_comments(query["queue"])
        return self.paginated(comments, ModerationCommentSerializer, request)


class ModerationCommentActionView(ModeratorAPIView):
    """Hide, delete or restore a comment, or dismiss its reports; the reason is logged."""

    moderation_action: ModerationAction = ModerationAction.HIDE_COMMENT

    @extend_schema(
        request=ReasonInputSerializer,
        responses=with_errors({200: ModerationCommentSerializer}, 400, *NOT_A_MODERATOR, 404, 409),
        tags=["moderation"],
    )
    def post(self, request: Request, comment_id: int) -> Response:
        data = validated(ReasonInputSerializer, request.data)
        services.moderate_comment(
            moderator=request.user,
            comment_id=comment_id,
            action=self.moderation_action,
            reason=data["reason"],
        )
        comment = selectors.moderation_comments("recent").get(pk=comment_id)
        return Response(ModerationCommentSerializer(comment).data)


class ModerationBugReportListView(ModeratorAPIView):
    """Bug reports for the moderators: open, resolved or all."""

    @extend_schema(
        parameters=[BugReportQuerySerializer],
        responses=with_errors({200: BugReportSerializer(many=True)}, 400, *NOT_A_MODERATOR),
        tags=["moderation"],
    )
    def get(self, request: Request) -> Response:
        query = validated(BugReportQuerySerializer, request.query_params)
        reports = selectors.moderation_bug_reports(query["status"])
        return self.paginated(reports, BugReportSerializer, request)


class ModerationBugReportResolveView(ModeratorAPIView):
    """Resolve a bug report; the reason is logged."""

    @extend_schema(
        request=ReasonInputSerializer,
        responses=with_errors({200: BugReportSerializer}, 400, *NOT_A_MODERATOR, 404, 409),
        tags=["moderation"],
    )
    def post(self, request: Request, bug_report_id: int) -> Response:
        data = validated(ReasonInputSerializer, request.data)
        services.resolve_bug_report(
            moderator=request.user, bug_report_id=bug_report_id, reason=data["reason"]
        )
        report = selectors.moderation_bug_reports("all").get(pk=bug_report_id)
        return Response(BugReportSerializer(report).data)


class ModerationBugReportNoteView(ModeratorAPIView):
    """Add a note to a bug report; the note is logged."""

    @extend_schema(
        request=NoteInputSerializer,
        responses=with_errors({201: BugReportSerializer}, 400, *NOT_A_MODERATOR, 404),
        tags=["moderation"],
    )
    def post(self, request: Request, bug_report_id: int) -> Response:
        data = validated(NoteInputSerializer, request.data)
        services.add_bug_report_note(
            moderator=request.user, bug_report_id=bug_report_id, text=data["text"]
        )
        report = selectors.moderation_bug_reports("all").get(pk=bug_report_id)
        return Response(BugReportSerializer(report).data, status=status.HTTP_201_CREATED)


class ModerationLogView(ModeratorAPIView):
    """Every moderator action: who, what, when, why."""

    @extend_schema(
        responses=with_errors({200: ModerationLogEntrySerializer(many=True)}, *NOT_A_MODERATOR),
        tags=["moderation"],
    )
    def get(self, request: Request) -> Response:
        return self.paginated(selectors.moderation_log(), ModerationLogEntrySerializer, request)


class ModerationRefusedCommentListView(ModeratorAPIView):
    """Comments the rules refused: the text, the rule, the fragment, who and when."""

    @extend_schema(
        responses=with_errors({200: RefusedCommentSerializer(many=True)}, *NOT_A_MODERATOR),
        tags=["moderation"],
    )
    def get(self, request: Request) -> Response:
        return self.paginated(selectors.refused_comments(), RefusedCommentSerializer, request)
