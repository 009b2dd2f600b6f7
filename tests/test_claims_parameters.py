"""The claims checker on sentences that name several functions: one parameter's default
changed alike in each, and parameters lost or gained, judged per function from the
signatures Python's own grammar gives at the commit and at its parent."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli.claim_check import Checker, Clone, Verdict
from bot.cli.claims import Kind, claims_in
from tests.clones import _git, commit_files

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

# c82acf3 of encode/starlette in small, and 2026-11-27's `Poster._issue` of this repository
BEFORE = {
    "pkg/client.py": (
        "class TestClient:\n"
        "    def request(self, method, url, *, allow_redirects=None, follow_redirects=None):\n"
        "        return method\n\n"
        "    def get(self, url, *, allow_redirects=None, follow_redirects=None):\n"
        "        return url\n\n"
        "    def head(self, url, *, follow_redirects=None):\n"
        "        return url\n\n\n"
        "class Poster:\n"
        "    def _issue(self, repo, wanted):\n        return repo\n\n\n"
        "class Stream:\n"
        "    def __init__(self, body, background=None):\n        self.body = body\n"
    ),
}
AFTER: dict[str, str | None] = {
    "pkg/client.py": (
        "USE_CLIENT_DEFAULT = object()\n\n\n"
        "class TestClient:\n"
        "    def request(self, method, url, *, follow_redirects=USE_CLIENT_DEFAULT):\n"
        "        return method\n\n"
        "    def get(self, url, *, follow_redirects=USE_CLIENT_DEFAULT):\n"
        "        return url\n\n"
        "    def head(self, url, *, allow_redirects=None, follow_redirects=None):\n"
        "        return url\n\n\n"
        "class Poster:\n"
        "    def _issue(self, repo, draft):\n        return repo\n\n\n"
        "class Stream:\n"
        "    def __init__(self, body):\n        self.body = body\n"
    ),
}
T, F = Verdict.TRUE, Verdict.FALSE
# (the sentence, each claim's (kind, name) and verdict, in order)
CASES = [
    (
        "Changes the default of `follow_redirects` in `TestClient.request`, `TestClient.get` "
        "and 1 more from `None` to `USE_CLIENT_DEFAULT`.",
        [
            (Kind.DEFAULT, "TestClient.request(follow_redirects)", T),
            (Kind.DEFAULT, "TestClient.get(follow_redirects)", T),
        ],
    ),
    (
        # `head` kept its default
        "Changes the default of `follow_redirects` in `TestClient.request`, `TestClient.head` "
        "from `None` to `USE_CLIENT_DEFAULT`.",
        [
            (Kind.DEFAULT, "TestClient.request(follow_redirects)", T),
            (Kind.DEFAULT, "TestClient.head(follow_redirects)", F),
        ],
    ),
    (
        "Changes the default of `TestClient.get(follow_redirects)` from `None` to "
        "`USE_CLIENT_DEFAULT`.",
        [(Kind.DEFAULT, "TestClient.get(follow_redirects)", T)],
    ),
    (
        "`TestClient.request`, `TestClient.get` and 1 more no longer take the parameter "
        "`allow_redirects=None`.",
        [
            (Kind.PARAM_GONE, "TestClient.request", T),
            (Kind.PARAM_GONE, "TestClient.get", T),
        ],
    ),
    # it gained it
    (
        "`TestClient.head` no longer takes the parameter `allow_redirects=None`.",
        [(Kind.PARAM_GONE, "TestClient.head", F)],
    ),
    (
        "`TestClient.head` gains the parameter `allow_redirects=None`.",
        [(Kind.PARAM_NEW, "TestClient.head", T)],
    ),
    # the default it had was `None`
    (
        "`TestClient.request` no longer takes the parameter `allow_redirects=True`.",
        [(Kind.PARAM_GONE, "TestClient.request", F)],
    ),
    (
        "`Poster._issue` no longer takes the parameter `wanted` and gains the parameter `draft`.",
        [(Kind.PARAM_GONE, "Poster._issue", T), (Kind.PARAM_NEW, "Poster._issue", T)],
    ),
    (
        "`Poster._issue` no longer takes the parameter `draft`.",
        [(Kind.PARAM_GONE, "Poster._issue", F)],
    ),
    # a class is called through its `__init__`
    (
        "`Stream` no longer takes the parameter `background=None`.",
        [(Kind.PARAM_GONE, "Stream", T)],
    ),
    ("`Missing.run` gains the parameter `x`.", [(Kind.PARAM_NEW, "Missing.run", F)]),
    # a keyword renamed (tinydb ecdaf1e: `touch(fname, …)` became `touch(path, …)`)
    (
        "The parameter `wanted` of `Poster._issue` is now `draft`.",
        [(Kind.PARAM_RENAMED, "Poster._issue(wanted)", T)],
    ),
    (
        "The parameter `draft` of `Poster._issue` is now `wanted`.",
        [(Kind.PARAM_RENAMED, "Poster._issue(draft)", F)],
    ),
]


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    root = tmp_path_factory.mktemp("claims_parameters") / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    commit_files(root, dict(BEFORE), "A client")
    yield root, commit_files(root, AFTER, "Drop allow_redirects")


@pytest.mark.parametrize(("sentence", "expected"), CASES, ids=[c[0][:60] for c in CASES])
def test_each_function_of_a_sentence_is_one_claim_with_its_own_verdict(
    clone: tuple[Path, str], sentence: str, expected: list[tuple[Kind, str, Verdict]]
) -> None:
    root, sha = clone
    claims, loose = claims_in(sentence)
    assert [(c.kind, c.name) for c in claims] == [(k, n) for k, n, _ in expected]
    # the functions are the claims' names, never names left outside a claim
    assert not loose
    reader = Clone(root)
    try:
        checker = Checker(reader)
        verdicts = [checker.check(sha, c) for c in claims]
    finally:
        reader.close()
    assert [v.verdict for v in verdicts] == [v for _, _, v in expected], [v.why for v in verdicts]
    assert all(v.why for v in verdicts if v.verdict is not Verdict.TRUE)


def test_a_grouped_default_keeps_the_parameter_out_of_the_function_names() -> None:
    claims, _ = claims_in(
        "Changes the default of `follow_redirects` in `TestClient.request`, `TestClient.get` "
        "from `None` to `httpx._client.USE_CLIENT_DEFAULT`."
    )
    assert {(c.old, c.new) for c in claims} == {("None", "httpx._client.USE_CLIENT_DEFAULT")}
    assert "follow_redirects" not in {c.name for c in claims}


def test_each_function_said_with_its_file_is_checked_in_that_file() -> None:
    # werkzeug 0ada8fa1: `parse_cookie` is defined in two changed files, each named after it
    text = (
        "`parse_form_data` in `src/werkzeug/formparser.py`, `parse_cookie` in"
        " `src/werkzeug/http.py`, `parse_cookie` in `src/werkzeug/sansio/http.py` and 2 more"
        " no longer take the parameter `cls=None`."
    )
    claims, _ = claims_in(text)
    assert [(c.name, c.path) for c in claims] == [
        ("parse_form_data", "src/werkzeug/formparser.py"),
        ("parse_cookie", "src/werkzeug/http.py"),
        ("parse_cookie", "src/werkzeug/sansio/http.py"),
    ]
