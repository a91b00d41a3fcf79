"""The API's request parser (``REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]``): JSON with a nesting
limit (the size limit is Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE``, answered 413 by
``games.shared.api.api_exception_handler``).

A module of its own: DRF reads its settings, this class included, while ``rest_framework.views``
is imported, which ``games.shared.api`` imports."""

from typing import Any

from rest_framework.parsers import JSONParser

from games.shared.errors import ServiceError

MAX_JSON_DEPTH = 32  # nesting levels of a JSON body (the API's deepest input has 3)


class JSONBodyParser(JSONParser):
    """DRF's JSON parser where a body nested deeper than ``MAX_JSON_DEPTH`` is a 400 (never a
    ``RecursionError``)."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            data = None
            too_deep = True
        else:
            too_deep = _nesting_exceeds(data, MAX_JSON_DEPTH)
        if too_deep:
            raise ServiceError("nested_too_deep", limit=MAX_JSON_DEPTH)
        return data


def _nesting_exceeds(data: object, limit: int) -> bool:
    """Whether lists and objects in ``data`` nest deeper than ``limit`` (walked, not recursed)."""
    pending = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        if not isinstance(value, dict | list):
            continue
        if depth > limit:
            return True
        children = value.values() if isinstance(value, dict) else value
        pending.extend((child, depth + 1) for child in children)
    return False
