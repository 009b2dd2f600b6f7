"""The registered App's `.env` and private key, written readable by their owner only."""

from __future__ import annotations

import errno
import itertools
import os
import shlex
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bot.github.manifest import GitHubSite, RegisteredApp
from bot.settings import MissingSetting

KEY_NAME = "github-app.pem"
ENV_NAME = ".env"
_SECRET = 0o600


@dataclass(frozen=True)
class Written:
    env: Path
    key: Path


@dataclass(frozen=True)
class CredentialFiles:
    """Where `register` puts what GitHub hands over, once."""

    folder: Path
    force: bool = False

    @property
    def env(self) -> Path:
        return self.folder / ENV_NAME

    @property
    def key(self) -> Path:
        return self.folder / KEY_NAME

    def check(self) -> None:
        """Refuse before anything is asked of GitHub: the folder must exist, and neither file
        be there unless --force."""
        if not self.folder.is_dir():
            raise MissingSetting(f"--out-dir {self.folder}: not an existing directory")
        try:
            fd, probe = tempfile.mkstemp(prefix=".commit-digest-probe-", dir=self.folder)
            os.close(fd)
            os.unlink(probe)
        except OSError as exc:
            raise MissingSetting(
                f"--out-dir {self.folder}: cannot write there ({exc.strerror or exc})"
            ) from None
        if self.force:
            return
        for path in (self.env, self.key):
            if path.exists() or path.is_symlink():
                raise MissingSetting(
                    f"{path} exists; move it away, or give --force to overwrite it"
                )

    def write(self, app: RegisteredApp, site: GitHubSite) -> Written:
        """The key, then the `.env` naming it. A file that appeared since `check()` is not
        overwritten: GitHub hands the key over once, so it goes beside it
        (`.env.APP_ID`, `github-app.APP_ID.pem`)."""
        key = _write_secret(self.key, app.pem, force=self.force, app_id=app.id)
        env = _write_secret(self.env, env_text(app, key, site), force=self.force, app_id=app.id)
        return Written(env=env, key=key)

    @staticmethod
    def save_elsewhere(app: RegisteredApp, site: GitHubSite) -> Written:
        """Where the key goes when `write` failed after GitHub handed it over: new files of
        mode 0600 in the temporary folder (mkstemp picks a name no file has)."""
        fd, key_name = tempfile.mkstemp(prefix=f"github-app.{app.id}.", suffix=".pem")
        key = Path(key_name)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(app.pem)
        fd, env_name = tempfile.mkstemp(prefix=f".env.{app.id}.")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(env_text(app, key, site))
        return Written(env=Path(env_name), key=key)


def env_text(app: RegisteredApp, key: Path, site: GitHubSite) -> str:
    """The settings `serve` needs, as `KEY=value` lines a shell, Compose and systemd read."""
    values = {
        "GITHUB_APP_ID": str(app.id),
        "GITHUB_WEBHOOK_SECRET": app.webhook_secret or "",
        "GITHUB_PRIVATE_KEY_PATH": str(key.resolve()),
        "GITHUB_CLIENT_ID": app.client_id,
        "GITHUB_CLIENT_SECRET": app.client_secret,
    }
    if not site.is_github_com:
        values["GITHUB_API_URL"] = site.api_url
    # Quoted only where needed (a path with a space): a shell, Compose and systemd all read
    # single quotes the same way.
    lines = [f"# {app.name} ({app.html_url}), registered by `commit-digest register`."]
    lines += [f"{name}={shlex.quote(value) if value else ''}" for name, value in values.items()]
    return "\n".join(lines) + "\n"


def _write_secret(path: Path, text: str, *, force: bool, app_id: int) -> Path:
    # Never through a symbolic link, even under --force: a secret goes where it is said to.
    flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | (os.O_TRUNC if force else os.O_EXCL)
    try:
        fd = os.open(path, flags, _SECRET)
    except OSError as exc:
        if exc.errno not in (errno.EEXIST, errno.ELOOP):
            raise
        # Beside it, under a name no file has: never over one, never losing the key.
        for n in itertools.count(1):
            beside = _beside(path, app_id if n == 1 else f"{app_id}-{n}")
            try:
                fd = os.open(beside, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, _SECRET)
            except FileExistsError:
                continue
            path = beside
            break
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        # An existing file overwritten under --force keeps its mode unless told: tighten it.
        os.fchmod(out.fileno(), _SECRET)
        out.write(text)
    return path


def _beside(path: Path, suffix: object) -> Path:
    """`.env.APP_ID`, `github-app.APP_ID.pem`: names git ignores (`.env.*`, `*.pem`)."""
    if path.suffix == ".pem":
        return path.with_name(f"{path.stem}.{suffix}.pem")
    return path.with_name(f"{path.name}.{suffix}")
