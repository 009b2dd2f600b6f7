"""Words on held-out web frameworks (starlette, werkzeug): a squash log, Python's supported
versions, a runtime `__getattr__`; each a clone shaped like the commit that showed it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.credentials import placeholder
from bot.analysis.messages import without_squash_log
from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.cli.claims_eval import entry_text
from bot.cli.clone import files_with_patches, first_parent_commits
from bot.cli.clone_sources import blob_cache, with_sources
from bot.models import CommitInput
from tests.clones import _git, checked_entry, commit_files

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

# starlette d771bb7's body, as GitHub's "Squash and merge" wrote it
SQUASH_BODY = (
    "* Don't poll for disconnects in BaseHTTPMiddleware via StreamingResponse\n\n"
    "Fixes #2516\n\n* add test\n\n* fmt\n\n"
    "* Update tests/middleware/test_base.py\n\nCo-authored-by: A B <a@example.com>\n\n"
    "* add test for line now missing coverage\n\n* more coverage, fix test\n\n"
    "---------\n\nCo-authored-by: A B <a@example.com>"
)
TITLE = "Don't poll for disconnects in BaseHTTPMiddleware via StreamingResponse (#2620)"


def test_a_squash_log_is_not_the_authors_description() -> None:
    kept = without_squash_log(SQUASH_BODY, TITLE)
    assert "add test" not in kept and "fmt" not in kept
    assert "Fixes #2516" in kept


def test_a_list_the_author_wrote_is_kept() -> None:
    # items on consecutive lines, none the title again and no `---------`: the author's list
    body = "This PR:\n\n* adds a cache for the router\n\n* documents it"
    assert without_squash_log(body, "Faster routing") == body


def test_a_squashed_commit_title_is_never_the_summary(tmp_path: Path) -> None:
    before = {"app/middleware.py": "def call_next(request, poll=True):\n    return request\n"}
    after = {"app/middleware.py": "def call_next(request):\n    return request\n"}
    analysis, _ = checked_entry(tmp_path, before, after, f"{TITLE}\n\n{SQUASH_BODY}")
    assert "missing coverage" not in entry_text(analysis).lower()
    assert "`call_next` no longer takes the parameter `poll=True`" in analysis.summary


def test_python_versions_supported_are_a_requirement_the_checker_finds(tmp_path: Path) -> None:
    # starlette e7605e1 "Drop Python 3.8": the one proven fact is `requires-python`
    project = '[project]\nname = "pkg"\nrequires-python = ">={v}"\ndependencies = []\n'
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pyproject.toml": project.format(v="3.8"), "pkg/app.py": "X = 1\n"},
        {"pyproject.toml": project.format(v="3.9"), "pkg/app.py": "X = 1\n"},
        "Drop Python 3.8",
    )
    assert "Requires `python>=3.9` (was `>=3.8`)." in entry_text(analysis)
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_function_a_runtime_getattr_still_serves_is_not_removed(tmp_path: Path) -> None:
    # werkzeug 539695f6: `parse_etags` became `_parse_etags`, handed out with a deprecation
    # by the module `__getattr__`, which moved under `if not t.TYPE_CHECKING:` (a block
    # that runs; only `if TYPE_CHECKING:` is the type checker's alone)
    getattr_head = "def __getattr__(name):\n"
    before = (
        "import typing as t\n\n\ndef parse_etags(value):\n    return value.split(',')\n\n\n"
        f"{getattr_head}    raise AttributeError(name)\n"
    )
    after = (
        "import typing as t\nimport warnings\n\n\ndef _parse_etags(value):\n"
        "    warnings.warn('parse_etags is deprecated', DeprecationWarning)\n"
        "    return value.split(',')\n\n\n"
        "if not t.TYPE_CHECKING:\n\n"
        f"    {getattr_head}"
        "        alts = {'parse_etags': 'ETags.from_header'}\n"
        "        if name in alts:\n            return globals()[f'_{name}']\n"
        "        raise AttributeError(name)\n"
    )
    analysis, _ = checked_entry(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/http.py": before},
        {"pkg/__init__.py": "", "pkg/http.py": after},
        "deprecate parse_etags",
    )
    assert "Removes `parse_etags`" not in entry_text(analysis)
    assert not analysis.breaking


def test_a_closure_lifted_to_the_module_is_not_added(tmp_path: Path) -> None:
    # werkzeug a6a7dd14: `Map.bind_to_environ`'s nested `_get_wsgi_string` became a module
    # function of the same file
    helper = "def _get_wsgi_string(name):\n    return environ.get(name)\n"
    before = (
        "class Map:\n    def bind_to_environ(self, environ):\n"
        + "".join(f"        {line}\n" for line in helper.splitlines())
        + "        return _get_wsgi_string('HTTP_HOST')\n"
    )
    after = (
        helper.replace("(name)", "(environ, name)")
        + "\n\nclass Map:\n    def bind_to_environ(self, environ):\n"
        + "        return _get_wsgi_string(environ, 'HTTP_HOST')\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path, {"pkg/map.py": before}, {"pkg/map.py": after}, "lift the helper"
    )
    assert "Adds `_get_wsgi_string`" not in entry_text(analysis)
    assert Verdict.FALSE not in verdicts


def test_an_attribute_that_became_a_property_is_not_added(tmp_path: Path) -> None:
    # werkzeug 7734cee9: `content_md5 = header_property(...)` became a deprecated property
    before = "class Request:\n    content_md5 = header_property('Content-MD5')\n"
    after = (
        "import warnings\n\n\nclass Request:\n    @property\n    def content_md5(self):\n"
        "        warnings.warn('content_md5 is deprecated', DeprecationWarning)\n"
        "        return self.headers.get('Content-MD5')\n"
    )
    analysis, verdicts = checked_entry(
        tmp_path, {"pkg/request.py": before}, {"pkg/request.py": after}, "deprecate Content-MD5"
    )
    assert "Adds `Request.content_md5`" not in entry_text(analysis)
    assert Verdict.FALSE not in verdicts


def test_a_merge_by_its_parents_is_no_breaking_headline_by_its_own_diff(tmp_path: Path) -> None:
    # werkzeug c012b33e: GitHub's merge button with the pull request's title as the message
    # ("use `secrets.token_urlsafe` for salt (#3167)"); its diff drops `gen_salt`, which the
    # author's changelog calls private
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    security = (
        "SALT_CHARS = 'abc'\n\n\ndef gen_salt(length):\n"
        "    if length <= 0:\n        raise ValueError('Salt length must be at least 1.')\n"
        "    return 'x' * length\n\n\ndef hash_it(p, salt_length=16):\n"
        "    return p + gen_salt(salt_length)\n"
    )
    after = (
        "import secrets\n\n\ndef hash_it(p, salt_length=16):\n    if salt_length <= 0:\n"
        "        raise ValueError('Salt length must be at least 1.')\n"
        "    return p + secrets.token_urlsafe(salt_length)\n"
    )
    debug = "from ..security import gen_salt\n\nSECRET = gen_salt(20)\n"
    commit_files(
        root,
        {
            "src/werkzeug/__init__.py": "",
            "src/werkzeug/security.py": security,
            "src/werkzeug/debug/__init__.py": debug,
        },
        "Initial layout",
    )
    _git(root, "checkout", "-q", "-b", "salt")
    commit_files(
        root,
        {
            "src/werkzeug/security.py": after,
            "src/werkzeug/debug/__init__.py": "import secrets\n\nSECRET = secrets.token_urlsafe(20)\n",
        },
        "use secrets",
    )
    _git(root, "checkout", "-q", "main")
    _git(root, "merge", "-q", "--no-ff", "salt", "-m", "use secrets for salt (#3167)")
    merge = next(c for c in first_parent_commits(root, "main"))
    assert merge.parents == 2
    commit = CommitInput(
        sha=merge.sha,
        message=merge.message,
        files=with_sources(
            root, merge.sha, files_with_patches(root, [merge.sha])[merge.sha], blob_cache()
        ),
        parents=merge.parents,
    )
    analysis = analyze(commit)
    assert "gen_salt" in entry_text(analysis)  # the branch's facts are still said
    assert not analysis.breaking
    # the same change as a commit of its own is the break its facts prove
    alone = analyze(commit.model_copy(update={"parents": 1}))
    assert alone.breaking


def test_a_commit_from_github_knows_its_parents() -> None:
    # GitHub's "get a commit" lists the parents; a merge has two
    raw = {"sha": "a" * 40, "commit": {"message": "m"}, "parents": [{"sha": "b"}, {"sha": "c"}]}
    assert CommitInput.from_github(raw).parents == 2
    assert CommitInput.from_github({"sha": "a", "message": "m"}).parents == 1


@pytest.mark.parametrize(
    ("message", "replacement"),
    [
        # werkzeug 9029a1e: the advice was "Move to `Python` before …"
        (
            "The 'HTTP_STATUS_CODES' data is deprecated and will be removed in Werkzeug 3.3."
            " Use Python's built-in 'http.HTTPStatus' instead.",
            "http.HTTPStatus",
        ),
        # werkzeug b97e13c: the replacement quoted after "the"
        (
            "The 'dump_csp_header' function is deprecated and will be removed in Werkzeug 3.3."
            " Use the 'ContentSecurityPolicy.to_header' method instead.",
            "ContentSecurityPolicy.to_header",
        ),
    ],
)
def test_a_deprecation_names_the_quoted_replacement(
    tmp_path: Path, message: str, replacement: str
) -> None:
    before = "def old():\n    return 1\n"
    after = (
        "import warnings\n\n\ndef old():\n"
        f"    warnings.warn({message!r}, DeprecationWarning)\n    return 1\n"
    )
    analysis, _ = checked_entry(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/http.py": before},
        {"pkg/__init__.py": "", "pkg/http.py": after},
        "deprecate it",
    )
    advice = " ".join(r.text for r in analysis.recommendations)
    assert f"Move to `{replacement}`" in advice
    assert "`Python`" not in advice


def test_a_private_modules_removal_is_said_after_what_callers_meet(tmp_path: Path) -> None:
    # httpx 8e36f2b: the 🔴 entry's summary was "Removes `set_minimum_tls_version_1_2` from
    # `httpx/_compat.py`", a helper of a module private by its name, before the public API
    # the same change took away
    compat = "def set_minimum_tls_version_1_2(ctx):\n    return ctx\n"
    api = "def get(url, proxies=None):\n    return url\n"
    analysis, _ = checked_entry(
        tmp_path,
        {"httpx/__init__.py": "", "httpx/_compat.py": compat, "httpx/_api.py": api},
        {
            "httpx/__init__.py": "",
            "httpx/_compat.py": "X = 1\n",
            "httpx/_api.py": "def get(url):\n    return url\n",
        },
        "Introduce new SSLContext API",
    )
    assert "_compat.py" not in analysis.summary
    assert "`get` in `httpx/_api.py` no longer takes the parameter `proxies=None`" in (
        analysis.summary
    )


def test_a_private_modules_removal_alone_is_still_said(tmp_path: Path) -> None:
    compat = "def set_minimum_tls_version_1_2(ctx):\n    return ctx\n\n\nX = 1\n"
    analysis, _ = checked_entry(
        tmp_path,
        {"httpx/__init__.py": "", "httpx/_compat.py": compat},
        {"httpx/__init__.py": "", "httpx/_compat.py": "X = 1\n"},
        "Tidy the compatibility helpers",
    )
    assert analysis.summary == ("Removes `set_minimum_tls_version_1_2` from `httpx/_compat.py`.")


def test_a_ci_runners_version_is_no_summary_beside_the_python_requirement(tmp_path: Path) -> None:
    # httpx 4fb9528 "Drop Python 3.8 support": the summary was the publish workflow's
    # `python-version`, the package's own `requires-python` only an insight
    workflow = "jobs:\n  publish:\n    steps:\n      - with:\n          python-version: '{v}'\n"
    project = '[project]\nname = "pkg"\nrequires-python = ">={v}"\n'
    analysis, _ = checked_entry(
        tmp_path,
        {
            ".github/workflows/publish.yml": workflow.format(v="3.8"),
            "pyproject.toml": project.format(v="3.8"),
        },
        {
            ".github/workflows/publish.yml": workflow.format(v="3.9"),
            "pyproject.toml": project.format(v="3.9"),
        },
        "Drop Python 3.8 support",
    )
    assert analysis.summary == "Requires `python>=3.9` (was `>=3.8`)."


def test_a_documentation_stand_in_is_no_credential(tmp_path: Path) -> None:
    # httpx 8e36f2b: `password="password"` in docs/advanced/ssl.md was "a credential" to
    # revoke and rotate
    doc = "# SSL\n\n```python\nctx.load_cert_chain(certfile='c.pem', {arg})\n```\n"
    analysis, _ = checked_entry(
        tmp_path,
        {"docs/ssl.md": doc.format(arg="keyfile='k.key'"), "pkg/app.py": "X = 1\n"},
        {"docs/ssl.md": doc.format(arg='password="password"'), "pkg/app.py": "X = 2\n"},
        "Document client certificates",
    )
    assert not any("credential" in r.description for r in analysis.risks)
    assert placeholder("password") and placeholder("${TOKEN}") and placeholder("<your-key>")
    assert not placeholder("s3cr3t-9f8a7b6c5d4e")


def test_a_removed_class_is_said_once_not_again_by_its_private_methods(tmp_path: Path) -> None:
    # vllm-ascend 2026-07-15: "Removes `BudgetRefiner`, … Removes
    # `BudgetRefiner._read_lookup_table`, …": the methods went with their class
    refiner = (
        "class BudgetRefiner:\n    def refine(self):\n        return self._read()\n\n"
        "    def _read(self):\n        return 1\n\n\ndef keep():\n    return 1\n"
    )
    analysis, _ = checked_entry(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/sched.py": refiner, "pkg/other.py": "A = 1\n"},
        {
            "pkg/__init__.py": "",
            "pkg/sched.py": "def keep():\n    return 2\n",
            "pkg/other.py": "A = 2\n",
        },
        "Drop the budget refiner",
    )
    text = entry_text(analysis)
    assert "`BudgetRefiner`" in text
    assert "BudgetRefiner._read" not in text
