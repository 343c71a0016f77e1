"""Ranklens settings: one file, driven by environment variables.

Without any variable set, the app runs self-contained: SQLite and a filesystem
Celery broker under `var/`, so `make run` needs no server. `DATABASE_URL` and
`REDIS_URL` switch to PostgreSQL and Redis (CI, docker-compose, production).
"""

import os
import secrets
from datetime import timedelta
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value else default


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in env_str(name, default).split(",") if item.strip()]


VAR_DIR = Path(env_str("RANKLENS_VAR_DIR", str(BASE_DIR / "var")))


def _local_secret_key() -> str:
    """A key generated once per checkout, so a local run needs no configuration."""
    path = VAR_DIR / "secret_key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = env_str("SECRET_KEY") or _local_secret_key()
DEBUG = env_bool("DEBUG", default=False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "axes",
    # Only for its bundled Swagger UI static files, served locally for /api/docs/.
    "ninja",
    "incidents",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Outside everything else that may answer an error, so /api/ clients always get JSON.
    "incidents.api.errors.ApiJsonErrors",
    "incidents.middleware.RefuseBadQueryStrings",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before CSRF: that middleware reads the body, and an oversized upload must be
    # refused from its Content-Length before a byte of it is received.
    "incidents.middleware.RejectOversizedUploads",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The page language: the language switch's cookie, else the browser's Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    # API answers stay English whatever the browser asks for: clients parse them.
    "incidents.api.language.ApiInEnglish",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After the session and user (lazy, no query yet), before the views and before CSRF's
    # process_view reads a page upload: a full disk or a lost database answers 507/503.
    "incidents.runs.upload_faults.UploadFaults",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its lockout answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

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
            ],
            # {% translate %} and {% blocktranslate %} work in every template without a load.
            "builtins": ["django.templatetags.i18n"],
        },
    },
]

# --- HTTPS, cookies, CSP, login throttling ----------------------------------
# RANKLENS_HTTPS=1 says the site is reached over TLS, usually through a proxy that sets
# X-Forwarded-Proto: it switches on the redirect to https, secure cookies, HSTS and trust
# in that header. Each can be overridden on its own (e.g. a proxy that redirects itself).
HTTPS = env_bool("RANKLENS_HTTPS")
SECURE_SSL_REDIRECT = env_bool("RANKLENS_SSL_REDIRECT", HTTPS)
SESSION_COOKIE_SECURE = env_bool("RANKLENS_SECURE_COOKIES", HTTPS)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = env_int("RANKLENS_HSTS_SECONDS", 365 * 24 * 3600 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("RANKLENS_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("RANKLENS_HSTS_PRELOAD")
if not SECURE_HSTS_PRELOAD:
    # Preloading is a promise about the whole registrable domain made to browser vendors,
    # which an internal tool's host cannot make alone; opting out is deliberate here.
    SILENCED_SYSTEM_CHECKS = ["security.W021"]
if env_bool("RANKLENS_BEHIND_PROXY", HTTPS):
    # Only safe when a proxy in front sets (or strips) this header on every request.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_REFERRER_POLICY = "same-origin"
CSRF_FAILURE_VIEW = "incidents.api.errors.csrf_failure"

# Everything the pages load comes from this site; no inline script, style or eval.
# Violations are posted to /csp-report/ and logged, so a broken page shows in the logs.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "report-uri": "/csp-report/",
    },
}

# Failed logins are counted per username and client address together, so a stranger
# guessing one account cannot lock its owner out from everywhere.
AXES_FAILURE_LIMIT = env_int("RANKLENS_LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("RANKLENS_LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False  # lockouts are still logged as warnings
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
if env_bool("RANKLENS_BEHIND_PROXY", HTTPS):
    # The client is the address the proxy appended last to X-Forwarded-For (entries to its
    # left come from the client and may be forged), not the proxy's own address.
    AXES_IPWARE_PROXY_ORDER = "right-most"
    AXES_IPWARE_META_PRECEDENCE_ORDER = ["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"]

# --- Database --------------------------------------------------------------
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'ranklens.sqlite3'}"),
        conn_max_age=env_int("DB_CONN_MAX_AGE", 0),
    )
}
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # A database that went away must fail a connection attempt quickly, so the callers
    # that reconnect and retry (the worker's final write, the sweeper) get their turn.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 5)
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # The web server and the worker are two processes writing one file: wait for
    # the lock instead of failing. Tests use a file (not :memory:) so that a real
    # worker subprocess sees the same test database.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-ranklens.sqlite3")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    # First, so a locked-out username/address pair is refused before its password is checked.
    "incidents.accounts.auth_backends.LoginThrottleBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/accounts/login/"

# The web UI speaks English and Simplified Chinese (locale/zh_Hans/LC_MESSAGES/*.po, the
# compiled .mo beside them is committed); the API and the analyzer's report stay English.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

# --- Static files (served by WhiteNoise, also under gunicorn) ---------------
STATIC_URL = "/static/"
# Set for collectstatic (docker image); locally WhiteNoise serves from static/ directly.
STATIC_ROOT = env_str("STATIC_ROOT") or None
STATICFILES_DIRS = [BASE_DIR / "static"]
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    # static/vendor/plotly.min.js from the installed plotly package (no CDN: the site loads nothing from elsewhere).
    "incidents.staticfinders.PlotlyFinder",
]
# Serve straight from static/ when collectstatic has not been run (make run).
WHITENOISE_USE_FINDERS = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

# --- Uploads ----------------------------------------------------------------
MEDIA_ROOT = Path(env_str("MEDIA_ROOT", str(VAR_DIR / "media")))
# Every upload goes to a temporary file (never held in memory). It lives under
# MEDIA_ROOT so moving it into the content-addressed store is a rename.
FILE_UPLOAD_HANDLERS = ["incidents.runs.uploads.HashingTemporaryFileUploadHandler"]
FILE_UPLOAD_TEMP_DIR = str(MEDIA_ROOT / "incoming")
os.makedirs(FILE_UPLOAD_TEMP_DIR, exist_ok=True)
FILE_UPLOAD_PERMISSIONS = 0o640
RANKLENS_MAX_UPLOAD_BYTES = env_int("RANKLENS_MAX_UPLOAD_BYTES", 2 * 1024**3)

# --- Analysis -----------------------------------------------------------------
# Extra regular expressions marking checkpoint lines, for every incident on this
# site (in addition to the analyzer's built-in `... passed` / `model run success`).
RANKLENS_CHECKPOINT_PATTERNS = tuple(
    p for p in env_str("RANKLENS_CHECKPOINT_PATTERNS").split("\n") if p.strip()
)
# Scanner processes one analysis may use; 0 = one per CPU, 1 = in-process. Celery's
# prefork children may start them: they die with the child, even when it is killed at
# the hard time limit (analyzers/scan/lifetime.py). With the worker's --concurrency 2 on a
# 2-CPU machine a lone analysis gets both CPUs; two at once share them.
RANKLENS_ANALYZER_WORKERS = env_int("RANKLENS_ANALYZER_WORKERS", 0)

# --- Celery -------------------------------------------------------------------
REDIS_URL = env_str("REDIS_URL")
CELERY_BROKER_DIR = VAR_DIR / "broker"
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
else:
    # kombu's filesystem transport: one file per message, polled by the worker.
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_BROKER_DIR / "queue"),
        "data_folder_out": str(CELERY_BROKER_DIR / "queue"),
        "processed_folder": str(CELERY_BROKER_DIR / "processed"),
        "control_folder": str(CELERY_BROKER_DIR / "control"),
        "store_processed": False,
    }
    for _folder in ("queue", "processed", "control"):
        (CELERY_BROKER_DIR / _folder).mkdir(parents=True, exist_ok=True)
CELERY_TASK_IGNORE_RESULT = True  # state lives on AnalysisRun, not in a result backend
CELERY_RESULT_BACKEND = None
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# A message is acknowledged only after the task finished, and a worker killed mid-task
# (OOM, deploy) gets its message redelivered, so no run is lost with its worker.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# One message at a time: an analysis can take minutes, others should not wait behind it.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = env_int("RANKLENS_TASK_TIME_LIMIT", 60 * 60)
# The soft limit leaves the task a minute (or a tenth of a short limit, at least a second)
# to record the failure; at the same time as the hard limit it would never be raised.
CELERY_TASK_SOFT_TIME_LIMIT = max(
    1, CELERY_TASK_TIME_LIMIT - max(1, min(60, CELERY_TASK_TIME_LIMIT // 10))
)
if REDIS_URL:
    # Redis redelivers an unacknowledged message after visibility_timeout. With
    # acks_late a running task is unacknowledged, so the timeout must exceed the
    # hard time limit, or a long analysis would start a second time while the
    # first is still running.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": CELERY_TASK_TIME_LIMIT + 600}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

# The default cache holds short-lived counters (API request budgets). With Redis every web
# process shares them; without it each process counts for itself.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "ranklens",
            "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Run lifecycle (incidents.runs.heartbeat, incidents.runs.sweeper) ----------------------------
# A running analysis writes a heartbeat this often, also during one long phase.
RANKLENS_HEARTBEAT_SECONDS = env_int("RANKLENS_HEARTBEAT_SECONDS", 15)
# A running run without a heartbeat for this long lost its worker: the sweeper re-queues it.
RANKLENS_HEARTBEAT_STALE_SECONDS = env_int("RANKLENS_HEARTBEAT_STALE_SECONDS", 120)
# A queued run whose message is not in the broker after this long (Redis restarted without
# persistence) is sent again. Where the broker cannot be inspected, age alone decides.
RANKLENS_QUEUED_GRACE_SECONDS = env_int("RANKLENS_QUEUED_GRACE_SECONDS", 60)
# How often every worker's sweeper looks for such runs; 0 turns it off in that worker.
RANKLENS_SWEEP_SECONDS = env_int("RANKLENS_SWEEP_SECONDS", 30)
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# --- API request budgets (incidents.api.throttling) ------------------------------------
# Per caller and window ("N/sec|min|hour|day"); empty switches a budget off. Past it the API
# answers 429 with Retry-After. Counts live in the default cache (Redis with REDIS_URL).
RANKLENS_API_RATE = env_str("RANKLENS_API_RATE", "600/min")
RANKLENS_API_UPLOAD_RATE = env_str("RANKLENS_API_UPLOAD_RATE", "30/min")

# --- Notifications (incidents.runs.webhook) ---------------------------------------
# Where a finished run (done or failed) is announced as JSON, Slack-compatible; off if empty.
RANKLENS_WEBHOOK_URL = env_str("RANKLENS_WEBHOOK_URL")
# The site's address as people reach it (e.g. https://ranklens.example.com): a worker has no
# request to build an absolute incident URL from. Without it the message carries the path.
RANKLENS_BASE_URL = env_str("RANKLENS_BASE_URL").rstrip("/")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
