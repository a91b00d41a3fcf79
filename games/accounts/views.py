"""Account pages: sign up, log in, log out, the own profile and public player profiles."""

from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from games.accounts import selectors, tokens
from games.accounts.forms import SignupForm, TokenForm
from games.shared.errors import ServiceError


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
    """The signed-in player's own profile, with its access tokens."""
    return _profile_page(request, _account(request))


@login_required
@require_http_methods(["POST"])
def create_token(request: HttpRequest) -> HttpResponse:
    """Make an access token and show its secret, this once, on the profile page."""
    user = _account(request)
    form = TokenForm(request.POST)
    secret = None
    if form.is_valid():
        try:
            _, secret = tokens.issue_token(
                user=user, name=form.cleaned_data["name"], scopes=form.cleaned_data["scopes"]
            )
        except ServiceError as error:
            form.add_error(None, error.message)
    status = 200 if secret else 400
    return _profile_page(request, user, token_form=form, new_secret=secret, status=status)


@login_required
@require_http_methods(["POST"])
def revoke_token(request: HttpRequest, token_id: int) -> HttpResponse:
    """Revoke one of the account's access tokens; back to the profile page."""
    try:
        tokens.revoke_token(user=_account(request), token_id=token_id)
    except ServiceError as error:
        raise Http404 from error
    return redirect("profile")


def _account(request: HttpRequest) -> AbstractBaseUser:
    if not isinstance(request.user, AbstractBaseUser):
        raise PermissionDenied("login_required lets accounts in only")
    return request.user


def player_profile(request: HttpRequest, username: str) -> HttpResponse:
    """Anyone's public profile: rating, results and recent finished games."""
    user = selectors.user_by_username(username)
    if user is None:
        raise Http404
    return _profile_page(request, user)


def _profile_page(
    request: HttpRequest,
    user: AbstractBaseUser,
    *,
    token_form: TokenForm | None = None,
    new_secret: str | None = None,
    status: int = 200,
) -> HttpResponse:
    profile = selectors.player_profile(user)
    own = request.user.is_authenticated and request.user.pk == user.pk
    context = {"profile": profile, "own": own}
    if own:
        context |= {
            "tokens": selectors.tokens_of(user.pk),
            "token_form": TokenForm() if token_form is None or new_secret else token_form,
            "new_secret": new_secret,
        }
    return render(request, "accounts/profile.html", context, status=status)


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
