"""URLs of the account pages and of the accounts API (under ``/api/``)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from games.accounts import api, views
from games.shared.throttles import throttled_form

urlpatterns = [
    path("accounts/signup/", throttled_form("auth")(views.signup), name="signup"),
    path(
        "accounts/login/",
        throttled_form("auth")(
            auth_views.LoginView.as_view(
                template_name="accounts/login.html", redirect_authenticated_user=True
            )
        ),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(next_page="setup"), name="logout"),
    path("accounts/profile/", views.own_profile, name="profile"),
    path(
        "accounts/tokens/", throttled_form("auth")(views.create_token), name="profile-token-create"
    ),
    path(
        "accounts/tokens/<int:token_id>/revoke/",
        views.revoke_token,
        name="profile-token-revoke",
    ),
    path("players/<str:username>/", views.player_profile, name="player"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("api/auth/signup/", api.SignupView.as_view(), name="api-signup"),
    path("api/auth/token/", api.TokenView.as_view(), name="api-token"),
    path("api/tokens/", api.TokenListView.as_view(), name="api-tokens"),
    path("api/tokens/<int:token_id>/", api.TokenDetailView.as_view(), name="api-token-detail"),
    path("api/bot/account/upgrade/", api.BotUpgradeView.as_view(), name="api-bot-upgrade"),
    path("api/me/", api.MeView.as_view(), name="api-me"),
    path("api/leaderboard/", api.LeaderboardView.as_view(), name="api-leaderboard"),
    path("api/players/<str:username>/", api.PlayerProfileView.as_view(), name="api-player"),
]
