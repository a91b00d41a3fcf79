"""Errors raised by the community services; the API turns them into 4xx responses."""

from games.errors import ServiceError


class CommunityError(ServiceError):
    """A request the community services refuse."""


class RuleViolation(CommunityError):
    """The text breaks a comment rule or a length limit; ``fragment`` is the part that broke
    a content rule (empty for the length limits)."""

    def __init__(
        self, code: str, message: str, field: str | None = None, *, fragment: str = ""
    ) -> None:
        super().__init__(code, message, field)
        self.fragment = fragment


class InvalidValue(CommunityError):
    """A field's value is not one of its choices."""


class RateLimited(CommunityError):
    """Too many posts from one visitor or one IP address in the time window."""

    status_code = 429

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__("rate_limited", message)
        self.retry_after = retry_after


class NotFound(CommunityError):
    """The comment or bug report does not exist (or is not visible to this visitor)."""

    status_code = 404


class InvalidState(CommunityError):
    """The action does not apply to the object's current state (e.g. hiding a hidden comment)."""

    status_code = 409


class Forbidden(CommunityError):
    """Only moderators may do this."""

    status_code = 403
