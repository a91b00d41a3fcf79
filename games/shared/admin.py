"""Admin pieces shared by the apps."""

from django.http import HttpRequest


class ReadOnlyAdmin:
    """Shown in the admin, never added, changed or deleted there (rows that only services
    write, with their locks and checks)."""

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
