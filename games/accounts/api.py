"""API of accounts: a player's public profile."""

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.accounts import selectors
from games.errors import ServiceError

PROFILE_SCHEMA = inline_serializer(
    "PlayerProfile",
    {
        "username": serializers.CharField(),
        "rating": serializers.IntegerField(help_text="Elo rating (everyone starts at 1500)"),
        "games": inline_serializer(
            "PlayerGameCounts",
            {
                "played": serializers.IntegerField(help_text="rated games"),
                "won": serializers.IntegerField(),
                "lost": serializers.IntegerField(),
                "drawn": serializers.IntegerField(),
            },
        ),
        "recent_games": inline_serializer(
            "PlayerRecentGame",
            {
                "id": serializers.IntegerField(),
                "url": serializers.CharField(),
                "mode": serializers.ChoiceField(["cpu", "local", "room"]),
                "players": serializers.IntegerField(),
                "colors": serializers.ListField(child=serializers.CharField()),
                "opponents": serializers.ListField(child=serializers.CharField()),
                "outcome": serializers.ChoiceField(
                    ["win", "loss", "draw"], allow_null=True, help_text="null: hot-seat"
                ),
                "finished_at": serializers.DateTimeField(),
                "rating_change": serializers.IntegerField(allow_null=True),
            },
            many=True,
        ),
    },
)


class PlayerNotFoundError(ServiceError):
    """No account has that username."""

    status_code = 404


class PlayerProfileView(APIView):
    """A player's public profile: rating, rated-game counts and recent finished games."""

    @extend_schema(
        responses={
            200: PROFILE_SCHEMA,
            404: OpenApiResponse(description='{"error": {"code": "player_not_found", ...}}'),
        }
    )
    def get(self, request: Request, username: str) -> Response:
        user = selectors.user_by_username(username)
        if user is None:
            raise PlayerNotFoundError(
                "player_not_found", f"There is no player {username}.", "username"
            )
        return Response(selectors.player_profile(user))
