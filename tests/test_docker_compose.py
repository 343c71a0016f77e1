"""docker-compose.yml parses and runs the four services (no Docker engine here)."""

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def load_compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_compose_names_postgres_redis_web_and_worker():
    services = load_compose()["services"]

    assert set(services) == {"postgres", "redis", "web", "worker"}


def test_web_serves_with_gunicorn_and_worker_runs_celery():
    services = load_compose()["services"]

    assert "gunicorn config.wsgi" in services["web"]["command"]
    assert services["worker"]["command"][:4] == ["celery", "-A", "config", "worker"]


def test_web_and_worker_share_database_broker_and_media():
    services = load_compose()["services"]

    for name in ("web", "worker"):
        env = services[name]["environment"]
        assert env["DATABASE_URL"].startswith("postgres://")
        assert env["REDIS_URL"].startswith("redis://redis:")
        assert "media:/data" in services[name]["volumes"]
        assert set(services[name]["depends_on"]) == {"postgres", "redis"}


def test_compose_builds_from_the_dockerfile_here():
    assert load_compose()["services"]["web"]["build"] == "."
    assert (ROOT / "Dockerfile").is_file()
