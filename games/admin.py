"""Django admin of the game models: to look at, never to edit.

Games change only through ``games.services`` (locks, engine checks, pushed events), so the
game pages here are read-only.
"""

from django.contrib import admin

from games.models import Game, Move, Room, Seat
from games.shared.admin import ReadOnlyAdmin


class SeatInline(ReadOnlyAdmin, admin.TabularInline):
    model = Seat
    fields = readonly_fields = (
        "color",
        "kind",
        "level",
        "user",
        "guest_id",
        "absent_since",
    )


class MoveInline(ReadOnlyAdmin, admin.TabularInline):
    model = Move
    fields = readonly_fields = ("ply", "notation", "color", "flipped", "created_at")


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    list_display = ["id", "public_id", "mode", "status", "ply", "created_at", "updated_at"]
    list_filter = ["mode", "status"]
    search_fields = ["public_id"]
    date_hierarchy = "created_at"
    inlines = [SeatInline, MoveInline]


@admin.register(Room)
class RoomAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    list_display = ["code", "game", "owner_user", "rematch", "created_at"]
    list_select_related = ["game", "owner_user", "rematch"]
    search_fields = ["code"]
