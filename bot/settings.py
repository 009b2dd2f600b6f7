"""The process's settings, read from the environment once at start; nothing else reads env vars."""

from __future__ import annotations

from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class MissingSetting(Exception):
    """A setting the chosen command needs is not set; the message names the variable."""


def _web_url(value: str) -> str:
    """`value` if it is an absolute http(s) URL with a host; the error says what it is not."""
    parsed = urlsplit(value)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise ValueError(f"must be an http:// or https:// URL, not {value!r}")
    return value


class Settings(BaseSettings):
    """Everything the process is configured with. Built once, frozen, passed down."""

    model_config = SettingsConfigDict(frozen=True, extra="ignore", case_sensitive=False)

    # GitHub App identity. Optional here so that the offline commands need no credentials;
    # `require_github()` enforces them for `serve`.
    github_app_id: str | None = None
    github_private_key: SecretStr | None = None
    github_private_key_path: Path | None = None
    github_webhook_secret: SecretStr | None = None
    # The App's OAuth client (the status page's sign-in); `register` writes both.
    github_client_id: str | None = None
    github_client_secret: SecretStr | None = None
    github_api_url: str = "https://api.github.com"
    github_timeout_seconds: float = Field(default=30.0, gt=0)
    # The key the status page's session cookie is encrypted with; without it, or without the
    # OAuth client, the page says sign-in is not configured.
    session_secret: SecretStr | None = None
    # A session ends this long after sign-in (GitHub's user tokens last 8 hours).
    session_max_age_seconds: int = Field(default=8 * 3600, ge=60, le=8 * 3600)
    # The repositories a person can reach are asked of GitHub again after this long.
    session_recheck_seconds: int = Field(default=300, ge=0)
    # Where people reach the App (https://digest.example.com): the sign-in's callback, and
    # whether the session cookie is sent over https only. Unset: as each request reached it.
    public_url: str | None = None
    # The session cookie's `Secure` flag; unset: on, unless PUBLIC_URL is a plain http:// one.
    session_cookie_secure: bool | None = None

    database_url: str = "sqlite:///./commit-digest.db"
    host: str = "0.0.0.0"
    port: int = Field(default=8080, ge=1, le=65535)
    log_format: Literal["json", "console"] = "json"
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"

    default_language: Literal["en", "zh-CN"] = "en"

    # Webhook bodies being read at once may hold this many bytes together (over it: 503), and
    # each must arrive within this time (GitHub sends its whole body at once).
    webhook_read_budget_bytes: int = Field(default=64 * 1024 * 1024, ge=26 * 1024 * 1024)
    webhook_read_timeout_seconds: float = Field(default=10.0, gt=0)

    # Deliveries are kept this long for dedupe; GitHub redelivers for at most 3 days (7 on GHES).
    delivery_retention_days: int = Field(default=8, ge=1)

    # Recovery of failed webhook deliveries: GitHub never redelivers by itself (3 days at most,
    # 7 on GHES); the App lists its recent deliveries and asks for the ones it missed.
    recovery_enabled: bool = True
    recovery_interval_seconds: float = Field(default=300.0, gt=0)
    recovery_window_days: float = Field(default=3.0, gt=0, le=7)

    # Which background services this process runs: a deployment may split webhook replicas
    # from worker replicas; every replica is safe to run all of them.
    worker_enabled: bool = True
    scheduler_enabled: bool = True

    # The job executor (the names predate it: they still say WORKER_).
    worker_concurrency: int = Field(default=4, ge=1, le=64)
    # Short, renewed by a heartbeat every third of it: a dead holder's work is taken over
    # within a minute.
    worker_lease_seconds: int = Field(default=30, ge=1)
    worker_max_attempts: int = Field(default=5, ge=1)
    worker_poll_seconds: float = Field(default=2.0, gt=0)
    # On SIGTERM, jobs under way get this long to finish before they are given back
    # (Kubernetes allows 30 s in all).
    shutdown_grace_seconds: float = Field(default=8.0, ge=0)
    # Pending commits wait up to this long to be fetched together with those landing after
    # them (fewer GitHub calls); a commit whose digest day ends sooner is taken at once.
    worker_batch_seconds: float = Field(default=0.0, ge=0, le=6 * 3600)
    # Commits of a push range expanded through the compare API stop here; the rest is noted.
    max_range_commits: int = Field(default=1000, ge=1)

    # The analysers.
    llm_base_url: str | None = None
    llm_api_key: SecretStr | None = None
    llm_model: str = "gpt-4o-mini"
    llm_max_input_tokens: int = Field(default=12_000, ge=4_000)
    llm_max_output_tokens: int = Field(default=2_000, ge=200)
    llm_concurrency: int = Field(default=4, ge=1, le=64)
    llm_timeout_seconds: float = Field(default=120.0, gt=0)
    # The LLM's daily allowance per installation (input + output tokens, UTC day); None: none.
    llm_daily_token_budget: int | None = Field(default=None, ge=0)
    # Prices in currency units per million tokens, for the estimated cost in digests and
    # /metrics; 0 leaves the cost out. Cached input is what a provider's prefix cache served.
    llm_price_input_per_mtok: float = Field(default=0.0, ge=0)
    llm_price_cached_input_per_mtok: float = Field(default=0.0, ge=0)
    llm_price_output_per_mtok: float = Field(default=0.0, ge=0)

    # The scheduler.
    grace_minutes: float = Field(default=10.0, ge=0)
    scheduler_max_sleep_seconds: float = Field(default=60.0, gt=0)
    # Catch-up after downtime publishes at most this many missed days per repository.
    catch_up_days: int = Field(default=7, ge=0)

    @field_validator("github_api_url")
    @classmethod
    def _strip_slash(cls, value: str) -> str:
        return _web_url(value).rstrip("/")

    @field_validator("database_url")
    @classmethod
    def _known_engine(cls, value: str) -> str:
        scheme = value.partition(":")[0].split("+")[0]
        if scheme not in {"sqlite", "postgresql", "postgres"}:
            raise ValueError(f"must be sqlite:///PATH or postgresql://…, not {scheme}://")
        return value

    @field_validator("llm_base_url")
    @classmethod
    def _empty_is_none(cls, value: str | None) -> str | None:
        return _web_url(value) if value else None

    @field_validator("session_secret")
    @classmethod
    def _long_secret(cls, value: SecretStr | None) -> SecretStr | None:
        # The cookie holds the person's user token: a guessable key would let anyone who
        # copies a cookie decrypt it offline, or forge one.
        if value is None or not value.get_secret_value():
            return None
        if len(value.get_secret_value()) < 32:
            raise ValueError("must be at least 32 characters (a long random string)")
        return value

    @field_validator("public_url")
    @classmethod
    def _public_url(cls, value: str | None) -> str | None:
        return _web_url(value).rstrip("/") if value else None

    @field_validator("github_private_key", "github_private_key_path", mode="before")
    @classmethod
    def _empty_key_is_unset(cls, value: object) -> object:
        # A .env file lists both ways of giving the key, one of them left empty.
        return None if value == "" else value

    @model_validator(mode="after")
    def _dedupe_outlasts_redelivery(self) -> Settings:
        # A redelivered webhook must still find its delivery id, or it would be stored twice
        # and recovery would take a pruned delivery for a lost one.
        if self.delivery_retention_days < self.recovery_window_days:
            raise ValueError(
                f"DELIVERY_RETENTION_DAYS ({self.delivery_retention_days}) must be at least "
                f"RECOVERY_WINDOW_DAYS ({self.recovery_window_days:g})"
            )
        return self

    def require_github(self) -> None:
        """Stop with one line naming every variable `serve` lacks, not one a run."""
        problems = []
        if not self.github_app_id:
            problems.append("GITHUB_APP_ID is not set: the App's numeric id or client id")
        key_problem = self._private_key_problem()
        if key_problem:
            problems.append(key_problem)
        if self.github_webhook_secret is None or not self.github_webhook_secret.get_secret_value():
            problems.append("GITHUB_WEBHOOK_SECRET is not set: the App's webhook secret")
        if problems:
            raise MissingSetting("; ".join(problems))

    def _private_key_problem(self) -> str | None:
        if self.github_private_key is None and self.github_private_key_path is None:
            return "GITHUB_PRIVATE_KEY (PEM text) or GITHUB_PRIVATE_KEY_PATH is not set"
        path = self.github_private_key_path
        if self.github_private_key is None and path is not None and not path.is_file():
            return f"GITHUB_PRIVATE_KEY_PATH points to {path}, which is not a file"
        variable = "GITHUB_PRIVATE_KEY" if self.github_private_key else "GITHUB_PRIVATE_KEY_PATH"
        try:
            key = serialization.load_pem_private_key(
                self.private_key_pem().encode("utf-8"), password=None
            )
        except (ValueError, TypeError, UnicodeError, OSError):
            return f"{variable} is not a PEM private key (-----BEGIN RSA PRIVATE KEY----- …)"
        if not isinstance(key, rsa.RSAPrivateKey):
            return f"{variable} is not an RSA key: GitHub App keys are RSA"
        return None

    def private_key_pem(self) -> str:
        """The App's private key as PEM text, from the variable or the file it names."""
        if self.github_private_key is not None:
            # Platforms that cannot hold multi-line values often give "\n" escapes.
            return self.github_private_key.get_secret_value().replace("\\n", "\n")
        if self.github_private_key_path is not None:
            return self.github_private_key_path.read_text(encoding="utf-8")
        raise MissingSetting("GITHUB_PRIVATE_KEY (PEM text) or GITHUB_PRIVATE_KEY_PATH is not set")

    def webhook_secret(self) -> str:
        if self.github_webhook_secret is None:
            raise MissingSetting("GITHUB_WEBHOOK_SECRET is not set: the App's webhook secret")
        return self.github_webhook_secret.get_secret_value()

    @property
    def sign_in_configured(self) -> bool:
        """Whether the status page can sign people in: client id, secret and session key."""
        return bool(
            self.github_client_id
            and self.github_client_secret
            and self.github_client_secret.get_secret_value()
            and self.session_secret
            and self.session_secret.get_secret_value()
        )

    @property
    def cookie_secure(self) -> bool:
        """Whether the session cookie goes over https only: as set, else unless the App is
        reached over plain http (`PUBLIC_URL=http://localhost:8080`)."""
        if self.session_cookie_secure is not None:
            return self.session_cookie_secure
        return not (self.public_url or "").startswith("http://")

    @property
    def github_web_url(self) -> str:
        """Where people sign in: github.com for the public API, the host itself on GHES."""
        base = self.github_api_url
        if base == "https://api.github.com":
            return "https://github.com"
        if base.endswith("/api/v3"):
            return base[: -len("/api/v3")]
        return base

    @property
    def graphql_url(self) -> str:
        """GraphQL endpoint that matches the REST base (github.com or GHES)."""
        base = self.github_api_url
        if base.endswith("/api/v3"):
            return base[: -len("/v3")] + "/graphql"
        return base + "/graphql"
