"""Personal access tokens (issue 14 §6): issued with a name and scopes, shown once, kept as the
SHA-256 of their secret, revoked by deletion. ``TokenAuthentication`` is the API's token
authentication (``Authorization: Token <secret>``, or ``Bearer <secret>`` as lichess's clients
send it); ``request.auth`` is then the ``AccessToken``, whose scopes
``games.shared.permissions.TokenScopes`` checks. ``TokenAuthMiddleware`` does the same for a
websocket (Channels middleware, in ``reversi_site/asgi.py``): the game service's
``games.consumers.SocketGate`` reads ``scope["auth"]`` and never imports this app."""

import hashlib
import secrets
from collections.abc import Callable, Iterable
from datetime import timedelta

from channels.middleware import BaseMiddleware
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from games.accounts.models import AccessToken
from games.shared.errors import Conflict, NotFound, ServiceError
from games.shared.outages import OUTAGES
from games.shared.threads import in_pool

TOKENS_PER_ACCOUNT = 50
SECRET_BYTES = 20  # 40 hex digits
PREFIX_LENGTH = 8
LAST_USED_PRECISION = timedelta(minutes=1)  # at most one write a minute per token in use


def digest(secret: str) -> str:
    """The stored form of a secret: a token's 160 random bits need no slow hash."""
    return hashlib.sha256(secret.encode()).hexdigest()


def issue_token(
    *, user: AbstractBaseUser, name: str, scopes: Iterable[str] = AccessToken.SCOPES
) -> tuple[AccessToken, str]:
    """A new token of ``user`` and its secret, which is never stored and cannot be shown again."""
    chosen = sorted(set(scopes))
    unknown = [scope for scope in chosen if scope not in AccessToken.SCOPES]
    if unknown or not chosen:
        raise ServiceError("bad_scopes", field="scopes", scopes=", ".join(AccessToken.SCOPES))
    secret = secrets.token_hex(SECRET_BYTES)
    with transaction.atomic():
        # The account's row is the lock: two requests at once cannot both pass the cap.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        if AccessToken.objects.filter(user_id=user.pk).count() >= TOKENS_PER_ACCOUNT:
            raise Conflict("too_many_tokens", limit=TOKENS_PER_ACCOUNT)
        token = AccessToken.objects.create(
            user_id=user.pk,
            name=name,
            key_hash=digest(secret),
            prefix=secret[:PREFIX_LENGTH],
            scopes=chosen,
        )
    return token, secret


def revoke_token(*, user: AbstractBaseUser, token_id: int) -> None:
    """Delete one of the account's tokens; another's, or one already gone, is not found."""
    deleted, _ = AccessToken.objects.filter(user_id=user.pk, pk=token_id).delete()
    if not deleted:
        raise NotFound("token_not_found")


def token_of(secret: str) -> AccessToken | None:
    """The active account's token with this secret (its last use noted), or None."""
    token = (
        AccessToken.objects.select_related("user").filter(key_hash=digest(secret.strip())).first()
    )
    if token is None or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_PRECISION:
        AccessToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token


class TokenAuthentication(authentication.BaseAuthentication):
    """``Authorization: Token <secret>`` (or ``Bearer <secret>``): the token's account, with the
    token as ``request.auth``; a wrong or revoked secret is 401."""

    keywords = ("token", "bearer")

    def authenticate(self, request: Request) -> tuple[AbstractBaseUser, AccessToken] | None:
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].decode("latin-1").lower() not in self.keywords:
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed("Invalid token header.")
        try:
            secret = header[1].decode()
        except UnicodeError as error:
            raise exceptions.AuthenticationFailed("Invalid token.") from error
        token = token_of(secret)
        if token is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        return "Token"


class TokenAuthMiddleware(BaseMiddleware):
    """A websocket's ``Authorization: Token <secret>`` (or ``Bearer``): the token's account in
    ``scope["user"]`` and the token in ``scope["auth"]``, as ``TokenAuthentication`` gives a
    request. A malformed, unknown or revoked token leaves the scope as it is: the gate after
    it (``games.consumers.SocketGate``) refuses a header without a token, or a token without
    the scope it needs, and a token that could not be looked up (the database unreachable) as
    ``scope["auth_unavailable"]``."""

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> object:
        headers = {name.lower(): value for name, value in scope.get("headers", [])}
        authorization = headers.get(b"authorization")
        if authorization is not None:
            try:
                token = await _socket_token(authorization.decode("latin-1"))
            except OUTAGES as error:  # the gate closes it with "try again later"
                scope = dict(scope, auth_unavailable=error)
            else:
                if token is not None:
                    scope = dict(scope, user=token.user, auth=token)
        return await super().__call__(scope, receive, send)


@in_pool
def _socket_token(authorization: str) -> AccessToken | None:
    scheme, _, secret = authorization.partition(" ")
    if scheme.lower() not in TokenAuthentication.keywords or not secret.strip().isalnum():
        return None
    return token_of(secret)


class TokenAuthenticationScheme(OpenApiAuthenticationExtension):
    """``TokenAuthentication`` in the OpenAPI schema."""

    target_class = TokenAuthentication
    name = "accessToken"

    def get_security_definition(self, auto_schema: object) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": 'An access token: "Token <secret>" (or "Bearer <secret>"); its scopes '
            "(read, play, challenge) decide what it may do.",
        }
