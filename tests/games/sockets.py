"""A websocket test client that holds up on a loaded machine.

Channels' communicator waits one second by default: on a busy CI box a connect or a receive
outlasts that, and the timeout cancels the consumer in the middle of its work. This client waits
``TIMEOUT`` seconds.
"""

from channels.testing import WebsocketCommunicator

from reversi_site.asgi import application

ORIGIN = (b"origin", b"http://testserver")
TIMEOUT = 10.0


class Socket(WebsocketCommunicator):
    """A websocket to the project's ASGI application."""

    def __init__(self, path: str, headers: list[tuple[bytes, bytes]] | None = None) -> None:
        super().__init__(application, path, headers=headers if headers is not None else [ORIGIN])

    async def connect(self, timeout: float = TIMEOUT) -> tuple[bool, int | str | None]:
        """``(True, subprotocol)`` when accepted, else ``(False, close code)``."""
        return await super().connect(timeout)

    async def receive_json_from(self, timeout: float = TIMEOUT) -> dict:
        return await super().receive_json_from(timeout)

    async def disconnect(self, code: int = 1000, timeout: float = TIMEOUT) -> None:
        await super().disconnect(code, timeout)
