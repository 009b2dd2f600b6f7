"""The command line: settings errors name the variable, in one line."""

from __future__ import annotations

import io
import json
import sys

import pytest

import bot.__main__
from bot.__main__ import main
from bot.models import Analysis
from tests.support import replay_day


@pytest.fixture(autouse=True)
def keep_test_logging(monkeypatch: pytest.MonkeyPatch) -> None:
    """The suite configures logging once; a command must not point it at a captured stream."""
    monkeypatch.setattr(bot.__main__, "configure_logging", lambda **_: None)


@pytest.mark.usefixtures("environ_clean")
def test_serve_without_credentials_names_the_variable(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert "GITHUB_APP_ID" in err


@pytest.mark.usefixtures("environ_clean")
def test_serve_without_webhook_secret_names_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], private_key_pem: str
) -> None:
    monkeypatch.setenv("GITHUB_APP_ID", "1")
    monkeypatch.setenv("GITHUB_PRIVATE_KEY", private_key_pem)
    assert main(["serve"]) == 2
    assert "GITHUB_WEBHOOK_SECRET" in capsys.readouterr().err


@pytest.mark.usefixtures("environ_clean")
def test_key_path_that_is_not_a_file_is_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GITHUB_APP_ID", "1")
    monkeypatch.setenv("GITHUB_PRIVATE_KEY_PATH", "/nonexistent/key.pem")
    monkeypatch.setenv("GITHUB_WEBHOOK_SECRET", "s")
    assert main(["serve"]) == 2
    assert "GITHUB_PRIVATE_KEY_PATH" in capsys.readouterr().err


@pytest.mark.usefixtures("environ_clean")
def test_invalid_value_names_the_variable(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PORT", "not-a-port")
    assert main(["serve"]) == 2
    assert "PORT" in capsys.readouterr().err


@pytest.mark.usefixtures("environ_clean")
def test_unsupported_database_is_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", "mysql://localhost/db")
    assert main(["migrate"]) == 2
    assert "DATABASE_URL" in capsys.readouterr().err


def _run_classify(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    lines: list[str],
    *args: str,
) -> tuple[int, list[dict[str, object]]]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    code = main(["classify", *args])
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return code, out


@pytest.mark.usefixtures("environ_clean")
def test_classify_reads_github_commits_and_simple_lines(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    day = replay_day("vllm-project/llm-compressor", "2026-06-22")
    lines = [json.dumps(c) for c in day["commits"][:3]]
    lines.append(
        json.dumps(
            {"sha": "abc", "message": "[Doc] Fix typo (#1)", "files": [{"filename": "docs/a.md"}]}
        )
    )
    code, out = _run_classify(monkeypatch, capsys, lines)
    assert code == 0
    assert [o["sha"] for o in out] == [c["sha"] for c in day["commits"][:3]] + ["abc"]
    for result in out:
        result.pop("sha")
        Analysis.model_validate(result)
    assert out[3]["change_types"] == ["docs"] and out[3]["importance"] == "low"


@pytest.mark.usefixtures("environ_clean")
def test_classify_answers_bad_lines_with_an_error_object(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    good = json.dumps({"sha": "abc", "message": "feat: add a flag"})
    code, out = _run_classify(
        monkeypatch, capsys, ["not json", good, '{"sha": "x"}', "[1, 2]", "", good]
    )
    assert code == 1
    assert [o.get("line") for o in out] == [1, None, 3, 4, None]
    assert "invalid JSON" in str(out[0]["error"])
    assert out[1]["sha"] == out[4]["sha"] == "abc"


@pytest.mark.usefixtures("environ_clean")
def test_classify_writes_in_the_chosen_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    line = json.dumps(
        {
            "sha": "b",
            "message": "feat!: drop the v1 API",
            "files": [{"filename": "pkg/api/v1.py", "deletions": 400}],
        }
    )
    _, (out,) = _run_classify(monkeypatch, capsys, [line], "--lang", "zh-CN")
    assert out["risks"][0]["description"] == "破坏性变更"
