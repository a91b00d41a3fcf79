"""The API's default permission (``REST_FRAMEWORK["DEFAULT_PERMISSION_CLASSES"]``) and session
authentication (``DEFAULT_AUTHENTICATION_CLASSES``): one CSRF refusal for guests and accounts."""

from rest_framework import exceptions, permissions
from rest_framework.authentication import SessionAuthentication
from rest_framework.request import Request

from games.shared.errors import MESSAGES


class CsrfSessionAuthentication(SessionAuthentication):
    """DRF's session authentication whose CSRF refusal is the API's 403 ``csrf_failed`` in the
    client's language (DRF's own is ``permission_denied``, "CSRF Failed: ...", in English)."""

    def enforce_csrf(self, request: Request) -> None:
        try:
            super().enforce_csrf(request)
        except exceptions.PermissionDenied as error:
            raise exceptions.PermissionDenied(
                str(MESSAGES["csrf_failed"]), code="csrf_failed"
            ) from error


class GuestWritesNeedCsrf(permissions.BasePermission):
    """The API's default permission: a write without an account (a guest, whose identity is
    the session cookie) must carry the CSRF token, as a signed-in session's write does
    (``CsrfSessionAuthentication``); a refusal is 403 ``csrf_failed``. Token clients send no
    cookie and are accounts."""

    def has_permission(self, request: Request, view: object) -> bool:
        if request.method not in permissions.SAFE_METHODS and not request.user.is_authenticated:
            enforce_csrf(request)
        return True


def enforce_csrf(request: Request) -> None:
    """Django's CSRF check of a request; 403 ``csrf_failed`` when the token is missing or
    wrong."""
    CsrfSessionAuthentication().enforce_csrf(request)
