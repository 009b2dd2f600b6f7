"""A fix whose symptom lives only in the code, and a new command-line option: what the entry
says beyond the title, read from both parsed sides (apscheduler de06b8a: a closure's `while`
test rewritten; 7168478: a result read with `.first()` then deleted, now deleted only if
`.one_or_none()` found it; doc2dash 2a583e3: `--playground-url` with its own help text); each
a clone shaped like the commit, every sentence checked against it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.claim_check import Verdict
from bot.cli.claims import Kind
from bot.cli.claims_eval import entry_claims
from bot.models import ChangeType
from tests.clones import checked_entry, second_commit, verdicts_of

pytestmark = pytest.mark.usefixtures("environ_clean", "keep_test_logging")

SCHEDULER = '''from enum import Enum


class RunState(Enum):
    starting = 1
    started = 2
    stopping = 3


class AsyncScheduler:
    """Runs jobs."""

    async def run_until_stopped(self) -> None:
        """Run the scheduler until stopped."""
        self._state = RunState.starting
        await self._process_jobs()

    async def _process_jobs(self) -> None:
        wakeup_event = self._wakeup_event

        async def extend_job_leases() -> None:
            while {test}:
                await sleep(self.lease_duration.total_seconds() / 2)
                if job_ids := {{job.id for job in self._running_jobs}}:
                    await self.data_store.extend_acquired_job_leases(
                        self.identity, job_ids, self.lease_duration
                    )

        self._task_group.start_soon(extend_job_leases)
        while self._state is RunState.started:
            await wakeup_event.wait()
            wakeup_event.clear()
'''

STORE = '''class SQLAlchemyDataStore:
    """Stores jobs in a database."""

    async def get_job_result(self, job_id):
        """The result of the job, deleted once read."""
        async with self._begin_transaction() as conn:
            query = self._t_job_results.select().where(
                self._t_job_results.c.job_id == job_id
            )
{body}
        return JobResult.unmarshal(self.serializer, row._asdict()) if row else None
'''
READ_THEN_DELETE = """            row = (await self._execute(conn, query)).first()

            # Delete the result
            delete = self._t_job_results.delete().where(
                self._t_job_results.c.job_id == job_id
            )
            await self._execute(conn, delete)"""
DELETE_IF_FOUND = """            if row := (await self._execute(conn, query)).one_or_none():
                # Delete the result
                delete = self._t_job_results.delete().where(
                    self._t_job_results.c.job_id == job_id
                )
                result = await self._execute(conn, delete)"""

MAIN = '''import click


@click.command()
@click.argument("source")
@click.option(
    "--online-redirect-url",
    "-u",
    help="The base URL of the online documentation.",
)
{option}@click.option("--parser", "parser_type", help="The parser to use.")
def main(source, online_redirect_url, parser_type{param}):
    """
    Convert docs from SOURCE to Dash's docset format.
    """
    docset = prepare_docset(source, online_redirect_url{param})
    click.echo(docset)
'''
PLAY = '@click.option("--playground-url", help="The URL to a docset playground.")\n'


def test_a_closures_loop_test_rewritten_is_said_with_both_lines_and_proven(
    tmp_path: Path,
) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {
            "src/apscheduler/_schedulers/async_.py": SCHEDULER.format(
                test="self._state is RunState.started"
            )
        },
        {
            "src/apscheduler/_schedulers/async_.py": SCHEDULER.format(
                test="self._state in (RunState.starting, RunState.started)"
            )
        },
        "Fixed job lease extension exiting early (#1030)",
    )
    # the private method with the public one a user calls that runs it
    said = (
        "In `AsyncScheduler._process_jobs` (used by `AsyncScheduler.run_until_stopped`), "
        "`while self._state is RunState.started:` became "
        "`while self._state in (RunState.starting, RunState.started):`."
    )
    assert said in analysis.summary
    claims, _ = entry_claims(analysis)
    assert {Kind.BECAME, Kind.USED_BY} <= {c.kind for c in claims}
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_the_checker_refuses_a_public_method_that_does_not_use_the_private_one(
    tmp_path: Path,
) -> None:
    after = SCHEDULER.format(test="self._state in (RunState.starting, RunState.started)")
    root, commit = second_commit(
        tmp_path,
        {
            "src/apscheduler/_schedulers/async_.py": SCHEDULER.format(
                test="self._state is RunState.started"
            )
        },
        {"src/apscheduler/_schedulers/async_.py": after + "\n    def stop(self):\n        pass\n"},
        "Fixed job lease extension exiting early (#1030)",
    )
    text = (
        "In `AsyncScheduler._process_jobs` (used by `AsyncScheduler.stop`), "
        "`while self._state is RunState.started:` became "
        "`while self._state in (RunState.starting, RunState.started):`."
    )
    assert verdicts_of(root, commit.sha, text) == [
        (Kind.BECAME, Verdict.TRUE),
        (Kind.USED_BY, Verdict.FALSE),
    ]


def test_a_statement_made_a_guard_is_said_as_written_and_proven(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/apscheduler/datastores/sqlalchemy.py": STORE.format(body=READ_THEN_DELETE)},
        {"src/apscheduler/datastores/sqlalchemy.py": STORE.format(body=DELETE_IF_FOUND)},
        "Fixed job result getting prematurely deleted in fringe cases",
    )
    # the line as the file writes it (no parentheses `ast.unparse` puts around `:=`)
    assert analysis.summary == (
        "In `SQLAlchemyDataStore.get_job_result`, "
        "`row = (await self._execute(conn, query)).first()` became "
        "`if row := (await self._execute(conn, query)).one_or_none():`."
    )
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_the_checker_refuses_a_statement_still_there_or_never_written(tmp_path: Path) -> None:
    root, commit = second_commit(
        tmp_path,
        {"src/apscheduler/datastores/sqlalchemy.py": STORE.format(body=READ_THEN_DELETE)},
        {"src/apscheduler/datastores/sqlalchemy.py": STORE.format(body=DELETE_IF_FOUND)},
        "Fixed job result getting prematurely deleted in fringe cases",
    )
    still = (
        "In `SQLAlchemyDataStore.get_job_result`, `delete = self._t_job_results.delete().where(`"
        " became `return None`."
    )
    unparsed = (
        "In `SQLAlchemyDataStore.get_job_result`, "
        "`row = (await self._execute(conn, query)).first()` became "
        "`if (row := (await self._execute(conn, query)).one_or_none()):`."
    )
    assert verdicts_of(root, commit.sha, still) == [(Kind.BECAME, Verdict.FALSE)]
    assert verdicts_of(root, commit.sha, unparsed) == [(Kind.BECAME, Verdict.FALSE)]


def test_a_rewritten_function_says_no_statement_became_another(tmp_path: Path) -> None:
    # five places changed: a rewrite, not one statement rewritten in place
    rewritten = DELETE_IF_FOUND.replace("result = ", "").replace("job_id", "key")
    analysis, _ = checked_entry(
        tmp_path,
        {"src/apscheduler/datastores/sqlalchemy.py": STORE.format(body=READ_THEN_DELETE)},
        {
            "src/apscheduler/datastores/sqlalchemy.py": STORE.replace("job_id", "key").format(
                body=rewritten + "\n            await conn.commit()\n            log(key)"
            )
        },
        "Fixed job result getting prematurely deleted in fringe cases",
    )
    assert "became" not in analysis.summary
    assert "became" not in str(analysis.insights)


def test_a_new_option_is_a_feature_said_with_its_own_help_text(tmp_path: Path) -> None:
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/doc2dash/__main__.py": MAIN.format(option="", param="")},
        {"src/doc2dash/__main__.py": MAIN.format(option=PLAY, param=", playground_url")},
        "Dash doc set play url (#201)",
    )
    assert analysis.change_types[0] is ChangeType.FEATURE
    said = "Adds the command-line option `--playground-url`: “The URL to a docset playground.”"
    assert said in f"{analysis.summary} {analysis.insights}"
    flags = [c for c in entry_claims(analysis)[0] if c.kind is Kind.FLAG_NEW]
    assert [c.new for c in flags] == ["The URL to a docset playground."]
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)


def test_the_checker_refuses_help_text_the_option_does_not_give(tmp_path: Path) -> None:
    root, commit = second_commit(
        tmp_path,
        {"src/doc2dash/__main__.py": MAIN.format(option="", param="")},
        {"src/doc2dash/__main__.py": MAIN.format(option=PLAY, param=", playground_url")},
        "Dash doc set play url (#201)",
    )
    text = "Adds the command-line option `--playground-url`: “The base URL of the playground.”"
    assert verdicts_of(root, commit.sha, text) == [(Kind.FLAG_NEW, Verdict.FALSE)]


BROKER = '''class BaseEventBroker:
    """Delivers events."""

    def publish_local(self, event):
        """Deliver an event to the local subscribers."""
        for {loop}:
            if subscription.event_types and type(event) not in subscription.event_types:
                continue
            try:
                subscription.callback(event)
            except {caught}:
                self._logger.exception("Error delivering %s event", event.__class__.__name__)
'''


@pytest.mark.parametrize(
    ("title", "loop", "caught"),
    [
        # the same exceptions caught, one now named: no rewrite of how the function goes
        (
            "Deliver events to every subscriber",
            "_token, subscription in self._subscriptions.items()",
            "Exception as exc",
        ),
        # a linter's rewrite of a loop is its style
        (
            "Applied more Ruff rules and the fixes that they required",
            "subscription in self._subscriptions.values()",
            "Exception",
        ),
    ],
)
def test_a_named_except_or_a_linters_rewrite_is_no_statement_that_became_another(
    tmp_path: Path, title: str, loop: str, caught: str
) -> None:
    before = BROKER.format(
        loop="_token, subscription in self._subscriptions.items()", caught="Exception"
    )
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/apscheduler/_events.py": before},
        {"src/apscheduler/_events.py": BROKER.format(loop=loop, caught=caught)},
        title,
    )
    assert "became" not in f"{analysis.summary} {analysis.insights}"
    assert all(v is not Verdict.FALSE for v in verdicts)


STREAM = '''from typing import BinaryIO, cast


class FileReadStream:
    """Reads a file."""

    @classmethod
    async def from_path(cls, path):
        """Open a file for reading."""
        file = await to_thread.run_sync(pathlib.Path(path).open, "rb")
        return {value}
'''


def test_a_cast_dropped_is_no_statement_that_became_another(tmp_path: Path) -> None:
    analysis, _ = checked_entry(
        tmp_path,
        {"src/anyio/streams/file.py": STREAM.format(value="cls(cast(BinaryIO, file))")},
        {"src/anyio/streams/file.py": STREAM.format(value="cls(file)")},
        "Widened type annotations to accept IO[bytes] in file streams",
    )
    assert "became" not in f"{analysis.summary} {analysis.insights}"


@pytest.mark.parametrize(
    ("help_arg", "quoted"),
    [
        # a placeholder's value is known only when the program runs: the option is said bare
        ('help="The URL to " + f"a {KIND} playground."', None),
        ('help=f"The URL to a {KIND} playground."', None),
        # an f-string without placeholders is a literal
        ('help=f"The URL to a docset playground."', "The URL to a docset playground."),
    ],
    ids=["joined with a placeholder", "placeholder", "no placeholder"],
)
def test_an_f_string_help_is_quoted_only_without_placeholders(
    tmp_path: Path, help_arg: str, quoted: str | None
) -> None:
    play = f'@click.option("--playground-url", {help_arg})\n'
    analysis, verdicts = checked_entry(
        tmp_path,
        {"src/doc2dash/__main__.py": 'KIND = "docset"\n' + MAIN.format(option="", param="")},
        {
            "src/doc2dash/__main__.py": 'KIND = "docset"\n'
            + MAIN.format(option=play, param=", playground_url")
        },
        "Dash doc set play url (#201)",
    )
    text = f"{analysis.summary} {analysis.insights}"
    # the option is a feature either way; its help is quoted only as the file writes it
    assert analysis.change_types[0] is ChangeType.FEATURE
    assert "{" not in text, text
    assert ("“" in text) is bool(quoted), text
    flags = [c for c in entry_claims(analysis)[0] if c.kind is Kind.FLAG_NEW]
    # every new option is claimed; only a literal help text is claimed as its words
    assert [c.name for c in flags] == ["--playground-url"], text
    assert [c.new for c in flags if c.new is not None] == ([quoted] if quoted else []), text
    if quoted:
        assert f"Adds the command-line option `--playground-url`: “{quoted}”" in text
    assert verdicts and all(v is Verdict.TRUE for v in verdicts)
