"""Shared fixtures: people, API tokens, the real corpus, an isolated media root."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from django.utils import translation

from tests.corpus_path import CORPUS

# Checked knowledge is cached between runs (`analyzers.core.knowledge_cache`); a test run
# keeps its own cache instead of the user's.
os.environ.setdefault("RANKLENS_CACHE_DIR", tempfile.mkdtemp(prefix="ranklens-test-cache-"))


@pytest.fixture
def corpus() -> Path:
    """The shared corpus of real logs (see `tests.corpus_path`)."""
    assert CORPUS.is_dir(), f"the shared corpus is missing at {CORPUS}"
    return CORPUS


@pytest.fixture
def crash_bundle(corpus: Path) -> Path:
    """A real 4-rank gloo job where rank 3 crashed with a shape mismatch."""
    return corpus / "torch" / "crash_one_rank.tar.gz"


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path: Path) -> Path:
    """Each test stores uploads in its own temporary media root."""
    root = tmp_path / "media"
    settings.MEDIA_ROOT = root
    settings.FILE_UPLOAD_TEMP_DIR = str(root / "incoming")
    return root


@pytest.fixture(autouse=True)
def quick_password_hashing(settings) -> None:
    """People the tests make get a cheap hash. The real hashers are slow on purpose (most
    of a second per password on a busy CI machine) and the suite makes hundreds of people;
    nothing here tests the hash's strength, and login still checks the password."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def english_after_each_test():
    """A request in Chinese leaves its language active in the thread; the next test's
    direct calls (services, analyzers) must start from the default language again."""
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def api_budgets_off(settings) -> None:
    """The API's request budgets are off, so the many calls a test run makes as one user
    never meet them; tests/incidents/api/test_throttling.py switches them on."""
    settings.RANKLENS_API_RATE = ""
    settings.RANKLENS_API_UPLOAD_RATE = ""


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user(username="alice", password="s3cret-pass")


@pytest.fixture
def bob(django_user_model):
    """A second person of the team, for triage: owners, verdicts, two people in a meeting."""
    return django_user_model.objects.create_user(username="bob", password="s3cret-pass")


@pytest.fixture
def alice_client(client, alice):
    client.force_login(alice)
    return client


@pytest.fixture
def alice_token(alice) -> str:
    from incidents.runs.services import api_token_issue

    token, _ = api_token_issue(username=alice.username)
    return token


@pytest.fixture
def eager_celery(settings):
    """Tasks run at once in the sending thread, as a worker would run them, and no broker
    is needed. Scanners stay in-process: no processes forked from a test's threads."""
    from config.celery import app as celery_app

    settings.RANKLENS_ANALYZER_WORKERS = 1
    saved = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = saved
