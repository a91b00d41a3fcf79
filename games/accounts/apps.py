from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Accounts (spec M5): sign-up, log-in, profiles, ratings, bots and access tokens."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games.accounts"
    label = "accounts"
    verbose_name = "Accounts and ratings"

    def ready(self) -> None:
        from games.accounts import (
            bots,
            receivers,  # noqa: F401  (rates games when they finish)
            selectors,
        )
        from games.public import provide_bots, provide_ratings

        provide_ratings(selectors.AccountRatings())
        provide_bots(bots.bot_ids)
