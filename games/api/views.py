"""API views: parse the request, call one service or selector, answer with the game state."""

from django.contrib.auth import authenticate, get_user_model, login, password_validation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest, JsonResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.authentication import SessionAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import selectors, services
from games.accounts.selectors import rating_of
from games.api.errors import error_body, with_errors
from games.api.serializers import (
    CredentialsSerializer,
    GameCreateSerializer,
    GameListQuerySerializer,
    GameListSerializer,
    GameStateSerializer,
    JoinSerializer,
    MoveSerializer,
    RoomCreateSerializer,
    RoomStateSerializer,
    SignupSerializer,
    TakeoverSerializer,
)
from games.identity import GUEST_SESSION_KEY, Player, player_from_session
from games.models import Game, Room
from games.services import GameError, GameNotFoundError, SeatSpec


def request_player(request: Request, *, create: bool) -> Player | None:
    """The account or guest behind a request; a guest's writes must pass the CSRF check."""
    if not request.user.is_authenticated and request.method not in SAFE_METHODS:
        SessionAuthentication().enforce_csrf(request)
    return player_from_session(request.user, request.session, create=create)


def seated_player(request: Request) -> Player:
    """The player of a write request (a new guest identity when the browser has none)."""
    player = request_player(request, create=True)
    assert player is not None
    return player


def validated(serializer_class: type, data: object) -> dict:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def get_game(game_id: int) -> Game:
    try:
        return Game.objects.prefetch_related(selectors.SEATS).get(pk=game_id)
    except Game.DoesNotExist as error:
        raise GameNotFoundError("not_found", f"There is no game {game_id}.") from error


def get_room(code: str) -> Room:
    try:
        rooms = Room.objects.select_related("game").prefetch_related("game__seats__user")
        return rooms.get(code=code)
    except Room.DoesNotExist as error:
        raise GameNotFoundError("not_found", "No room has this code.") from error


class SignupView(APIView):
    """Create an account; answers its API token.

    A browser that has played as a guest is signed in to the new account, which takes over its
    games (``services.claim_games_on_login``), so it plays on in the same browser.
    """

    authentication_classes: list = []
    permission_classes: list = []

    @extend_schema(
        request=SignupSerializer, responses=with_errors({201: OpenApiTypes.OBJECT}, 400, 403)
    )
    def post(self, request: Request) -> Response:
        data = validated(SignupSerializer, request.data)
        guest = bool(request.session.get(GUEST_SESSION_KEY))
        if guest:
            SessionAuthentication().enforce_csrf(request)
        user_model = get_user_model()
        candidate = user_model(username=data["username"])
        try:
            password_validation.validate_password(data["password"], candidate)
        except DjangoValidationError as error:
            raise GameError("weak_password", " ".join(error.messages), "password") from error
        try:
            with transaction.atomic():
                user = user_model.objects.create_user(data["username"], password=data["password"])
        except IntegrityError as error:
            raise GameError("username_taken", "This username is taken.", "username") from error
        if guest:
            login(request, user)
        token = Token.objects.create(user=user)
        return Response(
            {"token": token.key, "user": {"id": user.pk, "username": user.username}},
            status=status.HTTP_201_CREATED,
        )


class TokenView(APIView):
    """Exchange a username and password for the account's API token."""

    authentication_classes: list = []
    permission_classes: list = []

    @extend_schema(
        request=CredentialsSerializer, responses=with_errors({200: OpenApiTypes.OBJECT}, 400)
    )
    def post(self, request: Request) -> Response:
        data = validated(CredentialsSerializer, request.data)
        user = authenticate(request, username=data["username"], password=data["password"])
        if user is None:
            raise GameError("invalid_credentials", "Wrong username or password.")
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})


class MeView(APIView):
    """Who the request is: an account or a guest."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request) -> Response:
        if request.user.is_authenticated:
            user = request.user
            rating = rating_of(user.pk)
            return Response(
                {"guest": False, "id": user.pk, "username": user.username, "rating": rating}
            )
        return Response({"guest": True, "id": None, "username": None, "rating": None})


class GameListView(APIView):
    """``GET``: my games (``?status=active``); ``POST``: a game versus the CPU or hot-seat."""

    @extend_schema(
        operation_id="games_list",
        parameters=[OpenApiParameter("status", str, enum=Game.Status.values)],
        responses=with_errors({200: GameListSerializer}, 400),
    )
    def get(self, request: Request) -> Response:
        query = validated(GameListQuerySerializer, request.query_params.dict())
        player = request_player(request, create=False)
        games = selectors.games_of(player, status=query.get("status"))[:50]
        return Response({"games": [selectors.game_state(game, viewer=player) for game in games]})

    @extend_schema(
        request=GameCreateSerializer, responses=with_errors({201: GameStateSerializer}, 400, 403)
    )
    def post(self, request: Request) -> Response:
        data = validated(GameCreateSerializer, request.data)
        player = seated_player(request)
        if data["mode"] == "cpu":
            game = services.create_cpu_game(
                player=player,
                variant=data["variant"],
                level=data["level"],
                color=data["color"],
                undo_allowed=data["undo"],
            )
        else:
            game = services.create_local_game(
                player=player, variant=data["variant"], undo_allowed=data["undo"]
            )
        return Response(selectors.game_state(game, viewer=player), status=status.HTTP_201_CREATED)


class GameDetailView(APIView):
    """The full state of a game (anyone may watch)."""

    @extend_schema(responses=with_errors({200: GameStateSerializer}, 404))
    def get(self, request: Request, game_id: int) -> Response:
        game = get_game(game_id)
        if selectors.cpu_turn_stalled(game):
            services.requeue_stalled_cpu_turn(game_id=game.pk)
        return Response(selectors.game_state(game, viewer=request_player(request, create=False)))


class MoveView(APIView):
    """Play a move at the ply the client has seen; 409 when that ply is stale."""

    @extend_schema(
        request=MoveSerializer,
        responses=with_errors({201: GameStateSerializer}, 400, 403, 404, 409),
    )
    def post(self, request: Request, game_id: int) -> Response:
        data = validated(MoveSerializer, request.data)
        player = seated_player(request)
        game = services.play_move(
            player=player, game_id=game_id, notation=data["move"], ply=data["ply"]
        )
        return Response(selectors.game_state(game, viewer=player), status=status.HTTP_201_CREATED)


class UndoView(APIView):
    """G1: take back your last move (and the CPU's replies)."""

    @extend_schema(request=None, responses=with_errors({200: GameStateSerializer}, 400, 403, 404))
    def post(self, request: Request, game_id: int) -> Response:
        player = seated_player(request)
        game = services.undo_move(player=player, game_id=game_id)
        return Response(selectors.game_state(game, viewer=player))


class HintView(APIView):
    """G2: ask for the strong CPU's move; it arrives in ``hints.current`` (and over the socket)."""

    @extend_schema(request=None, responses=with_errors({202: GameStateSerializer}, 400, 403, 404))
    def post(self, request: Request, game_id: int) -> Response:
        player = seated_player(request)
        game = services.request_hint(player=player, game_id=game_id)
        return Response(selectors.game_state(game, viewer=player), status=status.HTTP_202_ACCEPTED)


class ResignView(APIView):
    """G3: give up the game."""

    @extend_schema(request=None, responses=with_errors({200: GameStateSerializer}, 400, 403, 404))
    def post(self, request: Request, game_id: int) -> Response:
        player = seated_player(request)
        game = services.resign(player=player, game_id=game_id)
        return Response(selectors.game_state(game, viewer=player))


class TakeoverView(APIView):
    """M3: the CPU takes the seat of a player disconnected for 2 minutes."""

    @extend_schema(
        request=TakeoverSerializer, responses=with_errors({200: GameStateSerializer}, 400, 403, 404)
    )
    def post(self, request: Request, game_id: int) -> Response:
        data = validated(TakeoverSerializer, request.data)
        player = seated_player(request)
        game = services.take_over_seat(
            player=player, game_id=game_id, color=data["color"], level=data["level"]
        )
        return Response(selectors.game_state(game, viewer=player))


class RoomCreateView(APIView):
    """M3/M4: open a room; share its ``url``; the creator takes the first person's seat."""

    @extend_schema(
        request=RoomCreateSerializer, responses=with_errors({201: RoomStateSerializer}, 400, 403)
    )
    def post(self, request: Request) -> Response:
        data = validated(RoomCreateSerializer, request.data)
        player = seated_player(request)
        seats = [SeatSpec(seat["kind"], seat.get("level", "")) for seat in data.get("seats", [])]
        room = services.create_room(player=player, variant=data["variant"], seats=seats)
        return Response(selectors.room_state(room, viewer=player), status=status.HTTP_201_CREATED)


class RoomDetailView(APIView):
    """A room, its state (open, playing, finished), rematch link and game."""

    @extend_schema(responses=with_errors({200: RoomStateSerializer}, 404))
    def get(self, request: Request, code: str) -> Response:
        return Response(
            selectors.room_state(get_room(code), viewer=request_player(request, create=False))
        )


class RoomJoinView(APIView):
    """Take a free seat (a given colour or the first free one); 409 when it is taken."""

    @extend_schema(
        request=JoinSerializer,
        responses=with_errors({200: RoomStateSerializer}, 400, 403, 404, 409),
    )
    def post(self, request: Request, code: str) -> Response:
        data = validated(JoinSerializer, request.data)
        player = seated_player(request)
        room = services.join_room(player=player, code=code, color=data.get("color"))
        return Response(selectors.room_state(get_room(room.code), viewer=player))


class RoomRematchView(APIView):
    """After the game: a new room with colours swapped (rotated with 3-4 players)."""

    @extend_schema(
        request=None,
        responses=with_errors({201: RoomStateSerializer, 200: RoomStateSerializer}, 400, 403, 404),
    )
    def post(self, request: Request, code: str) -> Response:
        player = seated_player(request)
        room, created = services.rematch_room(player=player, code=code)
        return Response(
            selectors.room_state(get_room(room.code), viewer=player),
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


def unknown_endpoint(request: HttpRequest, path: str) -> JsonResponse:
    """Any other address under ``/api/``: a JSON 404 (not the HTML page, not a slash redirect)."""
    body = error_body("not_found", "No API endpoint here; API addresses end with a slash.")
    return JsonResponse(body, status=404)
