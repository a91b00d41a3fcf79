"""E-mail addresses of accounts (issue 14 §7): optional, verified by a signed link.

The link carries the account and the address, signed with the site's key (Django's
``TimestampSigner``, salted for this use) and valid for ``VERIFICATION_MAX_AGE``: nothing to
store until it is followed, and a link to an address the account no longer has is refused.
Mail leaves through Django's mail backend (``EMAIL_*`` settings; README "Mail").
"""

import logging
from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser, AbstractUser
from django.core import signing
from django.core.mail import send_mail
from django.db import transaction
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from games.accounts.models import EmailVerification
from games.shared.errors import Conflict, ServiceError, Unavailable

VERIFICATION_SALT = "games.accounts.email-verification"
VERIFICATION_MAX_AGE = timedelta(days=3)
MAIL_RETRY_SECONDS = 60  # after a mail server that did not answer
logger = logging.getLogger(__name__)


def email_of(user: AbstractBaseUser) -> str:
    """The account's e-mail address ("" when it has none)."""
    return str(getattr(user, "email", "") or "")


def is_verified(user: AbstractBaseUser) -> bool:
    """Whether the account's current address has been verified."""
    email = email_of(user)
    return (
        bool(email)
        and EmailVerification.objects.filter(
            user_id=user.pk, email__iexact=email, verified_at__isnull=False
        ).exists()
    )


def change_email(*, user: AbstractUser, email: str, request: HttpRequest) -> bool:
    """Give the account ``email`` ("" removes it), unverified, and mail the link to verify it
    (an address already verified stays so). Answers whether a link was sent: the address is
    kept even when the mail server does not answer (the link can be sent again)."""
    user.email = email
    if is_verified(user):
        user.save(update_fields=["email"])
        return False
    with transaction.atomic():
        user.save(update_fields=["email"])
        EmailVerification.objects.update_or_create(
            user_id=user.pk, defaults={"email": email, "verified_at": None}
        )
    if not email:
        return False
    try:
        send_verification(user=user, request=request)
    except Unavailable:
        return False
    return True


def send_verification(*, user: AbstractBaseUser, request: HttpRequest) -> None:
    """Mail the account's address a link that verifies it (503 ``Unavailable`` when the mail
    server does not take it)."""
    email = email_of(user)
    if not email:
        raise ServiceError("no_email", field="email")
    if is_verified(user):
        raise Conflict("email_already_verified", field="email")
    token = signing.TimestampSigner(salt=VERIFICATION_SALT).sign_object(
        {"user": user.pk, "email": email}
    )
    context = {
        "username": user.get_username(),
        "link": request.build_absolute_uri(reverse("verify-email", args=[token])),
        "days": VERIFICATION_MAX_AGE.days,
    }
    try:
        send_mail(
            subject=render_to_string("accounts/verify_email_subject.txt", context).strip(),
            message=render_to_string("accounts/verify_email.txt", context),
            from_email=None,
            recipient_list=[email],
        )
    except OSError as error:  # smtplib's errors are OSErrors too
        logger.warning("verification mail of account %s not sent: %s", user.pk, error)
        raise Unavailable(retry_after=MAIL_RETRY_SECONDS) from error


def verify_email(token: str) -> int:
    """Mark the address a link was sent to as verified; answers the account's id. A link that
    is forged, expired or for an address the account no longer has is a ``ServiceError``."""
    try:
        claim = signing.TimestampSigner(salt=VERIFICATION_SALT).unsign_object(
            token, max_age=VERIFICATION_MAX_AGE
        )
    except signing.BadSignature as error:  # SignatureExpired is one too
        raise ServiceError("bad_verification_link") from error
    updated = EmailVerification.objects.filter(
        user_id=claim["user"], email=claim["email"], user__email=claim["email"]
    ).update(verified_at=timezone.now())
    if not updated:
        raise ServiceError("bad_verification_link")
    return int(claim["user"])
