"""Words on agronholm/apscheduler (read by a maintainer at a375109): a `ClassVar` respelled is
no changed default, a changelog item marked **BREAKING** is the author's word, a thank-you
is no description, a stand-in password in an example's URL is no credential; each a clone
shaped like the commit."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.analysis.facts import read_facts
from bot.analysis.rules import analyze
from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_text
from bot.models import Importance
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")


def _expressions(value: str) -> str:
    return (
        "from __future__ import annotations\n\nimport re\nfrom re import Pattern\n"
        "from typing import ClassVar\n\nimport attrs\n\n\n"
        "@attrs.define(kw_only=True)\nclass AllExpression:\n"
        "    step: int | None = None\n\n\n"
        "@attrs.define(kw_only=True)\nclass WeekdayPositionExpression(AllExpression):\n"
        '    options: ClassVar[tuple[str, ...]] = ("1st", "2nd", "3rd", "4th", "5th", "last")\n'
        f"    value_re: ClassVar[Pattern] = re.compile(\n        {value},\n"
        "        re.IGNORECASE,\n    )\n"
        "    option_num: int = 0\n"
    )


def test_a_class_variable_respelled_is_no_changed_default(tmp_path: Path) -> None:
    # apscheduler 4e36c7c "Upgraded a formatted string to use an f-string": the day's one 🔴,
    # ⚠️ breaking for "Changes the default of `WeekdayPositionExpression.value_re`"; a
    # `ClassVar` is the class's own (PEP 557, attrs), no field a caller passes
    analysis, verdicts = checked_entry(
        tmp_path,
        {
            "src/apscheduler/triggers/cron/expressions.py": _expressions(
                'r"(?P<option_name>%s) +(?P<weekday_name>(?:\\d+|\\w+))" % "|".join(options)'
            )
        },
        {
            "src/apscheduler/triggers/cron/expressions.py": _expressions(
                "f\"(?P<option_name>{'|'.join(options)}) +(?P<weekday_name>(?:\\\\d+|\\\\w+))\""
            )
        },
        "Upgraded a formatted string to use an f-string",
    )
    assert not analysis.breaking
    assert analysis.importance is Importance.LOW
    assert "default" not in entry_text(analysis)
    assert all(v is Verdict.TRUE for v in verdicts)


def test_a_field_default_still_changes_beside_class_variables(tmp_path: Path) -> None:
    # the same class's real field keeps its default's change
    analysis, _ = checked_entry(
        tmp_path,
        {"src/apscheduler/triggers/cron/expressions.py": _expressions('r"(\\d+)"')},
        {
            "src/apscheduler/triggers/cron/expressions.py": _expressions('r"(\\d+)"').replace(
                "option_num: int = 0", "option_num: int = 1"
            )
        },
        "Changed the default option number",
    )
    assert "`WeekdayPositionExpression.option_num`" in entry_text(analysis)


_HISTORY = (
    "Version history\n===============\n\n**UNRELEASED**\n\n{items}"
    "- Dropped support for Python 3.9\n\n**4.0.0a6**\n\n- Fixed a bug\n"
)
_MONGODB = "class MongoDBDataStore:\n    def __init__(self, client):\n        self.client = {}\n"


def test_a_changelog_item_marked_breaking_makes_the_change_breaking(tmp_path: Path) -> None:
    # apscheduler aa7da53 "Switched the MongoDB data store to use the pymongo async API": its
    # version history's item reads "**BREAKING** Switched …"; it was medium, not flagged
    analysis, _ = checked_entry(
        tmp_path,
        {
            "docs/versionhistory.rst": _HISTORY.format(items=""),
            "src/apscheduler/datastores/mongodb.py": _MONGODB.format("client"),
        },
        {
            "docs/versionhistory.rst": _HISTORY.format(
                items="- **BREAKING** Switched the MongoDB data store to use the asynchronous"
                " API in\n  ``pymongo`` and bumped the minimum ``pymongo`` version to v4.13.0\n"
            ),
            "src/apscheduler/datastores/mongodb.py": _MONGODB.format("AsyncMongoClient(client)"),
        },
        "Switched the MongoDB data store to use the pymongo async API",
    )
    assert analysis.breaking
    assert analysis.importance is Importance.HIGH
    said = " ".join(r.description for r in analysis.risks)
    assert "breaking in `docs/versionhistory.rst`" in said
    assert "Switched the MongoDB data store to use the asynchronous API" in analysis.summary


def test_an_item_that_only_speaks_of_breaking_is_no_mark(tmp_path: Path) -> None:
    # an item about breaking something (not the author's mark) leaves the verdict to the facts
    analysis, _ = checked_entry(
        tmp_path,
        {
            "docs/versionhistory.rst": _HISTORY.format(items=""),
            "src/apscheduler/datastores/mongodb.py": _MONGODB.format("client"),
        },
        {
            "docs/versionhistory.rst": _HISTORY.format(
                items="- Fixed breaking out of the loop in the MongoDB data store\n"
            ),
            "src/apscheduler/datastores/mongodb.py": _MONGODB.format("dict(client)"),
        },
        "Fixed breaking out of the loop",
    )
    assert not analysis.breaking


def test_a_thank_you_is_no_description(tmp_path: Path) -> None:
    # apscheduler c9a0017: the summary was "Special thanks to `@HK-Mattew` for noticing this
    # and providing crucial information that lead to this solution."
    _, commit = second_commit(
        tmp_path,
        {"src/apscheduler/datastores/mongodb.py": _MONGODB.format("client")},
        {"src/apscheduler/datastores/mongodb.py": _MONGODB.format("{'max': client}")},
        "Fixed MongoDB data store ignoring max_running_jobs in acquire_jobs()\n\n"
        "Special thanks to @HK-Mattew for noticing this and providing crucial information "
        "that lead to this solution.\n\nCloses #948.",
    )

    analysis = analyze(commit)
    assert "thanks" not in entry_text(analysis).lower()
    assert "HK-Mattew" not in entry_text(analysis)


def test_a_stand_in_password_in_an_example_url_is_no_credential(tmp_path: Path) -> None:
    # apscheduler 4d28dc7 "Reverted an unplanned change to the wsgi_noframework example":
    # `postgres:secret@localhost` raised "Revoke it, rotate it …" and made it medium
    example = (
        "from sqlalchemy.ext.asyncio import create_async_engine\n\n"
        'engine = create_async_engine("{url}")\n'
    )
    analysis, _ = checked_entry(
        tmp_path,
        {"examples/web/wsgi_noframework.py": example.format(url="mysql://root:pw@localhost/t")},
        {
            "examples/web/wsgi_noframework.py": example.format(
                url="postgresql+psycopg://postgres:secret@localhost/testdb"
            )
        },
        "Reverted an unplanned change to the wsgi_noframework example",
    )
    assert not analysis.risks
    assert "credential" not in entry_text(analysis).lower()
    assert analysis.importance is Importance.LOW


def test_a_real_password_in_a_url_is_still_a_credential(tmp_path: Path) -> None:
    # the same line with a password no one writes as a stand-in is still said
    example = 'ENGINE_URL = "{url}"\n'
    analysis, _ = checked_entry(
        tmp_path,
        {"src/app/settings.py": example.format(url="postgresql://app@db.internal/app")},
        {"src/app/settings.py": example.format(url="postgresql://app:Xk29fLq7Zt@db.internal/app")},
        "Point at the new database",
    )
    assert "credential" in entry_text(analysis).lower()


_ENUMS = (
    "from enum import Enum, auto\n\n\nclass JobOutcome(Enum):\n"
    '    """\n    Used to indicate how the execution of a job ended.\n\n'
    "    .. attribute:: cancelled\n\n        the job's execution was cancelled\n{doc}"
    '    """\n\n'
    "    success = auto()\n    error = auto()\n    cancelled = auto()\n{more}"
)
_STORE = (
    "from .._enums import JobOutcome\nfrom .._structures import JobResult\n\n\n"
    "class {store}:\n    async def cleanup(self, jobs, now):\n"
    "        for job in jobs:\n"
    "            result = JobResult.from_job(\n"
    "                job=job, outcome=JobOutcome.{outcome}, finished_at=now\n            )\n"
    "            assert job.acquired_by is not None\n"
    "            await self.release_job(job.acquired_by, job, result)\n"
)
_STORES = {"memory": "MemoryDataStore", "mongodb": "MongoDBDataStore"}


def _stores(outcome: str) -> dict[str, str | None]:
    return {
        f"src/apscheduler/datastores/{name}.py": _STORE.format(store=store, outcome=outcome)
        for name, store in _STORES.items()
    }


def test_an_enum_member_added_and_passed_instead_of_another_is_said(tmp_path: Path) -> None:
    # apscheduler 8452b47 "Added new job outcome for "abandoned" jobs": the entry said
    # nothing the title did not; the member is in a private module whose class is exported
    analysis, verdicts = checked_entry(
        tmp_path,
        {
            "src/apscheduler/__init__.py": "from ._enums import JobOutcome as JobOutcome\n",
            "src/apscheduler/_enums.py": _ENUMS.format(doc="", more=""),
            **_stores("cancelled"),
        },
        {
            "src/apscheduler/_enums.py": _ENUMS.format(
                doc="\n    .. attribute:: abandoned\n\n        the worker running the job "
                "stopped unexpectedly and the job was never marked\n        as done\n",
                more="    abandoned = auto()\n",
            ),
            **_stores("abandoned"),
        },
        'Added new job outcome for "abandoned" jobs',
    )
    text = entry_text(analysis)
    assert "Adds `JobOutcome.abandoned` to `src/apscheduler/_enums.py`" in text
    assert "auto()" not in text
    assert (
        "`MemoryDataStore.cleanup` now passes `outcome=JobOutcome.abandoned` to"
        " `JobResult.from_job` (was `JobOutcome.cancelled`)"
    ) in text
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_a_private_class_attribute_in_a_private_module_is_not_said_as_new(tmp_path: Path) -> None:
    # a class the package keeps to itself (`_Cache`) gains no reader-facing member
    cache = "class _Cache:\n    size = 1\n{more}"
    analysis, _ = checked_entry(
        tmp_path,
        {"src/apscheduler/_cache.py": cache.format(more="")},
        {"src/apscheduler/_cache.py": cache.format(more="    limit = 5\n")},
        "Bound the cache",
    )
    assert "_Cache.limit" not in analysis.summary


_CRON = (
    "class CronTrigger:\n    def __init__(self, *, start_time=None, end_time=None):\n"
    "        self.start_time = start_time\n\n"
    "    @classmethod\n    def from_crontab(cls, expr, {params}):\n"
    "        return cls()\n"
)
_ITEM = (
    "Added the `start_time` and `end_time` arguments to `CronTrigger.from_crontab()`. "
    "Changed the `timezone` argument to `CronTrigger.from_crontab()` into a keyword-only "
    "argument."
)


def test_the_checker_reads_arguments_added_to_a_function_as_its_parameters(
    tmp_path: Path,
) -> None:
    # apscheduler c2dc651: the author's item, quoted, was read as adding names `start_time`
    # and `end_time` (the class's own attributes at the parent) and changing `timezone`
    root, commit = second_commit(
        tmp_path,
        {"src/apscheduler/triggers/cron/__init__.py": _CRON.format(params='timezone="local"')},
        {
            "src/apscheduler/triggers/cron/__init__.py": _CRON.format(
                params='*, start_time=None, end_time=None, timezone="local"'
            )
        },
        "Pass through start_time and end_time from CronTrigger.from_crontab()",
    )
    found = verdicts_of(root, commit.sha, _ITEM)
    assert found == [
        (Kind.PARAM_NEW, Verdict.TRUE),
        (Kind.PARAM_NEW, Verdict.TRUE),
        (Kind.CHANGES, Verdict.TRUE),
    ]


def test_the_checker_refutes_arguments_a_function_already_took(tmp_path: Path) -> None:
    # the same words where `from_crontab` took both already: false, not passed over
    params = 'start_time=None, end_time=None, timezone="local"'
    root, commit = second_commit(
        tmp_path,
        {"src/apscheduler/triggers/cron/__init__.py": _CRON.format(params=params)},
        {
            "src/apscheduler/triggers/cron/__init__.py": _CRON.format(params=params).replace(
                "return cls()", "return cls(start_time=start_time)"
            )
        },
        "Pass start_time through",
    )
    found = verdicts_of(root, commit.sha, _ITEM.split(". ", maxsplit=1)[0] + ".")
    assert found == [(Kind.PARAM_NEW, Verdict.FALSE), (Kind.PARAM_NEW, Verdict.FALSE)]


_SCHEDULER = (
    "from contextlib import AsyncExitStack\n\n\nclass AsyncScheduler:\n"
    "    async def __aenter__(self):\n"
    "        async with AsyncExitStack() as exit_stack:\n"
    "            await exit_stack.enter_async_context(self.data_store)\n"
    "{push}"
    "            self._exit_stack = exit_stack.pop_all()\n\n"
    "        return self\n\n"
    "    async def __aexit__(self, exc_type, exc_val, exc_tb):\n"
    "{stop}"
    "        await self._exit_stack.__aexit__(exc_type, exc_val, exc_tb)\n\n"
    "    async def stop(self):\n        self._state = 'stopping'\n"
)


def test_a_call_handed_to_an_exit_stack_is_still_made(tmp_path: Path) -> None:
    # apscheduler 5a98a21 "Context manager clean-ups": `stop` moved from `__aexit__`'s body
    # onto the exit stack; "`__aexit__` no longer calls `stop`" read as if it no longer ran
    analysis, _ = checked_entry(
        tmp_path,
        {
            "src/apscheduler/_schedulers/async_.py": _SCHEDULER.format(
                push="", stop="        await self.stop()\n"
            )
        },
        {
            "src/apscheduler/_schedulers/async_.py": _SCHEDULER.format(
                push="            exit_stack.push_async_callback(self.stop)\n", stop=""
            )
        },
        "Context manager clean-ups",
    )
    assert "no longer calls `stop`" not in entry_text(analysis)


def test_a_call_dropped_outright_is_still_said(tmp_path: Path) -> None:
    # the same `stop` dropped with nothing handing it over: it no longer runs on exit
    before = _SCHEDULER.format(push="", stop="        await self.stop()\n")
    _, commit = second_commit(
        tmp_path,
        {"src/apscheduler/_schedulers/async_.py": before},
        {"src/apscheduler/_schedulers/async_.py": _SCHEDULER.format(push="", stop="")},
        "Context manager clean-ups",
    )
    dropped = {(c.caller, c.callee) for c in read_facts(commit).calls_removed}
    assert ("AsyncScheduler.__aexit__", "stop") in dropped


_MONGO_STORE = (
    "class MongoDBDataStore:\n"
    "    async def acquire_jobs(self, scheduler_id, limit=None):\n"
    "        jobs = await self._fetch(limit)\n"
    "        for job in jobs:\n"
    "            {release}\n"
    "        return jobs\n\n"
    "    async def _release_job(self, {params}):\n"
    "        self._released.append(({params}))\n"
)


def test_a_private_helpers_new_parameters_are_no_summary(tmp_path: Path) -> None:
    # apscheduler 96a0713 "Fixed deserialization failure handling in the MongoDB data
    # store": the summary was `MongoDBDataStore._release_job`'s parameters, then the test's
    # name; the title says more. What a private helper takes is wiring, unsaid on a medium
    # entry (issue 27's bidict reader: "`BidictBase._from_other` no longer takes `bt`")
    test = (
        "async def test_acquire_jobs_deserialization_failure(datastore):\n"
        "    assert await datastore.acquire_jobs('s') == []\n"
    )
    analysis, _ = checked_entry(
        tmp_path,
        {
            "src/apscheduler/datastores/mongodb.py": _MONGO_STORE.format(
                release="await self._release_job(job)", params="job"
            ),
            "tests/test_datastores.py": "def test_other():\n    pass\n",
        },
        {
            "src/apscheduler/datastores/mongodb.py": _MONGO_STORE.format(
                release="await self._release_job(job.task_id, job.schedule_id)",
                params="task_id, schedule_id",
            ),
            "tests/test_datastores.py": "def test_other():\n    pass\n\n\n" + test,
        },
        "Fixed deserialization failure handling in the MongoDB data store",
    )
    assert analysis.summary == "Fixed deserialization failure handling in the MongoDB data store"
    assert analysis.importance is Importance.MEDIUM
    assert "_release_job" not in entry_text(analysis)


def test_an_item_marked_backward_incompatible_is_the_author_s_break(tmp_path: Path) -> None:
    # typeguard df3ca82 "Converted @typechecked to recompile the target function": its version
    # history's new item reads "**BACKWARD INCOMPATIBLE** Removed the ``check_argument_types()``
    # and ``check_return_type()`` functions"; the entry was medium, not flagged
    functions = "def check_type(value, hint):\n    return value\n{gone}"
    gone = "\n\ndef check_argument_types(memo=None):\n    return True\n"
    analysis, _ = checked_entry(
        tmp_path,
        {
            "docs/versionhistory.rst": _HISTORY.format(items=""),
            "src/typeguard/_functions.py": functions.format(gone=gone),
        },
        {
            "docs/versionhistory.rst": _HISTORY.format(
                items="- **BACKWARD INCOMPATIBLE** Removed the ``check_argument_types()`` and\n"
                "  ``check_return_type()`` functions (use ``@typechecked`` instead)\n"
            ),
            "src/typeguard/_functions.py": functions.format(gone=""),
        },
        "Converted @typechecked to recompile the target function with type checks (#289)",
    )
    assert analysis.breaking
    assert analysis.importance is Importance.HIGH
    said = " ".join(r.description for r in analysis.risks)
    assert "Removed the `check_argument_types()`" in said
