"""A real SMTP server for the mail tests (aiosmtpd on a free port): Django's SMTP backend
sends to it, and a test reads what arrived, as a person would read their inbox."""

import email
import email.policy
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from tests.servers import free_port

WAIT_SECONDS = 10
LINK = re.compile(r"https?://\S+")


class Inbox:
    """The messages the catcher received, in order, parsed."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.messages: list[EmailMessage] = []
        self._arrived = threading.Condition()

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self._arrived:
            self.messages.append(message)  # type: ignore[arg-type]
            self._arrived.notify_all()
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        """The messages sent to ``address``."""
        return [message for message in self.messages if address in str(message["To"])]

    def wait_for(
        self, address: str, *, count: int = 1, seconds: float = WAIT_SECONDS
    ) -> EmailMessage:
        """The ``count``-th message to ``address``, waiting for it up to ``seconds``."""
        deadline = time.monotonic() + seconds
        with self._arrived:
            while len(self.to(address)) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no message {count} to {address} in {seconds} s")
                self._arrived.wait(left)
        return self.to(address)[count - 1]


def body(message: EmailMessage) -> str:
    """The plain-text body of ``message``."""
    part = message.get_body(preferencelist=("plain",))
    assert part is not None, "the message has no text part"
    return part.get_content()  # type: ignore[no-any-return, union-attr]


def link_in(message: EmailMessage) -> str:
    """The one link in the body of ``message``."""
    links = LINK.findall(body(message))
    assert len(links) == 1, f"expected one link, got {links}"
    return links[0]


@contextmanager
def smtp_server() -> Iterator[Inbox]:
    """An SMTP server on 127.0.0.1 that keeps what it receives; stopped afterwards."""
    inbox = Inbox(free_port())
    controller = Controller(
        inbox, hostname="127.0.0.1", port=inbox.port, server_hostname="localhost"
    )
    controller.start()
    try:
        yield inbox
    finally:
        controller.stop()
