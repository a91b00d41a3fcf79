"""The community's one error of its own: a text that breaks a comment rule (a 400, its message
from ``games.shared.errors.MESSAGES``). Every other refusal is a ``games.shared.errors`` class."""

from games.shared.errors import ServiceError


class RuleViolation(ServiceError):
    """The text breaks a comment rule or a length limit; ``fragment`` is the part that broke
    a content rule (empty for the length limits)."""

    def __init__(
        self, code: str, *, field: str | None = None, fragment: str = "", **params: object
    ) -> None:
        super().__init__(code, field=field, **params)
        self.fragment = fragment
