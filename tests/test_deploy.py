"""The deployment files say what the App needs, and no more."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from bot.settings import Settings
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


def dockerfile_steps() -> list[tuple[str, str]]:
    """deploy/Dockerfile's instructions in order, as (INSTRUCTION, arguments), continuation
    lines joined and comments left out, as Docker reads them."""
    text = (ROOT / "deploy/Dockerfile").read_text()
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    joined = re.sub(r"\\\n", " ", "\n".join(lines))
    steps = []
    for line in joined.splitlines():
        if line.strip():
            instruction, _, arguments = line.strip().partition(" ")
            steps.append((instruction.upper(), " ".join(arguments.split())))
    return steps


def test_dockerfile_installs_dependencies_in_a_layer_of_their_own() -> None:
    steps = [(i, a) for i, a in dockerfile_steps() if i in ("COPY", "RUN")]
    copies = [n for n, (i, _) in enumerate(steps) if i == "COPY"]
    # The first thing copied is the dependency list alone...
    assert steps[copies[0]] == ("COPY", "pyproject.toml ./")
    # ...then the dependencies are installed from it, before any code is there...
    deps = next(n for n, (i, a) in enumerate(steps) if i == "RUN" and "pip install -r" in a)
    assert copies[0] < deps < copies[1]
    code = next(n for n, (i, a) in enumerate(steps) if i == "COPY" and a.startswith("bot "))
    assert deps < code
    # ...and the App last, without touching them again.
    assert steps[-1] == ("RUN", "pip install --no-deps .")
    assert code < len(steps) - 1


def project_version() -> str:
    version: str = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    return version


def test_the_release_workflow_publishes_the_image_the_manifests_run() -> None:
    workflow = load(".github/workflows/release.yml")
    # PyYAML reads the bare key `on` as the boolean true (YAML 1.1).
    trigger = workflow.get("on", workflow.get(True))
    assert trigger == {"push": {"tags": ["v*.*.*"]}}
    assert workflow["permissions"] == {"contents": "read", "packages": "write"}
    (job,) = workflow["jobs"].values()
    steps = {step.get("uses", "").split("@")[0]: step for step in job["steps"]}
    build = steps["docker/build-push-action"]["with"]
    assert (build["file"], build["context"], build["push"]) == ("deploy/Dockerfile", ".", True)
    assert steps["docker/login-action"]["with"]["registry"] == "${{ env.REGISTRY }}"
    meta = steps["docker/metadata-action"]["with"]
    # The repository is where app.yml's homepage says; the tag is the release's version.
    repository = urlsplit(load("app.yml")["url"]).path.strip("/")
    images = meta["images"].replace("${{ env.REGISTRY }}", workflow["env"]["REGISTRY"])
    images = images.replace("${{ env.IMAGE_NAME }}", workflow["env"]["IMAGE_NAME"])
    published = images.replace("${{ github.repository }}", repository)
    assert "type=semver,pattern={{version}}" in meta["tags"].splitlines()
    # The tag is refused unless it is `v` and pyproject.toml's version.
    assert any("pyproject.toml" in step.get("run", "") for step in job["steps"])
    image = f"{published}:{project_version()}"
    (container,) = load("deploy/k8s/deployment.yaml")["spec"]["template"]["spec"]["containers"]
    assert container["image"] == image
    assert load("deploy/docker-compose.yml")["services"]["app"]["image"] == image
    assert f"-t {image} ." in (ROOT / "deploy/Dockerfile").read_text()


def env_example() -> tuple[dict[str, str], set[str]]:
    """deploy/.env.example as Compose reads it (the variables set), and every name it
    mentions, commented out or not."""
    values, named = {}, set()
    for line in (ROOT / "deploy/.env.example").read_text().splitlines():
        m = re.match(r"^(#\s*)?([A-Z][A-Z0-9_]*)=(.*)$", line)
        if m:
            named.add(m[2])
            if not m[1]:
                values[m[2]] = m[3]
    return values, named


def test_env_example_names_the_credentials_and_only_real_settings() -> None:
    values, named = env_example()
    settings = {name.upper() for name in Settings.model_fields}
    assert named <= settings, named - settings
    assert {"GITHUB_APP_ID", "GITHUB_WEBHOOK_SECRET", "GITHUB_PRIVATE_KEY"} <= set(values)
    assert "GITHUB_PRIVATE_KEY_PATH" in named
    # Compose sets the database itself (its PostgreSQL service); a value here would be ignored.
    assert "DATABASE_URL" not in named
    assert "DATABASE_URL" in load("deploy/docker-compose.yml")["services"]["app"]["environment"]


@pytest.mark.usefixtures("environ_clean")
def test_env_example_filled_in_either_way_gives_serve_its_key(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, private_key_pem: str
) -> None:
    values, _ = env_example()
    one_line = "".join(f"{line}\\n" for line in private_key_pem.splitlines())  # the awk line
    key_file = tmp_path / "github-app.pem"
    key_file.write_text(private_key_pem)
    ways = [
        {"GITHUB_PRIVATE_KEY": one_line},
        {"GITHUB_PRIVATE_KEY": "", "GITHUB_PRIVATE_KEY_PATH": str(key_file)},
    ]
    for way in ways:
        filled = {**values, "GITHUB_APP_ID": "1187321", "GITHUB_WEBHOOK_SECRET": "s3cret", **way}
        for name, value in filled.items():
            monkeypatch.setenv(name, value)
        settings = Settings()
        settings.require_github()
        assert settings.private_key_pem().strip() == private_key_pem.strip()
