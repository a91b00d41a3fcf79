"""API views of games and rooms: parse the request, call one service or selector, answer with
the shape ``games.presenters`` builds."""

from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.http import HttpResponse, StreamingHttpResponse
from django.utils.translation import get_language
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import presenters, records, selectors
from games.api.serializers import (
    AnalysisQuerySerializer,
    AnalysisRequestSerializer,
    AnalysisStateSerializer,
    ChallengeCreateSerializer,
    ChallengeListSerializer,
    ChallengeStateSerializer,
    DeclineSerializer,
    DrawActionSerializer,
    ExportQuerySerializer,
    GameCreateSerializer,
    GameListQuerySerializer,
    GameListSerializer,
    GameStateSerializer,
    ImportSerializer,
    JoinSerializer,
    LobbySerializer,
    MoveAnswerSerializer,
    MoveSerializer,
    QuickPairingRequestSerializer,
    QuickPairingSerializer,
    ReviewStateSerializer,
    RoomCreateSerializer,
    RoomStateSerializer,
    SeekCreateSerializer,
    SeekStateSerializer,
    TakeoverSerializer,
    WatchStateSerializer,
)
from games.identity import Player, player_from_session
from games.models import Game
from games.services import (
    analysis,
    challenges,
    cpu,
    games,
    imports,
    lobby,
    offers,
    presence,
    reviews,
    rooms,
)
from games.shared.api import validated, with_errors
from games.shared.clients import requester_of
from games.shared.errors import Forbidden, NotFound

GAMES_LISTED = 50


def request_player(request: Request, *, create: bool) -> Player | None:
    """The account or guest behind a request (a guest's writes passed the CSRF check:
    ``games.shared.permissions.GuestWritesNeedCsrf``)."""
    browser_key = request.META.get("CSRF_COOKIE", "")  # the CSRF secret, checked already
    return player_from_session(
        request.user, request.session, create=create, browser_key=browser_key
    )


def seated_player(request: Request) -> Player:
    """The player of a write request (a new guest identity when the browser has none)."""
    player = request_player(request, create=True)
    if player is None:
        raise RuntimeError("request_player(create=True) always gives a player")
    return player


class GameListView(APIView):
    """``GET``: my games (``?status=active``); ``POST``: a game versus the CPU or hot-seat."""

    throttle_scope = "game_create"

    @extend_schema(
        operation_id="games_list",
        parameters=[OpenApiParameter("status", str, enum=Game.Status.values)],
        responses=with_errors({200: GameListSerializer}, 400),
    )
    def get(self, request: Request) -> Response:
        query = validated(GameListQuerySerializer, request.query_params.dict())
        player = request_player(request, create=False)
        listed = selectors.games_of(player, status=query.get("status"))[:GAMES_LISTED]
        states = presenters.game_states(listed, viewer=player)
        return Response({"games": states})

    @extend_schema(
        request=GameCreateSerializer, responses=with_errors({201: GameStateSerializer}, 400, 403)
    )
    def post(self, request: Request) -> Response:
        data = validated(GameCreateSerializer, request.data)
        player = seated_player(request)
        undo_allowed = data.get("undo", not data["rated"])
        if data["mode"] == "cpu":
            game = games.create_cpu_game(
                player=player,
                variant=data["variant"],
                level=data["level"],
                color=data["color"],
                undo_allowed=undo_allowed,
                rated=data["rated"],
                from_position=data["start"],
            )
        else:
            game = games.create_local_game(
                player=player,
                variant=data["variant"],
                undo_allowed=undo_allowed,
                rated=data["rated"],
            )
        return Response(presenters.game_state(game, viewer=player), status=status.HTTP_201_CREATED)


class GameDetailView(APIView):
    """The state of a game: anyone with its id may watch; only its seats see the room's code."""

    @extend_schema(responses=with_errors({200: GameStateSerializer}, 404))
    def get(self, request: Request, public_id: str) -> Response:
        game = cpu.watched_game(game_id=selectors.game_pk(public_id))
        return Response(presenters.game_state(game, viewer=request_player(request, create=False)))


class MoveView(APIView):
    """Play a move at the ply the client has seen; 409 when that ply is stale. The answer is
    the move's event, the very text the game's sockets get (the full state is ``GET``'s);
    a move repeated at its ply (a retry) is answered with the state as it is now."""

    throttle_scope = "move"

    @extend_schema(
        request=MoveSerializer,
        responses=with_errors({201: MoveAnswerSerializer}, 400, 403, 404, 409),
    )
    def post(self, request: Request, public_id: str) -> HttpResponse:
        data = validated(MoveSerializer, request.data)
        player = seated_player(request)
        played = games.play_move(
            player=player, public_id=public_id, notation=data["move"], ply=data["ply"]
        )
        if played.event is None:
            state = presenters.game_state(played.game, viewer=player)
            return Response(presenters.game_event("state", state), status=status.HTTP_201_CREATED)
        return HttpResponse(
            played.event, status=status.HTTP_201_CREATED, content_type="application/json"
        )


class UndoView(APIView):
    """G1: take back your last move (and the CPU's replies)."""

    throttle_scope = "move"

    @extend_schema(request=None, responses=with_errors({200: GameStateSerializer}, 400, 403, 404))
    def post(self, request: Request, public_id: str) -> Response:
        player = seated_player(request)
        game = games.undo_move(player=player, game_id=selectors.game_pk(public_id))
        return Response(presenters.game_state(game, viewer=player))


class HintView(APIView):
    """G2: ask for the strong CPU's move; it arrives in ``hints.current`` (and over the socket)."""

    @extend_schema(request=None, responses=with_errors({202: GameStateSerializer}, 400, 403, 404))
    def post(self, request: Request, public_id: str) -> Response:
        player = seated_player(request)
        game = cpu.request_hint(player=player, game_id=selectors.game_pk(public_id))
        return Response(presenters.game_state(game, viewer=player), status=status.HTTP_202_ACCEPTED)


class AnalysisView(APIView):
    """Issue 12 §3: the value of every legal move at a ply, computed by a worker. ``POST``
    asks for it (202, ``status`` pending until done); ``GET ?ply=`` reads it."""

    throttle_scope = "analysis"

    @extend_schema(
        operation_id="games_analysis_request",
        request=AnalysisRequestSerializer,
        responses=with_errors({202: AnalysisStateSerializer}, 400, 403, 404),
    )
    def post(self, request: Request, public_id: str) -> Response:
        data = validated(AnalysisRequestSerializer, request.data)
        found = analysis.request_analysis(
            player=seated_player(request),
            game_id=selectors.game_pk(public_id),
            ply=data.get("ply"),
        )
        return Response(presenters.analysis_state(found), status=status.HTTP_202_ACCEPTED)

    @extend_schema(
        operation_id="games_analysis_read",
        parameters=[OpenApiParameter("ply", int, required=True)],
        responses=with_errors({200: AnalysisStateSerializer}, 400, 404),
    )
    def get(self, request: Request, public_id: str) -> Response:
        query = validated(AnalysisQuerySerializer, request.query_params.dict())
        found = selectors.analysis(selectors.game_pk(public_id), query["ply"])
        return Response(presenters.analysis_state(found))


class ResignView(APIView):
    """G3: give up the game."""

    @extend_schema(request=None, responses=with_errors({200: GameStateSerializer}, 400, 403, 404))
    def post(self, request: Request, public_id: str) -> Response:
        player = seated_player(request)
        game = games.resign(player=player, game_id=selectors.game_pk(public_id))
        return Response(presenters.game_state(game, viewer=player))


class AbortView(APIView):
    """End a room game before every player has moved (it counts for nobody)."""

    @extend_schema(request=None, responses=with_errors({200: GameStateSerializer}, 400, 403, 404))
    def post(self, request: Request, public_id: str) -> Response:
        player = seated_player(request)
        game = offers.abort(player=player, game_id=selectors.game_pk(public_id))
        return Response(presenters.game_state(game, viewer=player))


class DrawView(APIView):
    """Offer a draw to the other player of a 2-player room game, or accept or decline theirs."""

    @extend_schema(
        request=DrawActionSerializer,
        responses=with_errors({200: GameStateSerializer}, 400, 403, 404, 409),
    )
    def post(self, request: Request, public_id: str) -> Response:
        data = validated(DrawActionSerializer, request.data)
        player = seated_player(request)
        game = offers.draw(
            player=player, game_id=selectors.game_pk(public_id), action=data["action"]
        )
        return Response(presenters.game_state(game, viewer=player))


class TakeoverView(APIView):
    """M3: the CPU takes the seat of a player disconnected for 2 minutes."""

    @extend_schema(
        request=TakeoverSerializer, responses=with_errors({200: GameStateSerializer}, 400, 403, 404)
    )
    def post(self, request: Request, public_id: str) -> Response:
        data = validated(TakeoverSerializer, request.data)
        player = seated_player(request)
        game = presence.take_over_seat(
            player=player,
            game_id=selectors.game_pk(public_id),
            color=data["color"],
            level=data["level"],
        )
        return Response(presenters.game_state(game, viewer=player))


class RoomCreateView(APIView):
    """M3/M4: open a room; share its ``url``; the creator takes the first person's seat."""

    throttle_scope = "room_create"

    @extend_schema(
        request=RoomCreateSerializer, responses=with_errors({201: RoomStateSerializer}, 400, 403)
    )
    def post(self, request: Request) -> Response:
        data = validated(RoomCreateSerializer, request.data)
        player = seated_player(request)
        seats = [
            rooms.SeatSpec(seat["kind"], seat.get("level", "")) for seat in data.get("seats", [])
        ]
        room = rooms.create_room(
            player=player,
            variant=data["variant"],
            seats=seats,
            time_control=data["time_control"],
            rated=data["rated"],
            from_position=data["start"],
        )
        return Response(presenters.room_state(room, viewer=player), status=status.HTTP_201_CREATED)


class RoomDetailView(APIView):
    """A room, its state (open, playing, finished), rematch link and game."""

    @extend_schema(responses=with_errors({200: RoomStateSerializer}, 404))
    def get(self, request: Request, code: str) -> Response:
        return Response(
            presenters.room_state(
                selectors.room(code), viewer=request_player(request, create=False)
            )
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
        room = rooms.join_room(player=player, code=code, color=data.get("color"))
        return Response(presenters.room_state(selectors.room(room.code), viewer=player))


class RoomRematchView(APIView):
    """After the game: a new room with colours swapped (rotated with 3-4 players)."""

    throttle_scope = "room_create"

    @extend_schema(
        request=None,
        responses=with_errors({201: RoomStateSerializer, 200: RoomStateSerializer}, 400, 403, 404),
    )
    def post(self, request: Request, code: str) -> Response:
        player = seated_player(request)
        room, created = rooms.rematch_room(player=player, code=code)
        return Response(
            presenters.room_state(selectors.room(room.code), viewer=player),
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class LobbyView(APIView):
    """The lobby's open seeks, oldest first (live over ``/ws/lobby/``)."""

    @extend_schema(responses=with_errors({200: LobbySerializer}))
    def get(self, request: Request) -> Response:
        viewer = request_player(request, create=False)
        return Response({"seeks": presenters.lobby_seeks(selectors.open_seeks(), viewer=viewer)})


class SeekCreateView(APIView):
    """Offer a game in the lobby: a room anyone may take a seat of."""

    @extend_schema(
        request=SeekCreateSerializer, responses=with_errors({201: SeekStateSerializer}, 400, 403)
    )
    def post(self, request: Request) -> Response:
        data = validated(SeekCreateSerializer, request.data)
        player = seated_player(request)
        seek = lobby.create_seek(
            player=player,
            variant=data["variant"],
            color=data["color"],
            time_control=data["time_control"],
            rated=data["rated"],
        )
        (state,) = presenters.lobby_seeks([seek], viewer=player)
        return Response(state, status=status.HTTP_201_CREATED)


class SeekDetailView(APIView):
    """Take your seek back before someone accepts it."""

    @extend_schema(request=None, responses=with_errors({204: None}, 403, 404, 409))
    def delete(self, request: Request, seek_id: str) -> Response:
        lobby.cancel_seek(player=seated_player(request), seek_id=seek_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SeekAcceptView(APIView):
    """Accept a seek: take a free seat of its room; the last seat starts the game for all."""

    @extend_schema(
        request=None, responses=with_errors({200: RoomStateSerializer}, 400, 403, 404, 409)
    )
    def post(self, request: Request, seek_id: str) -> Response:
        player = seated_player(request)
        room = lobby.accept_seek(player=player, seek_id=seek_id)
        return Response(presenters.room_state(selectors.room(room.code), viewer=player))


class QuickPairingView(APIView):
    """Play the first open standard seek of this time control, or offer one and wait."""

    @extend_schema(
        request=QuickPairingRequestSerializer,
        responses=with_errors({200: QuickPairingSerializer}, 400, 403),
    )
    def post(self, request: Request) -> Response:
        data = validated(QuickPairingRequestSerializer, request.data)
        player = seated_player(request)
        room, started = lobby.quick_pairing(
            player=player,
            time_control=data["time_control"],
            rated=data["rated"],
            rating_range=data["rating_range"],
        )
        room = selectors.room(room.code)
        seek = None if started else presenters.lobby_seeks([room.seek], viewer=player)[0]
        return Response(
            {
                "started": started,
                "seek": seek,
                "room": presenters.room_state(room, viewer=player),
            }
        )


CHALLENGES_LISTED = 20


def signed_in_player(request: Request) -> tuple[Player, int]:
    """The account of a challenge request and its user id; a guest is refused."""
    player = request_player(request, create=False)
    if player is None or player.user_id is None:
        raise Forbidden("challenge_needs_account")
    return player, player.user_id


class ChallengeListView(APIView):
    """``GET``: your latest challenges, sent and received; ``POST``: challenge a player."""

    write_scope = "challenge"

    @extend_schema(responses=with_errors({200: ChallengeListSerializer}, 403))
    def get(self, request: Request) -> Response:
        _, user_id = signed_in_player(request)
        challenges = selectors.challenges_of(user_id, limit=CHALLENGES_LISTED)
        return Response(
            {"challenges": [presenters.challenge_state(c, viewer_id=user_id) for c in challenges]}
        )

    @extend_schema(
        request=ChallengeCreateSerializer,
        responses=with_errors({201: ChallengeStateSerializer}, 400, 403, 404),
    )
    def post(self, request: Request) -> Response:
        data = validated(ChallengeCreateSerializer, request.data)
        player, user_id = signed_in_player(request)
        challenge = challenges.create_challenge(player=player, **data)
        return Response(
            presenters.challenge_state(challenge, viewer_id=user_id),
            status=status.HTTP_201_CREATED,
        )


class ChallengeAcceptView(APIView):
    """Accept a challenge addressed to you: its game starts at once, in a room for the two."""

    write_scope = "challenge"

    @extend_schema(
        request=None, responses=with_errors({200: RoomStateSerializer}, 400, 403, 404, 409)
    )
    def post(self, request: Request, challenge_id: str) -> Response:
        player, _ = signed_in_player(request)
        room = challenges.accept_challenge(player=player, challenge_id=challenge_id)
        return Response(presenters.room_state(selectors.room(room.code), viewer=player))


class ChallengeDeclineView(APIView):
    """Decline a challenge addressed to you, with a reason."""

    write_scope = "challenge"

    @extend_schema(
        request=DeclineSerializer,
        responses=with_errors({200: ChallengeStateSerializer}, 400, 403, 404, 409),
    )
    def post(self, request: Request, challenge_id: str) -> Response:
        data = validated(DeclineSerializer, request.data)
        player, user_id = signed_in_player(request)
        challenge = challenges.decline_challenge(
            player=player, challenge_id=challenge_id, reason=data["reason"]
        )
        return Response(presenters.challenge_state(challenge, viewer_id=user_id))


class ChallengeCancelView(APIView):
    """Take back a challenge you sent, while it is pending."""

    write_scope = "challenge"

    @extend_schema(
        request=None, responses=with_errors({200: ChallengeStateSerializer}, 403, 404, 409)
    )
    def post(self, request: Request, challenge_id: str) -> Response:
        player, user_id = signed_in_player(request)
        challenge = challenges.cancel_challenge(player=player, challenge_id=challenge_id)
        return Response(presenters.challenge_state(challenge, viewer_id=user_id))


LIVE_GAMES_LISTED = 30


class WatchView(APIView):
    """The games between people being played now (rated first, then the most watched) and who
    is online."""

    @extend_schema(responses=with_errors({200: WatchStateSerializer}))
    def get(self, request: Request) -> Response:
        games_now = selectors.live_games(limit=LIVE_GAMES_LISTED)
        return Response(presenters.watch_state(games_now, selectors.online_players()))


class RecordFormatNegotiation(DefaultContentNegotiation):
    """``?format=`` names a record's format here, not one of DRF's renderers: errors are JSON."""

    def select_renderer(
        self,
        request: Request,
        renderers: Iterable[BaseRenderer],
        format_suffix: str | None = None,
    ) -> tuple[BaseRenderer, str]:
        first = next(iter(renderers))
        return first, first.media_type


class GameExportView(APIView):
    """A finished game's record as a file: ``?format=txt`` (a plain transcript), ``ggf`` (the
    Othello servers' format, with players, ratings and result) or ``json``."""

    content_negotiation_class = RecordFormatNegotiation

    @extend_schema(
        parameters=[ExportQuerySerializer],
        responses=with_errors({200: OpenApiResponse(OpenApiTypes.STR)}, 400, 404, 409),
    )
    def get(self, request: Request, public_id: str) -> HttpResponse:
        query = validated(ExportQuerySerializer, request.query_params.dict())
        game = selectors.game(selectors.game_pk(public_id))
        exported = records.export(game, query["format"], site=request.get_host())
        response = HttpResponse(exported.text, content_type=exported.content_type)
        response["Content-Disposition"] = f'attachment; filename="{exported.filename}"'
        return response


class PlayerGamesExportView(APIView):
    """Every finished game of a player as NDJSON (one JSON record a line), streamed."""

    @extend_schema(responses=with_errors({200: OpenApiResponse(OpenApiTypes.STR)}, 404))
    def get(self, request: Request, username: str) -> StreamingHttpResponse:
        users = get_user_model().objects.filter(username=username, is_active=True)
        user = None if "\x00" in username else users.first()
        if user is None:
            raise NotFound("player_not_found", field="username", username=username)
        response = StreamingHttpResponse(
            records.ndjson_export(user.pk, site=request.get_host()),
            content_type="application/x-ndjson",
        )
        response["Content-Disposition"] = f'attachment; filename="reversi-{username}.ndjson"'
        return response


class ImportView(APIView):
    """Import a game (a transcript or GGF) to view, export and analyse it: a finished game of
    mode ``imported``; a bad record is a 400 naming the move at fault."""

    throttle_scope = "game_create"

    @extend_schema(
        request=ImportSerializer, responses=with_errors({201: GameStateSerializer}, 400, 403)
    )
    def post(self, request: Request) -> Response:
        data = validated(ImportSerializer, request.data)
        player = request_player(request, create=False)
        game = imports.import_record(
            text=data["text"], record_format=data["format"], variant=data["variant"]
        )
        return Response(presenters.game_state(game, viewer=player), status=status.HTTP_201_CREATED)


class ReviewView(APIView):
    """``GET``: the post-game review of a game (status, every analysed move, mistakes, the
    opening's name); ``POST``: queue it for a finished game that has none (an imported one),
    at most ``policy.REVIEWS_PER_REQUESTER`` under way per account or guest address (429
    ``too_many_reviews``); a game that has one answers it as it is."""

    throttle_scope = "game_create"

    @extend_schema(responses=with_errors({200: ReviewStateSerializer}, 404))
    def get(self, request: Request, public_id: str) -> Response:
        game = selectors.game(selectors.game_pk(public_id))
        found = selectors.game_review(game.pk)
        language = get_language() or "en"
        return Response(presenters.review_state(game, found, language=language))

    @extend_schema(request=None, responses=with_errors({202: ReviewStateSerializer}, 404, 409))
    def post(self, request: Request, public_id: str) -> Response:
        game_id = selectors.game_pk(public_id)
        queued = reviews.request_review(game_id=game_id, requester=requester_of(request))
        game = selectors.game(game_id)
        state = presenters.review_state(game, queued, language=get_language() or "en")
        return Response(state, status=status.HTTP_202_ACCEPTED)
