"""Input serializers: they check shapes and types only; the rules live in the services."""

from collections.abc import Mapping

from django.contrib.auth import get_user_model
from rest_framework import serializers

from ai_worker.engine import COLOR_NAMES
from ai_worker.levels import DEFAULT_LEVEL, LEVELS
from games.models import Game, Seat


class StrictSerializer(serializers.Serializer):
    """A serializer that rejects keys it does not know (a typo must not be ignored)."""

    def to_internal_value(self, data: object) -> dict:
        if isinstance(data, Mapping):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {unknown[0]: [serializers.ErrorDetail("Unknown field.", code="unknown_field")]}
                )
        return super().to_internal_value(data)


class VariantField(serializers.DictField):
    """The variant object (players, board, opening, anti, blocked, handicap, handicap_color)."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(default=dict, **kwargs)


class GameCreateSerializer(StrictSerializer):
    mode = serializers.ChoiceField(choices=["cpu", "local"], default="cpu")
    level = serializers.ChoiceField(choices=LEVELS, default=DEFAULT_LEVEL)
    color = serializers.ChoiceField(choices=[*COLOR_NAMES, "random"], default="black")
    undo = serializers.BooleanField(default=True)
    variant = VariantField()


class GameListQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Game.Status.values, required=False)


class MoveSerializer(StrictSerializer):
    move = serializers.CharField(max_length=8, help_text='a square such as "f5"')
    ply = serializers.IntegerField(min_value=0, help_text="the ply the client's state shows")


class TakeoverSerializer(StrictSerializer):
    color = serializers.ChoiceField(choices=COLOR_NAMES, help_text="the absent player's seat")
    level = serializers.ChoiceField(choices=LEVELS, default=DEFAULT_LEVEL)


class SeatSerializer(StrictSerializer):
    kind = serializers.ChoiceField(choices=Seat.Kind.values)
    level = serializers.ChoiceField(choices=LEVELS, required=False)

    def validate(self, attrs: dict) -> dict:
        if attrs["kind"] == Seat.Kind.CPU:
            attrs.setdefault("level", "normal")
        elif "level" in attrs:
            raise serializers.ValidationError(
                {"level": serializers.ErrorDetail("Only a CPU seat has a level.", code="invalid")}
            )
        return attrs


class RoomCreateSerializer(StrictSerializer):
    variant = VariantField()
    seats = SeatSerializer(many=True, required=False, help_text="one per colour, in turn order")


class JoinSerializer(StrictSerializer):
    color = serializers.ChoiceField(choices=COLOR_NAMES, required=False)


class CredentialsSerializer(StrictSerializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, style={"input_type": "password"})


class SignupSerializer(CredentialsSerializer):
    def validate_username(self, value: str) -> str:
        """The account model's own username rules (letters, digits and @ . + - _)."""
        get_user_model()._meta.get_field("username").run_validators(value)
        return value


# --- answers (documentation of the JSON that ``games.selectors`` builds) -------------------


class LastMoveSerializer(serializers.Serializer):
    ply = serializers.IntegerField()
    color = serializers.CharField()
    move = serializers.CharField(help_text='e.g. "f5"')
    flipped = serializers.ListField(child=serializers.CharField(), help_text="nearest first")
    text = serializers.CharField(help_text='e.g. "Black f5, 3 discs flipped"')


class PassNoticeSerializer(serializers.Serializer):
    ply = serializers.IntegerField()
    color = serializers.CharField()
    text = serializers.CharField(help_text='e.g. "White passes: no legal move"')


class UndoStateSerializer(serializers.Serializer):
    allowed = serializers.BooleanField()
    used = serializers.IntegerField()


class HintStateSerializer(serializers.Serializer):
    used = serializers.IntegerField()
    current = serializers.DictField(
        allow_null=True, help_text='{"ply": n, "move": "f5"}; the move is null while computed'
    )


class SeatStateSerializer(serializers.Serializer):
    color = serializers.ChoiceField(choices=COLOR_NAMES)
    kind = serializers.ChoiceField(choices=Seat.Kind.values)
    level = serializers.ChoiceField(choices=LEVELS, allow_null=True)
    name = serializers.CharField(allow_null=True)
    taken = serializers.BooleanField()
    connected = serializers.BooleanField()
    absent_since = serializers.DateTimeField(allow_null=True)


class RoomLinkSerializer(serializers.Serializer):
    code = serializers.CharField()
    url = serializers.CharField()


class RoomSummarySerializer(serializers.Serializer):
    code = serializers.CharField()
    state = serializers.ChoiceField(choices=["open", "playing", "finished"])
    rematch = RoomLinkSerializer(allow_null=True)


class GameStateSerializer(serializers.Serializer):
    """The full state of a game (the answer of every game endpoint and websocket event)."""

    id = serializers.IntegerField()
    url = serializers.CharField(help_text="the page where the game is played")
    mode = serializers.ChoiceField(choices=Game.Mode.values)
    variant = serializers.DictField()
    status = serializers.ChoiceField(choices=Game.Status.values)
    ply = serializers.IntegerField()
    version = serializers.IntegerField(help_text="grows with every change")
    to_move = serializers.ChoiceField(choices=COLOR_NAMES, allow_null=True)
    legal_moves = serializers.ListField(child=serializers.CharField())
    board = serializers.ListField(
        child=serializers.CharField(),
        help_text="one string per row: X O R G discs, N neutral, - empty, # wall",
    )
    discs = serializers.DictField(child=serializers.IntegerField())
    empties = serializers.IntegerField()
    last_move = LastMoveSerializer(allow_null=True)
    pass_notice = PassNoticeSerializer(allow_null=True)
    moves = serializers.ListField(child=serializers.CharField())
    result = serializers.DictField(allow_null=True, help_text="R7 counts, winner, undos, hints")
    undo = UndoStateSerializer()
    hints = HintStateSerializer()
    seats = SeatStateSerializer(many=True)
    you = serializers.ListField(child=serializers.CharField(), help_text="your colours")
    room = RoomSummarySerializer(allow_null=True)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class GameListSerializer(serializers.Serializer):
    games = GameStateSerializer(many=True)


class RoomStateSerializer(serializers.Serializer):
    code = serializers.CharField()
    url = serializers.CharField()
    state = serializers.ChoiceField(choices=["open", "playing", "finished"])
    rematch = RoomLinkSerializer(allow_null=True)
    game = GameStateSerializer()
