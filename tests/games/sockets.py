"""A websocket test client that holds up on a loaded machine.

Channels' communicator waits one second by default: on a busy CI box a connect or a receive
outlasts that, and the timeout cancels the consumer in the middle of its work. This client waits
``TIMEOUT`` seconds.
"""

from channels.testing import WebsocketCommunicator

from reversi_site.asgi import application

ORIGIN = (b"origin", b"http://testserver")
HOST = (b"host", b"testserver")
BROWSER = [ORIGIN, HOST]  # a page of the site's own origin
TIMEOUT = 10.0


def token_header(key: str) -> tuple[bytes, bytes]:
    """An API client's credentials (``Authorization: Token <key>``)."""
    return (b"authorization", f"Token {key}".encode())


class Socket(WebsocketCommunicator):
    """A websocket to the project's ASGI application."""

    def __init__(self, path: str, headers: list[tuple[bytes, bytes]] | None = None) -> None:
        super().__init__(application, path, headers=headers if headers is not None else BROWSER)

    async def connect(self, timeout: float = TIMEOUT) -> tuple[bool, int | str | None]:
        """``(True, subprotocol)`` when accepted, else ``(False, close code)``."""
        return await super().connect(timeout)

    async def receive_json_from(self, timeout: float = TIMEOUT) -> dict:
        return await super().receive_json_from(timeout)

    async def close_code(self, timeout: float = TIMEOUT) -> int | None:
        """Connect and return the code the server closed with right after accepting (a refusal);
        None when the socket stays open."""
        connected, code = await self.connect(timeout)
        if not connected:
            raise AssertionError(f"refused during the handshake ({code}), not accepted and closed")
        message = await self.receive_output(timeout)
        return message.get("code") if message["type"] == "websocket.close" else None

    async def disconnect(self, code: int = 1000, timeout: float = TIMEOUT) -> None:
        await super().disconnect(code, timeout)
