"""The API schema's view inspector (``REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"]``): drf-spectacular's,
plus the 429 answer (rate, ``Retry-After``) of every throttled write, and the session cookie
scheme of the API's own session authentication."""

from typing import Any, Literal, cast

from drf_spectacular.authentication import SessionScheme
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework.permissions import SAFE_METHODS
from rest_framework.settings import api_settings

from games.shared.api import ErrorSerializer
from games.shared.throttles import WriteRateThrottle, scope_of


class CsrfSessionScheme(SessionScheme):
    """``games.shared.permissions.CsrfSessionAuthentication`` is the session cookie scheme."""

    target_class = "games.shared.permissions.CsrfSessionAuthentication"


class ThrottledWritesSchema(AutoSchema):
    """Documents each write's throttle: a 429 in the error shape, with its rate and the
    ``Retry-After`` header."""

    def _throttle_rate(self) -> str | None:
        if self.method in SAFE_METHODS:
            return None
        classes = getattr(self.view, "throttle_classes", ())
        if not any(issubclass(cls, WriteRateThrottle) for cls in classes):
            return None
        return cast(str, api_settings.DEFAULT_THROTTLE_RATES[scope_of(self.view)])

    def get_override_parameters(self) -> list[Any]:
        parameters: list[Any] = super().get_override_parameters()
        if self._throttle_rate() is None:
            return parameters
        retry_after = OpenApiParameter(
            "Retry-After",
            int,
            OpenApiParameter.HEADER,
            response=[429],
            description="Seconds to wait before sending again.",
        )
        return [*parameters, retry_after]

    def _get_response_bodies(
        self, direction: Literal["request", "response"] = "response"
    ) -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        rate = self._throttle_rate()
        if rate is not None:
            description = (
                f"Too many requests: at most {rate} per account (per client address for "
                "guests), code `throttled`; or the endpoint's own limit."
            )
            answer = OpenApiResponse(ErrorSerializer, description=description)
            responses["429"] = self._get_response_for_code(answer, "429", direction=direction)
        return responses
