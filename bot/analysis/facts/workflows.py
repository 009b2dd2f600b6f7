"""Facts in GitHub Actions workflows: the runner a release's binaries are built on.

A workflow that a tag or a release starts, whose job builds on several operating systems
(one artifact per platform: binaries, not a pure-Python wheel, which is the same wherever it
is built) and uploads what it built (a build's artifact, a release asset, a package index),
makes what users download; a tag's test matrix that uploads its coverage makes none. A
runner it changes (`ubuntu-latest` → `ubuntu-20.04`) changes the system the binaries are
built against (an older glibc runs on older Linux), so it is no developer's tooling.
Read from both whole texts with a YAML parser, never from the patch.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from bot.analysis.facts.parses import Parses
from bot.analysis.facts.records import DefaultChange
from bot.models import FileChange

# A step that hands what the job built to users: a release's assets, a package index.
_UPLOADS = re.compile(
    r"^(?:softprops/action-gh-release|ncipollo/release-action"
    r"|pypa/gh-action-pypi-publish|svenstaro/upload-release-action)(?:@|$)"
)
_UPLOAD_RUN = re.compile(r"\bgh\s+release\s+(?:upload|create)\b|\btwine\s+upload\b")
# A step that hands a file to a later job: what it holds says whether it is a build's.
_ARTIFACT = re.compile(r"^actions/upload-artifact(?:@|$)")
# An artifact's name or path that is a build's: distributions, wheels, binaries.
_BUILT = re.compile(
    r"(?:^|[\s/*{,-])(?:dist|wheels?|wheelhouse|sdists?|binar(?:y|ies)|build|release|bin)\b"
    r"|\.(?:whl|tar\.gz|zip|exe|dmg|msi|deb|rpm|AppImage)\b",
    re.IGNORECASE,
)
# An artifact's name or path that is a test run's output, whatever folder holds it
# (`build/test-reports/`, `coverage-build`): reports, results, logs, coverage data.
_RUN_OUTPUT = re.compile(
    r"(?<![a-z])(?:tests?|reports?|results?|junit|logs?|coverage|cov|screenshots?|benchmarks?|pytest)"
    r"(?![a-z])",
    re.IGNORECASE,
)
# A step that builds what is released: the package's distributions, wheels per platform.
_BUILDER = re.compile(
    r"^(?:pypa/cibuildwheel|PyO3/maturin-action|hynek/build-and-inspect-python-package)(?:@|$)",
    re.IGNORECASE,
)
_BUILD_RUN = re.compile(
    r"\b(?:python\d?(?:\.\d+)?\s+-\w*m\s*build|pyproject-build|pip\s+wheel|cibuildwheel"
    r"|maturin\s+build|uv\s+build|hatch\s+build|poetry\s+build|pyinstaller|pyoxidizer"
    r"|cargo\s+build|go\s+build)\b"
)
# A runner label's operating system.
_OS = re.compile(r"^(ubuntu|windows|macos)(?:-|$)", re.IGNORECASE)
# `${{ matrix.os }}`: the runner named by a matrix axis
_MATRIX_AXIS = re.compile(r"^\$\{\{\s*matrix\.([\w-]+)\s*\}\}$")


_WORKFLOW = re.compile(r"(^|/)\.github/workflows/[^/]+\.ya?ml$")
_RUNNER_LINE = re.compile(r"\b(?:runs-on|ubuntu|windows|macos)\b", re.IGNORECASE)


def _changed(patch: str) -> list[str]:
    return [
        line[1:]
        for line in patch.split("\n")
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]


def _system(runner: str) -> str | None:
    match = _OS.match(runner)
    return match.group(1).lower() if match else None


def _load(text: str, parses: Parses) -> dict[Any, Any] | None:
    """The workflow's one document (`parses.py`: a bomb is none)."""
    try:
        documents = parses.yaml(text)
    except yaml.YAMLError:
        return None
    document = documents[0] if len(documents) == 1 else None
    return document if isinstance(document, dict) else None


def _released(document: dict[Any, Any]) -> bool:
    """Whether a tag's push or a release starts the workflow. (YAML 1.1 reads a bare `on` as
    True.)"""
    triggers = document.get("on", document.get(True))
    if isinstance(triggers, str):
        return triggers == "release"
    if isinstance(triggers, list):
        return "release" in triggers
    if not isinstance(triggers, dict):
        return False
    push = triggers.get("push")
    return "release" in triggers or (isinstance(push, dict) and "tags" in push)


def _uploads(job: dict[str, Any]) -> bool:
    """Whether the job hands on what it built: it publishes (a release's assets, a package
    index), or uploads an artifact that is a build's (a `dist/` or wheels folder, binaries)
    or beside a step that builds one (`python -m build`, cibuildwheel). A test matrix that
    uploads its coverage data or reports builds nothing users download."""
    steps = job.get("steps")
    artifacts: list[str] = []
    builds = False
    for step in steps if isinstance(steps, list) else ():
        if not isinstance(step, dict):
            continue
        uses, run = step.get("uses"), step.get("run")
        if isinstance(uses, str) and _ARTIFACT.match(uses):
            given = step.get("with")
            artifacts.append(
                " ".join(str(given.get(k, "")) for k in ("name", "path"))
                if isinstance(given, dict)
                else ""
            )
        elif (isinstance(uses, str) and _UPLOADS.match(uses)) or (
            isinstance(run, str) and _UPLOAD_RUN.search(run)
        ):
            return True
        builds = builds or bool(
            (isinstance(uses, str) and _BUILDER.match(uses))
            or (isinstance(run, str) and _BUILD_RUN.search(run))
        )
    return any(builds or (_BUILT.search(a) and not _RUN_OUTPUT.search(a)) for a in artifacts)


def _runners(job: dict[str, Any]) -> list[str]:
    """The runner labels a job runs on: its `runs-on`, or the matrix axis that names it (its
    values and those its `include` adds)."""
    runs_on = job.get("runs-on")
    if isinstance(runs_on, list):
        return [str(r) for r in runs_on]
    if not isinstance(runs_on, str):
        return []
    axis = _MATRIX_AXIS.match(runs_on.strip())
    if axis is None:
        return [runs_on]
    strategy = job.get("strategy")
    matrix = strategy.get("matrix") if isinstance(strategy, dict) else None
    if not isinstance(matrix, dict):
        return []
    values = matrix.get(axis.group(1))
    found = [str(v) for v in values] if isinstance(values, list) else []
    include = matrix.get("include")
    for item in include if isinstance(include, list) else ():
        if isinstance(item, dict) and isinstance(item.get(axis.group(1)), str):
            found.append(item[axis.group(1)])
    return found


def _release_jobs(text: str, parses: Parses) -> dict[str, list[str]]:
    """Each job of a release workflow that builds on several operating systems and uploads
    what it built, with its runner labels; empty for any other workflow."""
    document = _load(text, parses)
    if document is None or not _released(document):
        return {}
    jobs = document.get("jobs")
    out = {}
    for name, job in jobs.items() if isinstance(jobs, dict) else ():
        if not isinstance(job, dict) or not _uploads(job):
            continue
        runners = _runners(job)
        systems = {s for r in runners if (s := _system(r))}
        if len(systems) >= 2:
            out[str(name)] = runners
    return out


def release_runners(f: FileChange, parses: Parses | None = None) -> list[DefaultChange]:
    """The runners a release workflow's binaries are built on that the change replaces, per
    operating system: `ubuntu-latest` → `ubuntu-20.04` (see the module's docstring). Parsed
    only where the patch changes a line naming a runner, once a commit with `parses`."""
    path, sides = f.filename, f.sides
    if (
        f.status != "modified"
        or sides is None
        or not _WORKFLOW.search(path)
        or not any(_RUNNER_LINE.search(line) for line in _changed(f.patch or ""))
    ):
        return []
    parses = Parses() if parses is None else parses
    old_jobs, new_jobs = _release_jobs(sides[0], parses), _release_jobs(sides[1], parses)
    out = []
    for name, new in new_jobs.items():
        old = old_jobs.get(name)
        if old is None:
            continue
        gone = [r for r in old if r not in new]
        came = [r for r in new if r not in old]
        for was in gone:
            now = next((r for r in came if _system(r) and _system(r) == _system(was)), None)
            if now is not None:
                out.append(DefaultChange(name, was, now, path))
    return out
