"""Account pages: sign up, log in, log out, the own profile and public player profiles."""

from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from games.accounts import selectors
from games.accounts.forms import SignupForm


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and log this browser in (its guest games move to the account)."""
    if request.user.is_authenticated:
        return redirect("profile")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("profile")
    return render(request, "accounts/signup.html", {"form": form})


@login_required
def own_profile(request: HttpRequest) -> HttpResponse:
    """The signed-in player's own profile."""
    if not isinstance(request.user, AbstractBaseUser):
        raise PermissionDenied("login_required lets accounts in only")
    return _profile_page(request, request.user)


def player_profile(request: HttpRequest, username: str) -> HttpResponse:
    """Anyone's public profile: rating, results and recent finished games."""
    user = selectors.user_by_username(username)
    if user is None:
        raise Http404
    return _profile_page(request, user)


def _profile_page(request: HttpRequest, user: AbstractBaseUser) -> HttpResponse:
    profile = selectors.player_profile(user)
    own = request.user.is_authenticated and request.user.pk == user.pk
    return render(request, "accounts/profile.html", {"profile": profile, "own": own})


def leaderboard(request: HttpRequest) -> HttpResponse:
    """The leaderboard of one rating class (``?rating_class=``; the main class by default)."""
    rating_class = request.GET.get("rating_class", selectors.MAIN_CLASS)
    if rating_class not in selectors.RATING_CLASSES:
        raise Http404
    context = {
        "rating_class": rating_class,
        "classes": selectors.RATING_CLASSES,
        "players": selectors.leaderboard(rating_class),
    }
    return render(request, "accounts/leaderboard.html", context)
