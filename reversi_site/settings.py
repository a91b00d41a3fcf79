"""Django settings, read from environment variables with local-development defaults.

Defaults match a developer machine: PostgreSQL at 127.0.0.1:5432 as user ``root`` and Redis at
127.0.0.1:6379. Every value can be overridden from the environment (see README).
"""

import os
from datetime import timedelta
from pathlib import Path

from csp.constants import NONE, SELF

from games.community.version import app_version
from games.policy import FLAG_SWEEP_EVERY, ONLINE_ANNOUNCE_EVERY, STALLED_TURN_SWEEP_EVERY
from games.shared.ids import PUBLIC_ID_SCHEMA
from reversi_site.security import secret_key

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


# Production is the default: DEBUG is on only when DJANGO_DEBUG says so (`make run`, the tests).
DEBUG = env_bool("DJANGO_DEBUG", False)
SECRET_KEY = secret_key(os.environ.get("DJANGO_SECRET_KEY", ""), debug=DEBUG)
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
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "channels",
    "games",
    "games.accounts",
    "games.community",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "games.pages.errors.SiteNotFoundMiddleware",
    # Counts a visit for every page view marked games.shared.pages.counts_as_page_view.
    "games.community.middleware.PageViewMiddleware",
    # Last: turns a login refused by django-axes into the lockout answer (429).
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    # First: refuses any login of a locked-out username and address (django-axes).
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
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

# A pool of PostgreSQL connections per process (psycopg_pool through Django's OPTIONS["pool"]):
# the ASGI server runs each request and websocket call on a thread of its own, so without it a
# burst takes one connection each until PostgreSQL refuses more. With it a request waits for a
# free connection, up to POSTGRES_POOL_TIMEOUT seconds (then a 503). POSTGRES_POOL_SIZE=0 turns
# it off: the Celery worker (prefork: a pool must not cross a fork) keeps one connection per
# process instead (POSTGRES_CONN_MAX_AGE).
POSTGRES_POOL_SIZE = int(os.environ.get("POSTGRES_POOL_SIZE", "10"))
POSTGRES_POOL = {
    "min_size": min(2, POSTGRES_POOL_SIZE),
    "max_size": POSTGRES_POOL_SIZE,
    "timeout": float(os.environ.get("POSTGRES_POOL_TIMEOUT", "5")),
}
# Behind PgBouncer in transaction mode (POSTGRES_PGBOUNCER=1) a connection is PostgreSQL's only
# for one transaction, so nothing may outlive one: no server-side cursors (Django declares them
# WITH HOLD outside a transaction, for `.iterator()`) and no prepared statements (psycopg
# prepares a query run 5 times on a connection; PgBouncer 1.18 keeps none across transactions).
# The in-process pool stays on: it keeps this process's connections to PgBouncer open (no TCP
# and auth per request) while PgBouncer shares the few connections to PostgreSQL among every
# process of every machine (README, Scaling).
POSTGRES_PGBOUNCER = env_bool("POSTGRES_PGBOUNCER", False)
POSTGRES_OPTIONS: dict[str, object] = {"pool": POSTGRES_POOL} if POSTGRES_POOL_SIZE else {}
if POSTGRES_PGBOUNCER:
    POSTGRES_OPTIONS["prepare_threshold"] = None

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": os.environ.get("POSTGRES_DB", "reversi"),
        "USER": os.environ.get("POSTGRES_USER", "root"),
        "PASSWORD": os.environ.get("POSTGRES_PASSWORD", ""),
        "HOST": os.environ.get("POSTGRES_HOST", "127.0.0.1"),
        "PORT": os.environ.get("POSTGRES_PORT", "5432"),
        # With the pool, connections are the pool's (Django closes none, it returns them).
        "CONN_MAX_AGE": 0
        if POSTGRES_POOL_SIZE
        else int(os.environ.get("POSTGRES_CONN_MAX_AGE", "0")),
        # Checked before use: by the pool when it hands one out, else at each request's start.
        "CONN_HEALTH_CHECKS": True,
        "OPTIONS": POSTGRES_OPTIONS,
        "DISABLE_SERVER_SIDE_CURSORS": POSTGRES_PGBOUNCER,
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

# One cache for every process (web servers and workers): guest ids
# (games.identity.mint_guest_id), throttle counters and login lockouts hold across all of them.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        # One pool of connections per process (reversi_site.cache: Django's is per request
        # under ASGI, which opened a connection to Redis for every request's throttle).
        "OPTIONS": {
            "pool_class": "reversi_site.cache.SharedConnectionPool",
            "socket_connect_timeout": 2,
            "socket_timeout": 2,
        },
        "KEY_PREFIX": "reversi-cache",
    }
}

# The channel layer's Redis servers: CHANNEL_REDIS_URLS, comma-separated, shards it over several
# (channels_redis hashes each group and channel onto one of them; every process must list the
# same servers in the same order); by default REDIS_URL alone.
CHANNEL_REDIS_URLS = env_list("CHANNEL_REDIS_URLS", REDIS_URL)

CHANNEL_LAYERS = {
    "default": {
        # Redis pub/sub: a group_send is one PUBLISH, and each server process holds one
        # subscription per group its consumers joined, fanning a message out to them in memory.
        # The list-based RedisChannelLayer took four or five Redis round trips per group_send
        # and two or three per message read (3.4-4.2 ms of CPU per event and two readers, against
        # 0.4-0.8 ms here: README, Live path). A message reaches the processes subscribed when
        # it is published, at most once: events are versioned and a client that sees a gap
        # resyncs (games.consumers), as when a socket reconnects.
        # The channel names carry the database's name: stacks that share one Redis server (a
        # test run, a benchmark, `make run`) number their games alike and must not hear each other.
        # reversi_site.channel_layer: that layer, and the same PUBLISH from synchronous code
        # (a request's thread, a task) without a trip through an event loop.
        "BACKEND": "reversi_site.channel_layer.PubSubChannelLayer",
        "CONFIG": {
            "hosts": [{"address": url} for url in CHANNEL_REDIS_URLS],
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
# Celery's Django fixup closes a worker's database connections after every task (since Celery
# 5.5 it ignores CONN_MAX_AGE: celery/celery#9824), so each CPU reply paid for a new PostgreSQL
# session (a backend started, its catalogue caches cold): under the load test more than half of
# the database's CPU per move and 15 % of a quick worker's samples. It keeps them for this many
# tasks instead; each task begins as a request does (reversi_site.celery: a connection past its
# POSTGRES_CONN_MAX_AGE, or broken, e.g. by a PostgreSQL restart, is closed and opened again).
CELERY_DB_REUSE_MAX = 1000
# CPU moves and hints go to their own queues (games.services sends them there, with a priority
# per level); a test's worker may take private ones.
CELERY_CPU_QUEUE = os.environ.get("CELERY_CPU_QUEUE", "cpu")
# Strong searches and hints (games.policy.STRONG_QUEUE_LEVELS) have their own queue and worker,
# so that a quick level never waits behind them; by default the quick queue's name + "-strong".
CELERY_STRONG_QUEUE = os.environ.get("CELERY_STRONG_QUEUE", f"{CELERY_CPU_QUEUE}-strong")
# Celery beat (`make run`, the compose file's `beat`) sends the safety nets that no request
# triggers: the sweep that queues again the CPU turns whose task was lost, and the sweep that
# ends on time the games whose flag check was lost or is too far off for a delayed task, and the
# push of who is online to the lobby; a sweep not taken before the next one is due is dropped.
CELERY_BEAT_SCHEDULE = {
    "sweep-stalled-cpu-turns": {
        "task": "games.tasks.sweep_stalled_cpu_turns",
        "schedule": STALLED_TURN_SWEEP_EVERY,
        "options": {"expires": STALLED_TURN_SWEEP_EVERY.total_seconds()},
    },
    "flag-overdue-games": {
        "task": "games.tasks.flag_overdue_games",
        "schedule": FLAG_SWEEP_EVERY,
        "options": {"expires": FLAG_SWEEP_EVERY.total_seconds()},
    },
    "announce-online": {
        "task": "games.tasks.announce_online",
        "schedule": ONLINE_ANNOUNCE_EVERY,
        "options": {"expires": ONLINE_ANNOUNCE_EVERY.total_seconds()},
    },
}

# The time controls a room (or a seek) may be created with: "M+S" (minutes each, seconds added
# per move) or "Nd" (days per move); see games.shared.time_controls. Tests add short ones.
TIME_CONTROLS = env_list("REVERSI_TIME_CONTROLS", "1+0,3+2,5+3,10+0,1d,3d,7d")

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "games.shared.schema.ThrottledWritesSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Personal access tokens with scopes (issue 14 §6): "Token <secret>" or "Bearer <secret>".
        "games.accounts.tokens.TokenAuthentication",
        "games.shared.permissions.CsrfSessionAuthentication",
    ],
    # JSON only: form and multipart bodies silently drop nested fields (a room's seats).
    # games.shared.parsers.JSONBodyParser: DRF's JSON parser with a size (413) and nesting limit.
    "DEFAULT_PARSER_CLASSES": ["games.shared.parsers.JSONBodyParser"],
    # JSON answers only: DRF's browsable HTML pages answered a browser's GET of a write
    # endpoint with a 500 (their forms run the CSRF permission) and errors as HTML.
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "EXCEPTION_HANDLER": "games.shared.api.api_exception_handler",
    # A guest's write must carry the CSRF token, as a signed-in session's does; a request with
    # an access token needs the token's scope for it.
    "DEFAULT_PERMISSION_CLASSES": [
        "games.shared.permissions.GuestWritesNeedCsrf",
        "games.shared.permissions.TokenScopes",
    ],
    # Every write is throttled per account (or per client address for guests): the view's
    # `throttle_scope` names its rate, "write" when it names none (games.shared.throttles).
    "DEFAULT_THROTTLE_CLASSES": ["games.shared.throttles.WriteRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "write": os.environ.get("THROTTLE_WRITE", "120/min"),
        "auth": os.environ.get("THROTTLE_AUTH", "20/min"),
        "game_create": os.environ.get("THROTTLE_GAME_CREATE", "30/min"),
        "move": os.environ.get("THROTTLE_MOVE", "300/min"),
        "room_create": os.environ.get("THROTTLE_ROOM_CREATE", "30/min"),
        "community": os.environ.get("THROTTLE_COMMUNITY", "30/min"),
        # An analysis costs a worker seconds of CPU: far fewer than moves.
        "analysis": os.environ.get("THROTTLE_ANALYSIS", "10/min"),
        # Mail sent on request (verification links, password resets): a few an hour.
        "mail": os.environ.get("THROTTLE_MAIL", "5/hour"),
    },
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Reversi service API",
    "DESCRIPTION": "Play reversi and its variants against people or the CPU.",
    "VERSION": app_version(),
    "SERVE_INCLUDE_SCHEMA": False,
    "ENUM_NAME_OVERRIDES": {
        "ColorEnum": ["black", "white", "red", "green"],
        "ColorOrRandomEnum": ["black", "white", "red", "green", "random"],
        "GameModeEnum": ["cpu", "local", "room", "imported"],
        # A game's status, in its state and in a move's event alike.
        "GameStatusEnum": ["waiting", "active", "finished"],
    },
    "PATH_CONVERTER_OVERRIDES": {"public_id": PUBLIC_ID_SCHEMA},
    # Swagger UI from this server (drf-spectacular-sidecar), never from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}

# Mail (README "Mail"): verification links and password resets. With EMAIL_HOST set, or in
# production, Django's SMTP backend sends them (EMAIL_* from the environment); under
# `make run` (DEBUG, no EMAIL_HOST) they are printed on the console instead.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_BACKEND = (
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG and not EMAIL_HOST
    else "django.core.mail.backends.smtp.EmailBackend"
)
EMAIL_HOST = EMAIL_HOST or "localhost"
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "10"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Reversi <noreply@localhost>")
# Mails leave from a Celery task on this queue (the quick workers take the default one); at most
# this many mails an hour go to one address, and are asked for by one account or client address.
CELERY_MAIL_QUEUE = os.environ.get("CELERY_MAIL_QUEUE", "celery")
MAIL_CAP_PER_ADDRESS = int(os.environ.get("MAIL_CAP_PER_ADDRESS", "5"))
MAIL_CAP_PER_REQUESTER = int(os.environ.get("MAIL_CAP_PER_REQUESTER", "10"))

# Security (README "Security"). Behind a reverse proxy that ends TLS, DJANGO_HTTPS (on by
# default unless DEBUG) turns on HSTS, secure cookies and the redirect to https, and
# DJANGO_PROXY_SSL_HEADER=1 trusts the proxy's X-Forwarded-Proto.
HTTPS = env_bool("DJANGO_HTTPS", not DEBUG)
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", 31536000 if HTTPS else 0))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", HTTPS)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", HTTPS)
if env_bool("DJANGO_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# The health check answers plain http from inside the container network.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_HTTPONLY = True
# Debug pages (DEBUG on) hide every setting that holds an address or a password, not only keys.
DEFAULT_EXCEPTION_REPORTER_FILTER = "reversi_site.security.SecretsHidingFilter"
X_FRAME_OPTIONS = "DENY"

# CPU games in progress per player (games.policy.CPU_GAME_IDLE_AFTER); raise it for a load
# test that plays many games on one account.
CPU_GAMES_IN_PROGRESS_LIMIT = int(os.environ.get("CPU_GAMES_IN_PROGRESS_LIMIT", "5"))

# Websockets (game and lobby) one viewer (an account, a guest, a browser) and one client address
# may hold open at once; one more is refused with close code 4429 (games.consumers).
WEBSOCKETS_PER_VIEWER = int(os.environ.get("WEBSOCKETS_PER_VIEWER", "10"))
WEBSOCKETS_PER_ADDRESS = int(os.environ.get("WEBSOCKETS_PER_ADDRESS", "100"))

# How many reverse proxies stand in front of the app: the client's address is the one the
# outermost trusted proxy saw (X-Forwarded-For, read by django-ipware). 0: REMOTE_ADDR.
TRUSTED_PROXY_COUNT = int(os.environ.get("DJANGO_TRUSTED_PROXY_COUNT", "0"))

# Login lockout (django-axes): a username is locked for one client address after
# AXES_FAILURE_LIMIT wrong passwords, for AXES_COOLOFF_TIME; counters live in the cache (not
# kept while Redis is down, when logins still work).
AXES_HANDLER = "games.accounts.lockout.OutageTolerantCacheHandler"
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "games.shared.clients.client_ip"
AXES_LOCKOUT_CALLABLE = "games.accounts.lockout.lockout_response"
AXES_VERBOSE = False

# Content Security Policy (django-csp): scripts, styles and connections from this site only;
# no inline script or style anywhere.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
