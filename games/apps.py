from django.apps import AppConfig


class GamesConfig(AppConfig):
    """The game service: games, seats, move records and rooms."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    label = "games"
    verbose_name = "Reversi games"

    def ready(self) -> None:
        from django.urls import register_converter

        from games.shared.ids import PublicIdConverter

        register_converter(PublicIdConverter, "public_id")
        from games import records  # noqa: F401  (answers an account's data download)
        from games.services import departures, guests  # noqa: F401  (connect their receivers)
