"""Public ids: what a URL, an answer or an event calls a game by, instead of its primary key.

A public id is 12 characters drawn by ``secrets`` from the 62 letters and digits (about 71
bits), so ids can be neither counted through nor guessed; the integer primary key stays inside
the database, the foreign keys and the task arguments. ``PublicIdConverter`` is the
``<public_id:...>`` path converter of the HTTP and websocket routes (registered by
``GamesConfig.ready``); it takes any path segment, so that a malformed id gets the same 404 as
an unknown one from the view (``is_public_id`` tells them apart before any query).
"""

import re
import secrets
import string

PUBLIC_ID_ALPHABET = string.ascii_letters + string.digits
PUBLIC_ID_LENGTH = 12
PUBLIC_ID_PATTERN = re.compile(f"[{PUBLIC_ID_ALPHABET}]{{{PUBLIC_ID_LENGTH}}}")


def new_public_id() -> str:
    """A fresh random public id."""
    return "".join(secrets.choice(PUBLIC_ID_ALPHABET) for _ in range(PUBLIC_ID_LENGTH))


def is_public_id(text: str) -> bool:
    """Whether ``text`` has the form of a public id (it may still name no game)."""
    return PUBLIC_ID_PATTERN.fullmatch(text) is not None


class PublicIdConverter:
    """Matches one path segment (the view answers 404 for one that names no game); ``reverse()``
    refuses anything but a public id, so a primary key can never slip into an address."""

    regex = "[^/]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: object) -> str:
        if not isinstance(value, str) or not is_public_id(value):
            raise ValueError(f"not a public id: {value!r}")
        return value


# How the schema describes a ``<public_id:...>`` path parameter (``PATH_CONVERTER_OVERRIDES``).
PUBLIC_ID_SCHEMA = {
    "type": "string",
    "pattern": f"^{PUBLIC_ID_PATTERN.pattern}$",
    "description": f"A game's public id: {PUBLIC_ID_LENGTH} random letters and digits.",
}
