"""The API's default permission (``REST_FRAMEWORK["DEFAULT_PERMISSION_CLASSES"]``)."""

from rest_framework import exceptions, permissions
from rest_framework.authentication import SessionAuthentication
from rest_framework.request import Request

from games.shared.errors import Forbidden


class GuestWritesNeedCsrf(permissions.BasePermission):
    """The API's default permission: a write without an account (a guest, whose identity is
    the session cookie) must carry the CSRF token, as a signed-in session's write does
    (``SessionAuthentication``); a refusal is 403 ``csrf_failed``. Token clients send no
    cookie and are accounts."""

    def has_permission(self, request: Request, view: object) -> bool:
        if request.method in permissions.SAFE_METHODS or request.user.is_authenticated:
            return True
        try:
            SessionAuthentication().enforce_csrf(request)
        except exceptions.PermissionDenied as error:
            raise Forbidden("csrf_failed") from error
        return True
