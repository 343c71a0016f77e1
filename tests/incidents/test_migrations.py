"""The models, wherever their module lives, still match the migrations that built existing
databases: moving a model between packages of the one `incidents` app needs none."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)


def test_models_need_no_new_migration():
    call_command("makemigrations", "incidents", "--check", "--dry-run", verbosity=0)


def test_a_database_from_the_first_schema_upgrades_to_the_latest():
    executor = MigrationExecutor(connection)
    executor.migrate([("incidents", "0001_initial")])
    executor.loader.build_graph()
    latest = executor.loader.graph.leaf_nodes("incidents")
    executor.migrate(latest)
    applied = MigrationExecutor(connection).loader.applied_migrations
    assert set(latest) <= set(applied)
