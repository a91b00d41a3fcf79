"""Django admin of the ratings (read-only: they change only when a game finishes), bot accounts
(read-only) and access tokens (listed without secrets, which are not kept; staff may revoke
one by deleting it)."""

from django.contrib import admin
from django.http import HttpRequest

from games.accounts.models import AccessToken, BotAccount, PlayerRating, RatingChange
from games.shared.admin import ReadOnlyAdmin


@admin.register(PlayerRating)
class PlayerRatingAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    list_display = [
        "user",
        "pool",
        "rating",
        "deviation",
        "played",
        "won",
        "lost",
        "drawn",
        "updated_at",
    ]
    search_fields = ["user__username"]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    list_display = ["game", "user", "rating_before", "rating_after", "score", "created_at"]
    search_fields = ["user__username"]


@admin.register(BotAccount)
class BotAccountAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    list_display = ["user", "created_at"]
    search_fields = ["user__username"]


@admin.register(AccessToken)
class AccessTokenAdmin(admin.ModelAdmin):
    list_display = ["user", "name", "prefix", "scopes", "created_at", "last_used_at"]
    search_fields = ["user__username", "name", "prefix"]
    exclude = ["key_hash"]

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # made by their owners only: a secret is shown to nobody else

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
