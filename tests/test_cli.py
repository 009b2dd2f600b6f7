"""The command line: settings errors name the variable, in one line."""

from __future__ import annotations

import pytest

import bot.__main__
from bot.__main__ import main


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
