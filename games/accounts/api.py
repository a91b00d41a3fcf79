"""API of accounts: sign-up, access tokens, bot accounts, who you are, a player's public
profile; the account's e-mail address, password, data download and deletion (issue 14 §7)."""

from django.contrib.auth import (
    authenticate,
    get_user_model,
    login,
    password_validation,
    update_session_auth_hash,
)
from django.contrib.auth.models import AbstractBaseUser, User
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.accounts import bots, emails, personal_data, selectors, tokens
from games.accounts.forms import VerifiedEmailPasswordResetForm
from games.accounts.models import AccessToken
from games.public import GUEST_SESSION_KEY
from games.shared.api import StrictSerializer, validated, with_errors
from games.shared.errors import NotFound, ServiceError, Unauthenticated
from games.shared.permissions import enforce_csrf

GAME_COUNTS_SCHEMA = inline_serializer(
    "PlayerGameCounts",
    {
        "played": serializers.IntegerField(help_text="rated games"),
        "won": serializers.IntegerField(),
        "lost": serializers.IntegerField(),
        "drawn": serializers.IntegerField(),
    },
)
PROFILE_SCHEMA = inline_serializer(
    "PlayerProfile",
    {
        "username": serializers.CharField(),
        "bot": serializers.BooleanField(help_text="a bot account (shown BOT)"),
        "rating": serializers.IntegerField(
            help_text="the untimed class's Glicko-2 rating (everyone starts at 1500)"
        ),
        "provisional": serializers.BooleanField(help_text="the deviation is still above 110"),
        "ratings": inline_serializer(
            "PlayerClassRating",
            {
                "rating_class": serializers.ChoiceField(selectors.RATING_CLASSES),
                "rating": serializers.IntegerField(),
                "deviation": serializers.IntegerField(help_text="Glicko-2 RD or OpenSkill sigma"),
                "provisional": serializers.BooleanField(),
                "games": GAME_COUNTS_SCHEMA,
            },
            many=True,
        ),
        "games": GAME_COUNTS_SCHEMA,
        "recent_games": inline_serializer(
            "PlayerRecentGame",
            {
                "id": serializers.CharField(help_text="the game's public id"),
                "url": serializers.CharField(),
                "mode": serializers.ChoiceField(["cpu", "local", "room"]),
                "players": serializers.IntegerField(),
                "colors": serializers.ListField(child=serializers.CharField()),
                "opponents": serializers.ListField(child=serializers.CharField()),
                "outcome": serializers.ChoiceField(
                    ["win", "loss", "draw"], allow_null=True, help_text="null: hot-seat"
                ),
                "finished_at": serializers.DateTimeField(),
                "rating_change": serializers.IntegerField(allow_null=True),
            },
            many=True,
        ),
    },
)


class CredentialsSerializer(StrictSerializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, style={"input_type": "password"})


class TokenTermsSerializer(StrictSerializer):
    name = serializers.CharField(max_length=100, default="API token")
    scopes = serializers.MultipleChoiceField(
        choices=AccessToken.SCOPES, default=set(AccessToken.SCOPES)
    )


class TokenRequestSerializer(CredentialsSerializer, TokenTermsSerializer):
    pass


class SignupSerializer(CredentialsSerializer):
    email = serializers.EmailField(
        required=False, allow_blank=True, help_text="optional; mailed a link to verify it"
    )
    bot = serializers.BooleanField(default=False, help_text="a bot account (plays via the API)")

    def validate_username(self, value: str) -> str:
        """The account model's own username rules (letters, digits and @ . + - _)."""
        get_user_model()._meta.get_field("username").run_validators(value)
        return value


class SignupView(APIView):
    """Create an account (a bot account with ``"bot": true``); answers an access token with
    every scope.

    A browser that has played as a guest is signed in to the new account, which takes over its
    games (``games.services.guests.claim_games_on_login``), so it plays on in the same browser.
    """

    authentication_classes: list = []
    permission_classes: list = []
    throttle_scope = "auth"

    @extend_schema(
        request=SignupSerializer, responses=with_errors({201: OpenApiTypes.OBJECT}, 400, 403)
    )
    def post(self, request: Request) -> Response:
        data = validated(SignupSerializer, request.data)
        guest = bool(request.session.get(GUEST_SESSION_KEY))
        if guest:
            enforce_csrf(request)
        user_model = get_user_model()
        # Names differing only in case are one name, as the sign-up page (Django's form) says.
        if user_model.objects.filter(username__iexact=data["username"]).exists():
            raise ServiceError("username_taken", field="username")
        candidate = user_model(username=data["username"])
        _check_password_strength(data["password"], candidate)
        try:
            with transaction.atomic():
                user = user_model.objects.create_user(data["username"], password=data["password"])
                if data["bot"]:
                    bots.upgrade_to_bot(user=user)
        except IntegrityError as error:
            raise ServiceError("username_taken", field="username") from error
        if guest:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        sent = bool(data.get("email")) and emails.change_email(
            user=user, email=data["email"], request=request._request
        )
        _, secret = tokens.issue_token(user=user, name="sign-up")
        return Response(
            {
                "token": secret,
                "user": {"id": user.pk, "username": user.username, "bot": data["bot"]},
                "email_sent": sent,
            },
            status=status.HTTP_201_CREATED,
        )


TOKEN_LIST_SCHEMA = inline_serializer(
    "AccessToken",
    many=True,
    fields={
        "id": serializers.IntegerField(),
        "name": serializers.CharField(),
        "prefix": serializers.CharField(help_text="the secret's first characters"),
        "scopes": serializers.ListField(child=serializers.ChoiceField(AccessToken.SCOPES)),
        "created_at": serializers.DateTimeField(),
        "last_used_at": serializers.DateTimeField(allow_null=True),
    },
)
NEW_TOKEN_SCHEMA = inline_serializer(
    "NewAccessToken",
    {
        "token": serializers.CharField(help_text="the secret, shown this once"),
        "id": serializers.IntegerField(),
        "name": serializers.CharField(),
        "scopes": serializers.ListField(child=serializers.ChoiceField(AccessToken.SCOPES)),
    },
)


def _new_token(user: AbstractBaseUser, terms: dict, *, answer_status: int) -> Response:
    token, secret = tokens.issue_token(user=user, name=terms["name"], scopes=terms["scopes"])
    return Response(
        {"token": secret, "id": token.pk, "name": token.name, "scopes": token.scopes},
        status=answer_status,
    )


class TokenView(APIView):
    """Exchange a username and password for a new access token (``name`` and ``scopes``
    optional: "API token" with every scope)."""

    authentication_classes: list = []
    permission_classes: list = []
    throttle_scope = "auth"

    @extend_schema(
        request=TokenRequestSerializer, responses=with_errors({200: NEW_TOKEN_SCHEMA}, 400, 409)
    )
    def post(self, request: Request) -> Response:
        data = validated(TokenRequestSerializer, request.data)
        # Django's request: django-axes marks a locked-out login on it, and its middleware
        # answers 429 (games.accounts.lockout).
        user = authenticate(request._request, username=data["username"], password=data["password"])
        if user is None:
            raise ServiceError("invalid_credentials")
        return _new_token(user, data, answer_status=status.HTTP_200_OK)  # 200 as it always was


class TokenListView(APIView):
    """``GET``: your access tokens (never their secrets); ``POST``: a new one, from a signed-in
    browser (no token makes tokens)."""

    write_scope = None
    throttle_scope = "auth"

    @extend_schema(responses=with_errors({200: TOKEN_LIST_SCHEMA}, 401, 403))
    def get(self, request: Request) -> Response:
        return Response(selectors.tokens_of(_signed_in(request).pk))

    @extend_schema(
        request=TokenTermsSerializer,
        responses=with_errors({201: NEW_TOKEN_SCHEMA}, 400, 401, 403, 409),
    )
    def post(self, request: Request) -> Response:
        user = _signed_in(request)
        terms = validated(TokenTermsSerializer, request.data)
        return _new_token(user, terms, answer_status=status.HTTP_201_CREATED)


class TokenDetailView(APIView):
    """``DELETE``: revoke one of your access tokens at once (from a signed-in browser)."""

    write_scope = None

    @extend_schema(request=None, responses=with_errors({204: None}, 401, 403, 404))
    def delete(self, request: Request, token_id: int) -> Response:
        tokens.revoke_token(user=_signed_in(request), token_id=token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class BotUpgradeView(APIView):
    """Make your account a bot (lichess's ``/api/bot/account/upgrade``): only before it has
    played; a bot then meets people by challenge only."""

    write_scope = "play"

    @extend_schema(request=None, responses=with_errors({200: OpenApiTypes.OBJECT}, 401, 403, 409))
    def post(self, request: Request) -> Response:
        user = _signed_in(request)
        bots.upgrade_to_bot(user=user)
        return Response({"username": user.get_username(), "bot": True})


def _signed_in(request: Request) -> AbstractBaseUser:
    if not isinstance(request.user, AbstractBaseUser):
        raise Unauthenticated("not_signed_in")
    return request.user


LEADERBOARD_SCHEMA = inline_serializer(
    "Leaderboard",
    {
        "rating_class": serializers.ChoiceField(selectors.RATING_CLASSES),
        "classes": serializers.ListField(child=serializers.CharField()),
        "players": inline_serializer(
            "LeaderboardEntry",
            {
                "rank": serializers.IntegerField(),
                "username": serializers.CharField(),
                "url": serializers.CharField(),
                "rating": serializers.IntegerField(),
                "deviation": serializers.IntegerField(),
                "provisional": serializers.BooleanField(
                    help_text="listed after every established rating"
                ),
                "played": serializers.IntegerField(),
            },
            many=True,
        ),
    },
)


class LeaderboardQuerySerializer(StrictSerializer):
    rating_class = serializers.ChoiceField(
        choices=selectors.RATING_CLASSES, default=selectors.MAIN_CLASS
    )


class LeaderboardView(APIView):
    """The best-rated players of one class (``?rating_class=blitz``; 2-player time classes,
    or ``tables`` for 3-4 players)."""

    @extend_schema(
        parameters=[LeaderboardQuerySerializer],
        responses=with_errors({200: LEADERBOARD_SCHEMA}, 400),
    )
    def get(self, request: Request) -> Response:
        query = validated(LeaderboardQuerySerializer, request.query_params.dict())
        rating_class = query["rating_class"]
        return Response(
            {
                "rating_class": rating_class,
                "classes": list(selectors.RATING_CLASSES),
                "players": selectors.leaderboard(rating_class),
            }
        )


class MeView(APIView):
    """Who the request is: an account (with its e-mail address and whether it is verified) or
    a guest."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request) -> Response:
        if isinstance(request.user, AbstractBaseUser):
            user = request.user
            return Response(
                {
                    "guest": False,
                    "id": user.pk,
                    "username": user.get_username(),
                    "bot": bots.is_bot(user.pk),
                    "rating": selectors.rating_of(user.pk),
                    "email": emails.email_of(user),
                    "email_verified": emails.is_verified(user),
                }
            )
        return Response({"guest": True, "id": None, "username": None, "bot": False, "rating": None})


EMAIL_STATE_SCHEMA = inline_serializer(
    "EmailState",
    {
        "email": serializers.EmailField(allow_blank=True),
        "email_verified": serializers.BooleanField(),
        "email_sent": serializers.BooleanField(
            help_text="a verification link was queued to be mailed now (false: none was needed, "
            "or the address has had its share of mails this hour: send it again later)"
        ),
    },
)


class EmailSerializer(StrictSerializer):
    email = serializers.EmailField(allow_blank=True, help_text='"" removes the address')


class PasswordResetSerializer(StrictSerializer):
    email = serializers.EmailField(help_text="the account's verified address")


class PasswordSerializer(StrictSerializer):
    password = serializers.CharField(max_length=128, style={"input_type": "password"})


class PasswordChangeSerializer(StrictSerializer):
    old_password = serializers.CharField(max_length=128, style={"input_type": "password"})
    new_password = serializers.CharField(max_length=128, style={"input_type": "password"})


class AccountView(APIView):
    """An endpoint of the signed-in account (a guest gets 403). The API's default permissions
    still hold: an access token reads it with the "read" scope and changes it with "play"."""

    permission_classes = [*APIView.permission_classes, IsAuthenticated]

    def account(self, request: Request) -> User:
        if not isinstance(request.user, User):
            raise NotAuthenticated()
        return request.user


class EmailView(AccountView):
    """Set, change or remove (``""``) the account's e-mail address; a new address is mailed a
    link that verifies it. No access token may (``write_scope = None``): the address receives
    the password reset links, so a leaked token would take the whole account over."""

    write_scope = None
    throttle_scope = "mail"

    @extend_schema(
        request=EmailSerializer, responses=with_errors({200: EMAIL_STATE_SCHEMA}, 400, 403)
    )
    def post(self, request: Request) -> Response:
        user = self.account(request)
        data = validated(EmailSerializer, request.data)
        sent = emails.change_email(user=user, email=data["email"], request=request._request)
        return Response(_email_state(user, sent=sent))


class EmailVerificationView(AccountView):
    """Mail the account's address a new verification link."""

    throttle_scope = "mail"

    @extend_schema(request=None, responses=with_errors({202: EMAIL_STATE_SCHEMA}, 400, 403, 409))
    def post(self, request: Request) -> Response:
        user = self.account(request)
        emails.send_verification(user=user, request=request._request)
        return Response(_email_state(user, sent=True), status=status.HTTP_202_ACCEPTED)


class PasswordResetView(APIView):
    """Mail a password-reset link to the accounts whose verified address this is (Django's
    reset form and link); the answer is the same whether there is one or not."""

    authentication_classes: list = []
    permission_classes: list = []
    throttle_scope = "mail"

    @extend_schema(request=PasswordResetSerializer, responses=with_errors({202: None}, 400))
    def post(self, request: Request) -> Response:
        data = validated(PasswordResetSerializer, request.data)
        form = VerifiedEmailPasswordResetForm({"email": data["email"]})
        form.full_clean()  # the serializer has checked the address
        form.save(
            request=request._request,
            use_https=request.is_secure(),
            email_template_name="accounts/password_reset_email.txt",
            subject_template_name="accounts/password_reset_subject.txt",
        )
        return Response(status=status.HTTP_202_ACCEPTED)


class PasswordChangeView(AccountView):
    """Change the account's password (the old one first); the API token stays valid."""

    throttle_scope = "auth"

    @extend_schema(request=PasswordChangeSerializer, responses=with_errors({204: None}, 400, 403))
    def post(self, request: Request) -> Response:
        user = self.account(request)
        data = validated(PasswordChangeSerializer, request.data)
        if not user.check_password(data["old_password"]):
            raise ServiceError("wrong_password", field="old_password")
        _check_password_strength(data["new_password"], user, field="new_password")
        user.set_password(data["new_password"])
        user.save(update_fields=["password"])
        update_session_auth_hash(request._request, user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class AccountDataView(AccountView):
    """Everything the site keeps of the account (profile, ratings, games with their records,
    comments), as one JSON document."""

    @extend_schema(responses=with_errors({200: OpenApiTypes.OBJECT}, 403))
    def get(self, request: Request) -> Response:
        return Response(personal_data.account_data(self.account(request)))


class DeleteAccountView(AccountView):
    """Delete the account (its password again): its finished games stay, their seats shown as
    a deleted player; its comments stay, anonymised. Refused (409) while it has games in
    progress."""

    throttle_scope = "auth"

    @extend_schema(request=PasswordSerializer, responses=with_errors({204: None}, 400, 403, 409))
    def post(self, request: Request) -> Response:
        user = self.account(request)
        data = validated(PasswordSerializer, request.data)
        personal_data.delete_account(user=user, password=data["password"])
        return Response(status=status.HTTP_204_NO_CONTENT)


def _email_state(user: AbstractBaseUser, *, sent: bool) -> dict[str, object]:
    return {
        "email": emails.email_of(user),
        "email_verified": emails.is_verified(user),
        "email_sent": sent,
    }


def _check_password_strength(password: str, user: User, *, field: str = "password") -> None:
    """Django's password validators; a weak password is a 400 naming ``field``."""
    try:
        password_validation.validate_password(password, user)
    except DjangoValidationError as error:
        raise ServiceError(
            "weak_password", field=field, reasons=" ".join(error.messages)
        ) from error


class PlayerProfileView(APIView):
    """A player's public profile: rating, rated-game counts and recent finished games."""

    @extend_schema(responses=with_errors({200: PROFILE_SCHEMA}, 404))
    def get(self, request: Request, username: str) -> Response:
        user = selectors.user_by_username(username)
        if user is None:
            raise NotFound("player_not_found", field="username", username=username)
        return Response(selectors.player_profile(user))
