"""Time controls: what a clock gives each player, written as ``"M+S"`` (M minutes each, S seconds
added after every move: ``"3+2"``) or ``"Nd"`` (correspondence: N days for every move).

Pure arithmetic over milliseconds, shared by the game service (which keeps the clocks) and the
other apps (ratings group games by ``TimeControl.speed``). The offered ones are
``settings.TIME_CONTROLS``.
"""

import re
from dataclasses import dataclass

from django.conf import settings

DAY_MS = 86_400_000
_CLOCK = re.compile(r"(?P<minutes>\d+(?:\.\d+)?)\+(?P<increment>\d+)")
_DAYS = re.compile(r"(?P<days>[1-9]\d?)d")

# lichess's speed classes, by the estimated length of a 40-move game (initial + 40 increments).
SPEED_LIMITS_MS = (("bullet", 180_000), ("blitz", 480_000), ("rapid", 1_500_000))
SPEEDS = ("bullet", "blitz", "rapid", "classical", "correspondence")


class TimeControlError(ValueError):
    """A time-control text that is not ``M+S`` or ``Nd``, or not one of the offered ones."""


@dataclass(frozen=True)
class TimeControl:
    """``initial_ms`` each and ``increment_ms`` after every move, or ``days_per_move``."""

    name: str
    initial_ms: int
    increment_ms: int
    days_per_move: int | None = None

    @classmethod
    def parse(cls, text: str) -> "TimeControl":
        """The time control written ``text`` (``"3+2"``, ``"5d"``); ``TimeControlError`` else."""
        if match := _DAYS.fullmatch(text):
            days = int(match["days"])
            return cls(name=text, initial_ms=days * DAY_MS, increment_ms=0, days_per_move=days)
        if match := _CLOCK.fullmatch(text):
            initial = round(float(match["minutes"]) * 60_000)
            if initial > 0:
                return cls(
                    name=text, initial_ms=initial, increment_ms=int(match["increment"]) * 1000
                )
        raise TimeControlError(f"{text!r} is not a time control such as 3+2 or 3d")

    @classmethod
    def offered(cls, text: str) -> "TimeControl":
        """One of ``settings.TIME_CONTROLS``; ``TimeControlError`` for any other."""
        if text not in offered_time_controls():
            raise TimeControlError(f"{text!r} is not offered")
        return cls.parse(text)

    @property
    def correspondence(self) -> bool:
        return self.days_per_move is not None

    @property
    def speed(self) -> str:
        """The class a rating is kept per: bullet, blitz, rapid, classical or correspondence."""
        if self.correspondence:
            return "correspondence"
        estimate = self.initial_ms + 40 * self.increment_ms
        return next((name for name, limit in SPEED_LIMITS_MS if estimate < limit), "classical")

    def after_move(self, remaining_ms: int) -> int:
        """The mover's time after a move that left ``remaining_ms``: the increment added, or a
        full allowance again in correspondence."""
        return self.initial_ms if self.correspondence else remaining_ms + self.increment_ms


def speed_of(name: str) -> str:
    """The speed class of the time control written ``name``; "untimed" for none ("")."""
    return TimeControl.parse(name).speed if name else "untimed"


def offered_time_controls() -> list[str]:
    """The time controls a game may be created with, fastest first."""
    return list(settings.TIME_CONTROLS)
