"""Django settings, read from environment variables with local-development defaults.

Defaults match a developer machine: PostgreSQL at 127.0.0.1:5432 as user ``root`` and Redis at
127.0.0.1:6379. Every value can be overridden from the environment (see README).
"""

import os
from pathlib import Path

from games.community.version import app_version
from games.shared.ids import PUBLIC_ID_SCHEMA

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean environment variable ("1", "true", "yes", "on" are true)."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    """Read a comma-separated environment variable into a list of non-empty items."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", True)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "dev-only-insecure-key-change-me")
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list(
    "DJANGO_CSRF_TRUSTED_ORIGINS", "http://127.0.0.1:8000,http://localhost:8000"
)

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "channels",
    "games",
    "games.accounts",
    "games.community",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "reversi_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.community.context_processors.site_info",
                "games.info.context_processors.info_pages",
            ],
        },
    },
]

WSGI_APPLICATION = None
ASGI_APPLICATION = "reversi_site.asgi.application"

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": os.environ.get("POSTGRES_DB", "reversi"),
        "USER": os.environ.get("POSTGRES_USER", "root"),
        "PASSWORD": os.environ.get("POSTGRES_PASSWORD", ""),
        "HOST": os.environ.get("POSTGRES_HOST", "127.0.0.1"),
        "PORT": os.environ.get("POSTGRES_PORT", "5432"),
        # 0 for the ASGI server (a thread per request); the Celery worker keeps its connection.
        "CONN_MAX_AGE": int(os.environ.get("POSTGRES_CONN_MAX_AGE", "0")),
        "CONN_HEALTH_CHECKS": True,
    }
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ja", "日本語"), ("ru", "Русский")]
# The catalogs live in the games app (Django finds them there, also in an installed wheel);
# naming them here makes `makemessages` run from the repository root write there too.
LOCALE_PATHS = [BASE_DIR / "games" / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
# collectstatic's target; an installed wheel (the Docker image) sets it outside site-packages.
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")

CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        # redis-py 8 reads with a 5 s socket timeout by default, as long as the layer's blocking
        # receive waits: an idle websocket would fail every 5 s (django/channels_redis#422).
        # Every consumer of one server process shares one Redis list, and group_send drops
        # pushes silently once it holds `capacity` messages (100 by default): a server with
        # dozens of open games lags that far behind in a burst.
        # The keys carry the database's name: stacks that share one Redis database (a test
        # run, a benchmark, `make run`) number their games alike and must not hear each other.
        "CONFIG": {
            "hosts": [{"address": REDIS_URL, "socket_timeout": 30}],
            "capacity": 5000,
            "prefix": f"asgi-{DATABASES['default']['NAME']}",
        },
    }
}

CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", REDIS_URL)
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A new worker process loads the numba kernels before it reports ready (see games.tasks).
CELERY_WORKER_PROC_ALIVE_TIMEOUT = 120
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# CPU moves and hints go to their own queues (games.services sends them there, with a priority
# per level); a test's worker may take private ones.
CELERY_CPU_QUEUE = os.environ.get("CELERY_CPU_QUEUE", "cpu")
# Strong searches and hints (games.policy.STRONG_QUEUE_LEVELS) have their own queue and worker,
# so that a quick level never waits behind them; by default the quick queue's name + "-strong".
CELERY_STRONG_QUEUE = os.environ.get("CELERY_STRONG_QUEUE", f"{CELERY_CPU_QUEUE}-strong")

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # JSON only: form and multipart bodies silently drop nested fields (a room's seats).
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "EXCEPTION_HANDLER": "games.shared.api.api_exception_handler",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Reversi service API",
    "DESCRIPTION": "Play reversi and its variants against people or the CPU.",
    "VERSION": app_version(),
    "SERVE_INCLUDE_SCHEMA": False,
    "ENUM_NAME_OVERRIDES": {
        "ColorEnum": ["black", "white", "red", "green"],
        "ColorOrRandomEnum": ["black", "white", "red", "green", "random"],
        "GameModeEnum": ["cpu", "local", "room"],
    },
    "PATH_CONVERTER_OVERRIDES": {"public_id": PUBLIC_ID_SCHEMA},
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
