"""Public modules and keyword parameters a commit takes from callers: said as removed, with
what fails, and breaking; each shaped on a real commit of a development clone."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.evaluation import git_history, with_sides
from tests.clones import (
    TYPEGUARD_DECORATORS,
    TYPEGUARD_INIT,
    _git,
    checked_entry,
    commit_files,
    second_commit,
    verdicts_of,
)

_EB_INIT = (
    '__version__ = "0.3.0"\n\nfrom .impl import AddrInfoType, create_connection\n\n'
    '__all__ = ("create_connection", "AddrInfoType")\n'
)
_EB_IMPL = '''"""Base implementation."""
import asyncio
from typing import Optional, Sequence

AddrInfoType = tuple


async def create_connection(
    addr_infos: Sequence[AddrInfoType],
    *,
    happy_eyeballs_delay: Optional[float] = None,
    interleave: Optional[int] = None,
{param}    loop: Optional[asyncio.AbstractEventLoop] = None,
) -> None:
    """Connect to a TCP server."""
    return None
'''


def _fails_by_name(root: Path, module: str, call: str) -> bool:
    """Python's rule, run: whether `call` with the parameter passed by name raises
    `TypeError` on the commit's package (the work tree is the commit)."""
    code = (
        "import asyncio, sys\n"
        f"sys.path.insert(0, {str(root / 'src')!r})\n"
        f"import {module} as m\n"
        "try:\n"
        f"    asyncio.run(m.{call})\n"
        "except TypeError:\n"
        "    sys.exit(3)\n"
    )
    return subprocess.run([sys.executable, "-c", code], check=False).returncode == 3


def test_a_keyword_parameter_of_an_exported_function_removed_breaks(tmp_path: Path) -> None:
    """aiohappyeyeballs 4428c07 "feat: add more tests (#6)": `create_connection`, which
    `__init__.py` exports, loses `all_errors: bool = False`."""
    before = {
        "src/aiohappyeyeballs/__init__.py": _EB_INIT,
        "src/aiohappyeyeballs/impl.py": _EB_IMPL.format(param="    all_errors: bool = False,\n"),
    }
    after = {"src/aiohappyeyeballs/impl.py": _EB_IMPL.format(param="")}
    analysis, verdicts = checked_entry(tmp_path, before, after, "feat: add more tests (#6)")
    assert analysis.breaking
    assert analysis.importance.value == "high"
    (risk,) = analysis.risks
    assert risk.description == "`create_connection` no longer takes the parameter `all_errors`."
    assert risk.consequence == "Calls that pass `all_errors` by name fail."
    assert Verdict.FALSE not in verdicts
    root = tmp_path / "repo"
    assert _fails_by_name(root, "aiohappyeyeballs", "create_connection([], all_errors=True)")


def test_a_parameter_still_taken_by_kwargs_or_of_a_private_module_is_no_break(
    tmp_path: Path,
) -> None:
    # the same edit where `**kwargs` still takes any keyword: the call runs
    kwargs = _EB_IMPL.replace(") -> None:", "    **kwargs: object,\n) -> None:")
    before = {
        "src/aiohappyeyeballs/__init__.py": _EB_INIT,
        "src/aiohappyeyeballs/impl.py": kwargs.format(param="    all_errors: bool = False,\n"),
        "src/aiohappyeyeballs/_helpers.py": _EB_IMPL.format(
            param="    all_errors: bool = False,\n"
        ),
    }
    after = {
        "src/aiohappyeyeballs/impl.py": kwargs.format(param=""),
        "src/aiohappyeyeballs/_helpers.py": _EB_IMPL.format(param=""),
    }
    analysis, _ = checked_entry(tmp_path, before, after, "Drop all_errors")
    assert not analysis.breaking
    assert not _fails_by_name(
        tmp_path / "repo", "aiohappyeyeballs", "create_connection([], all_errors=True)"
    )


_STAGGERED = """import sys

if sys.version_info > (3, 11):
    from ._staggered import staggered_race
else:
    from asyncio.staggered import staggered_race

__all__ = ["staggered_race"]
"""
_PRIVATE = "async def staggered_race(coro_fns, delay, *, loop=None):\n    return None, None, []\n"


def test_a_public_module_deleted_is_said_as_the_module_users_import(tmp_path: Path) -> None:
    """aiohappyeyeballs 9db617a "fix: rewrite staggered_race to be race safe (#101)":
    `staggered.py` (`__all__ = ["staggered_race"]`) deleted, its code kept in `_staggered`."""
    before = {
        "src/aiohappyeyeballs/__init__.py": 'from .impl import start_connection\n\n__all__ = ("start_connection",)\n',
        "src/aiohappyeyeballs/impl.py": "from . import staggered\n\n\nasync def start_connection():\n    return await staggered.staggered_race([], 0.25)\n",
        "src/aiohappyeyeballs/staggered.py": _STAGGERED,
        "src/aiohappyeyeballs/_staggered.py": _PRIVATE,
    }
    after = {
        "src/aiohappyeyeballs/impl.py": "from . import _staggered\n\n\nasync def start_connection():\n    return await _staggered.staggered_race([], 0.25)\n",
        "src/aiohappyeyeballs/staggered.py": None,
    }
    message = "fix: rewrite staggered_race to be race safe (#101)"
    analysis, verdicts = checked_entry(tmp_path, before, after, message)
    assert analysis.breaking
    (risk,) = analysis.risks
    assert risk.description == "Removes the module `aiohappyeyeballs.staggered`."
    assert risk.consequence == "Code that imports `aiohappyeyeballs.staggered` fails."
    assert Verdict.FALSE not in verdicts
    # Python's rule: the module is gone from the commit's tree
    root = tmp_path / "repo"
    done = subprocess.run(
        [sys.executable, "-c", "import aiohappyeyeballs.staggered"],
        cwd=root / "src",
        check=False,
        capture_output=True,
    )
    assert b"ModuleNotFoundError" in done.stderr


def test_a_submodule_an_init_stops_importing_is_named_as_imported(tmp_path: Path) -> None:
    """svcs e2e2471 "pyramid: move support out of code base (#180)": `pyramid.py` deleted and
    `__init__.py`'s `from . import pyramid` gone; users import it as `svcs.pyramid`."""
    init = (
        'from ._core import Container\n\n__all__ = ["Container"]\n\n'
        'try:\n    from . import flask\nexcept ImportError:\n    __all__ += ["flask"]\n\n'
        "{pyramid}"
    )
    pyramid = 'try:\n    from . import pyramid\nexcept ImportError:\n    __all__ += ["pyramid"]\n'
    before = {
        "src/svcs/__init__.py": init.format(pyramid=pyramid),
        "src/svcs/_core.py": "class Container:\n    pass\n",
        "src/svcs/flask.py": "def init_app(app):\n    return app\n",
        "src/svcs/pyramid.py": "def init(config):\n    return config\n\n\ndef svcs_from(request):\n    return request\n",
    }
    after = {"src/svcs/__init__.py": init.format(pyramid=""), "src/svcs/pyramid.py": None}
    message = "pyramid: move support out of code base (#180)"
    analysis, verdicts = checked_entry(tmp_path, before, after, message)
    assert analysis.breaking
    consequences = [r.consequence for r in analysis.risks]
    assert consequences == ["Code that imports `svcs.pyramid` fails."]
    assert not any("`pyramid`" in (c or "") for c in consequences)
    assert Verdict.FALSE not in verdicts


def test_a_deleted_module_that_declared_no_interface_is_no_break(tmp_path: Path) -> None:
    """vllm-ascend e7b623b "[BugFix][Fusion] Fix graph fusion failure problem (#5253)": the
    patch module `patch_compile_backend.py` (no `__all__`, nothing re-exports it) deleted and
    its package's `__init__.py` edited: the package's insides, not an interface."""
    before = {
        "vllm_ascend/__init__.py": "",
        "vllm_ascend/patch/__init__.py": "",
        "vllm_ascend/patch/platform/__init__.py": (
            "import vllm_ascend.patch.platform.patch_compile_backend  # noqa\n"
            "import vllm_ascend.patch.platform.patch_config  # noqa\n"
        ),
        "vllm_ascend/patch/platform/patch_compile_backend.py": (
            "def compile_backend(graph):\n    return graph\n"
        ),
        "vllm_ascend/patch/platform/patch_config.py": "def patch(config):\n    return config\n",
    }
    after = {
        "vllm_ascend/patch/platform/__init__.py": (
            "import vllm_ascend.patch.platform.patch_config  # noqa\n"
        ),
        "vllm_ascend/patch/platform/patch_compile_backend.py": None,
    }
    message = "[BugFix][Fusion] Fix graph fusion failure problem (#5253)"
    analysis, _ = checked_entry(tmp_path, before, after, message)
    assert not analysis.breaking
    assert not any("the module" in r.description for r in analysis.risks)


_EVENTS = (
    "from dataclasses import dataclass\n\n\n@dataclass\nclass Event:\n    timestamp: float\n\n\n"
    "@dataclass\nclass JobAdded(Event):\n    job_id: str\n"
)


def test_a_public_module_renamed_private_is_said_as_the_module_users_import(
    tmp_path: Path,
) -> None:
    """apscheduler d33f393 "Made the apscheduler.events module private and re-exported its
    code": `events.py` (no `__all__`) renamed `_events.py` unchanged, the package re-exports
    its classes and its importers follow; `import apscheduler.events` now fails."""
    before = {
        "src/apscheduler/__init__.py": '__all__ = ["Job"]\n\nfrom ._structures import Job\n',
        "src/apscheduler/_structures.py": "class Job:\n    pass\n",
        "src/apscheduler/events.py": _EVENTS,
        "src/apscheduler/workers.py": "from .events import JobAdded\n\n\ndef added(job_id):\n    return JobAdded(0.0, job_id)\n",
    }
    after = {
        "src/apscheduler/__init__.py": (
            '__all__ = ["Event", "Job", "JobAdded"]\n\nfrom ._events import Event, JobAdded\n'
            "from ._structures import Job\n"
        ),
        "src/apscheduler/events.py": None,
        "src/apscheduler/_events.py": _EVENTS,
        "src/apscheduler/workers.py": "from ._events import JobAdded\n\n\ndef added(job_id):\n    return JobAdded(0.0, job_id)\n",
    }
    message = "Made the apscheduler.events module private and re-exported its code"
    root, commit = second_commit(tmp_path, before, after, message)
    assert [
        (f.status, f.previous_filename) for f in commit.files if f.filename.endswith("_events.py")
    ] == [("renamed", "src/apscheduler/events.py")]
    analysis, verdicts = checked_entry(tmp_path / "again", before, after, message)
    assert analysis.breaking
    assert [r.consequence for r in analysis.risks] == [
        "Code that imports `apscheduler.events` fails."
    ]
    assert Verdict.FALSE not in verdicts
    # Python's rule: the old module is gone from the commit's tree, the re-export works
    run = subprocess.run(
        [sys.executable, "-c", "import apscheduler.events"],
        cwd=root / "src",
        check=False,
        capture_output=True,
    )
    assert b"ModuleNotFoundError" in run.stderr
    assert (
        subprocess.run(
            [sys.executable, "-c", "from apscheduler import JobAdded"],
            cwd=root / "src",
            check=False,
        ).returncode
        == 0
    )


def test_a_module_renamed_where_it_keeps_its_import_name_or_stays_insides_is_no_break(
    tmp_path: Path,
) -> None:
    """apscheduler a0b7da2 "Switched to the src/ layout" (`apscheduler/abc.py` to
    `src/apscheduler/abc.py`: still `apscheduler.abc`), beside an application's handler
    module renamed to another public name (no `__all__`, its package never imported it: the
    application's insides)."""
    before = {
        "apscheduler/__init__.py": "",
        "apscheduler/abc.py": "class Trigger:\n    pass\n",
        "app/__init__.py": "",
        "app/handlers/__init__.py": "ROUTES = []\n",
        "app/handlers/user.py": "def show(request):\n    return request\n",
    }
    after = {
        "apscheduler/__init__.py": None,
        "apscheduler/abc.py": None,
        "src/apscheduler/__init__.py": "",
        "src/apscheduler/abc.py": "class Trigger:\n    pass\n",
        "app/handlers/__init__.py": "ROUTES = ['/users']\n",
        "app/handlers/user.py": None,
        "app/handlers/users.py": "def show(request):\n    return request\n",
    }
    analysis, _ = checked_entry(tmp_path, before, after, "Switched to the src/ layout")
    assert not analysis.breaking
    assert not any("the module" in r.description for r in analysis.risks)


def test_a_parameter_lost_by_a_function_its_package_hands_out_breaks(tmp_path: Path) -> None:
    """typeguard df3ca82 "Converted @typechecked to recompile the target function": the
    private `_decorators.py`'s `typechecked`, which the unchanged `__init__.py` imports and
    lists in `__all__`, loses `config`; `instrument`, which it does not hand out, too."""
    before = {
        "src/typeguard/__init__.py": TYPEGUARD_INIT,
        "src/typeguard/_functions.py": "def check_type(value, hint):\n    return value\n",
        "src/typeguard/_decorators.py": TYPEGUARD_DECORATORS.format(params="config=None"),
    }
    after = {
        "src/typeguard/_decorators.py": TYPEGUARD_DECORATORS.format(params="check_arguments=True")
    }
    message = "Converted @typechecked to recompile the target function with type checks (#289)"
    root, commit = second_commit(tmp_path / "a", before, after, message)
    assert [p for p, _ in commit.modules] == ["src/typeguard/__init__.py"]
    analysis, verdicts = checked_entry(tmp_path / "b", before, after, message)
    assert analysis.breaking
    assert [r.consequence for r in analysis.risks] == ["Calls that pass `config` by name fail."]
    assert "`typechecked` no longer takes the parameter `config`" in analysis.risks[0].description
    assert Verdict.FALSE not in verdicts
    # Python's rule: the package hands `typechecked` out, and `config=` now fails there
    run = subprocess.run(
        [sys.executable, "-c", "import typeguard; typeguard.typechecked(config=None)"],
        cwd=root / "src",
        check=False,
        capture_output=True,
    )
    assert b"TypeError" in run.stderr


def test_a_parameter_lost_in_a_private_module_nothing_hands_out_is_no_break(
    tmp_path: Path,
) -> None:
    """The same loss where the package's `__all__` lists only `check_type` (its import of
    `typechecked` a detail, PEP 8): the package's insides."""
    init = '__all__ = ("check_type",)\n\nfrom ._decorators import typechecked\nfrom ._functions import check_type\n'
    before = {
        "src/typeguard/__init__.py": init,
        "src/typeguard/_functions.py": "def check_type(value, hint):\n    return value\n",
        "src/typeguard/_decorators.py": TYPEGUARD_DECORATORS.format(params="config=None"),
    }
    after = {
        "src/typeguard/_decorators.py": TYPEGUARD_DECORATORS.format(params="check_arguments=True")
    }
    analysis, _ = checked_entry(tmp_path, before, after, "Converted @typechecked")
    assert not analysis.breaking


def test_a_plugin_module_its_entry_point_follows_is_no_importer_s_break(tmp_path: Path) -> None:
    """typeguard 047c6ca "Made the pytest plugin module private": `pytest_plugin.py` renamed
    `_pytest_plugin.py`, and `pyproject.toml`'s `pytest11` entry point now names the new
    module: pytest's loader follows it; no user imports a plugin module."""
    pyproject = (
        '[project]\nname = "typeguard"\nversion = "3.0.0"\n\n'
        '[project.entry-points]\npytest11 = {{typeguard = "typeguard.{module}"}}\n'
    )
    plugin = "def pytest_addoption(parser):\n    parser.addoption('--typeguard-packages')\n"
    before = {
        "pyproject.toml": pyproject.format(module="pytest_plugin"),
        "src/typeguard/__init__.py": "",
        "src/typeguard/pytest_plugin.py": plugin,
    }
    after = {
        "pyproject.toml": pyproject.format(module="_pytest_plugin"),
        "src/typeguard/pytest_plugin.py": None,
        "src/typeguard/_pytest_plugin.py": plugin,
    }
    analysis, _ = checked_entry(tmp_path, before, after, "Made the pytest plugin module private")
    assert not analysis.breaking
    assert not any("the module" in r.description for r in analysis.risks)


def test_a_positional_parameter_renamed_in_its_place_is_no_break(tmp_path: Path) -> None:
    """typeguard e759446 "Fixed instrumentation of annotated self attributes": `typechecked`
    (handed out by the package) renames its first parameter `func` to `target` in place; a
    call passes it by place (`@typechecked` or `typechecked(f)`), which still runs. The entry
    had been "⚠️ Breaking: … `typechecked` no longer takes the parameter `func`"."""
    decorators = "def typechecked({param}=None, *, check=True):\n    return {param}\n"
    before = {
        "src/typeguard/__init__.py": TYPEGUARD_INIT,
        "src/typeguard/_functions.py": "def check_type(value, hint):\n    return value\n",
        "src/typeguard/_decorators.py": decorators.format(param="func"),
    }
    after = {"src/typeguard/_decorators.py": decorators.format(param="target")}
    root, _commit = second_commit(tmp_path / "a", before, after, "Fixed instrumentation")
    analysis, verdicts = checked_entry(tmp_path / "b", before, after, "Fixed instrumentation")
    assert not analysis.breaking
    assert Verdict.FALSE not in verdicts
    # Python's rule: a call by place still runs at the commit
    run = subprocess.run(
        [sys.executable, "-c", "import typeguard; assert typeguard.typechecked(len) is len"],
        cwd=root / "src",
        check=False,
    )
    assert run.returncode == 0


_CT_INIT = (
    '"""Extensible memoizing collections and decorators"""\n\n'
    "from .cache import Cache\nfrom .{lru} import LRUCache\nfrom .{rr} import RRCache\n\n"
    "__all__ = ('Cache', 'LRUCache', 'RRCache')\n"
)
_CT_CACHE = "class Cache(dict):\n    pass\n"
_CT_LRU = "from .cache import Cache\n\n\nclass LRUCache(Cache):\n    pass\n"
_CT_RR = "from .cache import Cache\n\n\nclass RRCache(Cache):\n    pass\n"


def _sha(root: Path) -> str:
    return subprocess.run(
        ["git", "-C", str(root), "rev-parse", "HEAD"], check=True, capture_output=True, text=True
    ).stdout.strip()


def _imports(root: Path, statement: str) -> bytes:
    return subprocess.run(
        [sys.executable, "-c", statement], cwd=root, check=False, capture_output=True
    ).stderr


def test_a_public_module_renamed_to_another_public_name_breaks_its_importers(
    tmp_path: Path,
) -> None:
    """cachetools a4f3125 "Rename cache implementation source files.": `lrucache.py` and
    `rrcache.py` renamed `lru.py` and `rr.py` unchanged, the package's `__init__.py` (its
    `__all__` its interface) follows; `import cachetools.lrucache` now fails."""
    before = {
        "cachetools/__init__.py": _CT_INIT.format(lru="lrucache", rr="rrcache"),
        "cachetools/cache.py": _CT_CACHE,
        "cachetools/lrucache.py": _CT_LRU,
        "cachetools/rrcache.py": _CT_RR,
    }
    after = {
        "cachetools/__init__.py": _CT_INIT.format(lru="lru", rr="rr"),
        "cachetools/lrucache.py": None,
        "cachetools/rrcache.py": None,
        "cachetools/lru.py": _CT_LRU,
        "cachetools/rr.py": _CT_RR,
    }
    message = "Rename cache implementation source files."
    analysis, verdicts = checked_entry(tmp_path, before, after, message)
    assert analysis.breaking
    assert analysis.importance == "high"
    assert sorted(r.consequence or "" for r in analysis.risks) == [
        "Code that imports `cachetools.lrucache` fails; it is now `cachetools.lru`.",
        "Code that imports `cachetools.rrcache` fails; it is now `cachetools.rr`.",
    ]
    assert Verdict.FALSE not in verdicts
    root = tmp_path / "repo"
    sha = _sha(root)
    said = "Code that imports `cachetools.lrucache` fails; it is now `cachetools.lru`."
    assert verdicts_of(root, sha, said) == [(Kind.IMPORT_FAILS, Verdict.TRUE)]
    wrong = "Code that imports `cachetools.lrucache` fails; it is now `cachetools.lfu`."
    assert verdicts_of(root, sha, wrong) == [(Kind.IMPORT_FAILS, Verdict.FALSE)]
    assert b"ModuleNotFoundError" in _imports(root, "import cachetools.lrucache")
    assert _imports(root, "import cachetools.lru") == b""


def test_a_public_module_deleted_from_a_package_that_lists_its_names_breaks(
    tmp_path: Path,
) -> None:
    """cachetools 97cb644 "Remove DefaultMapping abstract base class.": `cachetools/abc.py`
    (no `__all__` of its own) deleted, its class folded into `cache.py`; the package's
    `__init__.py`, unchanged, lists its names: `import cachetools.abc` now fails."""
    abc = "from collections.abc import MutableMapping\n\n\nclass DefaultMapping(MutableMapping):\n    __slots__ = ()\n"
    before = {
        "cachetools/__init__.py": _CT_INIT.format(lru="lru", rr="rr"),
        "cachetools/abc.py": abc,
        "cachetools/cache.py": "from .abc import DefaultMapping\n\n\nclass Cache(DefaultMapping):\n    pass\n",
        "cachetools/lru.py": _CT_LRU,
        "cachetools/rr.py": _CT_RR,
    }
    after = {
        "cachetools/abc.py": None,
        "cachetools/cache.py": "from collections.abc import MutableMapping\n\n\nclass Cache(MutableMapping):\n    pass\n",
    }
    message = "Remove DefaultMapping abstract base class."
    analysis, verdicts = checked_entry(tmp_path, before, after, message)
    assert analysis.breaking
    assert [r.consequence for r in analysis.risks if "module" in r.description] == [
        "Code that imports `cachetools.abc` fails."
    ]
    assert Verdict.FALSE not in verdicts
    assert b"ModuleNotFoundError" in _imports(tmp_path / "repo", "import cachetools.abc")


def test_a_module_renamed_with_its_old_path_kept_or_private_is_no_break(tmp_path: Path) -> None:
    """a4f3125's shape three ways: the old path kept as a module that imports the new one's
    names; the package answering the old path itself (`sys.modules`); a private module
    renamed to another private name."""
    shim = {**{"cachetools/lrucache.py": "from .lru import *  # noqa\n"}}
    before = {
        "cachetools/__init__.py": _CT_INIT.format(lru="lrucache", rr="_rrcache"),
        "cachetools/cache.py": _CT_CACHE,
        "cachetools/lrucache.py": _CT_LRU,
        "cachetools/_rrcache.py": _CT_RR,
    }
    after = {
        "cachetools/__init__.py": _CT_INIT.format(lru="lru", rr="_rr"),
        "cachetools/_rrcache.py": None,
        "cachetools/_rr.py": _CT_RR,
        "cachetools/lru.py": _CT_LRU,
        **shim,
    }
    analysis, _ = checked_entry(tmp_path / "a", before, after, "Rename cache source files.")
    assert not analysis.breaking
    assert not any("the module" in r.description for r in analysis.risks)
    answered = {
        **after,
        "cachetools/lrucache.py": None,
        "cachetools/__init__.py": _CT_INIT.format(lru="lru", rr="_rr")
        + "\nimport sys\n\nsys.modules[__name__ + '.lrucache'] = lru\n",
    }
    analysis, _ = checked_entry(tmp_path / "b", before, answered, "Rename cache source files.")
    assert not analysis.breaking
    assert not any("the module" in r.description for r in analysis.risks)
    # the checker's own reading: the package may answer the old path, so neither way
    root = tmp_path / "b" / "repo"
    said = "Code that imports `cachetools.lrucache` fails."
    assert verdicts_of(root, _sha(root), said) == [(Kind.IMPORT_FAILS, Verdict.UNVERIFIABLE)]


def test_a_module_no_release_had_is_renamed_without_a_break(tmp_path: Path) -> None:
    """a4f3125's shape where `v0.7.0` was tagged before `lrucache.py` was added: no release
    had `cachetools.lrucache` (no file of the tag holds the word), so its rename breaks
    nobody (`bot/analysis/unreleased.py`)."""
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    init = "from .cache import Cache\n\n__all__ = ('Cache',)\n"
    commit_files(root, {"cachetools/__init__.py": "", "cachetools/cache.py": _CT_CACHE}, "Cache")
    _git(root, "tag", "v0.7.0")
    added = {"cachetools/__init__.py": init, "cachetools/lrucache.py": _CT_LRU}
    commit_files(root, added, "Add LRUCache")
    # (nothing the commit removes names the module: only its file's name tells)
    renamed = {"cachetools/lrucache.py": None, "cachetools/lru.py": _CT_LRU}
    commit_files(root, renamed, "Rename cache implementation source files.")
    ((_, commit),) = with_sides(root, git_history(root, branch="HEAD~1..HEAD"))
    assert commit.release is not None and "lrucache" in commit.release.absent
    analysis = analyze(commit)
    assert not analysis.breaking
    assert not any("the module" in r.description for r in analysis.risks)
