"""Django admin of the ratings: read-only (ratings change only when a game finishes)."""

from django.contrib import admin

from games.accounts.models import PlayerRating, RatingChange
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
