"""docker-compose.yml parses and runs the services behind a TLS proxy (no Docker engine here)."""

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def load_compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_compose_names_postgres_redis_web_worker_and_tls_proxy():
    services = load_compose()["services"]

    assert set(services) == {"postgres", "redis", "web", "worker", "proxy"}


def test_web_is_reached_only_through_the_tls_proxy_with_https_settings_on():
    services = load_compose()["services"]

    assert "ports" not in services["web"]
    assert services["proxy"]["ports"] == ["80:80", "443:443"]
    assert "reverse_proxy web:8000" in (ROOT / "deploy" / "Caddyfile").read_text()
    for name in ("web", "worker"):
        assert services[name]["environment"]["RANKLENS_HTTPS"] == "1"


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
