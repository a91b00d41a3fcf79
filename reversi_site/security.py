"""Checks of the settings that production depends on (read by ``reversi_site.settings``)."""

import re

from django.core.exceptions import ImproperlyConfigured
from django.views.debug import SafeExceptionReporterFilter

# The key `make run` uses with DEBUG on; never accepted with DEBUG off.
DEVELOPMENT_SECRET_KEY = "dev-only-insecure-key-change-me"  # noqa: S105 (public on purpose)
# Keys that were ever public (this repository's defaults and examples).
KNOWN_SECRET_KEYS = frozenset(
    {DEVELOPMENT_SECRET_KEY, "change-me-in-production", "change-me", "secret", "changeme"}
)
# Django's own deployment check asks for as much (security.W009).
SECRET_KEY_MIN_LENGTH = 50
SECRET_KEY_MIN_UNIQUE_CHARACTERS = 5


def secret_key(configured: str, *, debug: bool) -> str:
    """The ``SECRET_KEY`` to use: with DEBUG on, the development key when none is set; with
    DEBUG off, ``configured`` if it is long, varied and not a known key, else
    ``ImproperlyConfigured`` (the server refuses to start)."""
    if debug:
        return configured or DEVELOPMENT_SECRET_KEY
    if not configured:
        problem = "is not set"
    elif configured in KNOWN_SECRET_KEYS or configured.startswith("django-insecure"):
        problem = "is a published example key"
    elif (
        len(configured) < SECRET_KEY_MIN_LENGTH
        or len(set(configured)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS
    ):
        problem = f"is shorter than {SECRET_KEY_MIN_LENGTH} characters or too repetitive"
    else:
        return configured
    raise ImproperlyConfigured(
        f"DJANGO_SECRET_KEY {problem}. With DEBUG off the server needs a secret key of its own: "
        'generate one with `python -c "import secrets; print(secrets.token_urlsafe(50))"` and '
        "set DJANGO_SECRET_KEY (or set DJANGO_DEBUG=1 on a development machine)."
    )


class SecretsHidingFilter(SafeExceptionReporterFilter):
    """Django's filter of debug pages and error reports, hiding also the settings that hold
    service addresses with their passwords (``REDIS_URL``, ``CACHES``, ``CHANNEL_LAYERS``, the
    broker, ``DATABASES``)."""

    hidden_settings = re.compile(
        "API|TOKEN|KEY|SECRET|PASS|SIGNATURE|HTTP_COOKIE|URL|BROKER|DATABASES|CACHES|"
        "CHANNEL_LAYERS|HOST",
        flags=re.IGNORECASE,
    )
