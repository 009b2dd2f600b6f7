"""Public constants of modules and classes, compared between two whole files: each fact with
the starlette commit that showed it missing, and what must not become one."""

from __future__ import annotations

from bot.analysis.facts import Constant, ConstantRenamed, DefaultChange, Facts, read_facts
from bot.analysis.rules import analyze
from bot.cli.claims_eval import entry_text
from bot.models import CommitInput, Importance
from tests.support import whole_commit

PARSER = "class MultiPartParser:\n{attrs}\n    def parse(self):\n        return self.x\n"


def _facts(*files: tuple[str, str | None, str | None]) -> Facts:
    return read_facts(whole_commit(*files))


def _titled(commit: CommitInput, title: str) -> CommitInput:
    return commit.model_copy(update={"message": title})


def test_a_module_constant_added_is_said_with_its_value() -> None:
    # starlette a9a8dab0: "Don't compress on server sent events" said only its test
    before = "import gzip\n\n\nclass GZipMiddleware:\n    pass\n"
    after = 'import gzip\n\nDEFAULT_EXCLUDED_CONTENT_TYPES = ("text/event-stream",)\n' + before[12:]
    commit = whole_commit(("starlette/middleware/gzip.py", before, after))
    facts = read_facts(commit)
    assert facts.constants_added == (
        Constant(
            "DEFAULT_EXCLUDED_CONTENT_TYPES",
            "starlette/middleware/gzip.py",
            "('text/event-stream',)",
        ),
    )
    text = analyze(_titled(commit, "Don't compress on server sent events")).summary
    assert "`DEFAULT_EXCLUDED_CONTENT_TYPES = ('text/event-stream',)`" in text


def test_a_class_attribute_renamed_is_a_public_rename() -> None:
    # starlette 4ae3213c: users set `MultiPartParser.max_file_size`; after the rename that
    # setting silently does nothing, and a second attribute of the same value came
    before = PARSER.format(attrs="    max_file_size = 1024 * 1024  # 1MB\n")
    after = PARSER.format(
        attrs="    spool_max_size = 1024 * 1024  # 1MB\n    max_part_size = 1024 * 1024\n"
    )
    commit = whole_commit(("starlette/formparsers.py", before, after))
    facts = read_facts(commit)
    assert facts.constants_renamed == (
        ConstantRenamed(
            "MultiPartParser.max_file_size",
            "MultiPartParser.spool_max_size",
            "starlette/formparsers.py",
            "1024 * 1024",
        ),
    )
    assert [c.name for c in facts.constants_added] == ["MultiPartParser.max_part_size"]
    assert facts.constants_removed == ()
    analysis = analyze(_titled(commit, "Rename `max_file_size` to `spool_max_size`"))
    assert analysis.importance is Importance.MEDIUM
    assert (
        "Renames `MultiPartParser.max_file_size` to `MultiPartParser.spool_max_size` in "
        "`starlette/formparsers.py`." in analysis.summary
    )


def test_a_value_changed_and_a_constant_removed() -> None:
    before = "CHUNK_SIZE = 64 * 1024\nRETRIES = 3\n\n\ndef run():\n    return CHUNK_SIZE\n"
    after = "CHUNK_SIZE = 1024 * 1024\n\n\ndef run():\n    return CHUNK_SIZE\n"
    commit = whole_commit(("pkg/io.py", before, after))
    facts = read_facts(commit)
    assert facts.constants_changed == (
        DefaultChange("CHUNK_SIZE", "64 * 1024", "1024 * 1024", "pkg/io.py"),
    )
    assert [c.name for c in facts.constants_removed] == ["RETRIES"]
    analysis = analyze(_titled(commit, "Tune the reader"))
    text = entry_text(analysis)
    assert "Removes `RETRIES` from `pkg/io.py`." in text
    assert "Changes `CHUNK_SIZE` from `64 * 1024` to `1024 * 1024` in `pkg/io.py`." in text
    assert analysis.importance is Importance.MEDIUM


def test_what_is_no_public_constant_is_not_one() -> None:
    # aliases, type aliases, loggers, type variables, compiled patterns, private and dunder
    # names, a function's locals, a fallback import's `None`: none is a constant
    before = "import re\n"
    after = (
        "import re\nimport logging\nfrom typing import TypeVar, TypeAlias, Union\n\n"
        "__all__ = ['x']\n__version__ = '1.0'\n_PRIVATE = 3\nAlias = re.Pattern\n"
        "Json: TypeAlias = Union[int, str]\nIntOrStr = Union[int, str]\n"
        "T = TypeVar('T')\nlogger = logging.getLogger(__name__)\nWORD = re.compile('w')\n"
        "multipart = None\nSAME = WORD\n\n\ndef f():\n    LOCAL = 1\n    return LOCAL\n"
    )
    facts = _facts(("pkg/mod.py", before, after))
    assert facts.constants_added == ()


def test_a_constant_still_bound_or_moved_is_not_removed_and_a_new_class_says_its_own() -> None:
    # starlette f9ffd623: the fallback imports went under `if TYPE_CHECKING: … else:`, whose
    # `else` binds at run time; a constant moved to another changed module is not gone
    facts = _facts(
        (
            "pkg/parsers.py",
            "try:\n    import fast\nexcept ImportError:\n    fast = False\nLIMIT = 10\n",
            "import typing\nif typing.TYPE_CHECKING:\n    import fast\nelse:\n"
            "    try:\n        import fast\n    except ImportError:\n        fast = 0\n",
        ),
        ("pkg/limits.py", "A = 1\n", "A = 1\nLIMIT = 10\n"),
        ("pkg/new.py", None, "class Fresh:\n    size = 3\n"),
    )
    assert facts.constants_removed == ()
    assert facts.constants_added == ()
    assert facts.constants_renamed == ()


def test_settings_of_tests_are_not_read() -> None:
    facts = _facts(("tests/test_x.py", "SIZE = 1\n", "SIZE = 2\nMORE = 3\n"))
    assert facts.constants_changed == () and facts.constants_added == ()


def test_a_class_attribute_that_init_now_sets_on_instances_is_not_removed() -> None:
    # starlette cef7834e: `max_part_size` became a parameter `__init__` stores on `self`
    before = PARSER.format(attrs="    max_part_size = 1024\n")
    after = PARSER.format(
        attrs="    def __init__(self, max_part_size=1024):\n"
        "        self.max_part_size = max_part_size\n"
    )
    facts = _facts(("pkg/formparsers.py", before, after))
    assert facts.constants_removed == ()


def test_a_class_attribute_its_base_now_binds_is_not_removed() -> None:
    # flask c17f3793: `SecureCookieSession.accessed` went, `SessionMixin.accessed` stays
    before = (
        "class SessionMixin:\n    accessed = True\n\n\n"
        "class SecureCookieSession(dict, SessionMixin):\n    accessed = False\n"
    )
    after = (
        "class SessionMixin:\n    accessed = False\n\n\n"
        "class SecureCookieSession(dict, SessionMixin):\n    modified = False\n"
    )
    facts = _facts(("src/flask/sessions.py", before, after))
    assert facts.constants_removed == ()
    assert facts.constants_changed == (
        DefaultChange("SessionMixin.accessed", "True", "False", "src/flask/sessions.py"),
    )


def test_a_constant_renamed_in_a_package_init_is_a_risk_in_both_languages() -> None:
    before = "TIMEOUT_SECONDS = 30\n\n\ndef run():\n    return 1\n"
    after = "TIMEOUT = 30\n\n\ndef run():\n    return 1\n"
    commit = _titled(whole_commit(("pkg/__init__.py", before, after)), "Shorter names")
    risks = analyze(commit).risks
    assert [r.consequence for r in risks] == [
        "Code that reads `TIMEOUT_SECONDS` fails; code that sets it has no effect."
    ]
    zh = analyze(commit, language="zh-CN").risks
    assert [r.consequence for r in zh] == [
        "读取 `TIMEOUT_SECONDS` 的代码将失败；设置它的代码不再生效。"
    ]
