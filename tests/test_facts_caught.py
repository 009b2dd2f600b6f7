"""A new call's "raises when" and the caller's own handlers (`facts.caught`): each call of the
callee caught, or the claim stays."""

from __future__ import annotations

import pytest

from bot.analysis.facts import read_facts
from tests.support import whole_commit

_MODULE = (
    "class BadParams(ValueError):\n    pass\n\n\n"
    "def check(params):\n    if params < 0:\n        raise BadParams(params)\n\n\n"
    "def build(params):\n{body}    return params\n"
)


def _raises(body: str) -> str:
    before = _MODULE.format(body="    params = abs(params)\n")
    after = _MODULE.format(body=body)
    (call,) = read_facts(whole_commit(("pkg/core.py", before, after))).calls_added
    return call.raises


@pytest.mark.parametrize(
    ("body", "raises"),
    [
        ("    check(params)\n", "BadParams"),
        ("    try:\n        check(params)\n    except BadParams:\n        pass\n", ""),
        ("    try:\n        check(params)\n    except ValueError:\n        pass\n", ""),
        ("    try:\n        check(params)\n    except KeyError:\n        pass\n", "BadParams"),
        # a handler's own body, and a `finally`, are not what it catches around
        (
            "    try:\n        pass\n    except ValueError:\n        check(params)\n",
            "BadParams",
        ),
        # one call caught, one not: callers still meet it
        (
            "    try:\n        check(params)\n    except ValueError:\n        pass\n"
            "    check(params)\n",
            "BadParams",
        ),
        # a nested function runs where it is called, not inside this `try`
        (
            "    try:\n        def later():\n            check(params)\n"
            "    except ValueError:\n        pass\n    later()\n",
            "BadParams",
        ),
        (
            "    import contextlib\n    with contextlib.suppress(BadParams):\n"
            "        check(params)\n",
            "",
        ),
        # a handler not followed to a class may be any: nothing said
        (
            "    try:\n        check(params)\n    except errors.Unknown:\n        pass\n",
            "",
        ),
    ],
)
def test_a_call_caught_around_raises_nothing(body: str, raises: str) -> None:
    assert _raises(body) == raises
