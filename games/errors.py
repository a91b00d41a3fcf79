"""The one error type of the services (games and community); the API answers it with a 4xx."""


class ServiceError(Exception):
    """A request a service refuses: a stable ``code``, a human ``message``, the ``field`` at fault.

    ``status_code`` is the HTTP status to answer; ``retry_after`` (seconds) goes with a 429.
    """

    status_code = 400
    retry_after: int | None = None

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = str(message)
        self.field = field
