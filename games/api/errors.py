"""One JSON error shape for the whole API: ``{"error": {"code", "message", "field"}}``."""

from django.http import Http404
from rest_framework import exceptions, serializers
from rest_framework.response import Response
from rest_framework.views import exception_handler

from games.services import GameError


def error_body(code: str, message: str, field: str | None = None) -> dict:
    """The error document: a machine-readable code, a human message, the field at fault."""
    return {"error": {"code": code, "message": message, "field": field}}


def api_exception_handler(exc: Exception, context: dict) -> Response | None:
    """DRF exception handler: every known failure becomes ``error_body``; others stay 500."""
    if isinstance(exc, GameError):
        return Response(error_body(exc.code, exc.message, exc.field), status=exc.status)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    if isinstance(exc, exceptions.ParseError):
        return Response(error_body("malformed_json", str(exc.detail)), status=exc.status_code)
    if isinstance(exc, exceptions.ValidationError):
        field, detail = _first_error(exc.detail)
        code = getattr(detail, "code", None) or "invalid"
        return Response(error_body(code, str(detail), field), status=exc.status_code)
    response = exception_handler(exc, context)
    if response is not None and isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
        response.data = error_body(code, str(exc.detail))
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
