"""The migration that adds token expiry and mark history keeps existing data working:
tokens issued before it still authenticate (with a full expiry period ahead), and every
existing triage mark becomes the first entry of its history."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from incidents.models import token_digest

BEFORE = ("incidents", "0006_run_lifecycle")
AFTER = ("incidents", "0007_token_expiry_activity_log")


def migrate(target: tuple[str, str]):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([target])
    return executor.loader.project_state([target]).apps


@pytest.fixture
def old_schema(transactional_db):
    """The database as it was before the migration; put back to the latest afterwards."""
    apps = migrate(BEFORE)
    yield apps
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_existing_tokens_and_marks_survive_the_migration(old_schema):
    User = old_schema.get_model("auth", "User")
    user = User.objects.create(username="ci-bot")
    secret = "rl_an-old-token-from-ci"
    old_schema.get_model("incidents", "ApiToken").objects.create(
        user=user, digest=token_digest(secret), prefix=secret[:10]
    )
    incident = old_schema.get_model("incidents", "Incident").objects.create(title="t")
    old_schema.get_model("incidents", "TreeMark").objects.create(
        incident=incident, node_id="start", state="checked", note="seen", user=user
    )

    apps = migrate(AFTER)

    token = apps.get_model("incidents", "ApiToken").objects.get(digest=token_digest(secret))
    assert token.revoked_at is None
    assert token.expires_at - timezone.now() > timedelta(days=89)
    revision = apps.get_model("incidents", "TreeMarkRevision").objects.get()
    assert (revision.node_id, revision.state, revision.note, revision.user_id) == (
        "start",
        "checked",
        "seen",
        user.pk,
    )
