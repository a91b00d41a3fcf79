"""The API's shared parts: the error envelope ``{"error": {"code", "message", "field"}}``, its
exception handler and schema, the strict input serializer and input validation, and the answers
for unknown addresses and server errors under ``/api/``."""

import logging
import math
import sys
from collections.abc import Mapping
from typing import Any, ClassVar, get_type_hints

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, serializers
from rest_framework.response import Response
from rest_framework.views import exception_handler

from games.shared.errors import MESSAGES, PayloadTooLarge, ServiceError, Unavailable
from games.shared.outages import OUTAGES

ErrorBody = dict[str, dict[str, str | None]]

RETRY_AFTER_OUTAGE = 5  # seconds, the Retry-After of a 503

logger = logging.getLogger(__name__)


def error_body(code: str, message: str, field: str | None = None) -> ErrorBody:
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


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """The API's exception handler (``REST_FRAMEWORK["EXCEPTION_HANDLER"]``).

    Service errors and DRF's own exceptions (Django's 404 and PermissionDenied included) become
    ``error_body`` with their status and headers (``Retry-After``, ``WWW-Authenticate``); a
    body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is a 413; an outage of the database or Redis is a
    503 with ``Retry-After``; anything else propagates (a 500, answered by ``server_error``).
    """
    if isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge("body_too_large", limit=settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    elif isinstance(exc, OUTAGES):
        logger.warning("outage answered 503: %r", exc)
        exc = Unavailable(retry_after=RETRY_AFTER_OUTAGE)
    if isinstance(exc, ServiceError):
        return service_error_response(exc)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    answer = exception_handler(exc, context)  # DRF's status, headers and rollback
    if answer is None or not isinstance(exc, exceptions.APIException):
        return None
    if isinstance(exc, exceptions.ParseError):
        answer.data = error_body("malformed_json", str(exc.detail))
    elif isinstance(exc, exceptions.Throttled):
        seconds = math.ceil(getattr(exc, "wait", None) or 1)
        answer.data = error_body("throttled", str(MESSAGES["throttled"]) % {"seconds": seconds})
        answer["Retry-After"] = str(seconds)
    else:
        field, detail = _first_error(exc.detail)
        code = getattr(detail, "code", None) or exc.default_code
        answer.data = error_body(str(code), str(detail), field)
    return answer


def service_error_response(exc: ServiceError) -> Response:
    """A service error as the envelope, with its status and ``Retry-After`` when it has one."""
    response = Response(error_body(exc.code, exc.message, exc.field), status=exc.status_code)
    retry_after = getattr(exc, "retry_after", None)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
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


class ErrorDetailSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="Machine-readable, e.g. stale_ply, url_not_allowed.")
    message = serializers.CharField(help_text="For people, in the request's language.")
    field = serializers.CharField(allow_null=True, help_text="The input at fault, or null.")


class ErrorSerializer(serializers.Serializer[Any]):
    """Every API error: ``{"error": {"code", "message", "field"}}``."""

    error = ErrorDetailSerializer()


def with_errors(success: Mapping[int, object], *statuses: int) -> dict[int, object]:
    """OpenAPI responses: ``success`` plus the error statuses, all in the error shape."""
    return dict(success) | dict.fromkeys(statuses, ErrorSerializer)


class StrictSerializer(serializers.Serializer[Any]):
    """An input serializer that rejects keys it does not know (a typo must not be ignored)."""

    def to_internal_value(self, data: object) -> Any:
        if isinstance(data, Mapping):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                message = str(MESSAGES["unknown_field"])
                raise serializers.ValidationError(
                    {unknown[0]: [serializers.ErrorDetail(message, code="unknown_field")]}
                )
        return super().to_internal_value(data)


def validated(serializer_class: type[serializers.Serializer[Any]], data: object) -> Any:
    """The serializer's validated data; a ``ValidationError`` (a 400) when the input is bad."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


@csrf_exempt  # nothing is done here, so a POST needs no CSRF token to learn that
def unknown_endpoint(request: HttpRequest, path: str = "") -> JsonResponse:
    """``/api`` and any other address under ``/api/``: a JSON 404 (not the HTML page, not a
    slash redirect, not the CSRF page for a POST)."""
    message = gettext("No API endpoint here; API addresses end with a slash.")
    return JsonResponse(error_body("not_found", message), status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    """The site's ``handler500``: under ``/api/`` the envelope (503 with ``Retry-After`` for an
    outage, else 500), elsewhere Django's page. Errors of a DRF view never reach it (its
    exception handler answers outages); this covers the rest (middleware, plain views)."""
    if not request.path.startswith("/api/"):
        return defaults.server_error(request)
    error = sys.exc_info()[1]
    if isinstance(error, OUTAGES):
        unavailable = Unavailable(retry_after=RETRY_AFTER_OUTAGE)
        response = JsonResponse(error_body(unavailable.code, unavailable.message), status=503)
        response["Retry-After"] = str(RETRY_AFTER_OUTAGE)
        return response
    failure = ServiceError("server_error")
    return JsonResponse(error_body(failure.code, failure.message), status=500)


class ShapeSerializer(serializers.Serializer[Any]):
    """An output serializer that documents a typed shape (``shape``, a ``TypedDict``) in the
    schema: its fields must be exactly the shape's keys, or the class cannot be defined."""

    shape: ClassVar[type]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields = set(cls._declared_fields)
        keys = set(get_type_hints(cls.shape))
        if fields != keys:
            raise TypeError(
                f"{cls.__name__} does not match {cls.shape.__name__}: "
                f"missing {sorted(keys - fields)}, extra {sorted(fields - keys)}"
            )
