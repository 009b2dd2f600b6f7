"""How a new Python definition is called, and the keyword arguments an edited one now passes."""

from __future__ import annotations

import ast

from bot.analysis.facts.records import NameKind, Passed, Signature
from bot.analysis.facts.scan import CallShape, FileReading, Side

# A signature said longer than this (its name too) is cut at a parameter: "`f(a, b, …)`".
_SHOWN_SIGNATURE = 72
# A keyword's value quoted when this short; a longer one is not said.
_SHOWN_VALUE = 40
# Decorators that leave the call a `def` writes as it is: any other may change it (a
# `@click.command` makes the function a command, `@contextmanager` changes what it returns).
_PLAIN_DECORATORS = frozenset(
    {"staticmethod", "classmethod", "abstractmethod", "abc.abstractmethod", "final"}
    | {"typing.final", "override", "typing.override", "typing_extensions.override"}
)
# Keyword changes in one edited function past this: rewritten, none said.
_CHANGES = 2


def signature(side: Side, name: str, kind: NameKind) -> str | None:
    """`name(x, y=1, *, z=None) -> T` as the `def` writes it (annotations of parameters
    aside; a method without its `self` or `cls`; a class by its own `__init__`, without a
    return); None where the file does not show plainly how it is called: defined more than
    once, a decorator that may change the call, a class decorated, with keywords (a
    metaclass), a `__new__` or no `__init__` of its own."""
    method = kind is NameKind.METHOD
    if kind is NameKind.CLASS:
        node = side.functions.get(f"{name}.__init__")
        owner = side.classes.get(name)
        if node is None or owner is None or owner.decorator_list or owner.keywords:
            return None
        if f"{name}.__new__" in side.defs or f"{name}.__init__" in side.redefined:
            return None
        method = True
    elif kind in (NameKind.FUNCTION, NameKind.METHOD):
        node = side.functions.get(name)
        if node is None or name in side.redefined:
            return None
    else:
        return None
    decorators = [ast.unparse(d) for d in node.decorator_list]
    if any(d not in _PLAIN_DECORATORS for d in decorators):
        return None
    tokens = _parameters(node.args, bound=method and "staticmethod" not in decorators)
    if tokens is None:
        return None
    returns = None
    if kind is not NameKind.CLASS and node.returns is not None:
        returns = ast.unparse(node.returns)
    return _bounded(name, tokens, returns)


def _parameters(args: ast.arguments, *, bound: bool) -> list[str] | None:
    """The parameters as a caller writes them: `x`, `y=1`, `/`, `*args`, `*`, `**kw`;
    a bound method's first one left out (None when it has none to leave)."""
    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults))
    defaults += list(args.defaults)
    tokens = [
        a.arg if d is None else f"{a.arg}={ast.unparse(d)}"
        for a, d in zip(positional, defaults, strict=True)
    ]
    if args.posonlyargs:
        tokens.insert(len(args.posonlyargs), "/")
    if args.vararg is not None:
        tokens.append(f"*{args.vararg.arg}")
    elif args.kwonlyargs:
        tokens.append("*")
    tokens += [
        a.arg if d is None else f"{a.arg}={ast.unparse(d)}"
        for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)
    ]
    if args.kwarg is not None:
        tokens.append(f"**{args.kwarg.arg}")
    if bound:
        if not positional:
            return None
        tokens = tokens[1:]
        if tokens[:1] == ["/"]:
            tokens = tokens[1:]
    return tokens


def _bounded(name: str, tokens: list[str], returns: str | None) -> str | None:
    """The call said whole when it fits; else without its return, cut after the last
    parameter that fits (never after a bare `*` or `/`); None when none fits or a backquote
    or a line break would break the code span."""
    whole = f"{name}({', '.join(tokens)})"
    if returns is not None:
        whole += f" -> {returns}"
    if any(c in whole for c in "`\n") or "  " in whole:
        return None
    if len(whole) <= _SHOWN_SIGNATURE:
        return whole
    bare = f"{name}({', '.join(tokens)})"
    if len(bare) <= _SHOWN_SIGNATURE:
        return bare
    shown: list[str] = []
    for token in tokens:
        if len(f"{name}({', '.join([*shown, token])}, …)") > _SHOWN_SIGNATURE:
            break
        shown.append(token)
    while shown and shown[-1] in ("*", "/"):
        shown.pop()
    return f"{name}({', '.join([*shown, '…'])})" if shown else None


def keywords_changed(r: FileReading, name: str) -> list[Passed]:
    """The keyword arguments with literal values that `name`'s own calls of one callee
    gained, lost or changed, its calls paired one to one: the only call at each revision, or
    the only one left once the calls written alike at both are set aside (or one call added
    beside those: `_added_call`). Said only where
    the whole function agrees (a keyword now passed was passed by no call of that callee at
    the parent, one no longer passed is passed by none at the commit, a value changed was
    given by none at the parent and the old one by none at the commit); none for a
    call unpacking `*x` or `**x`, or whose positional arguments changed in number (a value
    passed by position before); none past `_CHANGES`. One keyword every changed call of a
    callee gained (any short value, its own calls and its closures' together) is said where
    nothing else of those calls changed (`_gained`)."""
    now, was = r.plus.passes.get(name), r.minus.passes.get(name)
    if now is None or was is None:
        return []
    found: list[Passed] = []
    # (a closure's calls are the function's too where one keyword is all they gained: a
    # decorator's wrapper passes it each time the function it returns is called)
    inner_now = r.plus.closure_passes.get(name, {})
    inner_was = r.minus.closure_passes.get(name, {})
    for callee in sorted((now.keys() | inner_now.keys()) & (was.keys() | inner_was.keys())):
        calls_now = [*now.get(callee, ()), *inner_now.get(callee, ())]
        calls_was = [*was.get(callee, ()), *inner_was.get(callee, ())]
        if _passed(calls_now) == _passed(calls_was):
            continue  # every call passes what it passed: most callees, told apart cheaply
        gained = _gained(name, r.path, callee, calls_now, calls_was)
        if gained is not None:
            found.append(gained)
            continue
        if callee not in now or callee not in was:
            continue
        if _passed(now[callee]) == _passed(was[callee]):
            continue
        pair = _paired(now[callee], was[callee])
        if pair is None:
            found += _added_call(
                name, r.path, callee, (now[callee], was[callee]), r.plus.functions.get(name)
            )
            continue
        new, old = pair
        if new.unpacks or old.unpacks or new.positional != old.positional:
            continue
        before = {(k, v) for shape in was[callee] for k, v in shape.literal.items()}
        after = {(k, v) for shape in now[callee] for k, v in shape.literal.items()}
        passed_before = {k for shape in was[callee] for k in (*shape.literal, *shape.other)}
        passed_after = {k for shape in now[callee] for k in (*shape.literal, *shape.other)}
        for arg in sorted(new.literal.keys() | old.literal.keys()):
            value, prior = new.literal.get(arg), old.literal.get(arg)
            if value == prior:
                continue
            if value is not None and prior is not None:
                if (arg, value) in before or (arg, prior) in after:
                    continue
            elif value is not None:
                if arg in old.other or arg in passed_before:
                    continue
            elif prior is not None and (arg in new.other or arg in passed_after):
                continue
            if all(v is None or _said(v) for v in (value, prior)):
                found.append(Passed(name, r.path, callee, arg, value, prior))
    if len(found) > _CHANGES:
        return []
    return sorted(found, key=lambda p: (p.callee, p.arg))


def _gained(
    name: str, path: str, callee: str, now: list[CallShape], was: list[CallShape]
) -> Passed | None:
    """The one keyword that calls of `callee` now pass, each with the same value (any
    expression short enough to quote: `exception=e`), where the calls at the commit with
    that keyword left out are the parent's calls exactly, as written (none added, none
    dropped, nothing else changed; `**details` unpacked alike), and no call passed it at the
    parent (backoff 31d973f: `_call_handlers(on_giveup, **details, exception=e)`, three
    calls of `retry_exception`). None where anything else changed, or two keywords did."""
    if len(now) != len(was):
        return None
    before = {k.arg for shape in was for k in shape.node.keywords if k.arg}
    gained = {k.arg for shape in now for k in shape.node.keywords if k.arg} - before
    if len(gained) != 1:
        return None
    (arg,) = gained
    values = {ast.unparse(k.value) for shape in now for k in shape.node.keywords if k.arg == arg}
    if len(values) != 1 or not _said(value := values.pop()):
        return None
    stripped = sorted(ast.dump(_without(shape.node, arg)) for shape in now)
    if stripped != sorted(ast.dump(shape.node) for shape in was):
        return None
    return Passed(name, path, callee, arg, value, None)


def _without(call: ast.Call, arg: str) -> ast.Call:
    """`call` with its keyword `arg` left out (a copy: the call itself is kept as it is)."""
    return ast.Call(
        func=call.func, args=call.args, keywords=[k for k in call.keywords if k.arg != arg]
    )


def _passed(shapes: list[CallShape]) -> list[tuple[object, ...]]:
    """What a callee's calls pass, in an order of their own."""
    return sorted(
        (sorted(s.literal.items()), sorted(s.other), s.positional, s.unpacks) for s in shapes
    )


def _paired(now: list[CallShape], was: list[CallShape]) -> tuple[CallShape, CallShape] | None:
    """The one call at each revision that changed: the only ones, or the only ones left
    once each call written the same at both revisions is matched with its twin."""
    if len(now) == 1 and len(was) == 1:
        return now[0], was[0]
    left_now, rest = _unmatched(now, was)
    if len(left_now) == 1 and len(rest) == 1:
        return left_now[0], rest[0]
    return None


def _unmatched(
    now: list[CallShape], was: list[CallShape]
) -> tuple[list[CallShape], list[CallShape]]:
    """The calls of each revision left once each call written the same at both is matched
    with its twin."""
    left_was = [ast.dump(w.node) for w in was]
    left_now = []
    for shape in now:
        written = ast.dump(shape.node)
        if written in left_was:
            left_was[left_was.index(written)] = ""
        else:
            left_now.append(shape)
    return left_now, [w for w, written in zip(was, left_was, strict=True) if written]


def _added_call(
    name: str,
    path: str,
    callee: str,
    calls: tuple[list[CallShape], list[CallShape]],
    function: ast.AST | None,
) -> list[Passed]:
    """The keywords with literal values a call added beside the parent's passes, where the
    commit still makes each call of the parent as written and no call of the callee passed
    that keyword at the parent (aiodns b6cce69: `pycares.Channel(event_thread=True, …)`
    where the thread-safe library allows, beside the `sock_state_cb=` one); with the test
    of the `if` it is made under (glom 24c21dc: `print(result, end='')` only `if scalar
    and is_scalar(result)`), none where it sits in an `else` (what it holds is unsaid)."""
    now, was = calls  # (the callee's calls at the commit, at the parent)
    added, left_was = _unmatched(now, was)
    if len(added) != 1 or left_was or _names_another(added[0].node, was):
        return []
    guard = _guard(function, added[0].node)
    if guard is _ELSE:
        return []
    passed_before = {k for shape in was for k in (*shape.literal, *shape.other)}
    return [
        Passed(name, path, callee, arg, value, None, guard)
        for arg, value in sorted(added[0].literal.items())
        if arg not in passed_before and _said(value)
    ]


# what `_guard` gives for a call inside an `else` (or an `elif`'s test not said alone)
_ELSE = "else"


def _guard(function: ast.AST | None, call: ast.AST) -> str | None:
    """The test of the one `if` of `function` whose body holds `call`, as `ast.unparse`
    writes it (None where no `if` holds it); `_ELSE` where an `else`, an `elif` or two `if`s
    hold it, or the test is too long to say or holds a backquote."""
    if function is None:
        return None
    found: str | None = None
    ifs = [n for n in ast.walk(function) if isinstance(n, ast.If)]
    # an `elif` holds only where the tests before it failed: its own test says too little
    elifs = {id(n.orelse[0]) for n in ifs if len(n.orelse) == 1 and isinstance(n.orelse[0], ast.If)}
    # (`ast.walk` goes breadth first: an `if` inside another comes later, the innermost last)
    for node in ifs:
        if any(n is call for s in node.orelse for n in ast.walk(s)):
            found = _ELSE
        elif any(n is call for s in node.body for n in ast.walk(s)):
            test = ast.unparse(node.test)
            # (one `if` inside another: its test alone says too little too)
            found = test if _said(test) and id(node) not in elifs and found is None else _ELSE
    return found


def _names_another(call: ast.Call, was: list[CallShape]) -> bool:
    """A call whose first argument is a string no call of the parent's gave: it makes
    another thing (`parser.addoption("--session-timeout", default=None)` beside
    `"--timeout"`, pytest-timeout 94f948a), so its keywords are that thing's, not a change
    of what the function passed."""
    first = call.args[0] if call.args else None
    if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
        return False
    given = [w.node.args[0] for w in was if w.node.args]
    return not any(isinstance(g, ast.Constant) and g.value == first.value for g in given)


def _said(value: str) -> bool:
    """A value a sentence can quote as `ast.unparse` writes it: short, one line, no
    backquote, no run of spaces (a sentence folds it)."""
    return (
        0 < len(value) <= _SHOWN_VALUE
        and not any(c in value for c in "`\n")
        and ("  " not in value)
    )


__all__ = ["Passed", "Signature", "keywords_changed", "signature"]
