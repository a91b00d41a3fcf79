from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Accounts (spec M5): sign-up, log-in, profiles and the Elo rating."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games.accounts"
    label = "accounts"
    verbose_name = "Accounts and ratings"

    def ready(self) -> None:
        from games.accounts import (
            receivers,  # noqa: F401  (rates games when they finish)
            selectors,
        )
        from games.public import provide_ratings

        provide_ratings(selectors.AccountRatings())
