"""The deployment files say what the App needs, and no more."""

from __future__ import annotations

from typing import Any

import yaml

from bot.web.handlers import ROUTED_EVENTS
from tests.support import ROOT


def load(path: str) -> Any:
    return yaml.safe_load((ROOT / path).read_text())


def test_manifest_asks_for_the_least_that_works() -> None:
    manifest = load("app.yml")
    # Commits land by `push`; `/digest` commands come in comments.
    assert manifest["default_events"] == ["push", "issue_comment", "discussion_comment"]
    # Every event subscribed to is one the webhook stores work for (none answered `ignored`).
    assert set(manifest["default_events"]) <= ROUTED_EVENTS
    assert manifest["default_permissions"] == {
        "contents": "read",
        "metadata": "read",
        "pull_requests": "read",
        "discussions": "write",
        "issues": "write",
    }
    assert manifest["hook_attributes"]["url"].endswith("/webhook")
    assert manifest["public"] is False and manifest["url"].startswith("https://")


def test_procfile_migrates_on_release_and_serves() -> None:
    lines = dict(
        line.split(": ", 1) for line in (ROOT / "Procfile").read_text().splitlines() if line
    )
    assert lines == {"release": "python -m bot migrate", "web": "python -m bot serve"}


def test_kubernetes_runs_replicas_with_probes_and_secrets() -> None:
    deployment = load("deploy/k8s/deployment.yaml")
    spec = deployment["spec"]
    assert spec["replicas"] >= 2
    (container,) = spec["template"]["spec"]["containers"]
    # Readiness asks for the database; liveness only for the process's own loops, so a
    # database outage does not restart every pod.
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    names = {e["name"] for e in container["env"]}
    assert {
        "GITHUB_APP_ID",
        "GITHUB_WEBHOOK_SECRET",
        "DATABASE_URL",
        "GITHUB_PRIVATE_KEY_PATH",
    } <= names
    secret_refs = [e for e in container["env"] if "valueFrom" in e]
    assert all("secretKeyRef" in e["valueFrom"] for e in secret_refs)
    assert spec["template"]["spec"]["securityContext"]["runAsNonRoot"] is True
    assert load("deploy/k8s/service.yaml")["spec"]["selector"] == {"app": "commit-digest"}


def test_compose_runs_the_app_on_postgres() -> None:
    compose = load("deploy/docker-compose.yml")
    app = compose["services"]["app"]
    assert app["environment"]["DATABASE_URL"].startswith("postgresql://")
    assert app["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert compose["services"]["ollama"]["profiles"] == ["llm"]


def test_dockerfile_is_slim_non_root_and_checks_health() -> None:
    dockerfile = (ROOT / "deploy/Dockerfile").read_text()
    assert "FROM python:3.11.11-slim-bookworm" in dockerfile
    assert "USER app" in dockerfile
    assert "HEALTHCHECK" in dockerfile and "/healthz" in dockerfile
