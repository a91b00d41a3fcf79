from django.apps import AppConfig


class GamesConfig(AppConfig):
    """The game service: games, seats, move records and rooms."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    label = "games"
    verbose_name = "Reversi games"

    def ready(self) -> None:
        from games.services import guests  # noqa: F401  (connects the log-in receiver)
