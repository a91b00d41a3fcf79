"""API of accounts: a player's public profile."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.accounts import selectors
from games.services import GameNotFoundError


class PlayerProfileView(APIView):
    """A player's public profile: rating, rated-game counts and recent finished games."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT, 404: OpenApiTypes.OBJECT})
    def get(self, request: Request, username: str) -> Response:
        user = selectors.user_by_username(username)
        if user is None:
            raise GameNotFoundError(
                "player_not_found", f"There is no player {username}.", "username"
            )
        return Response(selectors.player_profile(user))
