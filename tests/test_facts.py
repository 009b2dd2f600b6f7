"""The facts one change holds, read from real hunks of the replay days (repo, day, sha named
in each case) and from small hand-made ones for what those days lack."""

from __future__ import annotations

from dataclasses import asdict

import pytest

from bot.analysis.facts import (
    Facts,
    NameKind,
    NumberKind,
    Registry,
    read_facts,
)
from bot.analysis.facts.scan import hunks
from bot.analysis.paths import PathKind
from bot.models import CommitInput, FileChange, PullRequestInfo
from tests.support import replay_commit, replay_day, replay_index

ASCEND = "vllm-project/vllm-ascend"
COMPRESSOR = "vllm-project/llm-compressor"


def facts_of(repo: str, day: str, sha: str) -> Facts:
    return read_facts(replay_commit(repo, day, sha))


def names(records: tuple[object, ...]) -> list[str]:
    out = []
    for r in records:
        if hasattr(r, "old") and hasattr(r, "new") and hasattr(r.old, "name"):
            out.append(f"{r.old.name} -> {r.new.name}")
        elif hasattr(r, "old") and hasattr(r, "new"):
            out.append(f"{r.name}: {r.old} -> {r.new}")
        elif hasattr(r, "package"):
            out.append(f"{r.package}{r.spec} (was {r.old})")
        elif hasattr(r, "name"):
            out.append(r.name)
        else:
            out.append(getattr(r, "text", str(r)))
    return out


# (repo, day, sha, field, what it must hold, what it must not)
CASES: list[tuple[str, str, str, str, list[str], list[str]]] = [
    # additional_config keys dropped and one default turned on, in `ascend_config.py`
    (
        ASCEND,
        "2026-06-17",
        "2b3910f",
        "config_keys_removed",
        ["multistream_dsa_preprocess", "prefill_comm_compute_overlap"],
        ["multistream_dsv4_dsa_overlap"],
    ),
    (
        ASCEND,
        "2026-06-17",
        "2b3910f",
        "defaults_changed",
        ["multistream_dsv4_dsa_overlap: False -> True"],
        [],
    ),
    # methods removed from a class (qualified by the class the hunk heading names)
    (
        ASCEND,
        "2026-06-17",
        "2b3910f",
        "removed",
        ["AscendDSAImpl.dsa_warmup_with_multistream"],
        [],
    ),
    # an environment variable read beside a configuration key; the key's `.get("key")` goes,
    # but the added lines still read it (`"key" in cfg`, `cfg["key"]`): it is not dropped
    (ASCEND, "2026-06-23", "620555f", "env_added", ["VLLM_ASCEND_BALANCE_SCHEDULING"], []),
    (ASCEND, "2026-06-23", "620555f", "config_keys_removed", [], ["enable_balance_scheduling"]),
    # a package's `__init__.py` stops importing a helper from a module outside it: the
    # helper was never the package's to export, and nothing defined is removed
    (ASCEND, "2026-06-23", "37b9840", "exports_removed", [], ["vllm_version_is"]),
    (ASCEND, "2026-06-23", "37b9840", "removed", [], ["vllm_version_is"]),
    # C++: an operator renamed, its registration with CANN's OP_ADD and its kernel entry
    (
        ASCEND,
        "2026-06-23",
        "6e9fabb",
        "renamed",
        [
            "QuantLightningIndexer -> QuantLightningIndexerCustom",
            "quant_lightning_indexer -> quant_lightning_indexer_custom",
        ],
        [],
    ),
    (ASCEND, "2026-06-23", "6e9fabb", "registered", ["QuantLightningIndexerCustom"], []),
    (ASCEND, "2026-06-23", "6e9fabb", "unregistered", ["QuantLightningIndexer"], []),
    # a Python function renamed in place
    (
        ASCEND,
        "2026-06-23",
        "28e9216",
        "renamed",
        ["weak_ref_encoder_graph_workspaces -> weak_ref_workspaces"],
        [],
    ),
    # a Triton kernel (`@triton.jit`) and its launcher
    (
        ASCEND,
        "2026-07-10",
        "abfb0e5",
        "added",
        ["_swiglustep_kernel", "swiglustep_forward_triton"],
        [],
    ),
    # a package's `__init__.py` exports two new functions; the PR text fixes an issue
    (
        COMPRESSOR,
        "2026-08-18",
        "be460a3",
        "exports_added",
        ["estimate_job_memory", "exec_jobs_dynamic"],
        [],
    ),
    (COMPRESSOR, "2026-08-18", "be460a3", "fixes", ["2975"], []),
    # tests added by name, not among the names the change defines
    (
        COMPRESSOR,
        "2026-08-18",
        "be460a3",
        "tests_added",
        ["test_estimate_single_file", "test_pick_most_free_device"],
        [],
    ),
    (
        COMPRESSOR,
        "2026-08-18",
        "be460a3",
        "added",
        ["estimate_job_memory"],
        ["test_cpu_path_runs_all_jobs"],
    ),
    # the number the author states
    (COMPRESSOR, "2026-08-18", "8f64866", "numbers", ["3.14x speedup"], []),
    # a requirement moved from one pin to another
    (
        COMPRESSOR,
        "2025-10-01",
        "b4a99d4",
        "requirements",
        ["compressed-tensors==0.12.0 (was ==0.11.0)"],
        [],
    ),
    # a DeprecationWarning raised with a message that deprecates nothing (an argument not
    # supported) is no deprecation; one reworded in place is not new
    (
        ASCEND,
        "2026-06-23",
        "bdc1523",
        "deprecations",
        [],
        ["head_first=True is not supported"],
    ),
    (ASCEND, "2026-06-17", "c8b905b", "deprecations", [], ["chunk_gated_delta_rule: head_first"]),
    # the function whose body a fix edits, when nothing is added or removed
    (COMPRESSOR, "2026-08-18", "612cdfd", "changed", ["AutoRoundModifier.input_capture_hook"], []),
    # names moved from one module to another are neither added nor removed
    (ASCEND, "2026-01-05", "4a36633", "moved", ["AscendPCPMetadata -> AscendPCPMetadata"], []),
    (ASCEND, "2026-01-05", "4a36633", "removed", [], ["AscendPCPMetadata"]),
    # a warning that only moved (removed and added again) is not a new deprecation
    (COMPRESSOR, "2025-09-16", "a7bc45d", "deprecations", [], ["`sequential_update=False`"]),
]


@pytest.mark.parametrize(
    ("repo", "day", "sha", "group", "present", "absent"),
    CASES,
    ids=[f"{c[2]}-{c[3]}" for c in CASES],
)
def test_facts_of_real_changes(
    repo: str, day: str, sha: str, group: str, present: list[str], absent: list[str]
) -> None:
    found = names(getattr(facts_of(repo, day, sha), group))
    if group == "fixes":
        found = [str(n) for n in getattr(facts_of(repo, day, sha), group)]
    for item in present:
        assert item in found, (item, found)
    for item in absent:
        assert not any(f.startswith(item) for f in found), (item, found)


def test_kinds_of_definitions() -> None:
    swiglu = facts_of(ASCEND, "2026-07-10", "abfb0e5")
    kinds = {n.name: n.kind for n in swiglu.added}
    assert kinds["_swiglustep_kernel"] is NameKind.KERNEL
    assert kinds["swiglustep_forward_triton"] is NameKind.FUNCTION
    indexer = facts_of(ASCEND, "2026-06-23", "6e9fabb")
    (op,) = indexer.registered
    assert (op.registry, op.via) == (Registry.OPERATOR, "OP_ADD")
    # `Foo<T>::bar` is read as the method `Foo::bar`.
    conv = facts_of(ASCEND, "2026-07-10", "432743d")
    methods = {n.name: n.kind for n in conv.added if "::" in n.name}
    assert methods["CausalConv1dV310::ReadQueryStartLocValue"] is NameKind.METHOD


def test_every_replay_commit_reads_as_plain_data() -> None:
    for day in replay_index():
        for raw in replay_day(day["repo"], day["date"])["commits"]:
            facts = read_facts(CommitInput.from_github(raw, repo=day["repo"]))
            assert facts == read_facts(CommitInput.from_github(raw, repo=day["repo"]))
            data = asdict(facts)
            assert len(data["files"]) == len(raw["files"])
            # Every name the facts give is written somewhere in the change.
            text = "\n".join(f.get("patch") or "" for f in raw["files"]) + raw["commit"]["message"]
            for name in facts.names():
                for part in name.replace("::", ".").split("."):
                    assert part in text, (raw["sha"][:7], name)


def change(path: str, patch: str, status: str = "modified") -> FileChange:
    return FileChange(filename=path, status=status, additions=1, patch=patch)


def test_settings_read_from_flags_environment_and_registries() -> None:
    cli = change(
        "src/pkg/cli.py",
        '@@ -5,3 +5,3 @@ def main():\n-    parser.add_argument("--legacy-mode", action="store_true")\n'
        '-    parser.add_argument("-b", "--batch", type=int, default=8)\n'
        '+    parser.add_argument("-b", "--batch", type=int, default=16)\n'
        '+@click.option("--attention-backend", default="auto")',
    )
    envs = change(
        "src/pkg/envs.py",
        '@@ -10,2 +10,2 @@\n-    "PKG_ATTENTION_BACKEND": lambda: os.getenv("PKG_ATTENTION_BACKEND"),\n'
        '+    os.environ["CHILD_ONLY"] = "1"\n     "PKG_LOG": lambda: os.getenv("PKG_LOG", "info"),',
    )
    registry = change(
        "src/pkg/models/registry.py",
        '@@ -1,2 +1,3 @@ _MODELS = {\n+    "FunAudioChatForConditionalGeneration": ("funaudio", "FunAudioChat"),\n'
        '+ModelRegistry.register_model("Step3p5ForCausalLM", "pkg.step:Step3p5")\n'
        '+        self.register_buffer("offset", torch.ones(1))',
    )
    facts = read_facts(
        CommitInput(sha="a" * 40, message="Tidy the CLI", files=[cli, envs, registry])
    )
    assert names(facts.flags_removed) == ["--legacy-mode"]
    assert names(facts.flags_added) == ["--attention-backend"]
    assert names(facts.defaults_changed) == ["--batch: 8 -> 16"]
    # A variable the code sets for a child process is not one it reads.
    assert names(facts.env_removed) == ["PKG_ATTENTION_BACKEND"] and not facts.env_added
    models = {r.name: r.registry for r in facts.registered}
    assert models == {
        "FunAudioChatForConditionalGeneration": Registry.MODEL,
        "Step3p5ForCausalLM": Registry.MODEL,
    }


def test_a_def_line_whose_comment_alone_changes_edits_nothing() -> None:
    # filelock 166b2b5 (a file beyond the read bounds, read from its patch): the `# noqa` of
    # `release`'s `def` line became a ruff suppression comment; "the fix is in `release`" was false
    lock = change(
        "src/pkg/asyncio.py",
        "@@ -10,3 +10,3 @@ class BaseAsyncFileLock(BaseFileLock):\n"
        "-    async def release(self, force: bool = False) -> None:  # noqa: FBT001\n"
        "+    async def release(self, force: bool = False) -> None:  # ruff:ignore[fbt] 'x'\n"
        "         await self._release(force)\n",
    )
    facts = read_facts(CommitInput(sha="d" * 40, message="fix: lint", files=[lock]))
    assert not facts.changed
    default = change(
        "src/pkg/asyncio.py",
        "@@ -10,3 +10,3 @@ class BaseAsyncFileLock(BaseFileLock):\n"
        "-    async def release(self, force: bool = False) -> None:  # noqa: FBT001\n"
        "+    async def release(self, force: bool = True) -> None:  # noqa: '#' FBT001\n"
        "         await self._release(force)\n",
    )
    facts = read_facts(CommitInput(sha="e" * 40, message="fix: lint", files=[default]))
    assert [n.name for n in facts.changed] == ["BaseAsyncFileLock.release"]


def test_settings_in_tests_docs_and_scripts_are_not_the_packages() -> None:
    test = change(
        "tests/test_x.py",
        '@@ -1 +1 @@\n+@patch.dict(os.environ, {"HCCL_BUFFSIZE": "1024"})\n'
        '+    os.getenv("TEST_ONLY_VAR")',
    )
    script = change("tools/run.py", '@@ -1 +1 @@\n+    parser.add_argument("--dry-run")')
    facts = read_facts(CommitInput(sha="b" * 40, message="x", files=[test, script]))
    assert not facts.env_added and not facts.flags_added


def test_deprecations_say_what_to_use_instead() -> None:
    loader = change(
        "src/pkg/loader.py",
        "@@ -1,1 +1,4 @@\n+    warnings.warn(\n"
        '+        "`VLLM_ATTENTION_BACKEND` is deprecated; use `--attention-backend` instead",\n'
        "+        DeprecationWarning,\n+    )",
    )
    (deprecation,) = read_facts(CommitInput(sha="c" * 40, message="x", files=[loader])).deprecations
    assert deprecation.text.startswith("`VLLM_ATTENTION_BACKEND` is deprecated")
    assert deprecation.replacement == "--attention-backend"


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Decode is 2.3× faster on H100.", [("2.3× faster", NumberKind.SPEEDUP)]),
        (
            "Throughput improves: TPOT -12.5% on 8 GPUs.",
            [("Throughput improves: TPOT -12.5%", NumberKind.CHANGE)],
        ),
        ("Output was corrupted for 94 % of requests.", [("94 % of requests", NumberKind.REACH)]),
        # Numbers in code blocks and tables are data, not statements.
        ("```\n2.3x faster\n```\n| a | 15% faster |", []),
        ("Bumps the version to 0.8.0 for 3 models.", []),
    ],
)
def test_numbers_the_author_states(text: str, found: list[tuple[str, NumberKind]]) -> None:
    facts = read_facts(CommitInput(sha="d" * 40, message=f"Faster decode\n\n{text}"))
    assert [(n.text, n.kind) for n in facts.numbers] == found


def test_fixes_come_from_message_and_pull_request() -> None:
    commit = CommitInput(
        sha="e" * 40,
        message="Fix x (#5)\n\nFixes #12, closes o/r#13.",
        pull_request=PullRequestInfo(
            number=5, body="Resolves https://github.com/o/r/issues/14 and fixes #12"
        ),
    )
    assert read_facts(commit).fixes == (12, 13, 14)


def test_a_change_without_patches_has_its_files_and_text_only() -> None:
    commit = CommitInput(
        sha="f" * 40,
        message="Add kernels (#1)\n\n2x faster.",
        files=[FileChange(filename="csrc/a.cu", status="added", additions=10)],
    )
    facts = read_facts(commit)
    assert [(f.path, f.kind, f.status) for f in facts.files] == [
        ("csrc/a.cu", PathKind.KERNEL, "added")
    ]
    assert not facts.added and facts.names() == frozenset()


def test_hunks_keep_headings_and_sides() -> None:
    (first, second) = hunks(
        "@@ -1,2 +1,2 @@ class A:\n-x\n+y\n ctx\n\\ No newline at end of file\n@@ -9 +9 @@\n+z"
    )
    assert first.heading == "class A:"
    assert first.lines == (("-", "x"), ("+", "y"), (" ", "ctx"))
    assert second.heading == "" and second.lines == (("+", "z"),)


def test_a_fields_default_is_what_field_gives_it_not_its_validation() -> None:
    settings = change(
        "src/pkg/settings.py",
        "@@ -3,3 +3,3 @@ class Settings(BaseSettings):\n"
        "-    lease_seconds: int = Field(default=300, ge=10)\n"
        "+    lease_seconds: int = Field(default=300, ge=1)\n"
        "-    title: str | None = Field(default=DEFAULT_TITLE, max_length=200)\n"
        "+    title: str | None = Field(default=None, max_length=200)\n"
        "-    retries: int = 3\n"
        "+    retries: int = 5",
    )
    facts = read_facts(CommitInput(sha="1" * 40, message="Tune settings", files=[settings]))
    assert names(facts.defaults_changed) == [
        "title: DEFAULT_TITLE -> None",
        "retries: 3 -> 5",
    ]


def test_values_of_settings_files_and_headings_of_documents() -> None:
    # vllm-ascend 2026-07-15 (#11984): the CANN image tag moves in a workflow and in mkdocs.yml.
    cann = facts_of(ASCEND, "2026-07-15", "63a194e")
    assert "cann_image_tag: 9.0.0-910b-ubuntu22.04-py3.12 -> 9.0.1-910b-ubuntu22.04-py3.12" in (
        names(cann.values_changed)
    )
    # A key a file repeats (a list of mappings) is ambiguous and left out.
    listed = change(
        ".github/workflows/ci.yaml",
        "@@ -1,4 +1,4 @@\n-  - name: a\n+  - name: b\n-  - name: c\n+  - name: d",
    )
    assert not read_facts(CommitInput(sha="2" * 40, message="x", files=[listed])).values_changed
    doc = change(
        "docs/guide.md",
        "@@ -1,2 +1,8 @@\n # Guide\n+## Multi-node deployment\n+```bash\n"
        "+# export IMAGE=quay.io/x\n+```\n+## Run it:\n+### Verify the cluster",
        status="modified",
    )
    facts = read_facts(CommitInput(sha="3" * 40, message="x", files=[doc]))
    # A shell comment in a code block and a line that ends like a sentence are no headings.
    assert [s.title for s in facts.sections_added] == [
        "Multi-node deployment",
        "Verify the cluster",
    ]


def test_a_heading_nested_under_one_a_hunk_adds_is_part_of_it() -> None:
    # starlette's release notes, read from the patch (past the bounds on whole files): the
    # new release's "Fixed" is the release's, not a section of its own
    notes = change(
        "docs/release-notes.md",
        "@@ -1,3 +1,9 @@\n # Release Notes\n \n+## 0.47.3 (August 24, 2025)\n+\n"
        "+#### Fixed\n+\n+* Fix the range.\n+\n ## 0.47.2 (July 20, 2025)\n+### Upgrading",
        status="modified",
    )
    facts = read_facts(CommitInput(sha="4" * 40, message="Version 0.47.3", files=[notes]))
    # a heading after the next existing one opens a section of its own
    assert [s.title for s in facts.sections_added] == ["0.47.3 (August 24, 2025)", "Upgrading"]
    # starlette 1eb4036110ef: each release's date moved into its heading, no section added
    dated = change(
        "docs/release-notes.md",
        "@@ -1,6 +1,3 @@\n-## 0.38.3\n+## 0.38.3 (September 1, 2024)\n \n-September 1, 2024\n"
        " \n #### Added\n",
        status="modified",
    )
    facts = read_facts(CommitInput(sha="5" * 40, message="Change the layout", files=[dated]))
    assert facts.sections_added == ()


def test_a_warning_is_a_deprecation_only_when_it_says_so() -> None:
    # llm-compressor's own eval regex names DeprecationWarning in a string: not a warning.
    pattern = change(
        "src/pkg/signals.py",
        '@@ -1 +1,2 @@\n+_DEPRECATION = re.compile(r"DeprecationWarning|@deprecated|will be removed")',
    )
    unsupported = change(
        "src/pkg/ops.py",
        "@@ -1 +1,2 @@\n+    if head_first:\n"
        '+        raise DeprecationWarning("head_first=True is not supported here.")',
    )
    told = change(
        "src/pkg/api.py",
        '@@ -1 +1,2 @@\n+    logger.warning("`use_fast` is deprecated and will be removed in 0.9")',
    )
    facts = read_facts(CommitInput(sha="4" * 40, message="x", files=[pattern, unsupported, told]))
    assert [d.text for d in facts.deprecations] == [
        "`use_fast` is deprecated and will be removed in 0.9"
    ]


def _facts(*files: FileChange) -> Facts:
    return read_facts(CommitInput(sha="b" * 40, message="Tidy", files=list(files)))


def test_an_import_is_not_the_packages_interface_unless_it_comes_from_the_package() -> None:
    # A package's `__init__.py` exports what it imports from itself; an import from the
    # standard library or another package binds a name nobody imports from there.
    init = change(
        "src/pkg/__init__.py",
        "@@ -1,6 +1,2 @@\n-from __future__ import annotations\n"
        "-from typing import TYPE_CHECKING, Any\n-from other.utils import helper, is_310p\n"
        "-from pkg.core import Engine\n-from .io import (\n-    load,\n-    save as store,\n-)\n"
        "+from other.utils import is_310p\n+from .io import load",
    )
    facts = _facts(init)
    assert sorted(names(facts.exports_removed)) == ["Engine", "store"]
    assert not facts.removed


def test_a_name_still_provided_by_the_change_is_not_removed() -> None:
    # Moved under `if TYPE_CHECKING:` and handed out by a module `__getattr__`: still
    # importable.
    lazy = change(
        "pkg/store/__init__.py",
        "@@ -1,3 +1,9 @@\n-from pkg.store.store import Outcome, Store\n"
        "+if TYPE_CHECKING:\n+    from pkg.store.store import Outcome, Store\n"
        ' __all__ = ["Outcome", "Store"]\n+def __getattr__(name: str) -> Any:\n'
        "+    from pkg.store import store\n+    return getattr(store, name)",
    )
    assert not _facts(lazy).exports_removed
    # Taken out of one import, defined in the package itself.
    defined = change(
        "pkg/__init__.py",
        "@@ -1,2 +1,3 @@\n-from pkg.old import Engine, run\n+from pkg.old import run\n"
        "+class Engine:\n+    pass",
    )
    assert not _facts(defined).exports_removed
    # A definition replaced by an import of the same name: the module still has it.
    module = change(
        "pkg/util.py",
        "@@ -1,3 +1,1 @@\n-def helper(x):\n-    return x\n+from pkg.helpers import helper",
    )
    assert not _facts(module).removed
    # ... and where the change defines it in the module it now comes from, it moved there.
    helpers = change("pkg/helpers.py", "@@ -0,0 +1,2 @@\n+def helper(x):\n+    return x", "added")
    moved = _facts(module, helpers)
    assert names(moved.moved) == ["helper -> helper"]
    assert not moved.added and not moved.removed
    # A lazy `__getattr__` dropped with its imports: the names are gone.
    eager = change(
        "pkg/store/__init__.py",
        "@@ -1,4 +1,1 @@\n-from pkg.store.store import Store\n+from pkg.store.db import Db\n"
        "-def __getattr__(name):\n-    from pkg.store import store\n-    return store",
    )
    assert names(_facts(eager).exports_removed) == ["Store"]


def test_a_setting_removed_and_declared_again_is_not_removed() -> None:
    # A flag given `help=` text on lines of their own: the call opens on a context line,
    # names the flag on a removed line and again on an added one.
    cli = change(
        "pkg/cli.py",
        "@@ -1,6 +1,9 @@\n"
        '-    cmd.add_argument("--lang", choices=["en"], default=None)\n'
        "+    cmd.add_argument(\n"
        '+        "--lang", choices=["en"], default=None, help="the language"\n'
        "+    )\n"
        "     cmd.add_argument(\n"
        '-        "--day", default=None, metavar="DAY", help="a day"\n'
        '+        "--day",\n+        default=None,\n+        help="the day",\n'
        "     )\n"
        '-    cmd.add_argument("--gone")',
    )
    facts = _facts(cli)
    assert names(facts.flags_removed) == ["--gone"] and not facts.flags_added
    # Compared by name across the whole change: moved to another module is not removed.
    moved = _facts(
        change("pkg/a.py", '@@ -1 +1 @@\n-p.add_argument("--tz")'),
        change("pkg/b.py", '@@ -1 +1,2 @@\n+p.add_argument(\n+    "--tz", help="zone")'),
    )
    assert not moved.flags_removed and not moved.flags_added
    # Still read on a context line: neither gained nor lost.
    env = _facts(
        change(
            "pkg/envs.py",
            '@@ -1,2 +1,2 @@\n-A = os.getenv("PKG_LEVEL")\n+B = os.getenv("PKG_LEVEL", "1")\n'
            '-C = os.getenv("PKG_MODE")\n D = os.environ.get("PKG_MODE")',
        )
    )
    assert not env.env_removed and not env.env_added


def test_a_configuration_key_is_dropped_only_when_nothing_reads_it() -> None:
    config = change(
        "pkg/config.py",
        "@@ -1,4 +1,4 @@\n"
        '-    a = additional_config.get("enable_balance", False)\n'
        '+    a = "enable_balance" in additional_config and additional_config["enable_balance"]\n'
        '-    b = additional_config.get("use_cache", True)\n'
        "+    b = get_config().use_cache\n"
        '-    c = additional_config.get("old_knob", 1)\n'
        '+    c = "old_knob is gone"',
    )
    assert names(_facts(config).config_keys_removed) == ["old_knob"]


@pytest.mark.parametrize(
    ("path", "line", "keys"),
    [
        # a configuration module reads its configuration by any name
        (
            "pkg/ascend_config.py",
            'cfg.get("weight_prefetch_config", {})',
            ["weight_prefetch_config"],
        ),
        ("pkg/config.py", 'kwargs.get("use_cache", True)', ["use_cache"]),
        # a receiver named for a configuration, in any module
        ("pkg/worker.py", 'self.additional_config.get("enable_x", False)', ["enable_x"]),
        # a stored JSON value, a row or a payload read in a configuration module is no key
        # users write
        ("bot/config_origin.py", 'value.get("sources")', []),
        ("pkg/settings.py", 'row.get("updated_at")', []),
        ("pkg/config.py", 'data.get("items", [])', []),
        # and a `.get` on anything else outside one is no configuration either
        ("pkg/worker.py", 'value.get("sources")', []),
    ],
)
def test_a_configuration_key_is_read_from_a_configuration_not_from_any_data(
    path: str, line: str, keys: list[str]
) -> None:
    facts = _facts(change(path, f"@@ -1 +1,2 @@\n x = 1\n+    a = {line}"))
    assert names(facts.config_keys_added) == keys


def test_from_a_patch_alone_attributes_helpers_and_a_dependencys_variables_are_not_claimed() -> (
    None
):
    # What a patch alone must not claim (issue 27's false claims, read against real history):
    # CUDA attributes before a kernel's name are not kernels, a `@cute.jit` function is a
    # device helper (a `@cute.kernel` one is a kernel), and a variable CUDA or Hugging Face
    # reads is not the project's new setting.
    cuda = change(
        "csrc/routing.cu",
        "@@ -0,0 +1,5 @@\n+__global__ void __launch_bounds__(256, 2) routingKernel(int* x) {\n"
        "+}\n+__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128) gemmKernel(float* y)\n"
        "+{\n+}",
        status="added",
    )
    cute = change(
        "pkg/cute_ops.py",
        "@@ -0,0 +1,6 @@\n+@cute.jit\n+def sigmoid_f32(x):\n+    return x\n"
        "+@cute.kernel\n+def gather_kernel(x):\n+    return x",
        status="added",
    )
    envs = change(
        "pkg/build.py",
        '@@ -1 +1,3 @@\n+CUDA_HOME = os.getenv("CUDA_HOME")\n+TOKEN = os.getenv("HF_TOKEN")\n'
        '+MODE = os.getenv("PKG_MODE")',
    )
    facts = read_facts(CommitInput(sha="b" * 40, message="Add kernels", files=[cuda, cute, envs]))
    kinds = {n.name: n.kind for n in facts.added}
    assert kinds["routingKernel"] is NameKind.KERNEL and kinds["gemmKernel"] is NameKind.KERNEL
    assert not any(name.startswith("__") for name in kinds)
    assert kinds["gather_kernel"] is NameKind.KERNEL
    assert kinds["sigmoid_f32"] is not NameKind.KERNEL
    assert names(facts.env_added) == ["PKG_MODE"]


def test_from_a_patch_a_declaration_or_an_instantiation_is_not_a_definition() -> None:
    # flash-attention 73c992c8ca74: `template void f<…>(…);` instantiates what a header
    # defines; a prototype, on one line or several, declares what another file defines
    header = change(
        "csrc/api.h",
        "@@ -0,0 +1,8 @@\n+void declared_only(int a,\n+                   int b);\n"
        "+extern template void run_align<half_t, 32>(Params &params);\n"
        "+template void run_align<half_t, 64>(Params &params);\n"
        "+int defined_here(int a,\n+                 int b) {\n+    return a + b;\n+}",
        status="added",
    )
    facts = read_facts(CommitInput(sha="c" * 40, message="Declare the API", files=[header]))
    assert [n.name for n in facts.added] == ["defined_here"]
