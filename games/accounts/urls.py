"""URLs of the account pages (the API view is mounted under ``/api/`` by ``games.api.urls``)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from games.accounts import views

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(
            template_name="accounts/login.html", redirect_authenticated_user=True
        ),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(next_page="setup"), name="logout"),
    path("accounts/profile/", views.own_profile, name="profile"),
    path("players/<str:username>/", views.player_profile, name="player"),
]
