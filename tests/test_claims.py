"""The claims checker (`eval --claims`): each claim of a text judged against a throwaway
clone whose two commits make some claims true and others false, known by construction."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.analysis.measures import Entry
from bot.cli.claim_check import Checker, Clone, Verdict
from bot.cli.claims import Claim, Kind, claims_in
from bot.cli.claims_eval import ClaimsReport, check_entries
from bot.cli.evaluation import git_history
from bot.models import Analysis, ChangeType, CommitInput, Importance
from tests.clones import _git, commit_files

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")


KEPT = "".join(f"def keep_{i}(value):\n    return value + {i}\n\n\n" for i in range(8))
BEFORE = {
    "pkg/core.py": (
        "import os\n\nTIMEOUT = 30\n\n\n"
        "def fetch(url, retries=3):\n"
        '    token = os.environ.get("APP_TOKEN")\n'
        '    mode = os.getenv("APP_MODE")\n'
        "    return url, token, mode\n\n\n"
        "def helper_fn():\n    return 1\n\n\n"
        "def old_name():\n    return 2\n\n\n"
        "def connect():\n    return 3\n\n\n"
        "class Client:\n"
        "    def get(self):\n        return 1\n\n"
        "    def close(self):\n        return None\n"
    ),
    "pkg/settings.py": 'import os\n\nMODE = os.environ["APP_MODE"]\n',
    "pkg/limits.py": (
        "class Parser:\n    max_file_size = 1024 * 1024\n\n"
        "    def read(self):\n        size = 5\n        return size\n"
    ),
    "pkg/cli.py": (
        "import argparse\n\nparser = argparse.ArgumentParser()\n"
        'parser.add_argument("--fast", action="store_true")\n'
        'parser.add_argument("--out")\n'
    ),
    "pkg/gone.py": "def unused():\n    return 0\n",
    "pkg/old_home.py": KEPT + "def drop():\n    return 0\n",
    "README.md": "# Tool\n\n## Usage\n\nRun it.\n",
    "Makefile": "lint:\n\tblack .\n",
    "tests/test_core.py": "def test_thing():\n    assert True\n",
    "kern/ops.cu": "__global__ void scale(float* x) { x[0] *= 2.0f; }\n",
    "kern/tri.py": "import triton\n",
    "lib/tool.rb": "def rb_helper\n  1\nend\n",
    "requirements.txt": "requests>=2.0\n",
}
AFTER: dict[str, str | None] = {
    "pkg/limits.py": (
        "LIMIT = 30\n\n\nclass Parser:\n    spool_max_size = 1024 * 1024\n"
        "    max_part_size = 2048\n\n"
        "    def read(self):\n        size = 7\n        return size\n"
    ),
    "pkg/core.py": (
        "import os\n\nTIMEOUT = 30\n\n\n"
        "def fetch(url, retries=5):\n"
        '    debug = os.environ.get("APP_DEBUG")\n'
        "    return url, debug\n\n\n"
        "def parse(text):\n    return text.split()\n\n\n"
        "def new_name():\n    return 2\n\n\n"
        "def legacy():\n"
        "    # legacy() is going away soon\n"
        '    warnings.warn("legacy() is deprecated"\n'
        '                  " and will be removed.", DeprecationWarning)\n\n\n'
        "class Client:\n"
        "    def get(self):\n"
        "        def helper2():\n            return 1\n\n"
        "        return helper2()\n\n"
        "    def connect(self):\n        return 3\n\n\n"
        "def close():\n    return None\n"
    ),
    "pkg/util.py": "def helper_fn():\n    return 1\n",
    "pkg/cli.py": (
        "import argparse\n\nparser = argparse.ArgumentParser()\n"
        'parser.add_argument("--fast", action="store_true")\n'
        'parser.add_argument("--slow", action="store_true")\n'
        'parser.add_argument("--out")\n'
        "sub = argparse.ArgumentParser()\n"
        'sub.add_argument("--out")\n'
    ),
    "README.md": (
        "# Tool\n\n## Usage\n\nRun it.\n\n## Claims (`eval --claims`)\n\nChecks.\n\n"
        "## Why “just use grep” Is Not Enough\n\nIt reads.\n"
    ),
    "pkg/gone.py": None,
    "Makefile": "lint:\n\truff check .\n",
    "pkg/patches.py": "import pkg.core\n\npkg.core.Client.get = lambda self: 2\n",
    "pkg/old_home.py": None,
    "pkg/new_home.py": KEPT,
    "pkg/backends.py": 'BACKENDS = {"fast_backend": 1}\n',
    "tests/test_core.py": (
        "class TestCore:\n    def test_thing(self):\n        assert True\n\n\n"
        "def test_new():\n    assert 1\n"
    ),
    "kern/ops.cu": (
        "// blur_all is only a comment here\n"
        "__global__ void scale(float* x) { x[0] *= 2.0f; }\n\n"
        "__global__ void __launch_bounds__(128) blur(float* x) { x[0] += 1.0f; }\n\n"
        "__device__ float clampf(float v) { return v < 0 ? 0 : v; }\n"
    ),
    "kern/tri.py": (
        "import triton\nfrom cutlass import cute\n\n\n"
        "@triton.jit\ndef add_kernel(x):\n    pass\n\n\n"
        "@cute.jit\ndef cute_helper(x):\n    pass\n"
    ),
    "lib/tool.rb": "def rb_helper\n  2\nend\n",
    "requirements.txt": "requests>=2.31\n",
}

# (the sentence, the verdict): each sentence makes exactly one claim
CASES = [
    # constants of a module and a class: added with their value, renamed
    ("Adds `Parser.max_part_size = 2048` to `pkg/limits.py`.", Verdict.TRUE),
    ("Adds `Parser.max_part_size = 4096` to `pkg/limits.py`.", Verdict.FALSE),  # its value
    ("Adds `LIMIT = 30`.", Verdict.TRUE),
    ("Adds `Parser.spool_max_size = 1024 * 1024`.", Verdict.TRUE),
    ("Adds `Parser.size = 7`.", Verdict.FALSE),  # a function's local, no class attribute
    ("Renames `Parser.max_file_size` to `Parser.spool_max_size` in `pkg/limits.py`.", Verdict.TRUE),
    ("Renames `Parser.max_part_size` to `Parser.spool_max_size`.", Verdict.FALSE),
    ("Adds `parse` to `pkg/core.py`.", Verdict.TRUE),
    ("Adds `parse`.", Verdict.TRUE),
    ("Adds `fetch` to `pkg/core.py`.", Verdict.FALSE),  # it was there before
    ("Adds `helper_fn` to `pkg/util.py`.", Verdict.FALSE),  # moved from core.py
    ("Adds `Client.helper2`.", Verdict.FALSE),  # a closure, not a member of the class
    ("Adds `Client.get.helper2`.", Verdict.TRUE),
    ("Adds `pkg/util.py`.", Verdict.TRUE),
    ("Changes `pkg/`.", Verdict.TRUE),  # a folder the commit changes files under
    ("Adds `pkg/`.", Verdict.FALSE),  # the folder was there
    ("Adds `rb_helper`.", Verdict.UNVERIFIABLE),  # Ruby: no rules
    ("Adds `util`.", Verdict.TRUE),  # the module pkg/util.py
    ("Adds `fast_backend`.", Verdict.UNVERIFIABLE),  # a new string key, not a definition
    ("Removes `drop` from `pkg/new_home.py`.", Verdict.TRUE),  # the file was renamed
    ("Removes `keep_1` from `pkg/new_home.py`.", Verdict.FALSE),
    ("Adds the test `test_new`.", Verdict.TRUE),
    ("Adds the test `TestCore.test_thing`.", Verdict.FALSE),  # moved into a class
    ("Adds the kernel `blur`.", Verdict.TRUE),
    ("Adds the kernel `__launch_bounds__`.", Verdict.FALSE),  # an attribute
    ("Adds the kernel `clampf`.", Verdict.FALSE),  # a __device__ function
    ("Adds the kernel `add_kernel`.", Verdict.TRUE),  # @triton.jit
    ("Adds the kernel `cute_helper`.", Verdict.FALSE),  # @cute.jit: a helper
    ("Adds the kernel `blur_all`.", Verdict.FALSE),  # only in a comment
    ("Removes `unused` from `pkg/gone.py`.", Verdict.TRUE),
    ("Removes `pkg/gone.py`.", Verdict.TRUE),
    ("Removes `helper_fn` from `pkg/core.py`.", Verdict.TRUE),
    ("Removes `helper_fn`.", Verdict.FALSE),  # still defined, in util.py
    ("Removes `parse`.", Verdict.FALSE),  # it was never there
    ("Removes `connect`.", Verdict.TRUE),  # the function became a method: gone as a function
    ("Renames `old_name` to `new_name` in `pkg/core.py`.", Verdict.TRUE),
    ("Renames `fetch` to `parse`.", Verdict.FALSE),
    ("Moves `helper_fn` from `pkg/core.py` to `pkg/util.py`.", Verdict.TRUE),
    ("Moves `parse` from `pkg/core.py` to `pkg/util.py`.", Verdict.FALSE),
    ("Changes `fetch` in `pkg/core.py`.", Verdict.TRUE),
    ("Changes `Client.get`.", Verdict.TRUE),
    ("Changes `TIMEOUT`.", Verdict.FALSE),  # the same at both revisions
    ("Changes `parse`.", Verdict.FALSE),  # new, not changed
    ("Changes the default of `retries` from `3` to `5`.", Verdict.TRUE),
    ("Changes the default of `retries` from `3` to `10`.", Verdict.FALSE),
    ("Reads the new environment variable `APP_DEBUG`.", Verdict.TRUE),
    ("Reads the new environment variable `APP_MODE`.", Verdict.FALSE),  # read before
    ("No longer reads the environment variable `APP_TOKEN`.", Verdict.TRUE),
    ("No longer reads the environment variable `APP_MODE`.", Verdict.FALSE),  # settings.py
    ("Adds the command-line flag `--slow`.", Verdict.TRUE),
    ("Adds the command-line flag `--fast`.", Verdict.FALSE),
    ("Adds the command-line flag `--out`.", Verdict.TRUE),  # a second parser takes it
    ("Adds `close` to `pkg/core.py`.", Verdict.FALSE),  # the method moved out of its class
    ("Adds the section “Claims (`eval --claims`)” to `README.md`.", Verdict.TRUE),
    ("Adds the section “Usage” to `README.md`.", Verdict.FALSE),
    # a heading that quotes, in the quotation that names it
    ("Adds the section “Why “just use grep” Is Not Enough” to `README.md`.", Verdict.TRUE),
    ("Removes the command-line flag `--fast`.", Verdict.FALSE),
    ("Requires `requests>=2.31`.", Verdict.TRUE),
    ("Requires `requests>=2.0`.", Verdict.FALSE),
    ("Registers the model `Llama`.", Verdict.UNVERIFIABLE),  # not a kind it checks
    ("Removes `black`.", Verdict.UNVERIFIABLE),  # a tool the Makefile names, not code
    ("Changes `Makefile`.", Verdict.TRUE),  # a changed file named without its folder
    ('Changes `transform="x"`.', Verdict.UNVERIFIABLE),  # not a code name
    ("Adds `pkg.core.Client.get`.", Verdict.TRUE),  # a monkeypatch assigns it
    ("Adds a deprecation warning: “legacy() is deprecated and will be removed.”", Verdict.TRUE),
    ("Adds a deprecation warning: “legacy() is going away soon”", Verdict.FALSE),  # a comment
]


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    root = tmp_path_factory.mktemp("claims") / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    commit_files(root, dict(BEFORE), "Initial layout")
    sha = commit_files(root, AFTER, "Rework the core")
    yield root, sha


@pytest.mark.parametrize(("sentence", "verdict"), CASES, ids=[c[0] for c in CASES])
def test_each_claim_gets_the_verdict_the_repository_proves(
    clone: tuple[Path, str], sentence: str, verdict: Verdict
) -> None:
    root, sha = clone
    claims, _ = claims_in(sentence)
    assert len(claims) == 1, claims
    reader = Clone(root)
    try:
        checked = Checker(reader).check(sha, claims[0])
    finally:
        reader.close()
    assert checked.verdict is verdict, checked.why
    if verdict is not Verdict.TRUE:
        assert checked.why  # a false or unverifiable claim says why


# Rust, Go and TypeScript: members qualified by their type, unit structs, type aliases,
# grouped constants and test names given as strings (each gap with a claim that is false)
OTHER_BEFORE = {
    "src/glob.rs": (
        'const HELP: &str = "usage:\n  rg [options]";\n'
        "fn first<'a>(x: &'a str) -> &'a str { x }\n\n"
        "pub struct RegexSetStrategy;\n\n"
        "impl RegexSetStrategy {\n    pub fn matches_all(&self) -> bool { true }\n}\n\n"
        "pub struct GlobSetMatchStrategy;\n\n"
        "impl GlobSetMatchStrategy {\n    pub fn is_match(&self) -> bool { false }\n}\n"
    ),
    "command.go": (
        "package cobra\n\ntype Command struct{}\n\ntype Flag struct{}\n\n"
        'func (f *Flag) Name() string { return "" }\n'
    ),
    "source/errors.ts": (
        "export class HTTPError extends Error {\n"
        "\tstatic isHTTPError(error: unknown): error is HTTPError {\n"
        "\t\treturn error instanceof HTTPError;\n\t}\n}\n\n"
        "export function isKyError(error: unknown): boolean {\n\treturn false;\n}\n\n"
        "export type Hook = () => void;\n"
    ),
    "test/main.ts": "test('retries', async t => {\n\tt.pass();\n});\n",
    "src/index.rs": "",
}
OTHER_AFTER: dict[str, str | None] = {
    "src/glob.rs": (
        'const HELP: &str = "usage:\n  rg [options]";\n'
        "fn first<'a>(x: &'a str) -> &'a str { x }\n\n"
        "pub struct Index;\n\n"
        "pub struct RegexSetStrategy;\n\n"
        "impl RegexSetStrategy {\n    pub fn matches_all(&self) -> bool { true }\n}\n\n"
        "pub struct GlobSetMatchStrategy;\n\n"
        "impl<'a> fmt::Debug for GlobSetMatchStrategy where Self: 'a {\n"
        "    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { Ok(()) }\n}\n\n"
        "impl GlobSetMatchStrategy {\n    pub fn is_match(&self) -> bool { false }\n\n"
        "    pub fn matches_all(&self) -> bool { false }\n\n"
        "    pub fn index(&self) -> usize { 0 }\n}\n\n"
        'fn doc_long() -> &\'static str {\n    r#"\n.BI "\\-g \'" foo/** \'.\n"#\n}\n\n'
        "pub struct IndexCrud;\n\n/* the end */\n"
    ),
    "src/index.rs": None,
    "command.go": (
        "package cobra\n\ntype Command struct{}\n\ntype Flag struct{}\n\n"
        'func (f *Flag) Name() string { return "" }\n\n'
        'func (c *Command) Name() string { return "" }\n\n'
        "const (\n\tShellCompDirectiveDefault = 0\n\tShellCompDirectiveKeepOrder = 1\n)\n\n"
        "type (\n\tCompletion struct {\n\t\tNoSpace bool\n\t}\n)\n"
    ),
    "source/errors.ts": (
        "export class HTTPError extends Error {\n"
        "\tstatic isHTTPError(error: unknown): error is HTTPError {\n"
        "\t\treturn error instanceof HTTPError;\n\t}\n}\n\n"
        "export function isKyError(error: unknown): boolean {\n\treturn false;\n}\n\n"
        "export class KyError extends Error {\n"
        "\tget isKyError(): true {\n\t\treturn true;\n\t}\n\n"
        "\tasync #retryFromError<T extends (...a: any) => Promise<any>>(error: Error, f: T)"
        ": Promise<ReturnType<T> | void> {}\n}\n\n"
        "export type Hook = () => void;\n\n"
        "export type InitHook = (options: Options) => void;\n"
    ),
    "test/main.ts": (
        "test('retries', async t => {\n\tt.pass();\n});\n\n"
        "// test('times out after a second', async t => {});\n"
        "test('retries on 500 with a delay', async t => {\n\tt.pass();\n});\n"
    ),
}
OTHER_CASES = [
    ("Adds `GlobSetMatchStrategy::matches_all`.", Verdict.TRUE),  # RegexSetStrategy had one
    ("Adds `RegexSetStrategy::matches_all`.", Verdict.FALSE),  # it was there
    ("Adds `GlobSetMatchStrategy::fmt`.", Verdict.TRUE),  # `impl Trait for T`, lifetimes
    ("Adds `RegexSetStrategy::fmt`.", Verdict.FALSE),  # another type's
    ("Adds `GlobSetMatchStrategy::index`.", Verdict.TRUE),  # not the removed `index.rs`
    ("Adds `RegexSetStrategy::index`.", Verdict.FALSE),
    ("Adds `IndexCrud`.", Verdict.TRUE),  # `/**` inside a raw string opens no comment
    ("Removes `IndexCrud`.", Verdict.FALSE),
    ("Adds `Index`.", Verdict.TRUE),  # a unit struct
    ("Removes `Index`.", Verdict.FALSE),  # it was not there
    ("Adds `GlobSetMatchStrategy`.", Verdict.FALSE),  # a unit struct already there
    ("Adds `Command.Name`.", Verdict.TRUE),  # Flag had a `Name` method
    ("Adds `Flag.Name`.", Verdict.FALSE),
    ("Adds `ShellCompDirectiveKeepOrder`.", Verdict.TRUE),  # in a `const (…)` group
    ("Removes `ShellCompDirectiveDefault`.", Verdict.FALSE),
    ("Adds `Completion`.", Verdict.TRUE),  # in a `type (…)` group
    ("Adds `NoSpace`.", Verdict.FALSE),  # a field of that struct, not a declaration
    ("Adds `KyError.isKyError`.", Verdict.TRUE),  # a getter; the free `isKyError` was there
    ("Adds `HTTPError.isKyError`.", Verdict.FALSE),  # another class's
    ("Adds `isKyError`.", Verdict.FALSE),  # the free function was there
    ("Adds `HTTPError.isHTTPError`.", Verdict.FALSE),  # a typed static method, there before
    ("Adds `KyError.#retryFromError`.", Verdict.TRUE),  # a private method
    ("Adds `HTTPError.#retryFromError`.", Verdict.FALSE),
    ("Adds `InitHook`.", Verdict.TRUE),  # a type alias
    ("Adds `Hook`.", Verdict.FALSE),  # it was there
    ("Adds the test `retries on 500 with a delay`.", Verdict.TRUE),
    ("Adds the test `times out after a second`.", Verdict.FALSE),  # only in a comment
    ("Adds the test `retries`.", Verdict.FALSE),  # it was there
]


@pytest.fixture(scope="module")
def other_clone(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    root = tmp_path_factory.mktemp("claims_other") / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    commit_files(root, dict(OTHER_BEFORE), "Initial layout")
    yield root, commit_files(root, OTHER_AFTER, "Add strategies")


@pytest.mark.parametrize(("sentence", "verdict"), OTHER_CASES, ids=[c[0] for c in OTHER_CASES])
def test_rust_go_and_typescript_claims_get_the_verdict_the_repository_proves(
    other_clone: tuple[Path, str], sentence: str, verdict: Verdict
) -> None:
    root, sha = other_clone
    claims, _ = claims_in(sentence)
    assert len(claims) == 1, claims
    reader = Clone(root)
    try:
        checked = Checker(reader).check(sha, claims[0])
    finally:
        reader.close()
    assert checked.verdict is verdict, checked.why


def test_a_bare_clone_reads_the_same(clone: tuple[Path, str], tmp_path: Path) -> None:
    root, sha = clone
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(root), str(bare)], check=True)
    claims, _ = claims_in("Removes `helper_fn`. Adds `parse` to `pkg/core.py`.")
    reader = Clone(bare)
    try:
        verdicts = [Checker(reader).check(sha, c).verdict for c in claims]
    finally:
        reader.close()
    assert verdicts == [Verdict.FALSE, Verdict.TRUE]


def test_a_commit_not_in_the_clone_leaves_its_claims_unverifiable(
    clone: tuple[Path, str],
) -> None:
    root, _ = clone
    reader = Clone(root)
    try:
        checked = Checker(reader).check("0" * 40, Claim(Kind.ADDS, "parse", "Adds `parse`."))
    finally:
        reader.close()
    assert checked.verdict is Verdict.UNVERIFIABLE


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Adds `a`, `b` and 3 more to `pkg/x.py`. Changes `c`.",
            [(Kind.ADDS, "a", "pkg/x.py"), (Kind.ADDS, "b", "pkg/x.py"), (Kind.CHANGES, "c", None)],
        ),
        # a verb inside a name (`padded`) or a quotation is not the entry's
        ("Adds `max_padded_len`.", [(Kind.ADDS, "max_padded_len", None)]),
        ("Reverts “Removes `x`”; the behaviour before returns.", []),
        # the verb is said of something else ("support"), not of the names
        ("This PR adds support for RC mode in the Dockerfiles (`Dockerfile.310p`).", []),
        ("Adds the helper `h` and a fix for `g`.", [(Kind.ADDS, "h", None)]),
        (
            "Adds `upgrade` in the new module `db/v2.py` (20 lines).",
            [(Kind.ADDS, "upgrade", "db/v2.py")],
        ),
        (
            "Removes `f` from `a.py` and adds `g` to `b.py`.",
            [(Kind.REMOVES, "f", "a.py"), (Kind.ADDS, "g", "b.py")],
        ),
        ("Requires `numpy>=2` (was `numpy>=1`).", [(Kind.REQUIRES, "numpy>=2", None)]),
        (
            "Changes `DEV` from `a` to `b` in `ci.yml`.",
            [(Kind.VALUE, "DEV", "ci.yml")],
        ),
        (
            "Adds `P.size = 1024 * 1024`, `LIMIT` to `pkg/x.py`.",
            [(Kind.ADDS_VALUE, "P.size", "pkg/x.py"), (Kind.ADDS, "LIMIT", "pkg/x.py")],
        ),
    ],
)
def test_claims_are_read_from_the_words(
    text: str, expected: list[tuple[Kind, str, str | None]]
) -> None:
    claims, _ = claims_in(text)
    assert [(c.kind, c.name, c.path) for c in claims] == expected


def test_a_default_claim_keeps_both_values_and_names_outside_claims_are_counted() -> None:
    claims, loose = claims_in(
        "Changes the default of `retries` from `3` to `5`. Callers of `old` fail."
    )
    assert [(c.name, c.old, c.new) for c in claims] == [("retries", "3", "5")]
    assert loose == ["old"]


def _entry(sha: str, summary: str) -> Entry:
    analysis = Analysis(
        change_types=[ChangeType.FEATURE],
        importance=Importance.MEDIUM,
        summary=summary,
        analyzer="rules",
    )
    return Entry(CommitInput(sha=sha, message="x"), analysis)


def test_the_report_counts_true_false_and_unverifiable_and_names_each_false_claim(
    clone: tuple[Path, str],
) -> None:
    root, sha = clone
    report = ClaimsReport(analyzer="rules")
    entries = [
        _entry(sha, "Adds `parse` to `pkg/core.py`. Removes `helper_fn`. Adds `rb_helper`."),
        _entry("f" * 40, "Adds `parse`."),
    ]
    reader = Clone(root)
    try:
        check_entries(Checker(reader), entries, report)
    finally:
        reader.close()
    text = "\n".join(report.lines())
    assert "checked 2: 1 true, 1 false (50.0% of those checked); 2 unverifiable" in text
    assert report.missing == 1 and "(1 not in the clone" in text
    assert f"{sha[:12]} `helper_fn`: `helper_fn` is still defined at the commit" in text
    assert "“Adds `parse` to `pkg/core.py`. Removes `helper_fn`." not in text


def test_the_command_checks_the_rules_entries_of_a_range(
    clone: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    root, _ = clone
    assert main(["eval", "--claims", "--git", str(root), "--range", "HEAD~1..HEAD"]) == 0
    out = capsys.readouterr().out
    assert "analyser: rules" in out
    assert "commits: 1\n" in out
    assert "claims: " in out and "| kind | claims | true | false | unverifiable |" in out


def test_the_command_refuses_what_it_cannot_check(
    tmp_path: Path, clone: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["eval", "--claims"]) == 2
    assert "--git" in capsys.readouterr().err
    assert main(["eval", "--range", "HEAD~3..HEAD", "--replay", "x"]) == 2
    assert "go with --git" in capsys.readouterr().err
    assert main(["eval", "--show-unverifiable", "--git", "x"]) == 2
    assert "goes with --claims" in capsys.readouterr().err
    assert main(["eval", "--claims", "--git", str(tmp_path)]) == 2  # not a clone
    assert f"--git {tmp_path}" in capsys.readouterr().err
    root, _ = clone
    assert main(["eval", "--claims", "--git", str(root), "--range", "nope..HEAD"]) == 2
    assert "nope" in capsys.readouterr().err
    assert main(["eval", "--claims", "--git", str(root), "--lang", "zh-CN"]) == 2
    assert "English" in capsys.readouterr().err


def test_the_merges_a_digest_shows_are_checked_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # click's first-parent line is all merges: their entries are what readers see, so
    # `eval --claims` reads them (against the first parent) beside the branch's own commits
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    commit_files(root, {"pkg/utils.py": "def safecall(f):\n    return f\n"}, "Initial layout")
    _git(root, "checkout", "-q", "-b", "topic")
    commit_files(root, {"pkg/utils.py": "def safecall(f, quiet=True):\n    return f\n"}, "quiet")
    _git(root, "checkout", "-q", "main")
    _git(root, "merge", "-q", "--no-ff", "-m", "Merge pull request #7 from a/topic", "topic")
    merge = _git(root, "rev-parse", "HEAD")

    read = {c.sha: c for _, c in git_history(root, merges=True)}
    assert merge in read and read[merge].parents == 2
    assert "quiet=True" in (read[merge].files[0].patch or "")
    assert merge not in {c.sha for _, c in git_history(root)}
    assert main(["eval", "--claims", "--git", str(root)]) == 0
    assert "commits: 3\n" in capsys.readouterr().out
