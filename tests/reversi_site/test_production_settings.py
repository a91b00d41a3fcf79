"""Production is the default (issue 10 §2): DEBUG off unless turned on, no start with a
missing or published secret key, `check --deploy` clean with the production variables set, and
debug pages that show no service address or password."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.views.debug import get_default_exception_reporter_filter

ROOT = Path(__file__).resolve().parents[2]
# The variables a deployment sets (a TLS proxy in front: DJANGO_PROXY_SSL_HEADER).
PRODUCTION = {
    "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
    "DJANGO_PROXY_SSL_HEADER": "1",
    "DJANGO_ALLOWED_HOSTS": "reversi.example",
}


def django(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run `manage.py` with the environment less every DJANGO_ variable, plus ``env``."""
    clean = {name: value for name, value in os.environ.items() if not name.startswith("DJANGO_")}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=clean | env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def settings_values(*names: str, **env: str) -> list[str]:
    """The settings ``names`` as a fresh process with ``env`` reads them."""
    code = "from django.conf import settings; " + "; ".join(
        f"print('setting', repr(settings.{name}))" for name in names
    )
    result = django("shell", "-c", code, **env)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    return [line.removeprefix("setting ") for line in lines if line.startswith("setting ")]


def test_debug_is_off_unless_turned_on() -> None:
    assert settings_values("DEBUG", **PRODUCTION) == ["False"]
    assert settings_values("DEBUG", DJANGO_DEBUG="1") == ["True"]


@pytest.mark.parametrize(
    ("key", "problem"),
    [
        (None, "is not set"),
        ("dev-only-insecure-key-change-me", "is a published example key"),
        ("change-me-in-production", "is a published example key"),
        ("short", "is shorter than 50"),
    ],
)
def test_without_debug_a_missing_or_known_key_stops_the_server(key, problem: str) -> None:
    env = PRODUCTION | {"DJANGO_SECRET_KEY": key} if key else {}
    result = django("check", **env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert f"DJANGO_SECRET_KEY {problem}" in result.stderr


def test_check_deploy_is_clean_with_the_production_variables() -> None:
    result = django("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_defaults_are_https_only() -> None:
    names = ["SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE"]
    values = settings_values(*names, "SECURE_HSTS_SECONDS", "SECURE_PROXY_SSL_HEADER", **PRODUCTION)
    assert values == ["True", "True", "True", "31536000", "('HTTP_X_FORWARDED_PROTO', 'https')"]


def test_debug_pages_hide_service_addresses_and_secrets(settings) -> None:
    settings.REDIS_URL = "redis://:hunter2@redis.internal:6379/0"
    settings.CACHES = {"default": {"LOCATION": settings.REDIS_URL}}
    settings.CELERY_BROKER_URL = settings.REDIS_URL
    shown = str(get_default_exception_reporter_filter().get_safe_settings())
    assert "hunter2" not in shown
    assert "redis.internal" not in shown


def test_mail_is_printed_under_make_run_and_sent_by_smtp_otherwise() -> None:
    smtp = "'django.core.mail.backends.smtp.EmailBackend'"
    assert settings_values("EMAIL_BACKEND", DJANGO_DEBUG="1") == [
        "'django.core.mail.backends.console.EmailBackend'"
    ]
    assert settings_values("EMAIL_BACKEND", "EMAIL_HOST", **PRODUCTION) == [smtp, "'localhost'"]
    mail = {
        "EMAIL_HOST": "smtp.example.com",
        "EMAIL_PORT": "587",
        "EMAIL_HOST_USER": "reversi",
        "EMAIL_HOST_PASSWORD": "hunter2",
        "EMAIL_USE_TLS": "true",
        "DEFAULT_FROM_EMAIL": "Reversi <games@example.com>",
    }
    names = ["EMAIL_BACKEND", *mail]
    assert settings_values(*names, DJANGO_DEBUG="1", **mail) == [
        smtp,
        "'smtp.example.com'",
        "587",
        "'reversi'",
        "'hunter2'",
        "True",
        "'Reversi <games@example.com>'",
    ]
