"""The API's default permission (``REST_FRAMEWORK["DEFAULT_PERMISSION_CLASSES"]``) and session
authentication (``DEFAULT_AUTHENTICATION_CLASSES``): one CSRF refusal for guests and accounts."""

from rest_framework import exceptions, permissions
from rest_framework.authentication import SessionAuthentication
from rest_framework.request import Request

from games.shared.errors import MESSAGES, Forbidden


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


class TokenScopes(permissions.BasePermission):
    """A request made with an access token (``request.auth`` has ``allows(scope)``) needs its
    scope: "read" to read, the view's ``write_scope`` ("play" unless it names another) to write;
    a view whose ``write_scope`` is None takes no token at all (managing tokens). Refused with
    403 ``token_scope``. Sessions are not limited."""

    def has_permission(self, request: Request, view: object) -> bool:
        token = request.auth
        if not hasattr(token, "allows"):
            return True
        scope = required_scope(request.method or "GET", view)
        if scope is None:
            raise Forbidden("token_not_allowed")
        if not token.allows(scope):
            raise Forbidden("token_scope", scope=scope)
        return True


def required_scope(method: str, view: object) -> str | None:
    """The token scope a request of ``method`` to ``view`` needs (None: no token may)."""
    if method in permissions.SAFE_METHODS:
        return READ_SCOPE
    return getattr(view, "write_scope", PLAY_SCOPE)


READ_SCOPE = "read"
PLAY_SCOPE = "play"
