"""URLs of the account pages and of the accounts API (under ``/api/``)."""

from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from games.accounts import api, views
from games.accounts.forms import VerifiedEmailPasswordResetForm
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
    path("accounts/email/", throttled_form("mail")(views.change_email), name="change-email"),
    path(
        "accounts/email/resend/",
        throttled_form("mail")(views.resend_verification),
        name="resend-verification",
    ),
    path("accounts/email/verify/<str:token>/", views.verify_email, name="verify-email"),
    path("accounts/data/", views.download_data, name="account-data"),
    path("accounts/delete/", throttled_form("auth")(views.delete_account), name="delete-account"),
    # Django's own password views (issue 14 §7), with the site's templates; the reset link is
    # mailed to verified addresses only.
    path(
        "accounts/password/change/",
        throttled_form("auth")(
            auth_views.PasswordChangeView.as_view(
                template_name="accounts/password_change_form.html",
                success_url=reverse_lazy("password_change_done"),
            )
        ),
        name="password_change",
    ),
    path(
        "accounts/password/change/done/",
        auth_views.PasswordChangeDoneView.as_view(
            template_name="accounts/password_change_done.html"
        ),
        name="password_change_done",
    ),
    path(
        "accounts/password/reset/",
        throttled_form("mail")(
            auth_views.PasswordResetView.as_view(
                form_class=VerifiedEmailPasswordResetForm,
                template_name="accounts/password_reset_form.html",
                email_template_name="accounts/password_reset_email.txt",
                subject_template_name="accounts/password_reset_subject.txt",
                success_url=reverse_lazy("password_reset_done"),
            )
        ),
        name="password_reset",
    ),
    path(
        "accounts/password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(template_name="accounts/password_reset_done.html"),
        name="password_reset_done",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        throttled_form("auth")(
            auth_views.PasswordResetConfirmView.as_view(
                template_name="accounts/password_reset_confirm.html",
                success_url=reverse_lazy("password_reset_complete"),
            )
        ),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="accounts/password_reset_complete.html"
        ),
        name="password_reset_complete",
    ),
    path("api/auth/signup/", api.SignupView.as_view(), name="api-signup"),
    path("api/auth/token/", api.TokenView.as_view(), name="api-token"),
    path("api/auth/password-reset/", api.PasswordResetView.as_view(), name="api-password-reset"),
    path("api/tokens/", api.TokenListView.as_view(), name="api-tokens"),
    path("api/tokens/<int:token_id>/", api.TokenDetailView.as_view(), name="api-token-detail"),
    path("api/bot/account/upgrade/", api.BotUpgradeView.as_view(), name="api-bot-upgrade"),
    path("api/me/", api.MeView.as_view(), name="api-me"),
    path("api/me/email/", api.EmailView.as_view(), name="api-me-email"),
    path(
        "api/me/email/verification/",
        api.EmailVerificationView.as_view(),
        name="api-me-email-verification",
    ),
    path("api/me/password/", api.PasswordChangeView.as_view(), name="api-me-password"),
    path("api/me/data/", api.AccountDataView.as_view(), name="api-me-data"),
    path("api/me/delete/", api.DeleteAccountView.as_view(), name="api-me-delete"),
    path("api/leaderboard/", api.LeaderboardView.as_view(), name="api-leaderboard"),
    path("api/players/<str:username>/", api.PlayerProfileView.as_view(), name="api-player"),
]
