"""Input serializers: they check shapes and types only; the rules live in the services."""

from collections.abc import Mapping

from django.contrib.auth import get_user_model
from rest_framework import serializers

from ai_worker.engine import COLOR_NAMES
from games.models import Game, Seat
from games.services import LEVELS


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
    level = serializers.ChoiceField(choices=LEVELS, default="normal")
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
    level = serializers.ChoiceField(choices=LEVELS, default="normal")


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
