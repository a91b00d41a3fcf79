"""One JSON error shape for the whole API (games and community):
``{"error": {"code", "message", "field"}}``, its exception handler and its schema."""

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions, serializers
from rest_framework.response import Response
from rest_framework.views import exception_handler

from games.errors import ServiceError


def error_body(code: str, message: str, field: str | None = None) -> dict:
    """The error document: a machine-readable code, a human message, the field at fault.

    Input echoed in the message or field (a lone surrogate is valid JSON but not UTF-8) is
    written as an escape, so the answer can always be encoded.
    """
    return {
        "error": {
            "code": code,
            "message": _encodable(message),
            "field": None if field is None else _encodable(field),
        }
    }


def _encodable(text: str) -> str:
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def api_exception_handler(exc: Exception, context: dict) -> Response | None:
    """The API's exception handler (``REST_FRAMEWORK["EXCEPTION_HANDLER"]``).

    Service errors and DRF's own exceptions (Django's 404 and PermissionDenied included) become
    ``error_body`` with their status and headers (``Retry-After``, ``WWW-Authenticate``);
    anything else propagates (a 500).
    """
    if isinstance(exc, ServiceError):
        response = Response(error_body(exc.code, exc.message, exc.field), status=exc.status_code)
        if exc.retry_after is not None:
            response["Retry-After"] = str(exc.retry_after)
        return response
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = exception_handler(exc, context)  # DRF's status, headers and rollback
    if response is None:  # not an APIException
        return None
    if isinstance(exc, exceptions.ParseError):
        response.data = error_body("malformed_json", str(exc.detail))
    else:
        field, detail = _first_error(exc.detail)
        code = getattr(detail, "code", None) or exc.default_code
        response.data = error_body(code, str(detail), field)
    return response


def _first_error(detail: object, path: tuple[str, ...] = ()) -> tuple[str | None, object]:
    """The dotted field path (``variant``, ``seats.1.level``) and message of the first error."""
    if isinstance(detail, dict):
        key, value = next(iter(detail.items()))
        if key == "non_field_errors":
            return _first_error(value, path)
        return _first_error(value, (*path, str(key)))
    if isinstance(detail, list):
        for index, item in enumerate(detail):
            if item:
                nested = isinstance(item, dict | list)
                return _first_error(item, (*path, str(index)) if nested else path)
    return (".".join(path) or None), detail


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Machine-readable, e.g. stale_ply, url_not_allowed.")
    message = serializers.CharField(help_text="For people, in the request's language.")
    field = serializers.CharField(allow_null=True, help_text="The input at fault, or null.")


class ErrorSerializer(serializers.Serializer):
    """Every API error: ``{"error": {"code", "message", "field"}}``."""

    error = ErrorDetailSerializer()


def with_errors(success: dict[int, object], *statuses: int) -> dict[int, object]:
    """OpenAPI responses: ``success`` plus the error statuses, all in the error shape."""
    return success | dict.fromkeys(statuses, ErrorSerializer)
