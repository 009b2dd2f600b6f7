"""Facts from whole files at both revisions: each false-claim pattern of issue 27 as a case."""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

import bot.analysis.facts as facts_module
from bot.analysis.facts import Facts, read_facts
from bot.analysis.facts.records import Turn
from bot.models import CommitInput, FileChange
from tests.support import whole_commit

# A body long enough to be recognised where it lands under another name or in another file.
BODY = "    total = 0\n    for item in items:\n        total += item * 2\n    return total\n"


def _facts(*files: tuple[str, str | None, str | None]) -> Facts:
    return read_facts(whole_commit(*files))


def _names(group: tuple[Any, ...]) -> list[str]:
    return [n.name for n in group]


def test_a_test_moved_into_a_class_is_not_added() -> None:
    before = f"def test_sum(items=(1, 2)):\n{BODY}"
    after = "class TestSum:\n" + textwrap.indent(
        f"def test_sum(self, items=(1, 2)):\n{BODY}", "    "
    )
    facts = _facts(("tests/test_sum.py", before, after))
    assert facts.tests_added == ()


def test_a_test_moved_to_another_file_is_not_added_but_a_new_one_is() -> None:
    facts = _facts(
        ("tests/test_old.py", f"def test_sum(items):\n{BODY}", ""),
        (
            "tests/test_new.py",
            None,
            f"def test_sum_renamed(items):\n{BODY}\ndef test_new():\n    assert 1 + 1 == 2\n",
        ),
    )
    assert _names(facts.tests_added) == ["test_new"]


@pytest.mark.parametrize(
    ("decorator", "kind"),
    [("@triton.jit", "kernel"), ("@cute.kernel", "kernel"), ("@cute.jit", "function")],
)
def test_only_kernel_decorators_make_kernels(decorator: str, kind: str) -> None:
    facts = _facts(("pkg/ops.py", "", f"{decorator}\ndef scale(x):\n    return x\n"))
    assert [(n.name, n.kind.value) for n in facts.added] == [("scale", kind)]


def test_a_closure_is_not_a_member_of_its_class() -> None:
    before = "class Model:\n    def forward(self):\n        return 1\n"
    after = (
        "class Model:\n    def forward(self):\n"
        "        def step():\n            return 2\n        return step()\n"
    )
    facts = _facts(("pkg/model.py", before, after))
    assert facts.added == ()
    assert _names(facts.changed) == ["Model.forward"]


def test_an_inherited_method_is_not_defined_here() -> None:
    facts = _facts(("pkg/model.py", "", "class Child(Base):\n    pass\n"))
    assert _names(facts.added) == ["Child"]


def test_a_method_pulled_up_into_a_base_class_is_neither_removed_nor_renamed() -> None:
    # Two jobs' copies of `given_up` become one on a base both now derive from, one in
    # another module: each job still has it, by inheritance.
    given_up = "    async def given_up(self, job, reason):\n        count(job, reason)\n"
    facts = _facts(
        (
            "pkg/alerts.py",
            f"class SendAlerts:\n    kind = 1\n\n{given_up}",
            f"class AlertJob:\n{given_up}\n\nclass SendAlerts(AlertJob):\n    kind = 1\n",
        ),
        (
            "pkg/fold.py",
            f"class FoldAlerts:\n    kind = 2\n\n{given_up}",
            "from pkg.alerts import AlertJob\n\n\nclass FoldAlerts(AlertJob):\n    kind = 2\n",
        ),
    )
    assert facts.removed == () and facts.renamed == () and facts.moved == ()
    assert _names(facts.added) == ["AlertJob", "AlertJob.given_up"]


def test_a_method_dropped_from_a_class_whose_base_lacks_it_is_removed() -> None:
    before = "class Base:\n    pass\n\n\nclass Job(Base):\n    def run(self):\n        return 1\n"
    after = "class Base:\n    pass\n\n\nclass Job(Base):\n    pass\n"
    assert _names(_facts(("pkg/job.py", before, after)).removed) == ["Job.run"]


def test_a_name_still_imported_elsewhere_is_not_removed() -> None:
    facts = _facts(
        ("pkg/layers.py", "class RotaryEmbedding:\n    pass\n\nX = 1\n", "X = 1\n"),
        ("pkg/model.py", "import os\n", "import os\nfrom pkg.rope import RotaryEmbedding\n"),
    )
    assert facts.removed == ()


def test_a_public_name_removed_and_not_provided_is_removed() -> None:
    facts = _facts(("pkg/layers.py", "class Rotary:\n    pass\n\nX = 1\n", "X = 1\n"))
    assert _names(facts.removed) == ["Rotary"]


def test_same_body_new_name_is_renamed_and_new_file_is_moved() -> None:
    renamed = _facts(("pkg/a.py", f"def total(items):\n{BODY}", f"def summed(items):\n{BODY}"))
    assert [(r.old.name, r.new.name) for r in renamed.renamed] == [("total", "summed")]
    moved = _facts(
        ("pkg/a.py", f"def total(items):\n{BODY}", ""),
        ("pkg/b.py", "", f"def add_up(items):\n{BODY}"),
    )
    assert [(m.old.path, m.new.name) for m in moved.moved] == [("pkg/a.py", "add_up")]
    assert moved.removed == () and moved.added == ()


def test_a_body_moved_with_its_docstring_reworded_is_still_moved() -> None:
    # 2952d96: `backoff` left jobs/context.py as `doubling` in jobs/outcomes.py, its
    # docstring reworded: moved, not removed there and added here.
    moved = _facts(
        ("pkg/a.py", f'def total(items):\n    """Sum them."""\n{BODY}', ""),
        ("pkg/b.py", "", f'def add_up(items):\n    """The items, doubled and summed."""\n{BODY}'),
    )
    assert [(m.old.name, m.new.name) for m in moved.moved] == [("total", "add_up")]
    assert moved.removed == () and moved.added == ()
    # A docstring is not a body: two functions that only share one are not the same.
    apart = _facts(
        ("pkg/a.py", f'def total(items):\n    """{"Sum them. " * 8}"""\n    return 1\n', ""),
        ("pkg/b.py", "", f'def add_up(items):\n    """{"Sum them. " * 8}"""\n    return 2\n'),
    )
    assert apart.moved == () and _names(apart.removed) == ["total"]


def test_a_change_after_a_function_is_not_a_change_of_it() -> None:
    before = "def first():\n    return 1\n\n\nVALUE = 1\n"
    after = "def first():\n    return 1\n\n\nVALUE = 2\n"
    assert _facts(("pkg/a.py", before, after)).changed == ()


def test_a_registration_in_a_comment_is_not_one() -> None:
    before = "X = 1\n"
    after = '# register_model("Fake")\nX = 1\nregister_backend("flash")\n'
    facts = _facts(("pkg/registry.py", before, after))
    assert _names(facts.registered) == ["flash"]


def test_a_deprecation_message_is_the_message() -> None:
    after = (
        "import warnings\n\n@deprecated(\n    'old_api is deprecated; use new_api'\n)\n"
        "def old_api():\n    warnings.warn('use --fast', DeprecationWarning)\n"
    )
    facts = _facts(("pkg/api.py", "", after))
    assert sorted(d.text for d in facts.deprecations) == [
        "old_api is deprecated; use new_api",
        "use --fast",
    ]


def test_a_flipped_default_in_a_config_class_is_found_whatever_its_path() -> None:
    before = "@dataclass\nclass ModelConfig:\n    trust: bool = False\n"
    after = "@dataclass\nclass ModelConfig:\n    trust: bool = True\n"
    facts = _facts(("pkg/engine/arg_utils.py", before, after))
    assert [(d.name, d.old, d.new) for d in facts.defaults_changed] == [
        ("ModelConfig.trust", "False", "True")
    ]


def test_a_private_class_field_default_change_is_not_a_public_one() -> None:
    before = "@dataclass\nclass _State:\n    ready: bool = False\n"
    after = "@dataclass\nclass _State:\n    ready: bool = True\n"
    assert _facts(("pkg/engine/state.py", before, after)).defaults_changed == ()


def test_a_public_signature_default_change_is_found_and_a_private_one_not() -> None:
    before = "def redirect(location, code=302):\n    pass\n\ndef _h(x=1):\n    pass\n"
    after = "def redirect(location, code=303):\n    pass\n\ndef _h(x=2):\n    pass\n"
    facts = _facts(("flask/helpers.py", before, after))
    assert [(d.name, d.old, d.new) for d in facts.defaults_changed] == [
        ("redirect(code)", "302", "303")
    ]


@pytest.mark.parametrize(
    ("call", "default"),
    [
        ('parser.add_argument("--mode", default="fast")', "'fast'"),
        ('click.option("--mode", default="fast")', "'fast'"),
        ('typer.Option("fast", "--mode")', "'fast'"),
    ],
)
def test_options_with_their_defaults(call: str, default: str) -> None:
    facts = _facts(("pkg/cli.py", "", f"{call}\n"))
    assert [(s.name, s.default) for s in facts.flags_added] == [("--mode", default)]


def test_an_env_variable_read_before_is_not_new() -> None:
    before = 'import os\nA = os.environ["PROJ_MODE"]\n'
    after = 'import os\nA = os.getenv("PROJ_MODE", "1")\nB = env_bool("PROJ_FAST")\n'
    facts = _facts(("pkg/envs.py", before, after))
    assert _names(facts.env_added) == ["PROJ_FAST"]


def test_no_longer_reads_only_when_no_fetched_file_reads_it() -> None:
    facts = _facts(
        ("pkg/a.py", 'import os\nA = os.getenv("PROJ_MODE")\n', "import os\n"),
        ("pkg/b.py", "import os\n", 'import os\nB = os.getenv("PROJ_MODE")\n'),
    )
    assert facts.env_removed == ()
    gone = _facts(("pkg/a.py", 'import os\nA = os.getenv("PROJ_MODE")\n', "import os\n"))
    assert _names(gone.env_removed) == ["PROJ_MODE"]


@pytest.mark.parametrize("name", ["HF_TOKEN", "CUDA_VISIBLE_DEVICES", "NCCL_DEBUG", "TORCH_HOME"])
def test_a_dependency_variable_is_never_said_to_be_no_longer_read(name: str) -> None:
    facts = _facts(("pkg/a.py", f'import os\nA = os.getenv("{name}")\n', "import os\n"))
    assert facts.env_removed == ()


def test_an_env_assignment_is_not_a_read() -> None:
    facts = _facts(("pkg/a.py", "import os\n", 'import os\nos.environ["PROJ_CHILD"] = "1"\n'))
    assert facts.env_added == ()


def test_init_exports_and_re_exports() -> None:
    before = "from .layers import Rotary, Linear\n__all__ = ['Rotary', 'Linear']\n"
    after = "from .layers import Linear\n__all__ = ['Linear']\n"
    facts = _facts(("src/pkg/__init__.py", before, after))
    assert _names(facts.exports_removed) == ["Rotary"]


def test_a_file_that_does_not_parse_falls_back_to_its_patch() -> None:
    commit = CommitInput(
        sha="b" * 40,
        message="x",
        files=[
            FileChange(
                filename="pkg/a.py",
                before="def ok(:\n",
                after="def ok(:\n",
                patch="@@ -1,1 +1,1 @@\n-def old_name():\n+def new_name():",
            )
        ],
    )
    assert [(r.old.name, r.new.name) for r in read_facts(commit).renamed] == [
        ("old_name", "new_name")
    ]


CUDA_BEFORE = """
__global__ void scale(float* x) { x[0] = 1; }
static void local_helper(int a) {}
"""
CUDA_AFTER = """
template <int N>
__global__ void __launch_bounds__(256) scale(float* x) { x[0] = 2; }
__global__ void __cluster_dims__(2, 1, 1) reduce(float* y) { y[0] = 0; }
DEFINE_KERNEL(fused) { }
struct Plan { int size(int b) { return b; } };
int Plan::count() { return getenv("PROJ_THREADS") != 0; }
// m.def("fake(Tensor x) -> Tensor");
"""


def test_cuda_kernels_are_named_never_by_an_attribute_or_macro() -> None:
    facts = _facts(("csrc/ops.cu", CUDA_BEFORE, CUDA_AFTER))
    assert sorted((n.name, n.kind.value) for n in facts.added) == [
        ("Plan", "class"),
        ("Plan::count", "method"),
        ("Plan::size", "method"),
        ("reduce", "kernel"),
    ]
    assert _names(facts.changed) == ["scale"]
    assert _names(facts.env_added) == ["PROJ_THREADS"]
    assert facts.registered == ()


def test_gtest_cases_moved_are_not_added() -> None:
    case = "TEST(Math, Adds) { EXPECT_EQ(add(1, 2), 3); EXPECT_EQ(add(2, 2), 4); }\n"
    facts = _facts(
        ("tests/test_math.cpp", case, "TEST(Math, Subtracts) { EXPECT_EQ(1, 1); }\n" + case)
    )
    assert _names(facts.tests_added) == ["Math.Subtracts"]


def test_a_signature_gains_and_loses_parameters_with_their_defaults() -> None:
    before = "def load(path, mode=1):\n    return path\n\n\ndef keep(x):\n    return x\n"
    after = (
        "def load(path, *, strict=False):\n    if not path:\n        raise ValueError(path)\n"
        "    return path\n\n\ndef keep(x):\n    return x + 1\n"
    )
    facts = _facts(("pkg/io.py", before, after))
    assert [(s.name, s.gained, s.lost) for s in facts.signatures_changed] == [
        ("load", ("strict=False",), ("mode=1",))
    ]
    # its one raise, under a new `if` at the top of the body: said with its condition
    assert not facts.raises_added
    assert [(c.name, c.turn, c.test, c.was, c.new) for c in facts.conditions_changed] == [
        ("load", Turn.RAISES, "not path", "ValueError", True)
    ]


def test_a_new_helper_is_said_with_its_callers_and_a_move_with_its_importers() -> None:
    before = (
        "class Ledger:\n    def record(self, x):\n        return self.db.run(x)\n\n"
        "    def intend(self, x):\n        return len(x)\n"
    )
    after = (
        "class Ledger:\n    def record(self, x):\n        return self._upsert(x)\n\n"
        "    def intend(self, x):\n        return self._upsert(len(x))\n\n"
        "    def _upsert(self, x):\n        return self.db.run(x)\n"
    )
    facts = _facts(
        ("pkg/ledger.py", before, after),
        ("pkg/app.py", "from pkg.kinds import Done\n", "from pkg.outcomes import Done\n"),
    )
    # `run` and `len` are not the changed files' definitions: never said to be called
    assert sorted((c.caller, c.callee) for c in facts.calls_added) == [
        ("Ledger.intend", "_upsert"),
        ("Ledger.record", "_upsert"),
    ]
    assert [(m.name, m.old, m.new) for m in facts.imports_moved] == [
        ("Done", "pkg.kinds", "pkg.outcomes")
    ]


def test_the_new_tests_are_said_with_the_changed_code_they_call() -> None:
    facts = _facts(
        ("pkg/rate.py", "def rated(x):\n    return x\n", "def rated(x):\n    return -x\n"),
        (
            "tests/test_rate.py",
            "",
            "from pkg.rate import rated\n\n\ndef test_rated():\n    assert rated(len([1])) == -1\n",
        ),
    )
    assert [(c.caller, c.callee) for c in facts.tested] == [("test_rated", "rated")]


def test_the_functions_a_change_edits_come_in_the_files_order() -> None:
    # The text names the first few: in a set's order it would change from run to run.
    names = [f"step_{c}" for c in "qwertyuiopasdfgh"]
    before = "".join(f"def {n}():\n    return 1\n\n\n" for n in names)
    after = "".join(f"def {n}():\n    return 2\n\n\n" for n in names)
    facts = _facts(("pkg/steps.py", before, after))
    assert _names(facts.changed) == names[: len(facts.changed)] and len(facts.changed) >= 8


def test_an_edited_function_catches_returns_and_defaults_are_compared_whole() -> None:
    before = (
        "def run(argv, out=None):\n    main(argv)\n    return 0\n\n\n"
        "def read(path, *, limit=10):\n    try:\n        return open(path).read(limit)\n"
        "    except (OSError, ValueError):\n        return ''\n"
    )
    after = (
        "def run(argv=(), out=None):\n    try:\n        return main(argv)\n"
        "    except KeyboardInterrupt:\n        return -130\n    except app.Stop:\n"
        "        return 'stopped'\n\n\n"
        "def read(path, *, limit):\n    try:\n        return open(path).read(limit)\n"
        "    except OSError:\n        return ''\n"
        "    def inner():\n        try:\n            pass\n        except KeyError:\n"
        "            return 2\n"
    )
    facts = _facts(("pkg/cli.py", before, after))
    caught = {(c.name, c.gained, c.lost) for c in facts.catches_changed}
    # a nested function's own `except` and `return` are its own, not `read`'s
    assert caught == {
        ("run", ("KeyboardInterrupt", "app.Stop"), ()),
        ("read", (), ("ValueError",)),
    }
    # the parent returned only literals (`0`): the new ones are proven new
    assert [(r.name, r.values) for r in facts.returns_added] == [("run", ("'stopped'", "-130"))]
    given = {(d.name, d.param, d.default, d.was) for d in facts.optional_changed}
    assert given == {("run", "argv", "()", None), ("read", "limit", None, "10")}


def test_a_bool_or_none_returned_is_no_new_value_and_an_unedited_function_is_not_read() -> None:
    before = "def ok(x):\n    return x\n\n\ndef same():\n    return 1\n"
    after = "def ok(x):\n    if x:\n        return True\n    return None\n\n\ndef same():\n    return 1\n"
    facts = _facts(("pkg/checks.py", before, after))
    assert facts.returns_added == ()
    assert facts.catches_changed == ()


def test_an_annotation_retyped_is_read_and_a_qualified_spelling_of_the_same_type_is_not() -> None:
    before = (
        "def add(name: str | None = None) -> int:\n    return 1\n\n\n"
        "def keep(headers: typing.Mapping[str, str]) -> 'Response':\n    return 1\n"
    )
    after = (
        "def add(name: t.Callable[..., t.Any] | str | None = None) -> int | str:\n"
        "    return 1\n\n\n"
        "def keep(headers: Mapping[str, str]) -> Response:\n    return 2\n"
    )
    facts = _facts(("pkg/app.py", before, after))
    assert {(r.name, r.param, r.old, r.new) for r in facts.retyped} == {
        ("add", "name", "str | None", "t.Callable[..., t.Any] | str | None"),
        ("add", "->", "int", "int | str"),
    }


def test_only_definitions_whose_lines_differ_have_their_code_compared(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    compared: list[str] = []
    same = facts_module.same_code

    def counted(was: Any, now: Any) -> bool:
        compared.append(now.name)
        return bool(same(was, now))

    monkeypatch.setattr(facts_module, "same_code", counted)
    kept = "".join(f"def kept_{n}(items):\n{BODY}\n" for n in range(20))
    before = f'{kept}def reworded(items):\n    """Sum."""\n{BODY}\ndef fixed(items):\n{BODY}'
    after = (
        f'{kept}def reworded(items):\n    """Sum twice."""\n{BODY}\n'
        f"def fixed(items):\n{BODY.replace('* 2', '* 3')}"
    )
    facts = _facts(("pkg/ops.py", before, after))
    assert _names(facts.changed) == ["fixed"]
    # the two edited definitions compared node by node ("fixed" again with its locals
    # renamed, as the trees as written differ), none of the twenty left alone
    assert set(compared) == {"fixed", "reworded"}
    assert compared.count("fixed") >= 2
