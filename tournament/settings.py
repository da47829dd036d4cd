"""Settings read from the environment (django-environ) with safe local defaults.

Embedded default: SQLite in the checkout and Celery in eager mode, so a fresh clone runs with no
services. Production differs only by environment variables: ``DATABASE_URL``,
``CELERY_BROKER_URL``, ``SECRET_KEY``, ``ALLOWED_HOSTS``, ``DEBUG``, ``SECURE``, ``BEHIND_PROXY``
(see docs/deploy.md for all of them).
"""

import mimetypes
from datetime import timedelta
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False) if (BASE_DIR / ".env").exists() else None

DEBUG = env.bool("DEBUG", default=True)
DEV_SECRET_KEY = "dev-only-insecure-key-change-me-in-production-0123456789"
SECRET_KEY = env("SECRET_KEY", default=DEV_SECRET_KEY)
if not DEBUG and SECRET_KEY == DEV_SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY: set a long random SECRET_KEY in the environment when DEBUG is off (docs/deploy.md)")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_filters",
    "axes",
    "tournament",
    "walls",
    "scoring",
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
    "axes.middleware.AxesMiddleware",
    "tournament.middleware.DatabaseUnavailableMiddleware",
    "tournament.middleware.BadRequestMiddleware",
]

ROOT_URLCONF = "tournament.urls"
WSGI_APPLICATION = "tournament.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "scoring.context_processors.logged_table",
            ],
        },
    },
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"].setdefault("ATOMIC_REQUESTS", False)
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # Concurrent scorers on the embedded default: every transaction takes the write lock when it
    # begins (IMMEDIATE), so two writers queue on the busy timeout instead of one failing with
    # "database is locked" when it upgrades a read lock; WAL lets pages read while a result is
    # written. Measured: 16 scorers against gunicorn went from 77 % refused to none.
    options = DATABASES["default"].setdefault("OPTIONS", {})
    options.setdefault("timeout", 20)
    options.setdefault("transaction_mode", "IMMEDIATE")
    options.setdefault("init_command", "PRAGMA journal_mode=WAL;")
else:
    # Seconds a web or worker process keeps its database connection open between requests
    # (0: a new connection per request). Production: 60 (docs/deploy.md).
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=DATABASES["default"].get("CONN_MAX_AGE", 0))
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # Statements PostgreSQL plans once per connection: a statement sent the fifth time on a
    # connection is prepared (psycopg's prepare_threshold over server-side binding, both off in
    # Django by default for transaction-mode connection poolers). Measured: the database's CPU per
    # result entry 2.65 -> 0.98 ms, most of it the planning of the table plan's join
    # (docs/performance.md, "The runs of the seventeenth session"). It pays with CONN_MAX_AGE above 0
    # (a connection kept between requests). Behind a pooler that cannot keep prepared statements,
    # DATABASE_PREPARED_STATEMENTS=false (docs/deploy.md).
    if env.bool("DATABASE_PREPARED_STATEMENTS", default=True) and DATABASES["default"]["ENGINE"].endswith("postgresql"):
        DATABASES["default"]["ENGINE"] = "tournament.db_backend"  # the limit of values bound on the server
        DATABASES["default"].setdefault("OPTIONS", {}).update(server_side_binding=True, prepare_threshold=5)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ja", "日本語"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = env("TIME_ZONE", default="UTC")
USE_TZ = True

STATIC_URL = "static/"
mimetypes.add_type("application/wasm", ".wasm")  # the Scan button's decoder (static/vendor/zxing-wasm), compiled as it streams
STATIC_ROOT = Path(env("STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"] if (BASE_DIR / "static").exists() else []
# Production (DEBUG off) serves hashed, compressed files that `manage.py collectstatic` wrote.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage" if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage",
    },
}
MEDIA_URL = "media/"
MEDIA_ROOT = Path(env("MEDIA_ROOT", default=str(BASE_DIR / "media")))

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "tournament.api_tokens.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # DRF's JSON parser, answering a too deeply nested body 400 instead of 500 (tournament.api_parsers).
    "DEFAULT_PARSER_CLASSES": [
        "tournament.api_parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    # A service's FieldError (ResultError...) answered as {field: [message]} with its status.
    "EXCEPTION_HANDLER": "tournament.api_errors.exception_handler",
}
# API tokens (django-rest-knox, tournament.api_tokens): stored as a SHA-512 digest and a 15-character
# prefix, the key shown once on the director's API tokens page. Sent as `Authorization: Token <key>`.
# A new token expires after API_TOKEN_DAYS days unless its creator picks another count (1 to 365).
KNOX_TOKEN_MODEL = "tournament.ApiToken"
# knox's own migrations would create its default table (knox_authtoken) although the model is
# swapped for ours: a table nobody uses, which also stops `flush` on PostgreSQL (it references
# auth_user). Its app is left unmigrated: nothing of it needs a table.
MIGRATION_MODULES = {"knox": None}
API_TOKEN_DAYS = env.int("API_TOKEN_DAYS", default=30)
REST_KNOX = {
    "AUTH_HEADER_PREFIX": "Token",
    "TOKEN_TTL": timedelta(days=API_TOKEN_DAYS),
    "AUTO_REFRESH": False,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Duplicate mahjong tournament manager API",
    "DESCRIPTION": "Events, seating, result entry and standings for duplicate mahjong.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Celery: eager (in-process) unless a broker is configured.
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="")
CELERY_RESULT_BACKEND = env("CELERY_RESULT_BACKEND", default="")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# The queue print jobs go to; installations (or CI runs) sharing one broker each use their own.
CELERY_TASK_DEFAULT_QUEUE = env("CELERY_TASK_DEFAULT_QUEUE", default="celery")
# Redis broker: a task taken by a worker that died (killed, machine lost) goes back to the queue
# once it has been unacknowledged this many seconds; it must exceed the longest print job.
# RabbitMQ returns such tasks at once when the worker's connection drops.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=900),
    "unacked_restore_interval": 10,
    "unacked_restore_throttle": 3,
}
if not CELERY_BROKER_URL:
    CELERY_BROKER_URL = "memory://localhost/"
# Celery beat (a worker started with --beat on one machine, docs/deploy.md): expired API tokens
# are deleted hourly (tournament.tasks), not by the request that presents one.
CELERY_BEAT_SCHEDULE = {
    "delete-expired-api-tokens": {"task": "tournament.delete_expired_api_tokens", "schedule": 3600.0},
}
# Without a broker (Celery eager), render print jobs in a background thread of the web process,
# so "Print everything" returns at once and its progress moves (walls/print_jobs.py,
# docs/printing.md); False renders them in the request (tests/conftest.py turns it off).
PRINT_IN_THREAD = env.bool("PRINT_IN_THREAD", default=True)
# A worker refreshes a print job's heartbeat every PRINT_HEARTBEAT_SECONDS while it renders; a job
# rendering without one for PRINT_STALL_SECONDS is shown stalled with a retry (walls.print_jobs).
PRINT_HEARTBEAT_SECONDS = env.int("PRINT_HEARTBEAT_SECONDS", default=10)
PRINT_STALL_SECONDS = env.int("PRINT_STALL_SECONDS", default=60)
# A print task running longer than this is stopped (soft limit; the hard limit 30 s later).
PRINT_TIME_LIMIT = env.int("PRINT_TIME_LIMIT", default=600)

CACHES = {"default": env.cache("CACHE_URL", default="locmemcache://")}
# A CACHE_URL's "?key_prefix=NAME" (installations or test runs sharing one Redis, docs/deploy.md):
# django-environ leaves it under a lower-case key, which Django's cache ignores.
# The release every cache key starts with (tournament.cache.release): by default a digest of the
# application's code and templates, so a deploy never serves pages built by the code before it.
RELEASE = env("RELEASE", default="")
if "key_prefix" in CACHES["default"]:
    CACHES["default"]["KEY_PREFIX"] = CACHES["default"].pop("key_prefix")
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
    # while Redis cannot be reached, the cache answers as a miss: pages are built from the
    # database and the request limits let requests through, never a 500 (docs/deploy.md, "Faults")
    CACHES["default"]["BACKEND"] = "tournament.cache_backend.FailSoftRedisCache"
if CACHES["default"]["BACKEND"].endswith("LocMemCache"):
    # the pages' cache keeps a part per team and per player (scoring/reports/standing_rows.py,
    # cached_parts): Django's default of 300 entries would evict them at 64 teams
    CACHES["default"].setdefault("OPTIONS", {}).setdefault("MAX_ENTRIES", 50_000)

# SECURE: the site is served over HTTPS (cookies only over HTTPS, HTTP redirected, HSTS).
# BEHIND_PROXY: a reverse proxy sets X-Forwarded-Proto and X-Real-IP (docs/deploy.md); never
# set it when clients reach gunicorn directly, or they could forge those headers.
SECURE = env.bool("SECURE", default=False)
# VENUE_TLS_DIR: where `manage.py venue` keeps the venue's own certificate authority and HTTPS
# certificate (tournament/venue.py); /venue-certificate.crt serves the authority from there.
VENUE_TLS_DIR = Path(env("VENUE_TLS_DIR", default=str(BASE_DIR / ".venue-tls")))
BEHIND_PROXY = env.bool("BEHIND_PROXY", default=SECURE)
SESSION_COOKIE_SECURE = SECURE
CSRF_COOKIE_SECURE = SECURE
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
if SECURE:
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=3600)
if BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Login rate limiting (django-axes): after LOGIN_FAILURE_LIMIT wrong passwords for one user name
# from one address, that pair is refused (HTTP 429) for LOGIN_LOCKOUT_MINUTES. Counting per
# (user name, address) keeps a venue network that shares one public address usable for everyone
# else. Attempts are stored in the database, so every gunicorn process and machine shares them.
AXES_ENABLED = env.bool("LOGIN_RATE_LIMIT", default=True)
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("LOGIN_LOCKOUT_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_IPWARE_META_PRECEDENCE_ORDER = ["HTTP_X_REAL_IP", "REMOTE_ADDR"] if BEHIND_PROXY else ["REMOTE_ADDR"]

# PINs typed at a table (scoring.actions.seats.pin_wait): a device with CONFIRM_PIN_LIMIT_PER_DEVICE
# wrong PINs at a table, and once the table has CONFIRM_PIN_LIMIT_PER_TABLE from all devices every
# device that never typed a right PIN there, waits CONFIRM_PIN_BACKOFF seconds after the last wrong
# one, doubled for each further one, at most CONFIRM_PIN_BACKOFF_MAX; the director clears the counts
# (scoring.actions.confirmation.unlock_confirmation).
CONFIRM_PIN_LIMIT_PER_DEVICE = env.int("CONFIRM_PIN_LIMIT_PER_DEVICE", default=5)
CONFIRM_PIN_BACKOFF = env.int("CONFIRM_PIN_BACKOFF", default=30)
CONFIRM_PIN_BACKOFF_MAX = env.int("CONFIRM_PIN_BACKOFF_MAX", default=900)
CONFIRM_PIN_LIMIT_PER_TABLE = env.int("CONFIRM_PIN_LIMIT_PER_TABLE", default=10)

# Table login (scoring.table_views.table_login, scoring.login_throttle): distinct wrong table codes
# counted per client address and in total from all addresses, as django-ratelimit rates ("10/10m":
# 10 per 10 minutes; blank: no limit). Over the address limit, codes from that address are checked
# once per TABLE_LOGIN_SLOW_SECONDS; over the total limit, at most TABLE_LOGIN_SLOW_TOTAL_PER_SECOND
# codes a second are checked from all addresses together; other requests get 429 with Retry-After.
# A right code is never refused as wrong. The arithmetic is in docs/security.md ("Table login").
# Counters live in the default cache (CACHE_URL): several gunicorn processes need a shared cache
# (Redis) for the limits to hold across them. A table login lasts until its session is finished
# and at most TABLE_LOGIN_MAX_AGE_HOURS.
TABLE_LOGIN_RATE_PER_ADDRESS = env("TABLE_LOGIN_RATE_PER_ADDRESS", default="10/10m") or None
TABLE_LOGIN_SLOW_SECONDS = env.int("TABLE_LOGIN_SLOW_SECONDS", default=3)
TABLE_LOGIN_RATE_TOTAL = env("TABLE_LOGIN_RATE_TOTAL", default="1000/10m") or None
TABLE_LOGIN_SLOW_TOTAL_PER_SECOND = env.int("TABLE_LOGIN_SLOW_TOTAL_PER_SECOND", default=5)
# Public downloads (tournament.cache.limited: the public export, standings CSV/XLSX, the
# conversion CSV, the projector's JSON): each cached per release state, and fetched at most
# PUBLIC_DOWNLOAD_RATE times per window from one address by anyone but the director and staff
# (django-ratelimit rate; beyond it 429 with Retry-After; blank: no limit). Counters live in the
# default cache (CACHE_URL), like the table-login throttle's.
PUBLIC_DOWNLOAD_RATE = env("PUBLIC_DOWNLOAD_RATE", default="60/m") or None
# Pages built for anonymous visitors (tournament.cache): at most PUBLIC_PAGE_BUILD_RATE per window
# from one address; pages already built are served without limit. A hall's phones share one
# address behind the venue's router and, after a release, ask for every team's and player's page
# at once (256 teams: some 1,400 pages), so the limit only paces one address: the pages it can have
# built are the event's own (canonical queries), once per public version.
PUBLIC_PAGE_BUILD_RATE = env("PUBLIC_PAGE_BUILD_RATE", default="2000/m") or None
# A visitor's page (tournament.cache.Page) is built at most once every PUBLIC_PAGE_STALE_SECONDS:
# within that time after it was built, a newer public version (a set released, a released result
# corrected) serves the page as it was built, with an Age header; the director, staff and table
# logins always see the current page. A round's end releases set after set while every phone asks
# for its team's and player's page (some 1,300 pages at 256 teams); Tabbycat keeps public pages
# a minute the same way. 0: every release rebuilds them at once.
PUBLIC_PAGE_STALE_SECONDS = env.int("PUBLIC_PAGE_STALE_SECONDS", default=60)
# A limit whose counter the cache cannot give (Redis unreachable) lets the request through.
RATELIMIT_FAIL_OPEN = True
TABLE_LOGIN_MAX_AGE = timedelta(hours=env.int("TABLE_LOGIN_MAX_AGE_HOURS", default=12))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="WARNING")},
}
