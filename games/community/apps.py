from django.apps import AppConfig


class CommunityConfig(AppConfig):
    """The community (spec C1-C5): counters, ratings, comments, bug reports, moderation."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games.community"
    label = "community"
    verbose_name = "Community"

    def ready(self) -> None:
        from games.community import receivers  # noqa: F401  (an account's data and deletion)
