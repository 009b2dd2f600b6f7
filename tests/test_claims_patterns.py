"""The false-claim patterns `eval --claims` found on public repositories (issue 27), each a
small clone shaped like the commit that showed it: the rules' entry must not make the false
claim, must make the true one, and the checker must find nothing false in it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Checked, Checker, Clone, Verdict
from bot.cli.claims import claims_in
from bot.cli.claims_eval import entry_text
from tests.clones import _git, checked_entry

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

# A body long enough to be recognised wherever it lands.
BODY = (
    "    out = []\n    for item in items:\n        out.append(item * scale + offset)\n"
    "    return out\n"
)


def _entry(
    tmp_path: Path, before: dict[str, str | None], after: dict[str, str | None], message: str
) -> tuple[str, list[Verdict]]:
    """The rules' text for the second commit, and the checker's verdict on each claim."""
    analysis, verdicts = checked_entry(tmp_path, before, after, message)
    return entry_text(analysis), verdicts


def test_a_method_that_became_a_function_in_a_new_module_is_not_added(tmp_path: Path) -> None:
    # vllm-ascend 4a366332: two methods left their classes for one function of a new module
    # the body changed on the way: `self.scale` became a parameter
    method = BODY.replace("item * scale", "item * self.scale")
    impl = "class MlaImpl:\n    def keep(self):\n        return 1\n\n" + (
        "    def process_lse(self, items, offset):\n"
        + "".join(f"    {line}\n" for line in method.splitlines())
    )
    text, verdicts = _entry(
        tmp_path,
        {"pkg/attention/mla.py": impl},
        {
            "pkg/attention/mla.py": "class MlaImpl:\n    def keep(self):\n        return 2\n",
            "pkg/attention/common.py": f"def process_lse(items, scale, offset):\n{BODY}",
        },
        "Refactor the attention helpers",
    )
    assert "Adds `process_lse`" not in text
    assert "Removes `MlaImpl.process_lse`" not in text
    assert Verdict.FALSE not in verdicts


def test_a_helper_moved_and_copied_into_a_new_module_is_not_added(tmp_path: Path) -> None:
    # flashinfer f09227492c26: helpers moved from one utils module to another and copied
    # into a new kernel module
    helper = f"def sigmoid_scale(items, scale, offset):\n{BODY}\n\n"
    text, verdicts = _entry(
        tmp_path,
        {"pkg/blackwell/utils.py": helper + "def kept():\n    return 1\n"},
        {
            "pkg/blackwell/utils.py": "def kept():\n    return 1\n",
            "pkg/common/kernel_utils.py": helper,
            "pkg/rubin/fusion.py": helper + "def launch_fusion(x):\n    return x\n",
        },
        "Add the Rubin fusion kernels",
    )
    assert "sigmoid_scale" not in text.replace("Moves `sigmoid_scale`", "")
    assert "`launch_fusion(x)`" in text  # the new function is said, as it is called
    assert Verdict.FALSE not in verdicts


# A kernel under `#if`/`#else`, and a function whose braces open in both halves of an `#if`:
# tree-sitter's recovery drops the kernel after it (flashinfer 4927c0e15cb6).
KERNEL = """template <typename P, int D = 128>
#if (defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900))
__global__ void __cluster_dims__(4, 1, 1) __launch_bounds__(D)
    routeKernel(P params) {
  route<P, D>(params);
}
#else
__global__ void __launch_bounds__(D)
    routeKernel(P /* params */) {
  assert(false && "routeKernel needs SM90");
}
#endif
"""
SPLIT_BRACES = """void launchRoute(int x, int y) {
#if USE_FAST
  if (x) {
#else
  if (y) {
#endif
  }
}

"""


def test_a_kernel_in_a_renamed_file_the_parser_loses_is_not_removed(tmp_path: Path) -> None:
    text, verdicts = _entry(
        tmp_path,
        {"csrc/routing_custom.cu": KERNEL},
        {"csrc/routing_custom.cu": None, "csrc/routing_custom.cuh": SPLIT_BRACES + KERNEL},
        "Split the routing kernels to reduce compile time",
    )
    assert "Removes `routeKernel`" not in text
    assert "`launchRoute`" in text
    assert Verdict.FALSE not in verdicts


def test_a_variable_read_before_in_an_untouched_file_is_not_new(tmp_path: Path) -> None:
    # flashinfer 299e6d11ede0, vllm-ascend 620555f18b60: read at the parent in a module the
    # commit does not touch
    text, verdicts = _entry(
        tmp_path,
        {
            "pkg/autotuner.py": 'import os\n\nBLOCKLIST = os.getenv("PKG_TACTICS_BLOCKLIST")\n',
            "pkg/runner.py": "def run(x):\n    return x\n",
        },
        {
            "pkg/runner.py": (
                "import os\n\n\ndef run(x):\n"
                '    if os.getenv("PKG_TACTICS_BLOCKLIST"):\n        return None\n'
                '    return os.environ.get("PKG_RUNNER_THREADS", x)\n'
            ),
        },
        "Let the runner honour the tactics blocklist",
    )
    assert "new environment variables" not in text
    assert "Reads the new environment variable `PKG_RUNNER_THREADS`." in text
    assert "`PKG_TACTICS_BLOCKLIST`" not in text.split("new environment variable")[-1]
    assert Verdict.FALSE not in verdicts and Verdict.TRUE in verdicts


def test_a_method_that_became_a_class_attribute_is_not_removed(tmp_path: Path) -> None:
    # flask c77a5203438f: `should_ignore_error` deprecated, left as `None` on the class
    before = (
        "class App:\n    def should_ignore_error(self, error):\n        return False\n\n"
        "    def redirect(self, location, code=302):\n        return location, code\n"
    )
    after = (
        "class App:\n    should_ignore_error: None = None\n\n"
        "    def redirect(self, location, code=303):\n        return location, code\n"
    )
    text, verdicts = _entry(
        tmp_path, {"src/pkg/app.py": before}, {"src/pkg/app.py": after}, "deprecate the hook"
    )
    assert "Removes `App.should_ignore_error`" not in text
    assert "`App.redirect(code)` from `302` to `303`" in text
    assert Verdict.FALSE not in verdicts


def test_past_the_file_bound_a_patch_says_no_additions(tmp_path: Path) -> None:
    # thirteen changed modules: the last is read from its patch, which cannot tell a
    # function moved within the file from a new one
    before: dict[str, str | None] = {
        f"pkg/m{i:02}.py": f"def f{i}(x):\n    return x\n" for i in range(13)
    }
    before["pkg/m12.py"] = f"class Holder:\n    def spread(self, items, scale, offset):\n{BODY}"
    after: dict[str, str | None] = {
        f"pkg/m{i:02}.py": f"def f{i}(x):\n    return x + 1\n" for i in range(12)
    }
    after["pkg/m12.py"] = f"class Holder:\n    pass\n\n\ndef spread(items, scale, offset):\n{BODY}"
    text, verdicts = _entry(tmp_path, before, after, "Touch every module")
    assert "`spread`" not in text
    assert Verdict.FALSE not in verdicts


def test_public_constants_are_said_with_their_values_and_proven(tmp_path: Path) -> None:
    # starlette 4ae3213c and a9a8dab0: a class attribute users set renamed, one added, and a
    # module constant added; before, the entry said nothing of them
    parser = "class MultiPartParser:\n{attrs}\n    def parse(self):\n        return 1\n"
    text, verdicts = _entry(
        tmp_path,
        {
            "pkg/formparsers.py": parser.format(attrs="    max_file_size = 1024 * 1024\n"),
            "pkg/gzip.py": "import gzip\n\n\ndef compress():\n    return 1\n",
        },
        {
            "pkg/formparsers.py": parser.format(
                attrs="    spool_max_size = 1024 * 1024\n    max_part_size = 1024 * 1024\n"
            ),
            "pkg/gzip.py": 'import gzip\n\nEXCLUDED = ("text/event-stream",)\n\n\n'
            "def compress():\n    return 1\n",
        },
        "Rename `max_file_size` to `spool_max_size`",
    )
    assert "Renames `MultiPartParser.max_file_size` to `MultiPartParser.spool_max_size`" in text
    assert "`MultiPartParser.max_part_size = 1024 * 1024`" in text
    assert "`EXCLUDED = ('text/event-stream',)`" in text
    assert Verdict.TRUE in verdicts
    assert Verdict.FALSE not in verdicts


def test_a_release_heading_says_only_the_new_version_not_its_repeated_subheadings(
    tmp_path: Path,
) -> None:
    # starlette cb8f84f5284d and 30 more: each release adds "## 0.47.3 (…)" over sub-headings
    # "Added"/"Fixed" the file has under every earlier release
    older = "# Release Notes\n\n## 0.47.2 (July 20, 2025)\n\n#### Fixed\n\n* Fix a leak.\n"
    newer = older.replace(
        "## 0.47.2", "## 0.47.3 (August 24, 2025)\n\n#### Fixed\n\n* Fix the range.\n\n## 0.47.2"
    )
    text, verdicts = _entry(
        tmp_path,
        {"docs/release-notes.md": older, "pkg/app.py": "def run():\n    return 1\n"},
        {"docs/release-notes.md": newer},
        "Version 0.47.3",
    )
    assert "Adds the section “0.47.3 (August 24, 2025)” to `docs/release-notes.md`." in text
    assert "“Fixed”" not in text
    assert Verdict.FALSE not in verdicts and Verdict.TRUE in verdicts


def test_a_heading_reworded_in_place_adds_no_section(tmp_path: Path) -> None:
    # starlette 1eb4036110ef: each release's date moved from the line below into its heading
    releases = [("0.38.3", "September 1, 2024"), ("0.38.2", "July 27, 2024")]
    older = "".join(f"## {v}\n\n{d}\n\n#### Fixed\n\n* A fix.\n\n" for v, d in releases)
    newer = "".join(f"## {v} ({d})\n\n#### Fixed\n\n* A fix.\n\n" for v, d in releases)
    text, _ = _entry(
        tmp_path,
        {"docs/release-notes.md": older, "pkg/app.py": "def run():\n    return 1\n"},
        {"docs/release-notes.md": newer},
        "Change documentation layout",
    )
    assert "section" not in text


def test_names_dropped_from_all_that_the_module_still_assigns_are_not_removed(
    tmp_path: Path,
) -> None:
    # starlette b133ab45ad64: `status.py` dropped its `__all__` and the module `__getattr__`
    # serving two deprecated names; every constant is still assigned
    constants = "HTTP_100_CONTINUE = 100\nHTTP_200_OK = 200\nWS_1000_NORMAL_CLOSURE = 1000\n"
    listed = '__all__ = ("HTTP_100_CONTINUE", "HTTP_200_OK", "WS_1000_NORMAL_CLOSURE")\n\n'
    lazy = (
        '\n\n__deprecated__ = {"WS_1004_NO_STATUS_RCVD": 1004}\n\n\n'
        "def __getattr__(name: str) -> int:\n    deprecated = __deprecated__.get(name)\n"
        "    if deprecated:\n        return deprecated\n    raise AttributeError(name)\n"
    )
    text, verdicts = _entry(
        tmp_path,
        {"pkg/status.py": listed + constants + lazy},
        {"pkg/status.py": constants},
        "Remove deprecated `WS_1004_NO_STATUS_RCVD`",
    )
    assert "HTTP_100_CONTINUE" not in text and "HTTP_200_OK" not in text
    # what the commit did remove: the name the module's `__getattr__` handed out
    assert "Removes `WS_1004_NO_STATUS_RCVD` from `pkg/status.py`." in text
    assert verdicts == [Verdict.TRUE]


def test_a_name_a_module_getattr_still_hands_out_is_not_removed(tmp_path: Path) -> None:
    # the deprecated alias moves from a dict to a comparison: still served by `__getattr__`
    before = (
        'OLD = {"WS_1004_NO_STATUS_RCVD": 1004}\n\n\n'
        "def __getattr__(name):\n    if name in OLD:\n        return OLD[name]\n"
        "    raise AttributeError(name)\n"
    )
    after = (
        "def __getattr__(name):\n"
        '    if name == "WS_1004_NO_STATUS_RCVD":\n        return 1004\n'
        "    raise AttributeError(name)\n"
    )
    text, verdicts = _entry(
        tmp_path, {"pkg/status.py": before}, {"pkg/status.py": after}, "Tidy the aliases"
    )
    assert "WS_1004_NO_STATUS_RCVD" not in text
    assert Verdict.FALSE not in verdicts
    said = "Removes `WS_1004_NO_STATUS_RCVD` from `pkg/status.py`."
    checked = _checked(tmp_path, said)
    assert checked.verdict is Verdict.FALSE and "still defined at the commit" in checked.why


def test_a_default_factory_is_said_as_the_call_each_instance_gets(tmp_path: Path) -> None:
    # starlette fd038f3070c3: `data: bytes = b""` became `field(default_factory=bytearray)`;
    # a test module assigns `data = …` too, which is not the field's default
    before = (
        "from dataclasses import dataclass, field\n\n\n@dataclass\nclass MultipartPart:\n"
        '    field_name: str = ""\n    data: bytes = b""\n'
        "    headers: list[bytes] = field(default_factory=list)\n"
    )
    after = before.replace(
        'data: bytes = b""', "data: bytearray = field(default_factory=bytearray)"
    )
    test = 'def test_form():\n    data = "".join(["a"]).encode()\n    assert data\n'
    text, verdicts = _entry(
        tmp_path,
        {"pkg/formparsers.py": before, "tests/test_form.py": test},
        {
            "pkg/formparsers.py": after,
            "tests/test_form.py": test + "\n\ndef test_more():\n    pass\n",
        },
        "Bound the size of a part",
    )
    assert "Changes the default of `MultipartPart.data` from `b''` to `bytearray()`." in text
    assert verdicts.count(Verdict.TRUE) >= 1 and Verdict.FALSE not in verdicts
    # the checker reads the field in its class: the test's `data = …` is no default of it
    said = "Changes the default of `MultipartPart.data` from `b''` to `''.join(['a']).encode()`."
    assert _verdict(tmp_path, said) is Verdict.FALSE


def test_a_method_parameter_default_is_checked_in_that_method(tmp_path: Path) -> None:
    # starlette c82acf3a: `TestClient.get(follow_redirects)` was "not a code name" to the
    # checker; a function's parameter of the same name elsewhere keeps its own default
    before = (
        "USE_CLIENT_DEFAULT = object()\n\n\nclass TestClient:\n"
        "    def get(self, url, follow_redirects=None):\n        return url\n\n\n"
        "def helper(follow_redirects=None):\n    return follow_redirects\n"
    )
    after = before.replace(
        "self, url, follow_redirects=None", "self, url, follow_redirects=USE_CLIENT_DEFAULT"
    )
    text, verdicts = _entry(
        tmp_path,
        {"pkg/testclient.py": before},
        {"pkg/testclient.py": after},
        "Use the client's default",
    )
    assert "`TestClient.get(follow_redirects)` from `None` to `USE_CLIENT_DEFAULT`" in text
    # `None` meant "not given": passing it at the commit is not the old behaviour
    assert "to `None` to keep the old behaviour" not in text
    assert verdicts == [Verdict.TRUE]
    # the same words said of the function whose default stayed are false
    said = "Changes the default of `helper(follow_redirects)` from `None` to `USE_CLIENT_DEFAULT`."
    assert _verdict(tmp_path, said) is Verdict.FALSE


def _verdict(tmp_path: Path, said: str) -> Verdict:
    return _checked(tmp_path, said).verdict


def _checked(tmp_path: Path, said: str) -> Checked:
    """The checker's verdict on the one claim of `said` about the last commit `_entry` made."""
    (claim,), _ = claims_in(said)
    sha = _git(tmp_path / "repo", "rev-parse", "HEAD")
    reader = Clone(tmp_path / "repo")
    try:
        return Checker(reader).check(sha, claim)
    finally:
        reader.close()


LAUNCH = (
    "template<typename T, int Headdim>\nvoid run_dispatch(Params &params) {\n"
    "    run_kernel<T, Headdim>(params);\n}\n"
)
ALIGN = (
    "template<typename T, int Headdim>\nvoid run_align(Params &params) {\n"
    "    constexpr static int kBlockN = Headdim <= 64 ? 128 : 64;\n"
    "    run_kernel<T, kBlockN>(params);\n}\n\n"
)


def _instantiations(mark: str) -> dict[str, str | None]:
    # one translation unit a head dimension, each only instantiating the header's template,
    # more of them than the files read whole: the last are read from their patch
    return {
        f"csrc/src/fwd_split_align_hdim{dim}_sm80.cu": (
            f'// Copyright (c) 2024.\n{mark}#include "fwd_launch_template.h"\n\nnamespace flash {{\n\n'
            f"template void run_align<half_t, {dim}>(Params &params);\n\n}} // namespace flash\n"
        )
        for dim in range(32, 32 + 14 * 8, 8)
    }


def test_an_explicit_instantiation_past_the_file_bound_is_not_a_definition(
    tmp_path: Path,
) -> None:
    # flash-attention 73c992c8ca74: `template void f<…>(…);` in a new file defines nothing;
    # the template is defined in the header
    text, verdicts = _entry(
        tmp_path,
        {"csrc/src/fwd_launch_template.h": LAUNCH},
        {"csrc/src/fwd_launch_template.h": ALIGN + LAUNCH, **_instantiations("")},
        "Instantiate the aligned kernels in their own files",
    )
    assert "new module" not in text
    assert "Adds `run_align` to `csrc/src/fwd_launch_template.h`" in text
    assert Verdict.FALSE not in verdicts


def test_a_file_marked_generated_is_only_counted(tmp_path: Path) -> None:
    # flash-attention 73c992c8ca74: “This file is auto-generated. See "generate_kernels.py"”
    mark = '// This file is auto-generated. See "generate_kernels.py"\n'
    text, verdicts = _entry(
        tmp_path,
        {"csrc/src/fwd_launch_template.h": LAUNCH, "csrc/src/fwd_hdim32_sm80.cu": "int x;\n"},
        {
            "csrc/src/fwd_launch_template.h": ALIGN + LAUNCH,
            # a mark in the header's comments; a comment further down is the code's own
            "csrc/src/fwd_hdim32_sm80.cu": (
                "int x;\n\n\n\nvoid own_helper(int y) {\n"
                "    // the table below is generated by the helper above\n    x = y;\n}\n"
            ),
            **_instantiations(mark),
        },
        "Instantiate the aligned kernels in their own files",
    )
    # (new files: added, not changed)
    assert "Adds 14 files marked generated." in text
    assert "fwd_split_align_hdim" not in text
    assert "`own_helper`" in text
    assert Verdict.FALSE not in verdicts


def test_a_sentence_of_the_code_before_the_change_claims_nothing_of_it() -> None:
    # trio-websocket 65400cb's body, quoted as its summary: "Prior to 49b93c1, `_url_to_host()`
    # modified `ssl_context` according to …" tells what the code did before; "modified" is no
    # claim that this commit changes `ssl_context`. The sentence after it is the change's.
    text = (
        "Prior to `49b93c1`, `_url_to_host()` modified `ssl_context` according to whether the "
        "URL contained `ws` or `wss`. Removes `return_ssl_context`."
    )
    claims, loose = claims_in(text)
    assert [(c.kind.value, c.name) for c in claims] == [("removes", "return_ssl_context")]
    assert "ssl_context" in loose
