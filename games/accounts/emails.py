"""E-mail addresses of accounts (issue 14 §7): optional, verified by a signed link.

The link carries the account and the address, signed with the site's key (Django's
``TimestampSigner``, salted for this use) and valid for ``VERIFICATION_MAX_AGE``: nothing to
store until it is followed, and a link to an address the account no longer has is refused.
Mail (these links, password resets) is never sent inside a request: ``queue_mail`` renders
nothing itself, counts the mail against its address's and its requester's hourly caps (Django's
cache, so every process shares them: ``MAIL_CAP_PER_ADDRESS``, ``MAIL_CAP_PER_REQUESTER``) and
hands it, once the transaction commits, to the Celery task ``games.accounts.tasks.send_mail``,
which sends it through Django's mail backend (``EMAIL_*`` settings; README "Mail"), once per
mail however often the task runs, retrying a mail server that does not answer.
"""

import hashlib
import logging
import uuid
from datetime import timedelta

import redis
from celery import current_app
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AbstractUser
from django.core import signing
from django.core.cache import cache
from django.core.mail import send_mail
from django.db import transaction
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from games.accounts.models import EmailVerification
from games.shared.clients import requester_of
from games.shared.errors import Conflict, RateLimited, ServiceError

VERIFICATION_SALT = "games.accounts.email-verification"
VERIFICATION_MAX_AGE = timedelta(days=3)
MAIL_TASK = "games.accounts.tasks.send_mail"
MAIL_CAP_WINDOW = 3600  # seconds: the caps count the mails of a fixed hour
SENT_KEPT = 7 * 24 * 3600  # seconds a sent mail's id is remembered (a task redelivered later)
logger = logging.getLogger(__name__)


def queue_mail(*, to: str, subject: str, body: str, requester: str) -> bool:
    """Send a mail to ``to`` from a Celery task once the transaction commits; False, and nothing
    sent, when the address has had ``MAIL_CAP_PER_ADDRESS`` mails this hour or ``requester``
    has asked for ``MAIL_CAP_PER_REQUESTER`` (a flood of requests, from one client or many,
    sends no flood of mail). With the cache (Redis) away the caps let it through, as the
    throttles do."""
    address = hashlib.sha256(to.strip().lower().encode()).hexdigest()
    if not (
        _within_cap(f"mail-by:{requester}", settings.MAIL_CAP_PER_REQUESTER)
        and _within_cap(f"mail-to:{address}", settings.MAIL_CAP_PER_ADDRESS)
    ):
        logger.warning("mail to %s… not sent: over its hourly cap (%s)", address[:8], requester)
        return False
    arguments = (uuid.uuid4().hex, to, subject, body)

    def queue() -> None:
        current_app.send_task(MAIL_TASK, args=arguments, queue=settings.CELERY_MAIL_QUEUE)

    transaction.on_commit(queue, robust=True)
    return True


def _within_cap(key: str, cap: int) -> bool:
    """Count one more mail in ``key``'s hour; whether it is within ``cap``."""
    try:
        cache.add(key, 0, timeout=MAIL_CAP_WINDOW)
        try:
            count = cache.incr(key)
        except ValueError:  # the hour ended between the two calls
            cache.add(key, 1, timeout=MAIL_CAP_WINDOW)
            count = 1
    except redis.RedisError:
        logger.warning("mail cap %s not counted: the cache (Redis) is unreachable", key)
        return True
    return count <= cap


def deliver(*, mail_id: str, to: str, subject: str, body: str) -> bool:
    """Send one queued mail unless it has been sent (a task run twice sends it once); whether
    it was sent now. A mail server that does not answer raises (``OSError``): the task retries."""
    sent_key = f"mail-sent:{mail_id}"
    if cache.get(sent_key):
        return False
    send_mail(subject=subject, message=body, from_email=None, recipient_list=[to])
    cache.set(sent_key, 1, timeout=SENT_KEPT)
    return True


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
    (an address already verified stays so). Answers whether a link was queued: the address is
    kept even when its mails are over their cap (the link can be sent again later)."""
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
    except RateLimited:
        return False
    return True


def send_verification(*, user: AbstractBaseUser, request: HttpRequest) -> None:
    """Mail the account's address a link that verifies it (429 ``RateLimited`` when the address
    or the account has had its share of mails this hour)."""
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
    queued = queue_mail(
        to=email,
        subject=render_to_string("accounts/verify_email_subject.txt", context).strip(),
        body=render_to_string("accounts/verify_email.txt", context),
        requester=requester_of(request),
    )
    if not queued:
        raise RateLimited(
            retry_after=MAIL_CAP_WINDOW,
            count=min(settings.MAIL_CAP_PER_ADDRESS, settings.MAIL_CAP_PER_REQUESTER),
            seconds=MAIL_CAP_WINDOW,
            code="mail_capped",
        )


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
