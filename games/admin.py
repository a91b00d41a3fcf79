"""Django admin: the game models (to look at, never to edit) and the community models.

Games change only through ``games.services`` (locks, engine checks, pushed events), so the
game pages here are read-only.
"""

from django.contrib import admin
from django.http import HttpRequest

from games.accounts.models import PlayerRating, RatingChange
from games.community import admin as community_admin  # noqa: F401
from games.models import Game, Move, Room, Seat


class ReadOnlyAdmin:
    """Shown in the admin, never added, changed or deleted there."""

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class SeatInline(ReadOnlyAdmin, admin.TabularInline):
    model = Seat
    fields = ["color", "kind", "level", "user", "guest_id", "connections", "absent_since"]
    readonly_fields = fields


class MoveInline(ReadOnlyAdmin, admin.TabularInline):
    model = Move
    fields = ["ply", "notation", "color", "flipped", "created_at"]
    readonly_fields = fields


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    list_display = ["id", "mode", "status", "ply", "created_at", "updated_at"]
    list_filter = ["mode", "status"]
    date_hierarchy = "created_at"
    inlines = [SeatInline, MoveInline]


@admin.register(Room)
class RoomAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    list_display = ["code", "game", "owner_user", "rematch", "created_at"]
    list_select_related = ["game", "owner_user", "rematch"]
    search_fields = ["code"]


@admin.register(PlayerRating)
class PlayerRatingAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    list_display = ["user", "rating", "played", "won", "lost", "drawn", "updated_at"]
    search_fields = ["user__username"]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    list_display = ["game", "user", "rating_before", "rating_after", "score", "created_at"]
    search_fields = ["user__username"]
