"""Serializers of the games API: input shapes (types only; the rules live in the services and
the engine) and the output shapes of ``games.presenters`` for the schema."""

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from ai_worker.engine import COLOR_NAMES, Variant
from ai_worker.levels import DEFAULT_LEVEL, LEVELS
from games import policy, presenters
from games.models import Game, Seat
from games.shared.api import ShapeSerializer, StrictSerializer
from games.shared.time_controls import SPEEDS


def _setting_field(name: str, setting: dict[str, Any]) -> serializers.Field:
    """The schema of one variant setting of ``Variant.choices()``."""
    facts = {"default": setting["default"], "required": False}
    allowed = setting.get("players")
    if allowed:
        facts["help_text"] = f"only with {', '.join(map(str, allowed))} players"
    if "choices" in setting:
        values = [choice["value"] for choice in setting["choices"]]
        limits = [
            f"{choice['value']} with {', '.join(map(str, choice['players']))} players"
            for choice in setting["choices"]
            if "players" in choice
        ]
        if limits:
            facts["help_text"] = "; ".join(limits)
        return serializers.ChoiceField(choices=values, **facts)
    if isinstance(setting["default"], bool):
        return serializers.BooleanField(**facts)
    if "min" in setting:
        return serializers.IntegerField(min_value=setting["min"], max_value=setting["max"], **facts)
    facts["help_text"] = 'a list of squares (["c3", "f6"]) or a count of random walls'
    return serializers.JSONField(**facts)


VariantSchema = type(
    "Variant",
    (serializers.Serializer,),
    {
        "__doc__": "A game's rules; every key is optional (the engine's registry gives the "
        "choices, and the engine checks the combination).",
        **{name: _setting_field(name, setting) for name, setting in Variant.choices().items()},
    },
)


@extend_schema_field(VariantSchema)
class VariantField(serializers.DictField):
    """The variant object, checked by the engine (``games.services.games.parse_variant``)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(default=dict, **kwargs)


class GameCreateSerializer(StrictSerializer):
    mode = serializers.ChoiceField(choices=["cpu", "local"], default="cpu")
    level = serializers.ChoiceField(choices=LEVELS, default=DEFAULT_LEVEL)
    color = serializers.ChoiceField(choices=[*COLOR_NAMES, "random"], default="black")
    rated = serializers.BooleanField(
        default=False,
        help_text="a rated game (versus the CPU only) offers neither hints nor undo",
    )
    undo = serializers.BooleanField(
        required=False, help_text="allow undo; by default on in casual games, off in rated ones"
    )
    variant = VariantField()
    start = serializers.CharField(
        required=False,
        default="",
        max_length=200,
        help_text="an OBF position to begin at (standard 8x8; give no variant), versus the CPU",
    )


class ImportSerializer(StrictSerializer):
    format = serializers.ChoiceField(choices=["txt", "ggf"], help_text="txt: f5d6c3...; ggf")
    text = serializers.CharField(max_length=20000, trim_whitespace=False)
    variant = VariantField(help_text="the variant of a transcript (standard 8x8 by default)")


class GameListQuerySerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(choices=Game.Status.values, required=False)


class ExportQuerySerializer(serializers.Serializer[Any]):
    format = serializers.ChoiceField(
        choices=["txt", "ggf", "json"], default="ggf", help_text="txt: f5d6c3...; ggf; json"
    )


class MoveSerializer(StrictSerializer):
    move = serializers.CharField(max_length=8, help_text='a square such as "f5"')
    ply = serializers.IntegerField(min_value=0, help_text="the ply the client's state shows")


class TakeoverSerializer(StrictSerializer):
    color = serializers.ChoiceField(choices=COLOR_NAMES, help_text="the absent player's seat")
    level = serializers.ChoiceField(choices=LEVELS, default=DEFAULT_LEVEL)


class SeatSerializer(StrictSerializer):
    kind = serializers.ChoiceField(choices=Seat.Kind.values)
    level = serializers.ChoiceField(choices=LEVELS, required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["kind"] == Seat.Kind.CPU:
            attrs.setdefault("level", DEFAULT_LEVEL)
        elif "level" in attrs:
            raise serializers.ValidationError(
                {"level": serializers.ErrorDetail("Only a CPU seat has a level.", code="invalid")}
            )
        return attrs


class RoomCreateSerializer(StrictSerializer):
    variant = VariantField()
    rated = serializers.BooleanField(
        default=False,
        help_text="between accounts only, no CPU seat (ratings per time control); false: casual",
    )
    start = serializers.CharField(
        required=False, default="", max_length=200, help_text="an OBF position to begin at"
    )
    seats = SeatSerializer(many=True, required=False, help_text="one per colour, in turn order")
    time_control = serializers.CharField(
        max_length=16,
        required=False,
        allow_null=True,
        default=None,
        help_text='clocks kept by the server: "M+S" (minutes each, seconds added per move) or '
        '"Nd" (days per move), one of the offered ones (1+0, 3+2, 5+3, 10+0, 1d, 3d, 7d); '
        "null: untimed",
    )


class SeekCreateSerializer(StrictSerializer):
    variant = VariantField()
    color = serializers.ChoiceField(
        choices=[*COLOR_NAMES, "random"], default="random", help_text="the seeker's seat"
    )
    time_control = serializers.CharField(
        max_length=16, required=False, allow_null=True, default=None, help_text="as for a room"
    )
    rated = serializers.BooleanField(default=False, help_text="between accounts only")


class QuickPairingRequestSerializer(StrictSerializer):
    time_control = serializers.CharField(
        max_length=16, required=False, allow_null=True, default=None, help_text="as for a room"
    )
    rated = serializers.BooleanField(default=False)
    rating_range = serializers.IntegerField(
        min_value=0,
        max_value=3000,
        required=False,
        allow_null=True,
        default=None,
        help_text="pair only with a player rated within this many points (accounts only)",
    )


class ChallengeCreateSerializer(StrictSerializer):
    username = serializers.CharField(max_length=150, help_text="the account challenged")
    variant = VariantField()
    color = serializers.ChoiceField(
        choices=[*COLOR_NAMES[:2], "random"], default="random", help_text="the challenger's"
    )
    time_control = serializers.CharField(
        max_length=16, required=False, allow_null=True, default=None, help_text="as for a room"
    )
    rated = serializers.BooleanField(default=False)


class DeclineSerializer(StrictSerializer):
    reason = serializers.CharField(
        max_length=16, default="generic", help_text=", ".join(policy.DECLINE_REASONS)
    )


class DrawActionSerializer(StrictSerializer):
    action = serializers.ChoiceField(
        choices=["offer", "accept", "decline"],
        help_text="offer a draw, or accept or decline the opponent's offer",
    )


class JoinSerializer(StrictSerializer):
    color = serializers.ChoiceField(choices=COLOR_NAMES, required=False)


# --- answers: the shapes of ``games.presenters`` ---------------------------------------------


class LastMoveSerializer(ShapeSerializer):
    shape = presenters.LastMove
    ply = serializers.IntegerField()
    color = serializers.CharField()
    move = serializers.CharField(help_text='e.g. "f5"')
    flipped = serializers.ListField(child=serializers.CharField(), help_text="nearest first")
    text = serializers.CharField(help_text='e.g. "Black f5, 3 discs flipped"')


class PassNoticeSerializer(ShapeSerializer):
    shape = presenters.PassNotice
    ply = serializers.IntegerField()
    color = serializers.CharField()
    text = serializers.CharField(help_text='e.g. "White passes: no legal move"')


class UndoStateSerializer(ShapeSerializer):
    shape = presenters.UndoState
    allowed = serializers.BooleanField()
    used = serializers.IntegerField()
    colors = serializers.ListField(
        child=serializers.CharField(), help_text="the colours with a move of their own to undo"
    )


class PendingHintSerializer(ShapeSerializer):
    shape = presenters.PendingHint
    ply = serializers.IntegerField()
    move = serializers.CharField(allow_null=True, help_text="null while it is computed")
    score = serializers.FloatField(
        allow_null=True,
        help_text="the final disc difference the move is expected to give the side to move"
        " (exact when `exact`, else the strong search's estimate); null while it is computed",
    )
    exact = serializers.BooleanField(help_text="whether `score` comes from an exact solve")


class AnalysisRequestSerializer(StrictSerializer):
    ply = serializers.IntegerField(
        required=False, min_value=0, help_text="moves played before the position; default: now"
    )


class AnalysisQuerySerializer(StrictSerializer):
    ply = serializers.IntegerField(min_value=0)


class MoveValueSerializer(ShapeSerializer):
    shape = presenters.MoveValue
    move = serializers.CharField()
    score = serializers.FloatField(
        help_text="final disc difference for the side to move after this move: exact when"
        " `exact`, else the search's evaluation in discs"
    )
    exact = serializers.BooleanField()


class AnalysisStateSerializer(ShapeSerializer):
    shape = presenters.AnalysisState
    ply = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["pending", "done"])
    to_move = serializers.ChoiceField(choices=COLOR_NAMES)
    moves = MoveValueSerializer(many=True, help_text="best first; empty while pending")
    depth = serializers.IntegerField(help_text="plies searched (the empties when exact)")
    exact = serializers.BooleanField()
    requested_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class HintStateSerializer(ShapeSerializer):
    shape = presenters.HintState
    allowed = serializers.BooleanField(help_text="false in rated games and rooms")
    used = serializers.IntegerField()
    current = PendingHintSerializer(allow_null=True)


class SeatRatingSerializer(ShapeSerializer):
    shape = presenters.SeatRating
    value = serializers.IntegerField(help_text="the rating in the game's class, rounded")
    provisional = serializers.BooleanField(help_text="true while the rating's deviation is high")
    change = serializers.IntegerField(
        allow_null=True, help_text="how the finished rated game changed it; null before"
    )


class SeatStateSerializer(ShapeSerializer):
    shape = presenters.SeatState
    color = serializers.ChoiceField(choices=COLOR_NAMES)
    kind = serializers.ChoiceField(choices=Seat.Kind.values)
    level = serializers.ChoiceField(choices=LEVELS, allow_null=True)
    name = serializers.CharField(allow_null=True)
    account = serializers.CharField(allow_null=True, help_text="the signed-in player's name")
    bot = serializers.BooleanField(help_text="the account is a bot (shown BOT)")
    rating = SeatRatingSerializer(allow_null=True, help_text="an account's; null for others")
    taken = serializers.BooleanField()
    connected = serializers.BooleanField()
    absent_since = serializers.DateTimeField(allow_null=True)
    takeover_at = serializers.DateTimeField(
        allow_null=True,
        help_text="in an active room, when the CPU may take this absent player's seat",
    )


class RoomLinkSerializer(ShapeSerializer):
    shape = presenters.RoomLink
    code = serializers.CharField()
    url = serializers.CharField()


class RoomSummarySerializer(ShapeSerializer):
    shape = presenters.RoomSummary
    code = serializers.CharField(
        allow_null=True, help_text="the room's join code, shown to the game's seats only"
    )
    state = serializers.ChoiceField(choices=["open", "playing", "finished"])
    rematch = RoomLinkSerializer(allow_null=True, help_text="shown to the game's seats only")


class GameResultSerializer(ShapeSerializer):
    shape = presenters.GameResult
    reason = serializers.ChoiceField(
        choices=["end", "resign", "time", "agreement", "aborted"],
        help_text="on the board, a resignation, a clock run out, a draw agreed, aborted "
        "(counts for nobody)",
    )
    discs = serializers.DictField(child=serializers.IntegerField())
    empties = serializers.IntegerField()
    tournament = serializers.DictField(
        child=serializers.IntegerField(), allow_null=True, help_text="R7; null after a resignation"
    )
    winner = serializers.ChoiceField(choices=COLOR_NAMES, allow_null=True)
    draw = serializers.BooleanField()
    resigned = serializers.ChoiceField(choices=COLOR_NAMES, allow_null=True)
    flagged = serializers.ChoiceField(
        choices=COLOR_NAMES, allow_null=True, help_text="the player who ran out of time"
    )
    undos = serializers.IntegerField()
    hints = serializers.IntegerField()


class ClockStateSerializer(ShapeSerializer):
    shape = presenters.ClockState
    time_control = serializers.CharField(help_text='"3+2" (minutes + seconds per move) or "3d"')
    speed = serializers.ChoiceField(choices=SPEEDS, help_text="the rating class")
    remaining_ms = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="each colour's time left when the state was built (its server_time)",
    )
    running = serializers.ChoiceField(
        choices=COLOR_NAMES, allow_null=True, help_text="whose clock runs (the player to move)"
    )
    flag_at = serializers.DateTimeField(
        allow_null=True, help_text="when the running clock reaches zero: the server ends the game"
    )


class DrawStateSerializer(ShapeSerializer):
    shape = presenters.DrawState
    allowed = serializers.BooleanField(help_text="whether draws may be offered in this game now")
    offered_by = serializers.ChoiceField(choices=COLOR_NAMES, allow_null=True)


class GameStateSerializer(ShapeSerializer):
    """The full state of a game (the answer of every game endpoint and websocket event)."""

    shape = presenters.GameState
    id = serializers.CharField(
        help_text="the game's public id (12 random letters and digits) in its addresses"
    )
    url = serializers.CharField(
        help_text="the page of the game: its room's page for the room's seats, else /play/<id>/"
    )
    mode = serializers.ChoiceField(choices=Game.Mode.values)
    variant = VariantSchema()
    rated = serializers.BooleanField(help_text="rated games offer neither hints nor undo")
    status = serializers.ChoiceField(choices=Game.Status.values)
    ply = serializers.IntegerField()
    version = serializers.IntegerField(help_text="grows with every change")
    to_move = serializers.ChoiceField(choices=COLOR_NAMES, allow_null=True)
    legal_moves = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text='each legal move with the discs it flips, nearest first: {"f5": ["e5"]}',
    )
    board = serializers.ListField(
        child=serializers.CharField(),
        help_text="one string per row: X O R G discs, N neutral, - empty, # wall, space off",
    )
    discs = serializers.DictField(child=serializers.IntegerField())
    empties = serializers.IntegerField()
    last_move = LastMoveSerializer(allow_null=True)
    pass_notice = PassNoticeSerializer(allow_null=True)
    moves = serializers.ListField(child=serializers.CharField())
    result = GameResultSerializer(allow_null=True)
    undo = UndoStateSerializer()
    hints = HintStateSerializer()
    seats = SeatStateSerializer(many=True)
    you = serializers.ListField(child=serializers.CharField(), help_text="your colours")
    room = RoomSummarySerializer(allow_null=True)
    clock = ClockStateSerializer(allow_null=True, help_text="null in an untimed game")
    draw = DrawStateSerializer()
    abort_allowed = serializers.BooleanField(
        help_text="whether a seat may abort the game now (before every colour has moved)"
    )
    spectators = serializers.IntegerField(help_text="viewers without a seat watching now")
    server_time = serializers.DateTimeField(
        help_text="the server's clock when it built this state (compare with takeover_at)"
    )
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class MoveEventSerializer(ShapeSerializer):
    """A move's event: what the move changed, not the whole state (the answer of a move and
    the websocket's event of every move)."""

    shape = presenters.MoveEvent
    type = serializers.ChoiceField(choices=["move"])
    ply = serializers.IntegerField()
    version = serializers.IntegerField(help_text="exactly one more than before the move")
    status = serializers.ChoiceField(choices=Game.Status.values)
    move = LastMoveSerializer(help_text="the placed disc and the discs it flipped")
    record = serializers.ListField(
        child=serializers.CharField(),
        help_text="the notations from ply move.ply on: the move, then compulsory passes",
    )
    pass_notice = PassNoticeSerializer(allow_null=True)
    to_move = serializers.ChoiceField(choices=COLOR_NAMES, allow_null=True)
    legal_moves = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text='each legal move with the discs it flips, nearest first: {"f5": ["e5"]}',
    )
    discs = serializers.DictField(child=serializers.IntegerField())
    empties = serializers.IntegerField()
    undo = UndoStateSerializer()
    result = GameResultSerializer(allow_null=True)
    clock = ClockStateSerializer(allow_null=True, help_text="as after the move; null untimed")
    draw = DrawStateSerializer()
    abort_allowed = serializers.BooleanField()
    server_time = serializers.DateTimeField(help_text="the clocks are counted from it")
    updated_at = serializers.DateTimeField()


class GameEventSerializer(ShapeSerializer):
    """A change carrying the whole state (``type`` ``state`` on connect, on a resync and in
    the answer to a move repeated at its ply)."""

    shape = presenters.GameEvent
    type = serializers.CharField()
    ply = serializers.IntegerField()
    version = serializers.IntegerField()
    state = GameStateSerializer()


MoveAnswerSerializer = PolymorphicProxySerializer(
    component_name="MoveAnswer",
    serializers=[MoveEventSerializer, GameEventSerializer],
    resource_type_field_name=None,
)


class GameListSerializer(serializers.Serializer[Any]):
    games = GameStateSerializer(many=True)


class RoomStateSerializer(ShapeSerializer):
    shape = presenters.RoomState
    code = serializers.CharField()
    url = serializers.CharField()
    state = serializers.ChoiceField(choices=["open", "playing", "finished"])
    rematch = RoomLinkSerializer(allow_null=True, help_text="shown to the game's seats only")
    game = GameStateSerializer()


class SeekStateSerializer(ShapeSerializer):
    shape = presenters.SeekState
    id = serializers.CharField(help_text="the seek's public id")
    variant = VariantSchema()
    players = serializers.IntegerField()
    open_seats = serializers.IntegerField()
    color = serializers.ChoiceField(choices=COLOR_NAMES, help_text="the seeker's colour")
    time_control = serializers.CharField(allow_null=True)
    speed = serializers.ChoiceField(choices=SPEEDS, allow_null=True)
    rated = serializers.BooleanField()
    by = serializers.CharField(help_text="the seeker's name")
    rating = serializers.IntegerField(
        allow_null=True, help_text="the seeker's rating in this speed class (null: a guest)"
    )
    rating_range = serializers.IntegerField(
        allow_null=True, help_text="only players rated within this many points may accept"
    )
    created_at = serializers.DateTimeField()
    mine = serializers.BooleanField(help_text="whether you offered it")
    seated = serializers.BooleanField(help_text="whether you hold a seat in it")
    url = serializers.CharField(allow_null=True, help_text="its room's page, for its seats only")


class LobbySerializer(serializers.Serializer[Any]):
    seeks = SeekStateSerializer(many=True)


class QuickPairingSerializer(ShapeSerializer):
    shape = presenters.QuickPairing
    started = serializers.BooleanField(help_text="whether a game started with someone's seek")
    seek = SeekStateSerializer(allow_null=True, help_text="your seek, when none matched")
    room = RoomStateSerializer()


class ChallengeStateSerializer(ShapeSerializer):
    shape = presenters.ChallengeState
    id = serializers.CharField()
    challenger = serializers.CharField()
    challenged = serializers.CharField()
    incoming = serializers.BooleanField(help_text="whether you are the one challenged")
    variant = VariantSchema()
    color = serializers.CharField(help_text="the challenger's colour, or random")
    time_control = serializers.CharField(allow_null=True)
    speed = serializers.ChoiceField(choices=SPEEDS, allow_null=True)
    rated = serializers.BooleanField()
    status = serializers.ChoiceField(
        choices=["pending", "accepted", "declined", "cancelled", "expired"]
    )
    decline_reason = serializers.ChoiceField(choices=policy.DECLINE_REASONS, allow_null=True)
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    url = serializers.CharField(allow_null=True, help_text="the game's room, once accepted")


class ChallengeListSerializer(serializers.Serializer[Any]):
    challenges = ChallengeStateSerializer(many=True)


class LiveGameSerializer(ShapeSerializer):
    shape = presenters.LiveGame
    id = serializers.CharField()
    url = serializers.CharField(help_text="the game's own page, where anyone may watch")
    variant = VariantSchema()
    players = serializers.ListField(child=serializers.CharField(), help_text="in turn order")
    time_control = serializers.CharField(allow_null=True)
    rated = serializers.BooleanField()
    rating = serializers.IntegerField(
        allow_null=True, help_text="the players' mean rating (null when one has none)"
    )
    ply = serializers.IntegerField()
    spectators = serializers.IntegerField()
    updated_at = serializers.DateTimeField()


class OnlineStateSerializer(ShapeSerializer):
    shape = presenters.OnlineState
    names = serializers.ListField(
        child=serializers.CharField(), help_text="accounts online (the first 50, alphabetical)"
    )
    accounts = serializers.IntegerField(help_text="accounts online")
    guests = serializers.IntegerField(help_text="people online without an account")


class WatchStateSerializer(ShapeSerializer):
    shape = presenters.WatchState
    games = LiveGameSerializer(many=True)
    online = OnlineStateSerializer()


class MoveReviewSerializer(ShapeSerializer):
    shape = presenters.MoveReviewState
    ply = serializers.IntegerField()
    color = serializers.ChoiceField(choices=COLOR_NAMES)
    move = serializers.CharField()
    best = serializers.CharField(help_text="the engine's best move")
    best_score = serializers.FloatField(help_text="its score, discs for the mover")
    score = serializers.FloatField(help_text="the played move's score")
    loss = serializers.FloatField(help_text="discs the played move gave away")
    exact = serializers.BooleanField(help_text="solved to the end (20 empties or fewer)")
    depth = serializers.IntegerField()
    mistake = serializers.BooleanField(help_text="a loss of 4 discs or more")


class OpeningSerializer(ShapeSerializer):
    shape = presenters.OpeningState
    name = serializers.CharField()
    moves = serializers.IntegerField(help_text="how many of the game's first moves it names")


class ReviewStateSerializer(ShapeSerializer):
    shape = presenters.ReviewState
    status = serializers.ChoiceField(choices=["none", "queued", "running", "done"])
    analysed = serializers.IntegerField()
    total = serializers.IntegerField()
    moves = MoveReviewSerializer(many=True)
    boards = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="the board's rows before the first move and after each move",
    )
    opening = OpeningSerializer(allow_null=True, help_text="8x8 games from the standard start")
