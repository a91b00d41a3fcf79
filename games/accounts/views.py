"""Account pages: sign up, log in, log out, the own profile and public player profiles; the
account's e-mail address, its data download and its deletion (issue 14 §7)."""

import json

from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser, User
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from games.accounts import emails, personal_data, selectors, tokens
from games.accounts.forms import DeleteAccountForm, EmailForm, SignupForm, TokenForm
from games.shared.errors import ServiceError

# The rating classes as the pages name them (addresses and the API keep the codes).
RATING_CLASS_LABELS = {
    "bullet": pgettext_lazy("rating class", "Bullet"),
    "blitz": pgettext_lazy("rating class", "Blitz"),
    "rapid": pgettext_lazy("rating class", "Rapid"),
    "classical": pgettext_lazy("rating class", "Classical"),
    "correspondence": pgettext_lazy("rating class", "Correspondence"),
    "untimed": pgettext_lazy("rating class", "Untimed"),
    "tables": pgettext_lazy("rating class", "3-4 players"),
}


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and log this browser in (its guest games move to the account); an
    address given is mailed its verification link."""
    if request.user.is_authenticated:
        return redirect("profile")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                user = form.save()
        except IntegrityError:  # the same name, in any case, signed up since the form's check
            form.add_error("username", form.instance.unique_error_message(User, ["username"]))
            return render(request, "accounts/signup.html", {"form": form})
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        if emails.email_of(user):
            sent = emails.change_email(user=user, email=emails.email_of(user), request=request)
            _verification_sent(request, user, sent=sent)
        return redirect("profile")
    return render(request, "accounts/signup.html", {"form": form})


@login_required
def own_profile(request: HttpRequest) -> HttpResponse:
    """The signed-in player's own profile, with the account's settings and access tokens."""
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
    ratings = [
        (rating, RATING_CLASS_LABELS[rating["rating_class"]]) for rating in profile["ratings"]
    ]
    context = {"profile": profile, "ratings": ratings, "own": own}
    if own:
        context["email"] = emails.email_of(user)
        context["email_verified"] = emails.is_verified(user)
        context |= {
            "tokens": selectors.tokens_of(user.pk),
            "token_form": TokenForm() if token_form is None or new_secret else token_form,
            "new_secret": new_secret,
        }
    return render(request, "accounts/profile.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def change_email(request: HttpRequest) -> HttpResponse:
    """Set, change or remove the account's address; a new one is mailed its link."""
    user = _account(request)
    form = EmailForm(request.POST or None, instance=user)
    if request.method == "POST" and form.is_valid():
        if emails.change_email(user=user, email=form.cleaned_data["email"], request=request):
            _verification_sent(request, user, sent=True)
        elif form.cleaned_data["email"] and not emails.is_verified(user):
            _verification_sent(request, user, sent=False)
        return redirect("profile")
    return render(request, "accounts/email.html", {"form": form})


@login_required
@require_POST
def resend_verification(request: HttpRequest) -> HttpResponse:
    """Mail the account's address a new verification link."""
    user = _account(request)
    try:
        emails.send_verification(user=user, request=request)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        _verification_sent(request, user, sent=True)
    return redirect("profile")


def verify_email(request: HttpRequest, token: str) -> HttpResponse:
    """Follow a verification link: the address it was sent to is verified."""
    try:
        emails.verify_email(token)
    except ServiceError as error:
        return render(request, "accounts/email_verified.html", {"error": error.message}, status=400)
    return render(request, "accounts/email_verified.html", {"error": None})


@login_required
def download_data(request: HttpRequest) -> HttpResponse:
    """Everything the site keeps of the account, as a JSON file."""
    user = _account(request)
    data = personal_data.account_data(user)
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False, indent=1, default=str),
        content_type="application/json",
    )
    filename = f"reversi-account-{user.get_username()}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def delete_account(request: HttpRequest) -> HttpResponse:
    """Delete the account, after its password (its finished games stay, anonymised)."""
    user = _account(request)
    form = DeleteAccountForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            personal_data.delete_account(user=user, password=form.cleaned_data["password"])
        except ServiceError as error:
            form.add_error("password" if error.field == "password" else None, error.message)
        else:
            logout(request)
            messages.success(request, _("Your account has been deleted."))
            return redirect("setup")
    return render(request, "accounts/delete.html", {"form": form})


def leaderboard(request: HttpRequest) -> HttpResponse:
    """The leaderboard of one rating class (``?rating_class=``; the main class by default)."""
    rating_class = request.GET.get("rating_class", selectors.MAIN_CLASS)
    if rating_class not in selectors.RATING_CLASSES:
        raise Http404
    context = {
        "rating_class": rating_class,
        "classes": [(name, RATING_CLASS_LABELS[name]) for name in selectors.RATING_CLASSES],
        "players": selectors.leaderboard(rating_class),
    }
    return render(request, "accounts/leaderboard.html", context)


def _account(request: HttpRequest) -> User:
    if not isinstance(request.user, User):
        raise PermissionDenied("login_required lets accounts in only")
    return request.user


def _verification_sent(request: HttpRequest, user: AbstractBaseUser, *, sent: bool) -> None:
    if sent:
        messages.success(
            request,
            _("We sent a link to %(email)s: follow it to verify the address.")
            % {"email": emails.email_of(user)},
        )
    else:
        messages.error(
            request,
            _(
                "The verification mail could not be sent just now: send it again from your "
                "profile in a few minutes."
            ),
        )
