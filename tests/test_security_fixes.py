"""Security fixes said in the author's words on a change of shipped code are high (a secret
sent to another origin, a `.security` news fragment), and nothing else is: docs, tests or a
feature that only mention one. A revert of a tweak is a tweak; a fragment symlinked to
another is quoted once. Each shaped like the real commit (aiohttp d57efb0, cb1d6a5, 59684b5,
28d1214)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from bot.analysis.rules import analyze
from bot.analysis.security import names_hole
from bot.cli.claim_check import Verdict
from bot.cli.evaluation import git_history
from bot.models import Importance
from tests.clones import checked_entry, commit_files, second_commit

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

_HELPERS = "".join(f"\n\ndef helper{i}(value):\n    return value + {i}\n" for i in range(8))
CLIENT = (
    "class ClientSession:\n"
    "    async def _request(self, method, url, *, cookies=None, headers=None):\n"
    "        while True:\n"
    "            resp = await self._send(method, url, cookies=cookies, headers=headers)\n"
    "            if resp.status not in (301, 302, 303, 307, 308):\n"
    "                return resp\n"
    "            redirect_origin = resp.location.origin()\n"
    "            if url.origin() != redirect_origin:\n"
    "                headers.pop('Authorization', None)\n"
    "                headers.pop('Cookie', None)\n"
    "            url = resp.location\n" + _HELPERS
)
CLIENT_FIXED = CLIENT.replace(
    "            if url.origin() != redirect_origin:\n",
    "            if url.origin() != redirect_origin:\n                cookies = None\n",
)
TEST_BEFORE = "def test_redirect(session):\n    assert session.cookies == {'a': 1}\n"
TEST_AFTER = "def test_redirect(session):\n    assert session.cookies == {}\n"


def test_cookies_sent_to_another_origin_are_a_security_fix(tmp_path: Path) -> None:
    # aiohttp d57efb0 "Drop cookies on redirect": per-request cookies followed a redirect to
    # another origin, an information leak; one line of code, rated medium as a bug fix
    analysis, verdicts = checked_entry(
        tmp_path,
        {"aiohttp/client.py": CLIENT, "tests/test_client.py": TEST_BEFORE},
        {
            "aiohttp/client.py": CLIENT_FIXED,
            "tests/test_client.py": TEST_AFTER,
            "CHANGES/12540.bugfix.rst": "Fixed per-request ``cookies`` not being dropped on "
            "cross-origin redirects -- by :user:`Dreamsorcerer`.\n",
        },
        "Drop cookies on redirect (#12550)",
    )
    assert analysis.importance is Importance.HIGH
    assert "cross-origin redirects" in analysis.summary
    # the entry names the leak, in the author's words, and asks whether it needs an advisory
    assert analysis.insights is not None
    assert analysis.insights.security == (
        "Closes a leak of credentials to another origin or host: “cookies not being dropped "
        "on cross-origin redirects”."
    )
    assert any("advisory" in r.text for r in analysis.recommendations)
    assert Verdict.FALSE not in verdicts


DIGEST = (
    "class DigestAuthMiddleware:\n"
    "    def __init__(self, login, password):\n"
    "        self._login = login\n"
    "        self._password = password\n\n"
    "    async def __call__(self, request, handler):\n"
    "        response = None\n"
    "        for retry_count in range(2):\n"
    "            request.headers['Authorization'] = await self._encode(request)\n"
    "            response = await handler(request)\n"
    "        return response\n" + _HELPERS
)
DIGEST_SCOPED = DIGEST.replace(
    "        self._password = password\n",
    "        self._password = password\n"
    "        # Origin the credentials are scoped to; set on the first request.\n"
    "        self._origin = None\n",
).replace(
    "        response = None\n",
    "        origin = request.url.origin()\n"
    "        if self._origin is None:\n"
    "            self._origin = origin\n"
    "        elif origin != self._origin and not self._in_protection_space(request.url):\n"
    "            return await handler(request)\n\n"
    "        response = None\n",
)


def test_credentials_scoped_to_the_request_origin_are_a_security_fix(tmp_path: Path) -> None:
    # aiohttp cb1d6a5 "Scope DigestAuthMiddleware credentials to the request origin": a
    # redirect to a different origin received a digest computed from the credentials
    analysis, verdicts = checked_entry(
        tmp_path,
        {"aiohttp/client_middleware_digest_auth.py": DIGEST},
        {
            "aiohttp/client_middleware_digest_auth.py": DIGEST_SCOPED,
            "CHANGES/12825.bugfix.rst": "Scoped "
            ":class:`~aiohttp.client_middleware_digest_auth.DigestAuthMiddleware` credentials to "
            "the origin of the first request it handles, so a redirect to a different origin no "
            "longer triggers a digest response computed from the configured credentials -- by "
            ":user:`bdraco`.\n",
        },
        "Scope DigestAuthMiddleware credentials to the request origin (#12825)",
    )
    assert analysis.importance is Importance.HIGH
    assert "a redirect to a different origin no longer triggers" in analysis.summary
    assert analysis.insights is not None
    assert "“a different origin no longer triggers a digest response”" in (
        analysis.insights.security or ""
    )
    assert Verdict.FALSE not in verdicts


def test_a_security_news_fragment_on_shipped_code_is_high(tmp_path: Path) -> None:
    # towncrier's `.security` type is the author filing the change as a security fix
    analysis, _ = checked_entry(
        tmp_path,
        {"aiohttp/client.py": CLIENT},
        {
            "aiohttp/client.py": CLIENT_FIXED,
            "CHANGES/12540.security.rst": "Per-request cookie handling on redirects was "
            "tightened.\n",
        },
        "Tighten redirect handling (#12550)",
    )
    assert analysis.importance is Importance.HIGH


@pytest.mark.parametrize(
    ("after", "message"),
    [
        # docs that explain where credentials go fix nobody's client
        (
            {
                "docs/client.rst": "Credentials\n===========\n\nCookies are never sent to "
                "another origin on a redirect; fix your proxy settings accordingly.\n"
            },
            "Fix docs: cookies are dropped on cross-origin redirects (#1)",
        ),
        # a test that pins it (a fixture's password) is no fix of shipped code
        (
            {
                "tests/test_client.py": TEST_AFTER
                + "\n\nPASSWORD = 'hunter2'\n\n\ndef test_password_not_sent_to_another_host():\n"
                "    assert 'Authorization' not in sent_to('other.example')\n"
            },
            "Fix test: credentials are not leaked to another host (#2)",
        ),
    ],
)
def test_words_about_secrets_beside_no_shipped_code_are_not_high(
    tmp_path: Path, after: dict[str, str | None], message: str
) -> None:
    analysis, _ = checked_entry(
        tmp_path, {"aiohttp/client.py": CLIENT, "tests/test_client.py": TEST_BEFORE}, after, message
    )
    assert analysis.importance is not Importance.HIGH


def test_a_feature_for_cookies_of_other_hosts_is_no_security_fix(tmp_path: Path) -> None:
    # a secret and another host named, but nothing closed: a capability, not a leak fixed
    analysis, _ = checked_entry(
        tmp_path,
        {"aiohttp/client.py": CLIENT},
        {
            "aiohttp/client.py": CLIENT + "\n\ndef share_cookies(jar, hosts):\n"
            "    for host in hosts:\n        jar.share(host)\n    return jar\n",
            "CHANGES/77.feature.rst": "Added ``share_cookies()`` to send cookies to other hosts "
            "the user names.\n",
        },
        "Add share_cookies (#77)",
    )
    assert analysis.importance is not Importance.HIGH


STREAMS = (
    "class StreamReader:\n"
    "    def _read_nowait(self, n):\n"
    "        if n == -1:\n"
    "            count = len(self._buffer)\n"
    "            if count == 1:\n"
    "                return self._read_nowait_chunk(-1)\n"
    '            return b"".join([self._read_nowait_chunk(-1) for _ in range(count)])\n'
    "        return self._read_nowait_chunk(n)\n" + _HELPERS
)
STREAMS_GEN = STREAMS.replace(
    "join([self._read_nowait_chunk(-1) for _ in range(count)])",
    "join(self._read_nowait_chunk(-1) for _ in range(count))",
)


def test_a_revert_of_a_tweak_is_low_and_says_what_it_restores(tmp_path: Path) -> None:
    # aiohttp 59684b5 Revert "Drop list compression (#12857)": two lines back as they were,
    # rated medium while the change it reverts was low; its summary was the title
    root, _ = second_commit(
        tmp_path,
        {"aiohttp/streams.py": STREAMS},
        {"aiohttp/streams.py": STREAMS_GEN},
        "Drop list compression (#12857)",
    )
    commit_files(
        root, {"aiohttp/streams.py": STREAMS}, 'Revert "Drop list compression (#12857)" (#12861)'
    )
    (_, revert), *_ = git_history(root, branch="HEAD~1..HEAD")
    (_, reverted), *_ = git_history(root, branch="HEAD~2..HEAD~1")
    analysis = analyze(revert)
    assert analysis.importance is Importance.LOW
    assert analyze(reverted).importance is Importance.LOW
    assert "`StreamReader._read_nowait` is restored" in analysis.summary


def test_a_revert_of_a_larger_change_stays_medium(tmp_path: Path) -> None:
    # what a revert takes away beyond a tweak is of limited reach, as before
    bigger = STREAMS_GEN + "".join(
        f"\n\ndef extra{i}(value):\n    return value * {i}\n" for i in range(6)
    )
    root, _ = second_commit(
        tmp_path,
        {"aiohttp/streams.py": STREAMS},
        {"aiohttp/streams.py": bigger},
        "Add stream helpers (#12857)",
    )
    commit_files(root, {"aiohttp/streams.py": STREAMS}, 'Revert "Add stream helpers (#12857)"')
    (_, revert), *_ = git_history(root, branch="HEAD~1..HEAD")
    assert analyze(revert).importance is Importance.MEDIUM


REQUEST = (
    "class BaseRequest:\n"
    "    @property\n"
    "    def host(self):\n"
    "        host = self._message.headers.get('Host')\n"
    "        if host is not None:\n"
    "            return host\n"
    "        return socket.getfqdn()\n" + _HELPERS
)
REQUEST_SOCKNAME = REQUEST.replace(
    "        return socket.getfqdn()\n",
    "        sockname = self._protocol.sockname\n"
    "        if sockname is None:\n"
    "            return ''\n"
    "        return sockname[0]\n",
)
BREAKING_NOTE = (
    "Stopped calling :func:`socket.getfqdn` as the fallback for\n"
    ":attr:`aiohttp.web.BaseRequest.host`. :func:`socket.getfqdn`\n"
    "performs blocking reverse DNS resolution on the event loop\n"
    "thread and can stall a worker for many seconds -- by :user:`bdraco`.\n"
)


def test_a_fragment_symlinked_to_another_is_quoted_once(tmp_path: Path) -> None:
    # aiohttp 28d1214: `CHANGES/12597.breaking.rst` links `9308.breaking.rst`; the risks
    # quoted the same sentence twice, once per file
    root = tmp_path / "repo"
    root.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    commit_files(root, {"aiohttp/web_request.py": REQUEST}, "Initial layout")
    os.makedirs(root / "CHANGES")
    os.symlink("9308.breaking.rst", root / "CHANGES" / "12597.breaking.rst")
    commit_files(
        root,
        {"aiohttp/web_request.py": REQUEST_SOCKNAME, "CHANGES/9308.breaking.rst": BREAKING_NOTE},
        "Stop calling socket.getfqdn() in BaseRequest.host fallback (#12597)",
    )
    (_, commit), *_ = git_history(root, branch="HEAD~1..HEAD")
    analysis = analyze(commit)
    quoted = [r.description for r in analysis.risks if "socket.getfqdn" in r.description]
    assert len(quoted) == 1
    assert "CHANGES/9308.breaking.rst" in quoted[0]


def test_a_developers_tool_bumped_for_an_advisory_is_no_security_fix(tmp_path: Path) -> None:
    # the advisory is the tool's: what users install is the same
    analysis, _ = checked_entry(
        tmp_path,
        {"requirements/lint.txt": "black==24.2.0\nruff==0.3.0\n", "aiohttp/client.py": CLIENT},
        {"requirements/lint.txt": "black==24.3.0\nruff==0.3.0\n"},
        "Bump black to 24.3.0 to fix CVE-2024-21503 (#8211)",
    )
    assert analysis.importance is Importance.LOW


# A change of an analyser's leak rule (this project's f914b46): its words name leaks to say
# what is one, not a secret that went anywhere.
RULES = (
    "import re\n\n"
    "LEAK = re.compile(r'(?<!memory )leak(?:s|ed)?')\n\n\n"
    "def exposures(sentence):\n"
    "    return bool(LEAK.search(sentence))\n" + _HELPERS
)


@pytest.mark.parametrize(
    "message",
    [
        "After a review: a file descriptor or thread leaked near a secret is no leak of it; "
        "a version line is the module's own",
        "Read the leak rule anew: credentials named beside a cross-origin redirect are no "
        "leak, a handle leaked is not a leak",
        "Detect leaks of credentials to another host in changelog items too",
    ],
)
def test_words_about_what_a_leak_is_are_no_security_fix(tmp_path: Path, message: str) -> None:
    analysis, _ = checked_entry(
        tmp_path,
        {"pkg/signals.py": RULES},
        {"pkg/signals.py": RULES.replace("(?<!memory )", "(?<!memory )(?<!thread )")},
        message,
    )
    assert analysis.importance is not Importance.HIGH
    assert "another origin" not in str(analysis.insights)


# sqlparse d1d8060, 40ed3aa: a lexer's regex that rescans per opener, and grouping limits
LEXER = (
    "import re\n\n"
    "COMMENT = re.compile(r'/\\*[\\s\\S]*?\\*/')\n\n\n"
    "def comments(text):\n"
    "    return COMMENT.findall(text)\n" + _HELPERS
)
LEXER_FIXED = LEXER.replace(
    "    return COMMENT.findall(text)\n",
    "    out, start = [], text.find('/*')\n"
    "    while start >= 0:\n"
    "        end = text.find('*/', start + 2)\n"
    "        if end < 0:\n"
    "            break\n"
    "        out.append(text[start : end + 2])\n"
    "        start = text.find('/*', end + 2)\n"
    "    return out\n",
)
HEADER = "Development Version\n-------------------\n\nSecurity Fixes\n\n"
ENTRY = (
    "* Fix uncontrolled CPU consumption (ReDoS) in the lexer's handling of multiline\n"
    "  comments (CWE-1333, GHSA-prg7-hcfm-mfcr, reported by EQSTLab).  Fix: resolve the\n"
    "  delimiters in a single linear pass.\n\n"
)
RELEASED = "Release 0.5.5 (Jan 1, 2026)\n----------------------------\n\n* Older fix.\n"


def test_a_fix_whose_changelog_entry_names_the_advisory_is_a_high_security_fix(
    tmp_path: Path,
) -> None:
    # the title alone, and the advisory within an enumeration of the entry the commit adds
    analysis, verdicts = checked_entry(
        tmp_path,
        {"pkg/lexer.py": LEXER, "CHANGELOG": HEADER + RELEASED},
        {"pkg/lexer.py": LEXER_FIXED, "CHANGELOG": HEADER + ENTRY + RELEASED},
        "Fix uncontrolled CPU consumption in the lexer's handling of multiline comments.",
    )
    assert analysis.importance is Importance.HIGH
    assert [t.value for t in analysis.change_types][:2] == ["security", "bugfix"]
    assert Verdict.FALSE not in verdicts


@pytest.mark.parametrize(
    ("title", "high"),
    [
        ("Add hard limits for grouping to prevent DoS attacks.", True),
        ("Pair comment delimiters at the lexer position", False),
        ("Keep MS-DOS line endings in comments", False),
    ],
)
def test_a_denial_of_service_in_the_title_is_a_security_fix(
    tmp_path: Path, title: str, high: bool
) -> None:
    analysis, _ = checked_entry(
        tmp_path, {"pkg/lexer.py": LEXER}, {"pkg/lexer.py": LEXER_FIXED}, title
    )
    types = [t.value for t in analysis.change_types]
    assert (analysis.importance is Importance.HIGH) is high
    assert ("security" in types) is high
    # "comment" names what the code handles: a rewrite of shipped code is no docs change
    assert "docs" not in types


# Commit Digest's own commits that describe its security rule (5be34fd, ce30827, fad54df)
# against sqlparse's fixes (ef2012a, 40ed3aa, d1d8060)
HOLE_RULES = (
    "import re\n\n"
    "HOLE = re.compile(r'ghsa|cve')\n\n\n"
    "def names_hole(text):\n"
    "    return HOLE.search(text) is not None\n" + _HELPERS
)


@pytest.mark.parametrize(
    ("title", "high"),
    [
        # a commit that describes the rule that detects security fixes (Commit Digest 5be34fd,
        # ce30827, fad54df): a `security:` area, the hole kinds listed, the fix a noun
        (
            "security: a fix whose author's words name the hole (GHSA/CVE/CWE, ReDoS, DoS) on "
            "shipped code is high, typed security",
            False,
        ),
        ("security fixes high: GHSA/CVE/CWE, ReDoS, DoS", False),
        (
            "security: an advisory id only within an enumeration of examples names no hole; "
            "snapshot: a rules-rated CI security fix is typed security",
            False,
        ),
        ("Detect ReDoS in the words of a title", False),
        # the change's own fix (sqlparse ef2012a, 40ed3aa, d1d8060)
        ("Fix quadratic DoS in group_comments", True),
        ("Add hard limits for grouping to prevent DoS attacks.", True),
        ("Fix uncontrolled CPU consumption (ReDoS) in the lexer", True),
        ("This fixes a denial of service in the parser", True),
        ("security: escape the pattern before compiling it", True),
    ],
)
def test_a_security_fix_is_the_change_closing_a_hole_not_words_about_holes(
    tmp_path: Path, title: str, high: bool
) -> None:
    analysis, _ = checked_entry(
        tmp_path,
        {"pkg/rules.py": HOLE_RULES},
        {"pkg/rules.py": HOLE_RULES.replace("r'ghsa|cve'", "r'ghsa|cve|cwe'")},
        title,
    )
    types = [t.value for t in analysis.change_types]
    assert ("security" in types) is high
    assert (analysis.importance is Importance.HIGH) is high


def test_an_advisory_id_names_the_hole_and_hole_kinds_listed_do_not() -> None:
    assert names_hole("Resolve the delimiters in one pass (GHSA-prg7-hcfm-mfcr)")
    assert not names_hole("The rule reads GHSA/CVE/CWE, ReDoS, DoS")
    assert not names_hole("fixes: the words ReDoS or DoS")
    assert not names_hole("a fix that names a DoS is high")
