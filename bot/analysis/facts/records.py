"""The typed facts one change holds: frozen records, each naming where it was read."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.analysis.facts.packages import PackageInit
from bot.analysis.paths import PathKind


class NameKind(StrEnum):
    FUNCTION = "function"
    CLASS = "class"
    METHOD = "method"
    # a GPU or NPU kernel entry point (`__global__`, `@triton.jit`)
    KERNEL = "kernel"


class Registry(StrEnum):
    """What a registration adds to: a model architecture, a backend, an operator, other."""

    MODEL = "model"
    BACKEND = "backend"
    OPERATOR = "operator"
    OTHER = "other"


class NumberKind(StrEnum):
    # "2.3× faster"
    SPEEDUP = "speedup"
    # "15% higher throughput", "TPOT -12%"
    CHANGE = "change"
    # "94 % of requests", "all users": how many are affected
    REACH = "reach"


@dataclass(frozen=True)
class FileFact:
    """A changed file: its kind (from path and extension), status and line counts."""

    path: str
    kind: PathKind
    status: str
    additions: int = 0
    deletions: int = 0
    # the path before a rename
    previous: str | None = None
    # a generator's output (by its name or its header's mark): read from nothing, only counted
    generated: bool = False
    # its removed lines assign `__all__`: a Python module that declared its public names
    declared_all: bool = False

    @property
    def lines(self) -> int:
        return self.additions + self.deletions


@dataclass(frozen=True)
class Name:
    """A function, class, method or kernel defined in code: `Class.method` for a method."""

    name: str
    kind: NameKind
    path: str
    # kept from other modules by its language's own rule (Rust without `pub`, Go lower-case,
    # JavaScript/TypeScript not exported)
    private: bool = False

    @property
    def public(self) -> bool:
        """Not `_private` (its last part; a method of a private class is private too), nor
        private by its language's rule."""
        return not self.private and not any(part.startswith("_") for part in self.name.split("."))

    @property
    def short(self) -> str:
        return self.name.rsplit(".", 1)[-1]


@dataclass(frozen=True)
class Edited:
    """A Python function the change edits, with how many of its own statements it adds,
    removes or rewrites (`statements.statements_changed`)."""

    name: str
    path: str
    statements: int


@dataclass(frozen=True)
class Renamed:
    """A name that went away in one place while another came: renamed, or moved."""

    old: Name
    new: Name


@dataclass(frozen=True)
class Setting:
    """A command-line flag, environment variable or configuration key the code reads, with
    the default it is given where the line shows one."""

    name: str
    path: str
    default: str | None = None
    # a command-line option's own help text (`help="…"`), where a whole file gives it
    help: str | None = None


@dataclass(frozen=True)
class DefaultChange:
    """A flag, variable, key or field whose default changed: `old` → `new`."""

    name: str
    old: str
    new: str
    path: str

    @property
    def parameter(self) -> tuple[str, str] | None:
        """(function, parameter) for a parameter's default, named `function(parameter)`."""
        function, paren, rest = self.name.partition("(")
        if not paren or not function or not rest.endswith(")") or "(" in rest:
            return None
        return function, rest[:-1]

    @property
    def same_change(self) -> tuple[str, str, str]:
        """What the change is, whoever has it: a parameter's name (of any function), or the
        setting's own, with the default before and after."""
        said = self.parameter
        return (said[1] if said else self.name), self.old, self.new


@dataclass(frozen=True)
class Constant:
    """A public module-level name or class attribute (`Parser.max_size`) assigned a constant,
    with its value as written (a value too long to show starts with `#`)."""

    name: str
    path: str
    value: str


@dataclass(frozen=True)
class TableChange:
    """A module-level name or class attribute bound at both revisions to a table written out
    (`kind` `keys`: a dict with string keys; `values`: a list, tuple or set of strings, or a
    `Literal[...]` alias), and the strings it gains and loses, in its order."""

    name: str
    path: str
    kind: str
    gained: tuple[str, ...]
    lost: tuple[str, ...]
    # (key, table) for each key it loses that another dict of the file gains the same commit
    # (one new there, or one bound at both revisions): a key moved, not gone
    moved: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class ConstantRenamed:
    """A constant gone from a module or class while one of another name and the same value
    came into it."""

    old: str
    new: str
    path: str
    value: str


@dataclass(frozen=True)
class Shift:
    """A positional parameter a function kept whose place another now takes: a call passing
    `old` by position now passes it as `took` (a parameter inserted before it, `new`, or
    one of its own moved ahead of it)."""

    took: str
    old: str
    new: bool


@dataclass(frozen=True)
class SignatureChange:
    """A function defined at both revisions whose parameters differ by name: those it gains
    (as written, with their defaults) and those it loses."""

    name: str
    path: str
    gained: tuple[str, ...] = ()
    lost: tuple[str, ...] = ()
    # it still takes any keyword (`**kwargs`): a caller passing a lost one by name still runs
    takes_any: bool = False
    # lost ones a gained one replaces at the same place among the positional parameters
    # (typeguard e759446: `typechecked(func=None)` became `typechecked(target=None)`): a
    # call passing it by place, as calls do, still runs
    in_place: tuple[str, ...] = ()
    # positional parameters kept whose place another now takes (cachetools ebd7920:
    # `Cache(maxsize, getsizeof=None)` became `Cache(maxsize, missing=None, getsizeof=None)`)
    shifted: tuple[Shift, ...] = ()
    # the function is the same code with the lost names read as the gained ones (tinydb
    # ecdaf1e: `touch(fname, …)` became `touch(path, …)`, each `fname` a `path`): a keyword
    # renamed, nothing else
    throughout: bool = False
    # the keywords a gained `**kwargs` is read for by name (`factory=dict`): what a caller
    # may now pass (toolz 1b23ada's `dissoc`)
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class Raised:
    """A function defined at both revisions whose own body raises exceptions it did not;
    those it raised and no longer does, and the message of the one new exception where its
    only raise gives one written out ("{…}" where a value goes)."""

    name: str
    path: str
    exceptions: tuple[str, ...]
    gone: tuple[str, ...] = ()
    message: str | None = None
    # each exception raised again inside a new handler of its class (`except TypeError:
    # raise TypeError("…")`): a caller met it already, only the message is new
    reraised: bool = False


@dataclass(frozen=True)
class Caught:
    """A function defined at both revisions whose own body catches exceptions by name
    (`except KeyboardInterrupt:`) it did not catch, or no longer catches."""

    name: str
    path: str
    gained: tuple[str, ...] = ()
    lost: tuple[str, ...] = ()


@dataclass(frozen=True)
class Returned:
    """A function defined at both revisions whose own `return`s now give literals (`130`,
    `'failed'`) none of them gave."""

    name: str
    path: str
    values: tuple[str, ...]


@dataclass(frozen=True)
class Gives:
    """A Python function defined at both revisions that now returns `values` (its `return`s
    as written) where it returned nothing (`was` ""), or `values[0]` where every `return`
    gave the literal or name `was` (`facts/giving.py`)."""

    name: str
    path: str
    values: tuple[str, ...]
    was: str = ""


@dataclass(frozen=True)
class HandedRaise:
    """A Python function defined at both revisions that now sets attributes (`targets`,
    `parser.EntityDeclHandler`) to its own closure `closure`, whose one `raise` gives
    `exception` with `message`; `test`: the one `if` every such assignment sits under;
    `default`: the true default of the parameter `test` names alone (so it holds unless the
    caller says otherwise)."""

    name: str
    path: str
    closure: str
    targets: tuple[str, ...]
    exception: str
    message: str
    test: str | None = None
    default: str | None = None


@dataclass(frozen=True)
class Compared:
    """A Python function defined at both revisions whose own conditions now compare with
    strings (`"socks5h"`) that the function held nowhere at the parent; `also`: each is
    compared beside a string the parent already compared with there."""

    name: str
    path: str
    values: tuple[str, ...]
    also: bool = False


@dataclass(frozen=True)
class Message:
    """A Python function defined at both revisions that now raises `exception` with a
    message (its literal parts, `{…}` where values go) it did not, where the parent raised
    `exception` there with another."""

    name: str
    path: str
    exception: str
    text: str
    # the one raise of `exception` whose message changed, the others as they were (as many
    # raises of it at both revisions, one message gone): the same exception reworded, and
    # its message at the parent where a sentence can quote it
    reworded: bool = False
    was: str | None = None
    # of a private function, the public ones of its module that call it outside a `try`,
    # directly or through private ones (`callers.public_callers`): what they raise too
    callers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Logged:
    """A message a shipped Python function now logs at `level` (`warning`, `error`,
    `critical`) through a logger (`_LOGGER.warning("…")`), its literal parts with `{…}`
    where values go, that it did not log at the parent: a function edited at both
    revisions, or one the change adds (`new`)."""

    name: str
    path: str
    level: str
    text: str
    new: bool = False


class Turn(StrEnum):
    """How a condition of a function changed: rewritten, a new guard (by how its `if`
    leaves), or a branch gone."""

    CHANGED = "changed"
    RETURNS = "returns"
    RAISES = "raises"
    SKIPS = "skips"
    # a new `if` whose whole body binds a parameter anew: `was` the assignment
    REBINDS = "rebinds"
    REMOVED = "removed"
    # a raise the parent reached when `test` held, gone: `was` the exception
    NO_LONGER_RAISES = "no longer raises"


@dataclass(frozen=True)
class Condition:
    """A Python function defined at both revisions whose own condition changed: `test`
    (as `ast.unparse` writes it) replaced `was` (CHANGED), is a new `if` whose body returns,
    raises `was` or continues (RETURNS, RAISES, SKIPS), or is gone with nothing in its place
    (REMOVED); or the test of a raise of `was` gone (NO_LONGER_RAISES, `facts/unraised.py`)."""

    name: str
    path: str
    turn: Turn
    test: str
    was: str = ""
    # RAISES: an exception new to the function, this guard its only raise (said where "may
    # now raise" would be)
    new: bool = False
    # RETURNS: the guard is the last statement before the function's final `return last`,
    # and returns `value`: a case the function now accepts, not an early way out
    value: str = ""
    last: str = ""


@dataclass(frozen=True)
class Signature:
    """How a caller calls a Python function, method or class (its own `__init__`) the change
    adds, as its `def` writes it: `name(x, y=1, *, z=None) -> T`, cut at a parameter (`…`)
    past a bound."""

    name: str
    path: str
    text: str


@dataclass(frozen=True)
class Abstract:
    """An `@abstractmethod` a public class the parent had gains: what its subclasses must now
    define."""

    owner: str
    name: str
    path: str


@dataclass(frozen=True)
class Override:
    """A new method `Class.m` over the `m` a base class of `Class` defines."""

    name: str
    base: str
    path: str


@dataclass(frozen=True)
class Forwarded:
    """Options `function` of `path` took out of its `**kwargs` at the parent that it now
    passes on to the call of `callee`."""

    path: str
    function: str
    options: tuple[str, ...]
    callee: str


@dataclass(frozen=True)
class RewrittenTests:
    """The rewrite several lines of the test file `path` share: `old` became `new` there,
    and `more` other lines were rewritten alike."""

    path: str
    old: str
    new: str
    more: int = 0


@dataclass(frozen=True)
class RowsAdded:
    """The rows (tuples led by a string, as written) a module-level table of tuples `name`
    of the module `path` gains (`SQL_REGEX`, `(r'PRIMARY\\s+KEY\\b', tokens.Keyword)`)."""

    name: str
    path: str
    rows: tuple[str, ...]


@dataclass(frozen=True)
class Expected:
    """A case a test of the file `path` asserts at the commit and did not at the parent:
    `call` gives `value` (`pydash.has([1, 2, 3], 0)`, `True`); `function` is the one it
    calls, by its module (`pydash.has`); `test` the test function asserting it, `new` where
    the file defined no test of that name at the parent; `raises` where the test expects
    the call to raise `value`, an exception (lark c169b26: `GrammarError`)."""

    path: str
    call: str
    value: str
    function: str = ""
    test: str = ""
    new: bool = False
    raises: bool = False


@dataclass(frozen=True)
class Dangling:
    """A module-level name the commit removes that the module still loads, at `line`; or,
    with `source`, that `path` still imports from the changed module `source`."""

    name: str
    line: int
    path: str
    source: str = ""


@dataclass(frozen=True)
class IgnoredSetting:
    """A public module-level name of `path` that the module's functions read at the parent
    and no shipped code read whole reads at the commit: setting it has no effect any more.
    `removed`: the module no longer binds it; `documented`: in `__all__` or the documents."""

    name: str
    path: str
    removed: bool
    documented: bool


@dataclass(frozen=True)
class ShortCall:
    """A new call in the edited function `caller` of `callee` (of the same module) that binds
    nothing to the required parameters `missing`, or passes the keywords `unknown` it does
    not take."""

    caller: str
    callee: str
    missing: tuple[str, ...]
    unknown: tuple[str, ...]
    line: int
    path: str


@dataclass(frozen=True)
class Documented:
    """The first sentence of the docstring of a Python function, method or class the change
    adds, as its author wrote it (lines joined; cut at a word, "…", past a bound)."""

    name: str
    path: str
    text: str


@dataclass(frozen=True)
class ReturnsEarly:
    """A Python function defined at both revisions with a new `if test:` among the first
    statements of its body whose last statement returns `value`, each as `ast.unparse` writes
    it (`facts/early.py`); of a public function, said in place of its RETURNS `Condition`."""

    name: str
    path: str
    value: str
    test: str


@dataclass(frozen=True)
class FieldAdded:
    """A field a public class declaring its fields (a dataclass, an attrs or pydantic class)
    gains, both revisions defining the class: `default` as written, None where it has none
    or it is too long to quote; `required` where it has none (`facts/fields.py`)."""

    name: str
    path: str
    field: str
    default: str | None = None
    required: bool = False


@dataclass(frozen=True)
class GuardNarrowed:
    """A Python function's `if test:` ending in `return was` that became `if test and
    added:`, what follows it the same: `if t: return v` guards (`unless`), then a final
    `raise exception(…)` (`facts/narrowed.py`). `error`: what the block raised at the parent
    where `added` was false (`call`, `union_matches.popitem()`, of an empty container);
    `callers`: the public functions of the module that reach a private one."""

    name: str
    path: str
    test: str
    added: str
    exception: str
    was: str
    unless: tuple[tuple[str, str], ...] = ()
    error: str = ""
    call: str = ""
    callers: tuple[str, ...] = ()


@dataclass(frozen=True)
class SetEarly:
    """A value a method edited at both revisions now sets from the start, that `setters`,
    other methods of its class, set at the parent (`facts/set_early.py`): `target` as said
    (`statistics["delay_since_first_attempt"]`), `value` as `ast.unparse` writes it."""

    name: str
    path: str
    target: str
    value: str
    setters: tuple[str, ...]


@dataclass(frozen=True)
class Recomputed:
    """A name a Python function edited at both revisions binds once, by `target = value`, at
    both: `new` at the commit, `old` at the parent, as `ast.unparse` writes them
    (`facts/recomputed.py`)."""

    name: str
    path: str
    target: str
    new: str
    old: str
    # every `return` of the function gives `target` at both revisions: what a caller gets
    # back is now built from `new` (toolz 1b23ada: `dissoc`'s `d2 = factory()`, was
    # `copy.copy(d)`)
    returned: bool = False


@dataclass(frozen=True)
class Rewritten:
    """A statement of a Python function edited at both revisions (its closures' included)
    rewritten in place: `old` at the parent became `new` at the commit, each as `ast.unparse`
    writes it (a compound statement by its header, `while test:`)."""

    name: str
    path: str
    old: str
    new: str
    # where `name` is a private method: the public methods of its class in the file that
    # use it (`self._process_jobs`, called or handed on) at the commit, two at most
    users: tuple[str, ...] = ()


@dataclass(frozen=True)
class Passed:
    """A keyword argument with a literal value (a constant, or a constant's name; any short
    value where that keyword is all its calls gained, `calls._gained`) that a call of
    `callee` (as written: `self._send`) in a Python function edited at both revisions (or a
    function nested in it) now passes (`was` None), no longer passes (`now` None), or
    passes with another value; `arg` the keyword, values as `ast.unparse` writes them;
    `when`: the test of the `if` a call added beside the parent's sits under (only then
    does it pass it)."""

    name: str
    path: str
    callee: str
    arg: str
    now: str | None
    was: str | None
    when: str | None = None


@dataclass(frozen=True)
class Retyped:
    """A Python function defined at both revisions whose parameter (`param`; "->": its
    return) is annotated with another type, as written at each."""

    name: str
    param: str
    path: str
    old: str
    new: str


@dataclass(frozen=True)
class ParamDefault:
    """A parameter of a Python function defined at both revisions that gained a default (a
    caller may now leave it out), or lost its default (a caller must now pass it)."""

    name: str
    param: str
    path: str
    # the default as written at the commit; None: it has none now (it had `was`)
    default: str | None
    was: str | None = None


@dataclass(frozen=True)
class NewCall:
    """A function defined at both revisions that now calls `callee`, which it did not; where
    the commit's files define the callee once, with one own `if when:` ending in `raise
    raises…`, that exception and test (what a caller now meets through it)."""

    caller: str
    callee: str
    path: str
    raises: str = ""
    when: str = ""
    # the callee's other `if`s that raise the same exception
    more: int = 0


@dataclass(frozen=True)
class ImportMove:
    """A name a changed module imports from another module than it did."""

    name: str
    old: str
    new: str
    path: str


@dataclass(frozen=True)
class Reexport:
    """A name a module exported at the parent only by importing it, and exports no more:
    `origin` (a changed file's path, else the module as imported) still provides it."""

    name: str
    path: str
    origin: str
    # the name the origin defines, where the import bound it under another (`save as store`)
    original: str | None = None


@dataclass(frozen=True)
class Deprecation:
    """A deprecation warning the change adds: its message, or the line that raises it."""

    text: str
    path: str
    # what the message says to use instead, when it names it (`use --attention-backend`)
    replacement: str | None = None


@dataclass(frozen=True)
class Registration:
    """A name registered with a registry: a model architecture, a backend, an operator."""

    name: str
    registry: Registry
    path: str
    # the call or table that registers it (`register_model`, `ops.def`, `_MODELS`)
    via: str = ""


@dataclass(frozen=True)
class BuildNeeds:
    """What `[build-system] requires` of a `pyproject.toml` lists, by name, at the parent
    (`old`) and at the commit (`new`), where the build backend changed: what building the
    package from its sdist needs."""

    old: tuple[str, ...]
    new: tuple[str, ...]
    path: str


@dataclass(frozen=True)
class Requirement:
    """A dependency requirement the change sets: `torch==2.5.1`, and what it was before."""

    package: str
    spec: str
    path: str
    old: str | None = None
    # only `[build-system] requires` lists it: what building the package needs, no install
    build: bool = False
    # pinned by a lock a resolver compiled for the dev tools (`paths.compiled_for_tools`)
    tools: bool = False


@dataclass(frozen=True)
class Reached:
    """A private class a public function of the same module is proven to hand its callers
    (`alru_cache` returns `_LRUCacheWrapper`): its public-named members are theirs."""

    path: str
    cls: str
    # the public function (`alru_cache`)
    via: str
    # reached through a `Callable[..., _Cls]`: what the function decorates becomes one
    decorator: bool = False
    # its members that are properties, read without a call
    attributes: tuple[str, ...] = ()
    # its public-named methods and properties at the parent
    members: tuple[str, ...] = ()
    # public names its instances still have at the commit as attributes its own methods set
    # on `self` or its body assigns (a property become `self.size = size`): none is lost
    kept: tuple[str, ...] = ()


@dataclass(frozen=True)
class MemberGone:
    """A public method or property a change takes out of a class's own body, where nothing
    at the commit gives the class it back (`members.py`): code that uses it fails."""

    path: str
    cls: str
    member: str
    # a property: read without a call
    attribute: bool = False
    # the name the class now gives it, where the change renamed it (`purge` → `truncate`)
    new: str | None = None
    # an attribute the class's methods set on `self` (`self.in_strong = False`), no longer
    # set (`attributes.py`): no definition of the class's body is gone
    instance: bool = False


@dataclass(frozen=True)
class DevRequirement:
    """A requirement a `pyproject.toml` names for its developers' tools alone (a Poetry
    dev dependency, a dependency group's): no install of the package asks for it."""

    name: str
    path: str


@dataclass(frozen=True)
class Extra:
    """An optional-dependency extra (`pip install pkg[socks]`) and its requirements."""

    name: str
    requirements: tuple[str, ...]
    path: str
    # the distribution's name, when its packaging file declares it
    package: str | None = None


@dataclass(frozen=True)
class ExtraRequirement:
    """An extra's requirement the change sets, by its package: `old` at the parent, `new` at
    the commit, each as written (None: the extra did not, or no longer, requires it)."""

    extra: str
    old: str | None
    new: str | None
    path: str


@dataclass(frozen=True)
class EntryPoint:
    """An entry point a package declares: a command (`console_scripts`) or a plugin."""

    name: str
    group: str
    target: str
    path: str


@dataclass(frozen=True)
class StatedNumber:
    """A number the author states in the title or description, as written."""

    text: str
    kind: NumberKind


@dataclass(frozen=True)
class Alias:
    """A public module-level name the change binds to another (`extend = assign`): one
    object under two names."""

    name: str
    of: str
    path: str


@dataclass(frozen=True)
class Section:
    """A heading a document gains, and the first paragraph of prose under it where the
    change writes one."""

    title: str
    path: str
    text: str = ""


@dataclass(frozen=True)
class Followed:
    """A definition the change edits only to follow a rename: its code differs only by the
    renamed definition's new name (`follows.py`), so it is not in `changed`."""

    name: str
    path: str
    rename: Renamed


@dataclass(frozen=True)
class ErrorExpected:
    """A test line rewritten to expect an error's words where it expected other words, the
    call the same: `assertIn("# Table of Contents", html)` to `assertIn("Could not include
    outside source dir", html)`."""

    path: str
    old: str
    new: str


@dataclass(frozen=True)
class MarkedRequirement:
    """A runtime dependency of the package's `[project]` table whose environment marker the
    change sets: a new one that only some installs get (`typing_extensions>=4.0;
    python_version<'3.11'`), or one kept whose marker differs (`<'3.11'` → `<'3.12'`)."""

    # the requirement as written at the commit, its marker aside (`typing_extensions>=4.0`)
    requirement: str
    # its name as written (`typing_extensions`)
    package: str
    # the marker at the commit, normalised (`python_version < "3.11"`); '' where none
    marker: str
    path: str
    # the marker at the parent ('' where none); None where the parent did not require it
    old_marker: str | None = None
    # the parent's `[project]` declared no runtime dependency: this is the package's first
    first: bool = False


@dataclass(frozen=True)
class PickleChange:
    """A public class's `__reduce__` (`__reduce_ex__`), read whole at both revisions: the
    callable its return names at the parent, and what becomes of a pickle written then."""

    path: str
    cls: str
    method: str
    # the parent's return values and the commit's, as `ast.unparse` writes them, each
    # distinct one once, joined by " | "
    old: str
    new: str
    # the callable the parent's pickles name (`BidictBase._from_other`) and how many
    # positional arguments they pass it
    callee: str
    passed: int
    # the commit's `callee` is proven not to take `passed` positional arguments, or gone
    broken: bool = False
    gone: bool = False


@dataclass(frozen=True)
class ArityChange:
    """A function whose every `return` hands back a tuple of `old` values at the parent and
    of `new` at the commit (`BlockParser.extract_block_quote`: 2 then 3)."""

    name: str
    path: str
    old: int
    new: int


@dataclass(frozen=True)
class ReturnChange:
    """A public function that returns `new` in a case where it returned `old` (literals as
    written: `False`, `None`, `[]`), `when` the `if` that holds the case says it; `typed`:
    the value's type changed (a break), else a `bool` flipped (behaviour)."""

    name: str
    path: str
    old: str
    new: str
    when: str | None
    typed: bool


@dataclass(frozen=True)
class RaiseReached:
    """A public Python function that now raises `exception` (with `message`, its literal
    parts, where one is written) from code it reaches but does not hold itself: a function
    nested in it that it sets as a hook (`parser.DefaultHandler = f`) or calls, or a private
    helper of its module that only it reaches; a message its module raised nowhere at the
    parent (`facts/thrown.py`)."""

    name: str
    path: str
    exception: str
    message: str | None
    # the function the `raise` is in, and the hooks the public one sets that reach it
    holder: str
    hooks: tuple[str, ...] = ()
    # the test of the public function's own `if` the hook or call is under ("" for none),
    # and whether its parameters' defaults are proven to make every such test pass
    when: str = ""
    default: bool = False
    # the hooks the parent set to a callable that raised nothing: what they were handed,
    # the parent accepted
    replaced: tuple[str, ...] = ()


@dataclass(frozen=True)
class RaiseRetyped:
    """A public Python function whose code (its own, or a function it reaches as
    `RaiseReached` says) raises `exception` where the parent raised `was`: the one `raise`
    of one function under the same tests at both revisions, `exception` proven no subclass
    of `was` (`facts/thrown.py`)."""

    name: str
    path: str
    exception: str
    was: str
    holder: str
    hooks: tuple[str, ...] = ()
    when: str = ""


@dataclass(frozen=True)
class Facts:
    """What one change holds, read from its patch, message and PR text.

    Each group is in the order the change shows it; nothing is inferred beyond the text.
    `names()` gives every identifier the facts name, for the LLM's prompt and fact guard.
    """

    files: tuple[FileFact, ...] = ()
    # functions, classes, methods and kernels defined by added lines and by no removed one
    added: tuple[Name, ...] = ()
    removed: tuple[Name, ...] = ()
    # one name out and one in, in the same module (renamed), or the same name in two
    # modules (moved)
    renamed: tuple[Renamed, ...] = ()
    moved: tuple[Renamed, ...] = ()
    # definitions the change edits inside (the enclosing function, method or class of a
    # changed line), added and removed names aside
    changed: tuple[Name, ...] = ()
    # of those, the Python functions read whole at both revisions, with how many of their own
    # statements changed (0: only their docstrings, comments, layout or spelling did)
    edited: tuple[Edited, ...] = ()
    # definitions whose code differs only by the new name of one renamed: not edited
    followed: tuple[Followed, ...] = ()
    # names a package's `__init__.py` exports (`__all__`, its imports), gained or lost
    exports_added: tuple[Name, ...] = ()
    exports_removed: tuple[Name, ...] = ()
    # names a module exported by importing them and exports no more, their origin keeping
    # them: not removed for callers, who import them from there
    reexports_dropped: tuple[Reexport, ...] = ()
    flags_added: tuple[Setting, ...] = ()
    flags_removed: tuple[Setting, ...] = ()
    env_added: tuple[Setting, ...] = ()
    env_removed: tuple[Setting, ...] = ()
    config_keys_added: tuple[Setting, ...] = ()
    config_keys_removed: tuple[Setting, ...] = ()
    # True when the variables and keys added were searched for in the parent's whole tree
    # and found nowhere (new to the repository); False: new to the changed files alone
    settings_new: bool = False
    defaults_changed: tuple[DefaultChange, ...] = ()
    # parameters' new defaults that stand for the old value where nothing else is set
    # (`"from_converter"`, then `getattr(converter, "use_alias", False)`): no change to callers
    defaults_kept: tuple[DefaultChange, ...] = ()
    # (path, name): a module or class constant a function's parameter now takes as its
    # default where the parent wrote a literal (`max_nested_level: int = 100` became
    # `= DEFAULT_MAX_NESTED_LEVEL`): a default's value named, no new constant of its own
    defaults_named: tuple[tuple[str, str], ...] = ()
    # values a settings file (YAML, TOML, INI) changes: key, old value → new value
    values_changed: tuple[DefaultChange, ...] = ()
    # public constants of modules and classes read whole at both revisions, where their
    # module (and class) was there at both: added, removed (defined by no fetched file at
    # the commit), renamed (one out, one in, of the same scope and value), value changed
    constants_added: tuple[Constant, ...] = ()
    # public module-level names bound anew to another name (`extend = assign`)
    aliases_added: tuple[Alias, ...] = ()
    constants_removed: tuple[Constant, ...] = ()
    # public module settings the module's functions read at the parent and no shipped code
    # read whole reads at the commit (`ignored.ignored_settings`)
    settings_ignored: tuple[IgnoredSetting, ...] = ()
    # the modules (dotted) the changed Python files import names from at the parent: the
    # package's own code treats them as an interface (`importers.imported_from`)
    imported_from: tuple[str, ...] = ()
    # public functions returning tuples of one size at every return, now of another
    arities_changed: tuple[ArityChange, ...] = ()
    # public functions returning a literal of another type (or a `bool` flipped) in a case
    returns_changed: tuple[ReturnChange, ...] = ()
    # test lines of modified test files rewritten to expect an error from the same call
    errors_expected: tuple[ErrorExpected, ...] = ()
    constants_renamed: tuple[ConstantRenamed, ...] = ()
    constants_changed: tuple[DefaultChange, ...] = ()
    # tables (dicts, lists, tuples, sets, `Literal`s of strings) whose strings differ
    tables_changed: tuple[TableChange, ...] = ()
    # public module-level dicts with string keys new in a file there at both revisions
    tables_added: tuple[TableChange, ...] = ()
    # module-level tables of tuples (patterns and their tokens) and the rows they gain
    rows_added: tuple[RowsAdded, ...] = ()
    # functions read whole at both revisions: parameters gained or lost, exceptions now raised
    signatures_changed: tuple[SignatureChange, ...] = ()
    # (private module path, name) a public package's `__init__.py` hands out, where a
    # signature of a private module changes or a method of one is removed (`handed_out.py`)
    handed_out: tuple[tuple[str, str], ...] = ()
    # changed modules public by their name that their package's `__init__.py` (read) does not
    # hand out and no document read names: their losses are internal (`exposure.py`)
    internal_modules: tuple[str, ...] = ()
    # the `__init__.py` of each package a module is deleted or renamed out of (`packages.py`)
    packages: tuple[PackageInit, ...] = ()
    raises_added: tuple[Raised, ...] = ()
    # public functions that now raise through a hook they set or a helper they reach, and
    # `raise`s whose class changed on a public function's path (`facts/thrown.py`)
    raises_reached: tuple[RaiseReached, ...] = ()
    raises_retyped: tuple[RaiseRetyped, ...] = ()
    # (path, name): module metadata (`__version__`, `__author__`) a shipped module no longer
    # binds, nothing in it providing it otherwise (`facts/dunders.py`)
    metadata_gone: tuple[tuple[str, str], ...] = ()
    # of a title marked breaking: every shipped Python module changed is known whole and
    # still binds each public name it bound (`facts/names_kept.py`)
    names_kept: bool = False
    catches_changed: tuple[Caught, ...] = ()
    optional_changed: tuple[ParamDefault, ...] = ()
    returns_added: tuple[Returned, ...] = ()
    returns_now: tuple[Gives, ...] = ()
    retyped: tuple[Retyped, ...] = ()
    # an edited function's conditions and messages, read from its body at both revisions
    compares_added: tuple[Compared, ...] = ()
    handed_raises: tuple[HandedRaise, ...] = ()
    messages_changed: tuple[Message, ...] = ()
    # messages shipped functions (edited, or added) now log as a warning or an error
    logs_added: tuple[Logged, ...] = ()
    conditions_changed: tuple[Condition, ...] = ()
    # a new guard at the top of an edited function's body that returns a value, with it
    returns_early: tuple[ReturnsEarly, ...] = ()
    # fields public declared-fields classes gain (`facts/fields.py`)
    fields_added: tuple[FieldAdded, ...] = ()
    # guards narrowed by one more test, past which a raise now runs (`facts/narrowed.py`)
    guards_narrowed: tuple[GuardNarrowed, ...] = ()
    # a name an edited function binds once at both revisions, its value written otherwise
    recomputed: tuple[Recomputed, ...] = ()
    # a key or attribute an edited setup method now sets, that other methods set before
    set_early: tuple[SetEarly, ...] = ()
    # an edited function's statement rewritten in place (`return` became `continue`)
    rewritten: tuple[Rewritten, ...] = ()
    # keyword arguments with literal values an edited function's calls gained, lost or changed
    keywords_changed: tuple[Passed, ...] = ()
    # how a caller calls the Python functions, methods and classes of `added` (those whose
    # call the file shows plainly)
    signatures_added: tuple[Signature, ...] = ()
    # what the docstrings of `added` say first (those that say more than their names)
    documented: tuple[Documented, ...] = ()
    # a sentence the docstring of a definition at both revisions gains
    redocumented: tuple[Documented, ...] = ()
    # new abstract members of a public class, and new methods over a base class's
    abstract_added: tuple[Abstract, ...] = ()
    overrides: tuple[Override, ...] = ()
    # names the commit removes that the module still loads; new calls short of an argument
    dangling: tuple[Dangling, ...] = ()
    short_calls: tuple[ShortCall, ...] = ()
    # the rewrite a changed test file's lines share in place (`where('int')` gained `.exists()`)
    test_rewrites: tuple[RewrittenTests, ...] = ()
    # the cases new tests assert: a call of an imported function with literal arguments and
    # the literal it gives
    expected: tuple[Expected, ...] = ()
    # options a function no longer takes out of its `**kwargs`, now passed on to a call
    forwarded: tuple[Forwarded, ...] = ()
    # Python modules read whole that list `__all__` at the commit: path -> the names listed
    # (a public-looking name left out is the module's own, no caller's)
    listed: tuple[tuple[str, frozenset[str]], ...] = ()
    # the names the change says (new, edited, calling anew) that more than one changed file
    # defines: `command`, or `Lock.acquire` of a base class and its backends, alone does not
    # say whose
    names_shared: tuple[str, ...] = ()
    # calls a function defined at both revisions makes anew, of definitions in the changed
    # files (the change's own new or moved ones first)
    calls_added: tuple[NewCall, ...] = ()
    # calls a function defined at both revisions no longer makes, of the changed files'
    # definitions at the parent
    calls_removed: tuple[NewCall, ...] = ()
    imports_moved: tuple[ImportMove, ...] = ()
    # the tests added that call a definition the change edits or adds outside the tests
    tested: tuple[NewCall, ...] = ()
    deprecations: tuple[Deprecation, ...] = ()
    registered: tuple[Registration, ...] = ()
    unregistered: tuple[Registration, ...] = ()
    requirements: tuple[Requirement, ...] = ()
    # (from, to): a file whose package metadata the change moves whole to another, each
    # requirement the one dropped, the other written (`setup.cfg` → `pyproject.toml`)
    metadata_moved: tuple[tuple[str, str], ...] = ()
    # private classes whose public members the change removes, renames or re-signs, proven
    # handed to callers by a public function at the parent
    reached: tuple[Reached, ...] = ()
    # public methods and properties removed from a public-named class's own body that no base,
    # decorator or attribute gives it back at the commit
    members_gone: tuple[MemberGone, ...] = ()
    # a Python requirement the change sets where no metadata file it changes named one at the
    # parent, in any form (`python_requires=PYTHON_REQUIRES` too: doc2dash 4f9436e)
    python_unset: bool = False
    # the Python requirement the package's metadata states, the same at both revisions
    # (`pythons.python_kept`): a title's "Drop Python 3.6" changes no install
    python_kept: str | None = None
    # (path, name): top-level definitions of changed Python files made only as a fallback
    # for a name an import binds (`fallbacks.fallbacks`), at either revision
    fallbacks: tuple[tuple[str, str], ...] = ()
    # the `py.typed` markers the change proves the package newly ships (`packaging`)
    types_shipped: tuple[str, ...] = ()
    # runtime dependencies whose environment marker the change sets (`markers.py`)
    requirements_marked: tuple[MarkedRequirement, ...] = ()
    # public classes' pickling hooks whose callable or arguments differ (`pickles.py`)
    pickles_changed: tuple[PickleChange, ...] = ()
    # packaging metadata (pyproject.toml, setup.cfg) read whole at both revisions: extras,
    # entry points (commands among them) gained or lost, the build backend changed
    extras_added: tuple[Extra, ...] = ()
    extras_removed: tuple[Extra, ...] = ()
    # extras the commit makes PEP 735 dependency groups of their names: the developers they
    # served now ask for them so, and no user's install loses them
    extras_grouped: tuple[Extra, ...] = ()
    # the requirements of an extra declared at both revisions that it gains, loses or pins
    # anew (one project's metadata over its files: moved between them, the same is nothing)
    extras_changed: tuple[ExtraRequirement, ...] = ()
    dev_requirements_added: tuple[DevRequirement, ...] = ()
    dev_requirements_removed: tuple[DevRequirement, ...] = ()
    entry_points_added: tuple[EntryPoint, ...] = ()
    entry_points_removed: tuple[EntryPoint, ...] = ()
    # the modules the entry points of changed packaging files name at the commit
    entry_modules: tuple[str, ...] = ()
    backend_changed: tuple[DefaultChange, ...] = ()
    # the build backend's switch, by what building from the sdist needs at each revision
    build_needs_changed: tuple[BuildNeeds, ...] = ()
    # the distribution's name its packaging metadata declares, changed: `pip install old`
    # gets none of its releases from then on
    distribution_renamed: tuple[DefaultChange, ...] = ()
    # a release workflow's per-platform build moved to another runner, per job
    # (`workflows.release_runners`): what users download is built on another system
    release_runners: tuple[DefaultChange, ...] = ()
    # settings files (TOML, YAML, JSON, INI) whose content parses the same at both revisions
    # (`layout.same_settings`): tables moved, keys reordered, comments or quoting
    settings_same: tuple[str, ...] = ()
    # trove classifiers a packaging file (`setup.py`, `setup.cfg`, `pyproject.toml`) now
    # lists, and those it no longer lists (`pythons.classifiers_changed`)
    classifiers_added: tuple[str, ...] = ()
    classifiers_removed: tuple[str, ...] = ()
    # the SPDX expression `pyproject.toml`'s licence now is, and what it was ("text `MIT`"),
    # where the change drops a `License ::` classifier with it (PEP 639)
    licence_expressed: tuple[str, str] | None = None
    # classes whose generic bases now name covariant type variables where they named
    # invariant ones, and nothing else (`Generic[_T]` → `Generic[_T_co]`)
    made_covariant: tuple[Name, ...] = ()
    # test functions and cases the change adds, by name
    tests_added: tuple[Name, ...] = ()
    # headings documents gain
    sections_added: tuple[Section, ...] = ()
    numbers: tuple[StatedNumber, ...] = ()
    # issues the message or PR text says it fixes, closes or resolves
    fixes: tuple[int, ...] = ()

    def files_of(self, *kinds: PathKind) -> tuple[FileFact, ...]:
        return tuple(f for f in self.files if f.kind in kinds)

    def names(self) -> frozenset[str]:
        """Every identifier the facts name (functions, classes, flags, variables, keys,
        registered names, packages, tests), as written in the change."""
        found: set[str] = set()
        for group in (self.added, self.removed, self.changed, self.exports_added):
            found.update(n.name for n in group)
        found.update(n.name for n in (*self.exports_removed, *self.tests_added))
        found.update(r.name for r in self.reexports_dropped)
        for pair in (*self.renamed, *self.moved):
            found.update((pair.old.name, pair.new.name))
        for settings in (self.flags_added, self.flags_removed, self.env_added, self.env_removed):
            found.update(s.name for s in settings)
        found.update(s.name for s in (*self.config_keys_added, *self.config_keys_removed))
        found.update(d.name for d in self.defaults_changed)
        found.update(c.name for c in (*self.constants_added, *self.constants_removed))
        found.update(n for a in self.aliases_added for n in (a.name, a.of))
        found.update(c.name for c in self.constants_changed)
        found.update(t.name for t in (*self.tables_changed, *self.tables_added))
        found.update(t.name for t in self.rows_added)
        for rename in self.constants_renamed:
            found.update((rename.old, rename.new))
        found.update(r.name for r in (*self.registered, *self.unregistered))
        found.update(r.package for r in self.requirements)
        found.update(e.name for e in (*self.extras_added, *self.extras_removed))
        found.update(e.extra for e in self.extras_changed)
        found.update(e.name for e in (*self.entry_points_added, *self.entry_points_removed))
        return frozenset(found)
