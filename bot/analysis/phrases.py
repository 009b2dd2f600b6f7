"""Every fixed string the rules analyser writes, in English and Simplified Chinese.

One frozen catalogue, the shape of the posts' catalogues (`bot/digest/strings/`): a field per phrase
(placeholders named in its comment), `(one, many)` pairs where English needs a plural. A
statement of fact is a clause (lower case, no full stop: `sentence()` makes it one, and a
summary may join two); consequences, mitigations and recommendations are whole sentences.
Names go in code spans; the author's words go in quotation marks.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.analysis.facts import Registry


@dataclass(frozen=True)
class AnalysisPhrases:
    no_message: str
    list_sep: str
    more: str  # {shown} {count}
    sentence_end: str
    # between two sentences of one field
    sentence_sep: str
    clause_sep: str
    quote: str  # {text}
    registry: dict[Registry, tuple[str, str]]
    # --- statements of fact: clauses ------------------------------------------------------
    registers: str  # {what} {names}
    registers_with: str  # {names} {via}
    new_module: str  # {names} {path} {lines}
    adds: str  # {names}
    adds_to: str  # {names} {path}
    # a public class's new `@abstractmethod`s: what subclasses must now define; one, several
    abstract_added: tuple[str, str]  # {owner} {names}
    # new methods over those a base class defined: {owner} the subclass
    overrides: str  # {owner} {names} {base}
    # a name the commit removes that the module still loads; a new call short of arguments
    still_reads: str  # {path} {name} {line}
    still_imports: str  # {path} {name} {source} {line}
    call_short: str  # {caller} {callee} {params}
    call_unknown: str  # {caller} {callee} {keyword}
    removes_from: str  # {names} {path}
    # a public function's every return a tuple of one size, now of another
    returns_values: str  # {name} {path} {old} {new}
    unpacking_fails: str  # {name} {old}
    # a public function's literal result of a case: {name} {old} {new}, and {when} its `if`
    returns_literal: str
    returns_literal_when: str
    returned_type_fails: str  # {old} {new}
    # a public function that now raises through the hooks it sets or a helper it reaches
    raises_reached: str  # {name} {raised} {when}
    reached_hooks: str  # {hooks}: the hooks it sets that raise it
    reached_helper: str  # {holder}
    reached_more: tuple[str, str]  # {count}: other messages of the exception, the same code
    reached_when: str  # {test}
    reached_when_default: str  # {test}: a test its parameters' defaults pass
    hooks_accepted: str  # {name} {hooks}: the parent's hooks raised nothing
    raises_retyped: str  # {name} {new} {old} {where}
    retyped_from: str  # {holder}
    retyped_uncaught: str  # {name} {new} {old}
    # a shipped module's metadata (`__version__`) no longer bound
    metadata_fails: tuple[str, str]  # {names}
    # the title's mark the only evidence: what the code was proven not to do
    bang_no_names: str
    bang_python_kept: str  # {python}
    # a test rewritten to expect an error's words from the same call
    expects_error: str  # {path} {old} {new}
    # attributes a class's methods stop setting on its instances
    no_longer_sets: str  # {cls} {names} {path}
    internal_to: str  # {clause} {module}
    renames: str  # {old} {new}
    renames_in: str  # {old} {new} {path}
    moves: str  # {names} {old} {new}
    # a module that exported names only by importing them stops: no removal for callers
    reexports_dropped: str  # {names} {path} {origin}
    reexport_alias_dropped: str  # {name} {path} {origin} {original}
    flags_added: tuple[str, str]  # {names}
    flag_helped: str  # {name} {help}: a new option with its own help text
    flags_removed: tuple[str, str]  # {names}
    env_added: tuple[str, str]  # {names}
    # read anew by the changed files; whether the rest of the repository read it is unknown
    env_read: tuple[str, str]  # {names}
    env_removed: tuple[str, str]  # {names}
    keys_added: tuple[str, str]  # {names}
    keys_read: tuple[str, str]  # {names}
    keys_removed: tuple[str, str]  # {names}
    default: str  # {name} {old} {new}
    # one parameter's default changed alike in several functions
    default_in: str  # {name} {functions} {old} {new}
    value_changed: str  # {name} {old} {new} {paths}
    hook_pinned: str  # {name} {old} {new}: a pre-commit hook's `rev`
    action_pinned: str  # {name} {old} {new} {paths}: a GitHub Action's `uses: …@ref`
    # a table's strings (a dict's keys; a list's, set's or Literal's values) gained or lost
    table_keys_gained: tuple[str, str]  # {name} {values}
    # rows a table of tuples gains, as written: {name} {rows}; one row, several
    rows_added: tuple[str, str]
    # a new dict with string keys: {name} {values} {path}
    table_added: tuple[str, str]
    table_keys_lost: tuple[str, str]  # {name} {values}
    table_keys_moved: tuple[str, str]  # {values} {old} {new}
    table_values_gained: str  # {name} {values}
    table_values_lost: str  # {name} {values}
    sections_added: tuple[str, str]  # {titles} {path}
    requires: str  # {pins}
    requires_build: str  # {pins}
    release_runners: str  # {runners}
    settings_same: tuple[str, str]  # {paths}: one file, several
    classifiers_added: tuple[str, str]  # {names}: one classifier, several
    classifiers_removed: tuple[str, str]  # {names}
    # the licence now an SPDX expression, its `License ::` classifiers dropped (PEP 639)
    licence_expressed: tuple[str, str]  # {expression} {was} {names}
    runner_was: str  # {new} {old}
    requires_tools: str  # {pins}: pins of the project's own dev tools' requirement files
    moves_metadata: str  # {old} {new}: the package metadata moved whole from one file to another
    types_shipped: str  # {marker}: PEP 561's `py.typed` newly packed
    pin_was: str  # {pin} {old}
    # a runtime dependency's environment marker: which installs get it
    installs_where: str  # {where} {pin}: a new dependency only some installs get
    required_where: str  # {name} {where} {old}: a kept one's marker now picks other installs
    first_dependency: str  # {clause}: the package had no runtime dependency before
    where_python: str  # {bound}: `< 3.11`
    where_marker: str  # {marker}: any other marker, a code span
    where_every: str  # no marker: every install
    # a public class's pickling hook: {name} `Cls.__reduce__`, {new} {old} its returns
    reduce_returns: str
    # pickles an earlier release wrote no longer load: {cls} {release} {callee} {passed}
    pickles_refused: str
    pickles_gone: str  # {cls} {release} {callee}
    unpickling_fails: str  # {error}
    earlier_releases: str  # the release, where no tag tells which
    # an extra declared at both revisions: {name} its code span, {pins} its requirements
    extra_requires: str  # {name} {pins}: each pinned anew, the old after it
    extra_also_requires: str  # {name} {pins}
    extra_no_longer_requires: str  # {name} {pins}
    # packaging metadata: {names} each a code span, an extra's requirements or an entry
    # point's target after it in parentheses
    extras_added: tuple[str, str]  # {names}
    extras_removed: tuple[str, str]  # {names}
    extras_grouped: tuple[str, str]  # {names}
    extras_unpublished: tuple[str, str]  # (after `extras_grouped`, its separator first)
    dev_requirements_added: tuple[str, str]  # {names} {path}
    dev_requirements_removed: tuple[str, str]  # {names} {path}
    commands_added: tuple[str, str]  # {names}
    commands_removed: tuple[str, str]  # {names}
    entry_points_added: tuple[str, str]  # {group} {names}
    entry_points_removed: tuple[str, str]  # {group} {names}
    backend_changed: str  # {old} {new}
    build_needs: str  # {new} {old}
    advisory_fix: str  # a security advisory's fix, merged from its private fork
    advisory_unnested: str  # {pattern} {path}: a nested repeat taken out of a pattern
    advisory_unnested_named: str  # {pattern} {name} {path}: the same, the pattern named
    distribution_renamed: str  # {old} {new}
    distribution_renamed_fails: str  # {old} {new}
    # a release's changelog section: {items} its notable ones (else its first) quoted
    release_notes: tuple[str, str]  # {path} {count} {items}
    release_item: str  # {text} {heading}
    releases: str  # {version}
    releases_from: str  # {version} {previous}
    releases_after: str  # {version} {previous}: the last release its tags tell
    opens: str  # {version} {development}
    opens_lists: tuple[str, str]  # {items} {count}
    release_breaking: tuple[str, str]  # {version} {item} {count}
    # {count} {tag}: the commits a release ships since the last, as `git log --oneline
    # TAG..RELEASE` lists them (its merges and itself counted)
    carried: tuple[str, str]
    carried_notable: str  # {count} {items}: those breaking or high
    carried_item: str  # {sha} {title}
    carried_item_breaking: str  # {sha} {title}
    carried_breaking: str  # {tag} {sha} {title}
    tests_added: tuple[str, str]  # {names}
    # a case a test asserts anew, `call` given `value`: in a test new at the commit, in a
    # test of the parent; `{more}` the count of its other new cases (`tests_pin_more`)
    tests_pin: tuple[str, str]  # {test} {call} {value} {more}
    tests_pin_more: tuple[str, str]  # {count}: one more case, several
    # a call a test expects anew to raise `value`: as `tests_pin`
    tests_raise: tuple[str, str]  # {test} {call} {value} {more}
    kernels_added: tuple[str, str]  # {names}
    # {name}: a code span, or `name_in` where a bare name does not say which it is, or
    # several; one function, several
    gains_parameters: tuple[str, str]  # {name} {params}
    gains_fields: tuple[str, str]  # {name} {fields}: a declared-fields class's new fields
    field_default: str  # {field} {default}: a new field with its default
    field_required: str  # {field}: a new field with no default
    # {name} {keywords}: the keywords a new `**kwargs` is read for by name
    takes_keywords: tuple[str, str]
    also_gains: str  # {said} {params}: and the plain parameters gained beside
    loses_parameters: tuple[str, str]  # {name} {params}
    swaps_parameters: tuple[str, str]  # {name} {lost} {gained}
    # a parameter whose place another name now takes: a keyword renamed
    renames_parameter: tuple[str, str]  # {name} {old} {new}
    # a positional parameter another now stands before: one inserted, one moved ahead
    gains_before: tuple[str, str]  # {name} {param} {old}
    takes_before: tuple[str, str]  # {name} {param} {old}
    # {params}: one parameter, several
    parameters: tuple[str, str]  # {params}
    # names a change takes away that no version tag holds: {names} as said, {tag} the last
    unreleased: str  # {names} {tag}
    unreleased_first: str  # {names}
    fixes_unreleased: str  # {tag}: a fix whose every edited line came after every release
    may_raise: str  # {name} {names}
    may_raise_with: str  # {name} {exception} {text}: its message
    # an exception raised again in a new handler of its class: only its message is new
    reraises: str  # {name} {names}
    reraises_with: str  # {name} {exception} {text}
    raises_instead: str  # {name} {new} {old}: one exception raised, another no longer
    documented: str  # {name} {text}: a new definition's docstring, its first sentence
    redocumented: str  # {name} {text}: a sentence an existing definition's docstring gains
    now_catches: str  # {name} {names}
    modules_moved: tuple[str, str]  # {paths} {folder}
    module_renamed: str  # {old} {new}
    with_names: str  # {said} {names}: a module moved with the names its importers follow
    may_return: str  # {name} {values}
    returns_now: str  # {name} {values}: a value where it returned none
    returns_either: str  # {first} {second}
    returns_instead: str  # {name} {new} {old}: another literal or name
    param_retyped: str  # {name} {param} {old} {new}
    made_covariant: tuple[str, str]  # {names}
    return_retyped: str  # {name} {old} {new}
    # a change of annotations alone: {changes}; with the type aliases it drops, {aliases}
    typing_only: str
    typing_only_aliases: str
    # the shipped code proven the same under a linter's, formatter's or typing title:
    # {paths} {differences}, each difference a `kept_apart` word (`wording.kept_sentence`)
    kept_code: tuple[str, str]  # one file, more
    kept_apart: tuple[tuple[str, str], ...]
    kept_and: str
    kept_unread: str  # what the proof does not compare: the other files the change edits
    params_retyped: tuple[str, str]  # {params} {names} {old} {new}: the same change grouped
    returns_retyped: tuple[str, str]  # {names} {old} {new}: one function, several
    signatures_typed: str  # {names}: a `Protocol`'s stub signatures, annotations elsewhere
    no_longer_catches: str  # {name} {names}
    checks_for: str  # {name} {values}: strings its conditions now compare with
    also_checks_for: str  # {name} {values}: beside strings compared before
    raises_message: str  # {name} {exception} {text}: a message new to that exception
    # {name} {text}: a message it now logs, by level (warning, error, critical)
    logs: dict[str, str]
    # {name} {exception} {text}: the one raise of that exception says another message
    reworded: str
    reworded_was: str  # … and {was}, the message it gave at the parent
    tests_now: str  # {name} {test} {was}: a condition rewritten
    returns_early: str  # {name} {test}: a new `if` that returns
    returns_early_with: str  # {name} {value} {test}: a new `if` at the top that returns it
    # {name} {value} {test} {last}: a new `if` returning, before the final `return last`
    returns_when_last: str
    recomputes: str  # {name} {target} {new} {old}: a name bound once, its value changed
    recomputes_returned: str  # {name} {target} {new} {old}: the same, of the name it returns
    sets_from_start: str  # {name} {target} {value} {setters}: set up, others set it before
    raises_when: str  # {name} {exception} {test}: a new `if` that raises
    # {name} {exception} {test} {was}: a guard narrowed, a raise after it now reached
    narrowed_raises: str
    narrowed_unless: str  # {test} {value}: a guard between, returning
    narrowed_error: str  # {call} {error}: what the parent's block raised in that case
    narrowed_from: str  # {callers}: the public functions that reach a private one
    skips_when: str  # {name} {test}: a new `if` that continues
    rebinds_when: str  # {name} {was} {test}: a new `if` that binds a parameter anew
    no_longer_tests: str  # {name} {test}: a condition gone
    no_longer_raises_when: str  # {name} {exception} {test}: a raise reached on it, gone
    became: str  # {name} {old} {new}: a statement rewritten in place
    used_by: str  # {name} {users}: a private method with the public ones that use it
    fallback: str  # {name}: a definition made only where an import of the name fails
    passes: str  # {name} {arg} {value} {callee}: a keyword a call now passes
    passes_was: str  # {name} {arg} {value} {callee} {was}: passed with another value
    passes_when: str  # {name} {arg} {value} {callee} {when}: by a call made only when
    no_longer_passes: str  # {name} {arg} {was} {callee}: a keyword a call no longer passes
    now_optional: str  # {name} {param} {default}
    now_required: str  # {name} {param} {was}
    name_in: str  # {name} {path}
    now_calls: tuple[str, str]  # {callers} {callees}: one caller, several
    now_calls_raising: str  # {caller} {callee} {exception} {test}: a guard of the callee
    # {caller} {callee} {exception} {test} {more}: one of several that raise it
    now_calls_raising_more: tuple[str, str]
    # {name} {targets} {closure} {exception} {text}: a callback it sets that raises
    sets_raising: str
    sets_raising_when: str  # the same, under `if {test}:`
    # the same, {test} a parameter whose default {default} is true
    sets_raising_default: str
    # {callers} {callee} {text}: a new helper called, with its docstring's first sentence
    now_calls_documented: tuple[str, str]
    now_imports: tuple[str, str]  # {paths} {name} {module}: one module, several
    no_longer_calls: tuple[str, str]  # {callers} {callees}: one caller, several
    both: str  # {first} {second}
    tests_call: tuple[str, str]  # {names}: one name, several
    generated: tuple[str, str]  # {count}: one file, several
    generated_added: tuple[str, str]  # {count}: new files a generator's mark heads
    folder_added: str  # {count} {folder}: every file of the change new, in one folder
    deprecation: str  # {text}
    fixes: str  # {words} {where}
    fixes_plain: str  # {words}
    fix_in: str  # {where}
    fix_in_tooling: str  # {where} {paths}
    same_shipped: str
    speedup_in: str  # {where}
    internal_private: str  # {names} {paths}
    internal_kept: str  # {paths}
    fixed_issues: str  # {issues}
    affecting: str  # {impact}
    reports: str  # {number}
    by_default: str  # {phrase}
    revert: str  # {title}
    revert_in: tuple[str, str]  # {title} {where}: the code a revert restores (one, many)
    # a merge commit whose words and facts say nothing of what its branch brought
    lands_branch: str  # {name}
    reland: str  # {title}
    experimental: str  # {paths}
    footer: str  # {text}
    bang: str  # {prefix}
    title_mark: str  # {mark}: the title opens with the author's mark (`[BREAKING]`)
    # a commit that only edits its changelog: {text} the entry's words, quoted
    records: str
    label: str  # {label}
    fragment: str  # {path} {text}
    fragment_bare: str  # {path}: a fragment without words of its own
    removal_title: str  # {title}
    module_removed: str  # {module}
    python_floor: str  # {spec} {old}
    python_floor_new: str  # {spec}: set where none was
    # --- consequences and mitigations of a risk: sentences -------------------------------
    imports_fail: tuple[str, str]  # {names} {module}: names a package's `__init__.py` exported
    module_imports_fail: str  # {module}
    module_renamed_fails: str  # {module} {new}: renamed to another public module
    passing_fails: tuple[str, str]  # {params}
    passing_shifted: str  # {old} {param}
    callers_fail: str  # {old}
    # a public class's own method or property removed, nothing giving it back: `C.m()`, `C.p`
    calls_fail: str  # {names}: methods only
    members_fail: str  # {names}
    # a private class a public function hands its callers (`alru_cache`'s wrapper), said as
    # they meet it: what the function decorates, or what it returns
    decorated_lacks: str  # {via} {names}
    returned_lacks: str  # {via} {names}
    decorated_renamed: str  # {via} {old} {new}
    returned_renamed: str  # {via} {old} {new}
    decorated_loses: str  # {via} {member} {params}
    returned_loses: str  # {via} {member} {params}
    reached_fail: str  # {names}
    constant_fails: str  # {old}
    setting_ignored: str  # {module} {name}
    call_instead: str  # {new}
    env_no_effect: tuple[str, str]  # {names}
    # {installs}: `pkg[extra]` spans
    extras_empty: tuple[str, str]  # {installs}
    # one extra whose requirements were read: {install} `pkg[extra]`, {names} its requirements
    extra_empty_named: str
    commands_fail: tuple[str, str]  # {names}
    flags_fail: tuple[str, str]  # {names}
    keys_no_effect: tuple[str, str]  # {names}
    default_differs: str  # {name}
    default_differs_in: str  # {name} {functions}
    default_keep: str  # {name} {old}
    use_instead: str  # {names}
    # --- recommendations: sentences -------------------------------------------------------
    tests_rewrite: str  # {old} {new} {path}
    forwards: tuple[str, str]  # {function} {options} {callee}: one option, several
    tests_rewrite_more: str  # {old} {new} {path} {more}
    migrate: str  # {names}
    deprecation_replaced: str  # {replacement}
    security: str  # {words}
    exposure: str  # {words}: the author's words of a secret sent to another origin
    # {text}: the author's own sentence of what changes for a user (a figure with its
    # scope, "No behaviour change …")
    author_says: str
    section_says: str  # {title} {path} {text}: a new section of caveats, with its words
    adds_alias: str  # {name} {of} {path}: a public name bound to another (`extend = assign`)
    no_test: str  # {where}


EN = AnalysisPhrases(
    no_message="(no commit message)",
    list_sep=", ",
    more="{shown} and {count} more",
    sentence_end=".",
    sentence_sep=" ",
    clause_sep="; ",
    quote="“{text}”",
    registry={
        Registry.MODEL: ("model", "models"),
        Registry.BACKEND: ("backend", "backends"),
        Registry.OPERATOR: ("operator", "operators"),
        Registry.OTHER: ("registry entry", "registry entries"),
    },
    registers="registers the {what} {names}",
    registers_with="registers {names} with `{via}`",
    new_module="adds {names} in the new module `{path}` ({lines} lines)",
    adds="adds {names}",
    adds_to="adds {names} to `{path}`",
    abstract_added=(
        "`{owner}` gains the abstract {names}: subclasses must now define it",
        "`{owner}` gains the abstract {names}: subclasses must now define them",
    ),
    overrides="`{owner}` now overrides {names} of `{base}`",
    still_reads=(
        "`{path}` still reads `{name}` (line {line}), which this commit removes: "
        "a `NameError` where it runs"
    ),
    still_imports=(
        "`{path}` still imports `{name}` from `{source}` (line {line}), which this commit "
        "removes: an `ImportError` where it runs"
    ),
    call_short=(
        "`{caller}` calls `{callee}` without its required {params}: a `TypeError` where it runs"
    ),
    call_unknown=(
        "`{caller}` passes `{callee}` the keyword `{keyword}`, which it does not take: "
        "a `TypeError` where it runs"
    ),
    removes_from="removes {names} from `{path}`",
    returns_values="`{name}` in `{path}` now returns {new} values (was {old})",
    unpacking_fails="Code that unpacks {old} values from `{name}` fails.",
    returns_literal="`{name}` now returns `{new}` where it returned `{old}`",
    returns_literal_when="`{name}` now returns `{new}` where it returned `{old}` (when `{when}`)",
    returned_type_fails=(
        "Code that compares the result with `{old}` or checks its type now meets `{new}`."
    ),
    raises_reached="`{name}` now raises {raised}{when}",
    reached_hooks="The hooks it sets raise it ({hooks}).",
    reached_helper="`{holder}` raises it.",
    reached_more=(", or with {count} other message", ", or with {count} other messages"),
    reached_when=", when `{test}`",
    reached_when_default=", when `{test}` holds, as it does by default",
    hooks_accepted=(
        "At the parent {hooks} raised nothing: input `{name}` accepted with its defaults may"
        " now fail."
    ),
    raises_retyped="`{name}` now raises `{new}` (was `{old}`){where}",
    retyped_from=" from `{holder}`",
    retyped_uncaught=(
        "Code that wraps `{name}` in `except {old}` now lets it through: `{new}` is no"
        " subclass of `{old}`."
    ),
    metadata_fails=(
        "Reading {names} now raises `AttributeError`.",
        "Reading {names} now raises `AttributeError`.",
    ),
    bang_no_names="the code removes no public name from the modules it ships",
    bang_python_kept=(
        "the code removes no public name from the modules it ships and the Python requirement"
        " is unchanged (`{python}`)"
    ),
    no_longer_sets="`{cls}` (`{path}`) no longer sets {names} on its instances",
    internal_to="{clause}, internal to `{module}`",
    expects_error=(
        "a test in `{path}` that expected “{old}” now expects “{new}” from the same call: "
        "callers meet the new error"
    ),
    renames="renames `{old}` to `{new}`",
    renames_in="renames `{old}` to `{new}` in `{path}`",
    moves="moves {names} from `{old}` to `{new}`",
    reexports_dropped="`{path}` no longer re-exports {names} (still defined in `{origin}`)",
    reexport_alias_dropped=(
        "`{path}` no longer re-exports `{name}` (still defined in `{origin}` as `{original}`)"
    ),
    flags_added=("adds the command-line flag {names}", "adds the command-line flags {names}"),
    flag_helped="adds the command-line option `{name}`: “{help}”",
    flags_removed=(
        "removes the command-line flag {names}",
        "removes the command-line flags {names}",
    ),
    env_added=(
        "reads the new environment variable {names}",
        "reads the new environment variables {names}",
    ),
    env_read=(
        "reads the environment variable {names}",
        "reads the environment variables {names}",
    ),
    env_removed=(
        "no longer reads the environment variable {names}",
        "no longer reads the environment variables {names}",
    ),
    keys_added=(
        "reads the new configuration key {names}",
        "reads the new configuration keys {names}",
    ),
    keys_read=(
        "reads the configuration key {names}",
        "reads the configuration keys {names}",
    ),
    keys_removed=(
        "stops reading the configuration key {names}",
        "stops reading the configuration keys {names}",
    ),
    default="changes the default of `{name}` from `{old}` to `{new}`",
    default_in="changes the default of `{name}` in {functions} from `{old}` to `{new}`",
    value_changed="changes `{name}` from `{old}` to `{new}` in {paths}",
    hook_pinned="updates the pre-commit hook `{name}` from `{old}` to `{new}`",
    action_pinned="updates the GitHub Action `{name}` from `{old}` to `{new}` in {paths}",
    table_keys_gained=("{name} gains the key {values}", "{name} gains the keys {values}"),
    rows_added=("new row of {name}: {rows}", "new rows of {name}: {rows}"),
    table_added=(
        "adds {name} to `{path}`, with the key {values}",
        "adds {name} to `{path}`, with the keys {values}",
    ),
    table_keys_lost=(
        "{name} no longer has the key {values}",
        "{name} no longer has the keys {values}",
    ),
    table_keys_moved=(
        "the key {values} moves from {old} to {new}",
        "the keys {values} move from {old} to {new}",
    ),
    table_values_gained="{name} gains {values}",
    table_values_lost="{name} drops {values}",
    sections_added=(
        "adds the section {titles} to `{path}`",
        "adds the sections {titles} to `{path}`",
    ),
    requires="requires {pins}",
    requires_build="building the package now requires {pins}",
    release_runners="the release binaries are now built on {runners}",
    settings_same=(
        "{paths} parses to the same settings at both revisions: only their order, spacing or"
        " comments change",
        "{paths} parse to the same settings at both revisions: only their order, spacing or"
        " comments change",
    ),
    classifiers_added=("adds the classifier {names}", "adds the classifiers {names}"),
    classifiers_removed=("removes the classifier {names}", "removes the classifiers {names}"),
    licence_expressed=(
        "the licence is now the SPDX expression `{expression}` (was the {was}); the classifier "
        "{names} is dropped, as PEP 639 asks",
        "the licence is now the SPDX expression `{expression}` (was the {was}); the classifiers "
        "{names} are dropped, as PEP 639 asks",
    ),
    runner_was="{new} (was {old})",
    requires_tools="the dev tools' requirement files pin {pins}",
    moves_metadata="moves the package metadata from {old} to {new}",
    types_shipped=(
        "the package now ships type information ({marker}): type checkers read its own annotations"
    ),
    pin_was="{pin} (was `{old}`)",
    installs_where="installing {where} now also installs {pin}",
    required_where="{name} is now required {where} (was {old})",
    first_dependency="{clause}, the package's first runtime dependency",
    where_python="on Python {bound}",
    where_marker="where {marker}",
    where_every="on every install",
    reduce_returns="{name} now returns {new} instead of {old}",
    pickles_refused=(
        "pickles of {cls} written by {release} no longer load: they call {callee} with"
        " {passed} arguments, which it no longer takes"
    ),
    pickles_gone=(
        "pickles of {cls} written by {release} no longer load: they call {callee}, which is gone"
    ),
    unpickling_fails="unpickling them raises {error}",
    earlier_releases="earlier releases",
    extra_requires="the extra {name} now requires {pins}",
    extra_also_requires="the extra {name} now also requires {pins}",
    extra_no_longer_requires="the extra {name} no longer requires {pins}",
    extras_added=("adds the extra {names}", "adds the extras {names}"),
    extras_removed=("removes the extra {names}", "removes the extras {names}"),
    extras_grouped=(
        "moves the extra {names} to the dependency group of its name",
        "moves the extras {names} to the dependency groups of their names",
    ),
    extras_unpublished=(
        ": it is gone from the published metadata",
        ": they are gone from the published metadata",
    ),
    dev_requirements_added=(
        "adds the dev dependency {names} to `{path}`",
        "adds the dev dependencies {names} to `{path}`",
    ),
    dev_requirements_removed=(
        "removes the dev dependency {names} from `{path}`",
        "removes the dev dependencies {names} from `{path}`",
    ),
    commands_added=("adds the command {names}", "adds the commands {names}"),
    commands_removed=("removes the command {names}", "removes the commands {names}"),
    entry_points_added=(
        "adds the `{group}` entry point {names}",
        "adds the `{group}` entry points {names}",
    ),
    entry_points_removed=(
        "removes the `{group}` entry point {names}",
        "removes the `{group}` entry points {names}",
    ),
    backend_changed="changes the build backend from `{old}` to `{new}`",
    build_needs="building from the sdist now needs {new} (was {old})",
    advisory_fix="A security advisory's fix (merged from its private fork).",
    advisory_unnested="It takes a nested repeat (`{pattern}`) out of a pattern in `{path}`.",
    advisory_unnested_named=(
        "It takes a nested repeat (`{pattern}`) out of the pattern `{name}` (`{path}`)."
    ),
    distribution_renamed="publishes the package as `{new}` (was `{old}`)",
    distribution_renamed_fails=(
        "Requirements on `{old}` get no new release; they must name `{new}`."
    ),
    release_notes=(
        "`{path}` lists {count} new item: {items}",
        "`{path}` lists {count} new items: {items}",
    ),
    release_item="“{text}” ({heading})",
    releases="Releases {version}",
    releases_from="Releases {version} (the version was {previous})",
    releases_after="Releases {version} (the last release was {previous})",
    opens="Opens version {version} (`{development}`)",
    opens_lists=(
        "; its changelog section lists {items}",
        "; its changelog section lists {count} items: {items}",
    ),
    carried=("It ships {count} commit since `{tag}`", "It ships {count} commits since `{tag}`"),
    carried_notable=", {count} of them breaking or high: {items}",
    carried_item="`{sha}` “{title}”",
    carried_item_breaking="`{sha}` “{title}” (breaking)",
    carried_breaking="it ships the breaking commit `{sha}` “{title}” (since `{tag}`)",
    release_breaking=(
        "The {version} changelog lists breaking changes: {item}",
        "The {version} changelog lists breaking changes: {item} and {count} more",
    ),
    tests_added=("adds the test {names}", "adds the tests {names}"),
    tests_pin=(
        "the new test {test} pins {call} to {value}{more}",
        "the test {test} now also pins {call} to {value}{more}",
    ),
    tests_pin_more=(", and {count} more case", ", and {count} more cases"),
    tests_raise=(
        "the new test {test} expects {call} to raise {value}{more}",
        "the test {test} now also expects {call} to raise {value}{more}",
    ),
    generated=("changes {count} generated file", "changes {count} generated files"),
    generated_added=(
        "adds {count} file marked generated",
        "adds {count} files marked generated",
    ),
    folder_added="adds {count} files under `{folder}/`",
    kernels_added=("adds the kernel {names}", "adds the kernels {names}"),
    gains_parameters=("{name} gains {params}", "{name} gain {params}"),
    gains_fields=("{name} gains the field {fields}", "{name} gains the fields {fields}"),
    field_default="{field} (default `{default}`)",
    field_required="{field} (required)",
    takes_keywords=(
        "{name} now takes the keyword {keywords} (through `**kwargs`)",
        "{name} now takes the keywords {keywords} (through `**kwargs`)",
    ),
    also_gains="{said}, and gains {params}",
    loses_parameters=("{name} no longer takes {params}", "{name} no longer take {params}"),
    swaps_parameters=(
        "{name} no longer takes {lost} and gains {gained}",
        "{name} no longer take {lost} and gain {gained}",
    ),
    renames_parameter=(
        "the parameter {old} of {name} is now {new}",
        "the parameter {old} of {name} is now {new}",
    ),
    gains_before=(
        "{name} gains the parameter {param} before {old}",
        "{name} gain the parameter {param} before {old}",
    ),
    takes_before=("{name} now takes {param} before {old}", "{name} now take {param} before {old}"),
    parameters=("the parameter {params}", "the parameters {params}"),
    unreleased="{names} (added after {tag}, never released)",
    unreleased_first="{names} (before the first release, never released)",
    fixes_unreleased=(
        "Fixes code added after {tag} (never released): users of releases were not affected"
    ),
    may_raise="{name} may now raise {names}",
    may_raise_with="{name} may now raise `{exception}` with “{text}”",
    reraises="{name} now raises {names} with a message of its own where it let it through",
    reraises_with="{name} now raises `{exception}` with the message “{text}” where it let "
    "`{exception}` through",
    raises_instead="{name} now raises `{new}` instead of `{old}`",
    documented="{name}, per its docstring: “{text}”",
    redocumented="The docstring of {name} now says: “{text}”",
    now_catches="{name} now catches {names}",
    module_renamed="the module `{old}` is now `{new}`",
    with_names="{said}, with {names}",
    modules_moved=(
        "the module {paths} now lives in `{folder}`",
        "the modules {paths} now live in `{folder}`",
    ),
    may_return="{name} may now return {values}",
    returns_now="{name} now returns {values}",
    returns_either="{first} or {second}",
    returns_instead="{name} now returns `{new}` instead of `{old}`",
    param_retyped="the parameter `{param}` of {name} now takes `{new}` (was `{old}`)",
    made_covariant=("{names} is now covariant", "{names} are now covariant"),
    return_retyped="{name} now returns `{new}` (was `{old}`)",
    typing_only="type hints only (runtime unchanged): {changes}",
    kept_code=(
        "no behaviour change: {paths} is the same code as before but for {differences}",
        "no behaviour change: {paths} are the same code as before but for {differences}",
    ),
    kept_apart=(
        ("layout", "layout, comments and docstrings"),
        ("annotations", "annotations and unused imports"),
        ("format", "`str.format` calls written as f-strings"),
        ("negation", "`not x in y` written as `x not in y`"),
        ("imports", "imports regrouped"),
        ("flow", "an `else` after an exit left out"),
    ),
    kept_and=", and ",
    kept_unread="; other files not compared",
    typing_only_aliases=(
        "type hints only (runtime unchanged, but the type alias {aliases} is gone): {changes}"
    ),
    params_retyped=(
        "the parameter {params} of {names} now takes `{new}` (was `{old}`)",
        "the parameters {params} of {names} now take `{new}` (was `{old}`)",
    ),
    returns_retyped=(
        "{names} now returns `{new}` (was `{old}`)",
        "{names} now return `{new}` (was `{old}`)",
    ),
    signatures_typed="the type hints in {names} change",
    no_longer_catches="{name} no longer catches {names}",
    checks_for="{name} now checks for {values}",
    also_checks_for="{name} now also checks for {values}",
    raises_message="{name} now raises `{exception}` with “{text}”",
    logs={
        "warning": "{name} now logs a warning: “{text}”",
        "error": "{name} now logs an error: “{text}”",
        "critical": "{name} now logs a critical error: “{text}”",
    },
    reworded="The `{exception}` raised by {name} now says “{text}”",
    reworded_was="The `{exception}` raised by {name} now says “{text}” (was “{was}”)",
    tests_now="{name} now tests `{test}` (was `{was}`)",
    returns_early="{name} now returns early when `{test}`",
    returns_early_with="{name} now returns `{value}` early when `{test}`",
    returns_when_last="{name} now returns `{value}` when `{test}`, where it returned `{last}`",
    recomputes="{name} now computes `{target}` as `{new}` (was `{old}`)",
    sets_from_start=(
        "{name} now sets `{target}` to `{value}` from the start (before, {setters} set it)"
    ),
    recomputes_returned=(
        "{name} now computes `{target}`, the value it returns, as `{new}` (was `{old}`)"
    ),
    raises_when="{name} now raises `{exception}` when `{test}`",
    narrowed_raises=(
        "{name} now raises `{exception}` if `{test}`{unless}, where it returned `{was}`"
    ),
    narrowed_unless=" (unless `{test}`: then it returns `{value}`)",
    narrowed_error=" (`{call}` raised `{error}` there)",
    narrowed_from="; {callers} reach it",
    skips_when="{name} now skips to the next iteration when `{test}`",
    rebinds_when="{name} now sets `{was}` when `{test}`",
    no_longer_tests="{name} no longer tests `{test}`",
    no_longer_raises_when="{name} no longer raises `{exception}` when `{test}`",
    became="in {name}, `{old}` became `{new}`",
    used_by="{name} (used by {users})",
    fallback="the fallback {name}",
    passes="{name} now passes `{arg}={value}` to `{callee}`",
    passes_when="{name} now passes `{arg}={value}` to `{callee}` when `{when}`",
    passes_was="{name} now passes `{arg}={value}` to `{callee}` (was `{was}`)",
    no_longer_passes="{name} no longer passes `{arg}={was}` to `{callee}`",
    now_optional="the parameter `{param}` of {name} is now optional (default `{default}`)",
    now_required="the parameter `{param}` of {name} is now required (its default was `{was}`)",
    name_in="`{name}` in `{path}`",
    now_calls=("{callers} now calls {callees}", "{callers} now call {callees}"),
    now_calls_raising="{caller} now calls {callee}, which raises `{exception}` when `{test}`",
    now_calls_raising_more=(
        "{caller} now calls {callee}, which raises `{exception}` when `{test}` and in one"
        " other case",
        "{caller} now calls {callee}, which raises `{exception}` when `{test}` and in {more}"
        " other cases",
    ),
    sets_raising="{name} now sets {targets} to {closure}, which raises `{exception}` with “{text}”",
    sets_raising_when=(
        "When `{test}`, {name} now sets {targets} to {closure}, which raises `{exception}` with"
        " “{text}”"
    ),
    sets_raising_default=(
        "When `{test}` (by default `{default}`), {name} now sets {targets} to {closure}, which"
        " raises `{exception}` with “{text}”"
    ),
    now_calls_documented=(
        "{callers} now calls {callee}, whose docstring says: “{text}”",
        "{callers} now call {callee}, whose docstring says: “{text}”",
    ),
    tests_call=("the new tests call {names}", "the new tests call {names}"),
    no_longer_calls=(
        "{callers} no longer calls {callees}",
        "{callers} no longer call {callees}",
    ),
    both="{first} and {second}",
    now_imports=(
        "{paths} now imports `{name}` from `{module}`",
        "{paths} now import `{name}` from `{module}`",
    ),
    deprecation="adds a deprecation warning: “{text}”",
    fixes="fixes “{words}” in {where}",
    fixes_plain="fixes “{words}”",
    fix_in="the fix is in {where}",
    fix_in_tooling="the fix is in the project's own tooling: {where} in {paths}",
    same_shipped="; the code the package ships is the same",
    speedup_in="the speed-up is in {where}",
    internal_private="internal only: changes only the private {names}; no public name,"
    " signature or default changes in {paths}",
    internal_kept="internal only: no public name, signature or default changes in {paths}",
    fixed_issues=" (fixes {issues})",
    affecting="; the author reports it affects {impact}",
    reports="the author reports “{number}”",
    by_default="changes default behaviour: “{phrase}”",
    revert="reverts “{title}”; the behaviour before that change returns",
    revert_in=(
        "reverts “{title}”: {where} is restored to what it was before that change",
        "reverts “{title}”: {where} are restored to what they were before that change",
    ),
    lands_branch="lands the branch `{name}`",
    reland="lands again a change that had been reverted: “{title}”",
    experimental="only experimental or contrib code changes ({paths})",
    footer="the message declares a breaking change: “{text}”",
    bang="the title marks this change as breaking (`{prefix}!`)",
    title_mark="the title marks this change as breaking (`{mark}`)",
    records="records “{text}” in the changelog",
    label="the pull request is labelled `{label}`",
    fragment="the author files it as breaking in `{path}`: “{text}”",
    fragment_bare="the author files it as breaking in `{path}`",
    removal_title="the title names a removal: “{title}”",
    module_removed="removes the module `{module}`",
    python_floor=(
        "releases from this commit on install only on `python{spec}` (was `{old}`): older"
        " interpreters keep the last release that allowed them"
    ),
    python_floor_new=(
        "releases from this commit on install only on `python{spec}` (no Python version was"
        " required before): older interpreters keep the last release that allowed them"
    ),
    imports_fail=(
        "Code that imports {names} from `{module}` fails.",
        "Code that imports {names} from `{module}` fails.",
    ),
    module_imports_fail="Code that imports `{module}` fails.",
    module_renamed_fails="Code that imports `{module}` fails; it is now `{new}`.",
    passing_fails=(
        "Calls that pass {params} by name fail.",
        "Calls that pass {params} by name fail.",
    ),
    passing_shifted="Calls that pass {old} by position now pass it as {param}.",
    callers_fail="Callers of `{old}` fail.",
    calls_fail="Calls to {names} fail.",
    members_fail="Code that uses {names} fails.",
    decorated_lacks="functions decorated with {via} no longer have {names}",
    returned_lacks="what {via} returns no longer has {names}",
    decorated_renamed="{old} of functions decorated with {via} is renamed {new}",
    returned_renamed="{old} of what {via} returns is renamed {new}",
    decorated_loses="{member} no longer takes {params} on functions decorated with {via}",
    returned_loses="{member} no longer takes {params} on what {via} returns",
    reached_fail="Code that uses {names} on them fails.",
    constant_fails="Code that reads `{old}` fails; code that sets it has no effect.",
    setting_ignored="setting `{module}.{name}` no longer has any effect: no shipped code reads it",
    call_instead="Call `{new}` instead.",
    env_no_effect=("Setting {names} has no effect.", "Setting {names} has no effect."),
    extras_empty=(
        "Installing {installs} no longer brings the extra's requirements (pip only warns).",
        "Installing {installs} no longer brings the extras' requirements (pip only warns).",
    ),
    extra_empty_named="`pip install {install}` no longer installs {names} (pip only warns).",
    commands_fail=(
        "Scripts that run {names} fail after upgrading.",
        "Scripts that run {names} fail after upgrading.",
    ),
    flags_fail=("Command lines that pass {names} fail.", "Command lines that pass {names} fail."),
    keys_no_effect=(
        "Configurations that set {names} lose its effect.",
        "Configurations that set {names} lose their effect.",
    ),
    default_differs="Runs that do not set `{name}` behave differently.",
    default_differs_in="Calls of {functions} that do not set `{name}` behave differently.",
    default_keep="Set `{name}` to `{old}` to keep the old behaviour.",
    use_instead="Use {names} instead.",
    forwards=(
        "`{function}` no longer takes {options} itself: it now passes it on to `{callee}(...)`",
        "`{function}` no longer takes {options} itself: it now passes them on to `{callee}(...)`",
    ),
    tests_rewrite="Its tests now write `{new}` where they wrote `{old}` (`{path}`).",
    tests_rewrite_more=(
        "Its tests now write `{new}` where they wrote `{old}` (`{path}`), and {more} more alike."
    ),
    migrate="Before upgrading, check code, configuration and launch commands for {names}.",
    deprecation_replaced="Move to `{replacement}` before the deprecated one is removed.",
    security="Decide whether the fix of “{words}” needs a release or an advisory.",
    exposure="closes a leak of credentials to another origin or host: “{words}”",
    author_says="The commit message says: “{text}”",
    section_says="`{path}` gains a section “{title}”: “{text}”",
    adds_alias="adds {name}, an alias of {of}, to `{path}`",
    no_test="No test changed with this fix of {where}: ask for a regression test.",
)

ZH = AnalysisPhrases(
    no_message="（无提交信息）",
    list_sep="、",
    more="{shown} 等（另有 {count} 项）",
    sentence_end="。",
    sentence_sep="",
    clause_sep="；",
    quote="“{text}”",
    registry={
        Registry.MODEL: ("模型", "模型"),
        Registry.BACKEND: ("后端", "后端"),
        Registry.OPERATOR: ("算子", "算子"),
        Registry.OTHER: ("注册项", "注册项"),
    },
    registers="注册了{what} {names}",
    registers_with="通过 `{via}` 注册了 {names}",
    new_module="新增模块 `{path}`（{lines} 行），定义 {names}",
    adds="新增 {names}",
    adds_to="在 `{path}` 中新增 {names}",
    abstract_added=(
        "`{owner}` 新增抽象成员 {names}：子类现在必须定义它",
        "`{owner}` 新增抽象成员 {names}：子类现在必须定义它们",
    ),
    overrides="`{owner}` 现在覆盖 `{base}` 的 {names}",
    still_reads=(
        "`{path}` 仍读取本次提交移除的 `{name}`（第 {line} 行）：运行到此处时引发 `NameError`"
    ),
    still_imports=(
        "`{path}` 仍从 `{source}` 导入本次提交移除的 `{name}`（第 {line} 行）："
        "运行到此处时引发 `ImportError`"
    ),
    call_short="`{caller}` 调用 `{callee}` 时缺少必需参数 {params}：运行到此处时引发 `TypeError`",
    call_unknown=(
        "`{caller}` 向 `{callee}` 传入其不接受的关键字参数 `{keyword}`："
        "运行到此处时引发 `TypeError`"
    ),
    removes_from="从 `{path}` 移除了 {names}",
    returns_values="`{path}` 中的 `{name}` 现在返回 {new} 个值（原为 {old} 个）",
    unpacking_fails="按 {old} 个值解包 `{name}` 返回值的代码将失败。",
    returns_literal="`{name}` 在原先返回 `{old}` 的情况下现在返回 `{new}`",
    returns_literal_when="`{name}` 在原先返回 `{old}` 的情况下（`{when}` 时）现在返回 `{new}`",
    returned_type_fails="将结果与 `{old}` 比较或检查其类型的代码现在会得到 `{new}`。",
    raises_reached="`{name}` 现在会引发 {raised}{when}",
    reached_hooks="由其设置的钩子（{hooks}）引发。",
    reached_helper="由 `{holder}` 引发。",
    reached_more=("，或带有另外 {count} 条消息", "，或带有另外 {count} 条消息"),
    reached_when="，条件为 `{test}`",
    reached_when_default="，条件为 `{test}`，默认参数下即成立",
    hooks_accepted=(
        "父提交中 {hooks} 不引发任何异常：`{name}` 在默认参数下原先接受的输入现在可能失败。"
    ),
    raises_retyped="`{name}` 现在引发 `{new}`（原为 `{old}`）{where}",
    retyped_from="，来自 `{holder}`",
    retyped_uncaught=(
        "用 `except {old}` 包裹 `{name}` 的代码现在捕获不到它：`{new}` 不是 `{old}` 的子类。"
    ),
    metadata_fails=(
        "读取 {names} 现在会引发 `AttributeError`。",
        "读取 {names} 现在会引发 `AttributeError`。",
    ),
    bang_no_names="代码未从其发布的模块中移除任何公开名称",
    bang_python_kept="代码未从其发布的模块中移除任何公开名称，Python 版本要求未变（`{python}`）",
    no_longer_sets="`{path}` 中的 `{cls}` 不再在其实例上设置 {names}",
    internal_to="{clause}，属 `{module}` 内部",
    expects_error="`{path}` 中原本期望“{old}”的测试现在对同一调用期望“{new}”：调用方会遇到新的错误",
    renames="将 `{old}` 重命名为 `{new}`",
    renames_in="在 `{path}` 中将 `{old}` 重命名为 `{new}`",
    moves="将 {names} 从 `{old}` 移至 `{new}`",
    reexports_dropped="`{path}` 不再重新导出 {names}（仍定义于 `{origin}`）",
    reexport_alias_dropped="`{path}` 不再重新导出 `{name}`（仍以 `{original}` 定义于 `{origin}`）",
    flags_added=("新增命令行参数 {names}", "新增命令行参数 {names}"),
    flag_helped="新增命令行参数 `{name}`：“{help}”",
    flags_removed=("移除了命令行参数 {names}", "移除了命令行参数 {names}"),
    env_added=("新增读取环境变量 {names}", "新增读取环境变量 {names}"),
    env_read=("读取环境变量 {names}", "读取环境变量 {names}"),
    env_removed=("不再读取环境变量 {names}", "不再读取环境变量 {names}"),
    keys_added=("新增配置项 {names}", "新增配置项 {names}"),
    keys_read=("读取配置项 {names}", "读取配置项 {names}"),
    keys_removed=("不再读取配置项 {names}", "不再读取配置项 {names}"),
    default="将 `{name}` 的默认值从 `{old}` 改为 `{new}`",
    default_in="将 {functions} 的参数 `{name}` 的默认值从 `{old}` 改为 `{new}`",
    value_changed="将 {paths} 中的 `{name}` 从 `{old}` 改为 `{new}`",
    hook_pinned="将 pre-commit 钩子 `{name}` 从 `{old}` 更新到 `{new}`",
    action_pinned="将 {paths} 中的 GitHub Action `{name}` 从 `{old}` 更新到 `{new}`",
    table_keys_gained=("{name} 新增键 {values}", "{name} 新增键 {values}"),
    rows_added=("{name} 的新行：{rows}", "{name} 的新行：{rows}"),
    table_added=(
        "在 `{path}` 中新增 {name}，含键 {values}",
        "在 `{path}` 中新增 {name}，含键 {values}",
    ),
    table_keys_lost=("{name} 不再有键 {values}", "{name} 不再有键 {values}"),
    table_keys_moved=("键 {values} 从 {old} 移到 {new}", "键 {values} 从 {old} 移到 {new}"),
    table_values_gained="{name} 新增取值 {values}",
    table_values_lost="{name} 不再包含取值 {values}",
    sections_added=("在 `{path}` 中新增章节 {titles}", "在 `{path}` 中新增章节 {titles}"),
    requires="依赖要求改为 {pins}",
    requires_build="构建此包现在需要 {pins}",
    release_runners="发布的二进制文件现在在 {runners} 上构建",
    settings_same=(
        "{paths} 两个版本解析出的设置相同：只改了顺序、空白或注释",
        "{paths} 两个版本解析出的设置相同：只改了顺序、空白或注释",
    ),
    classifiers_added=("新增分类器 {names}", "新增分类器 {names}"),
    classifiers_removed=("移除分类器 {names}", "移除分类器 {names}"),
    licence_expressed=(
        "许可证现为 SPDX 表达式 `{expression}`（原为 {was}）；按 PEP 639 移除分类器 {names}",
        "许可证现为 SPDX 表达式 `{expression}`（原为 {was}）；按 PEP 639 移除分类器 {names}",
    ),
    runner_was="{new}（原为 {old}）",
    requires_tools="开发工具的依赖文件固定 {pins}",
    moves_metadata="将包元数据从 {old} 移至 {new}",
    types_shipped="包现在附带类型信息（{marker}）：类型检查器会读取它自己的注解",
    pin_was="{pin}（原为 `{old}`）",
    installs_where="{where}安装时现在还会安装 {pin}",
    required_where="{name} 现在{where}需要（原为 {old}）",
    first_dependency="{clause}，这是此包的第一个运行时依赖",
    where_python="在 Python {bound} 上",
    where_marker="在 {marker} 时",
    where_every="在所有安装中",
    reduce_returns="{name} 现在返回 {new}，而不是 {old}",
    pickles_refused=(
        "{release} 写出的 {cls} 序列化数据不再能加载：它们以 {passed} 个参数调用 {callee}，"
        "而它不再接受"
    ),
    pickles_gone="{release} 写出的 {cls} 序列化数据不再能加载：它们调用的 {callee} 已不存在",
    unpickling_fails="反序列化它们会抛出 {error}",
    earlier_releases="早先版本",
    extra_requires="可选依赖组 {name} 现在需要 {pins}",
    extra_also_requires="可选依赖组 {name} 现在还需要 {pins}",
    extra_no_longer_requires="可选依赖组 {name} 不再需要 {pins}",
    extras_added=("新增可选依赖组 {names}", "新增可选依赖组 {names}"),
    extras_removed=("移除了可选依赖组 {names}", "移除了可选依赖组 {names}"),
    extras_grouped=(
        "将可选依赖组 {names} 移至同名的依赖组",
        "将可选依赖组 {names} 移至同名的依赖组",
    ),
    extras_unpublished=("：它已不在发布的元数据中", "：它们已不在发布的元数据中"),
    dev_requirements_added=(
        "在 `{path}` 中新增开发依赖 {names}",
        "在 `{path}` 中新增开发依赖 {names}",
    ),
    dev_requirements_removed=(
        "从 `{path}` 中移除了开发依赖 {names}",
        "从 `{path}` 中移除了开发依赖 {names}",
    ),
    commands_added=("新增命令 {names}", "新增命令 {names}"),
    commands_removed=("移除了命令 {names}", "移除了命令 {names}"),
    entry_points_added=("新增 `{group}` 入口点 {names}", "新增 `{group}` 入口点 {names}"),
    entry_points_removed=("移除了 `{group}` 入口点 {names}", "移除了 `{group}` 入口点 {names}"),
    backend_changed="构建后端从 `{old}` 改为 `{new}`",
    build_needs="从源码包构建现在需要 {new}（原为 {old}）",
    advisory_fix="安全公告的修复（从其临时私有分叉合并）。",
    advisory_unnested="它从 `{path}` 的一个模式中去掉了嵌套重复（`{pattern}`）。",
    advisory_unnested_named="它从 `{path}` 的模式 `{name}` 中去掉了嵌套重复（`{pattern}`）。",
    distribution_renamed="包改以 `{new}` 发布（原为 `{old}`）",
    distribution_renamed_fails="依赖 `{old}` 的项目收不到新版本；须改为 `{new}`。",
    release_notes=(
        "`{path}` 新增 {count} 条说明：{items}",
        "`{path}` 新增 {count} 条说明：{items}",
    ),
    release_item="“{text}”（{heading}）",
    releases="发布 {version} 版",
    releases_from="发布 {version} 版（此前版本号为 {previous}）",
    releases_after="发布 {version} 版（上一个发布版本为 {previous}）",
    opens="开启 {version} 版的开发（`{development}`）",
    opens_lists=(
        "；其更新日志一节列出 {items}",
        "；其更新日志一节列出 {count} 项：{items}",
    ),
    carried=("自 `{tag}` 以来包含 {count} 个提交", "自 `{tag}` 以来包含 {count} 个提交"),
    carried_notable="，其中 {count} 个为破坏性或高重要性：{items}",
    carried_item="`{sha}`“{title}”",
    carried_item_breaking="`{sha}`“{title}”（破坏性）",
    carried_breaking="它包含破坏性提交 `{sha}`“{title}”（自 `{tag}` 以来）",
    release_breaking=(
        "{version} 版的更新日志列出不兼容的变更：{item}",
        "{version} 版的更新日志列出不兼容的变更：{item} 等（另有 {count} 项）",
    ),
    tests_added=("新增测试 {names}", "新增测试 {names}"),
    tests_pin=(
        "新增的测试 {test} 断言 {call} 得到 {value}{more}",
        "测试 {test} 现在还断言 {call} 得到 {value}{more}",
    ),
    tests_pin_more=("（另有 {count} 个新用例）", "（另有 {count} 个新用例）"),
    tests_raise=(
        "新增的测试 {test} 断言 {call} 抛出 {value}{more}",
        "测试 {test} 现在还断言 {call} 抛出 {value}{more}",
    ),
    generated=("改动 {count} 个生成的文件", "改动 {count} 个生成的文件"),
    generated_added=("新增 {count} 个标注为生成的文件", "新增 {count} 个标注为生成的文件"),
    folder_added="在 `{folder}/` 下新增 {count} 个文件",
    kernels_added=("新增内核 {names}", "新增内核 {names}"),
    gains_parameters=("{name} 新增{params}", "{name} 新增{params}"),
    gains_fields=("{name} 新增字段 {fields}", "{name} 新增字段 {fields}"),
    field_default="{field}（默认 `{default}`）",
    field_required="{field}（必填）",
    takes_keywords=(
        "{name} 现在接受关键字参数 {keywords}（经由 `**kwargs`）",
        "{name} 现在接受关键字参数 {keywords}（经由 `**kwargs`）",
    ),
    also_gains="{said}，并新增{params}",
    loses_parameters=("{name} 不再接受{params}", "{name} 不再接受{params}"),
    swaps_parameters=(
        "{name} 不再接受{lost}，并新增{gained}",
        "{name} 不再接受{lost}，并新增{gained}",
    ),
    renames_parameter=("{name} 的参数 {old} 改名为 {new}", "{name} 的参数 {old} 改名为 {new}"),
    gains_before=("{name} 在 {old} 之前新增参数 {param}", "{name} 在 {old} 之前新增参数 {param}"),
    takes_before=("{name} 现在把 {param} 放在 {old} 之前", "{name} 现在把 {param} 放在 {old} 之前"),
    parameters=("参数 {params}", "参数 {params}"),
    unreleased="{names}（{tag} 之后新增，从未发布）",
    unreleased_first="{names}（首次发布之前，从未发布）",
    fixes_unreleased="修复的是 {tag} 之后新增的代码（从未发布）：发布版本的用户不受影响",
    may_raise="{name} 现在可能抛出 {names}",
    may_raise_with="{name} 现在可能抛出 `{exception}`，消息为“{text}”",
    reraises="{name} 现在以自己的消息抛出原先直接传出的 {names}",
    reraises_with="{name} 现在以消息“{text}”抛出原先直接传出的 `{exception}`",
    raises_instead="{name} 现在抛出 `{new}`，不再抛出 `{old}`",
    documented="{name} 的文档字符串：“{text}”",
    redocumented="{name} 的文档字符串新增：“{text}”",
    now_catches="{name} 现在捕获 {names}",
    module_renamed="模块 `{old}` 现为 `{new}`",
    with_names="{said}，连同 {names}",
    modules_moved=("模块 {paths} 现位于 `{folder}`", "模块 {paths} 现位于 `{folder}`"),
    may_return="{name} 现在可能返回 {values}",
    returns_now="{name} 现在返回 {values}",
    returns_either="{first} 或 {second}",
    returns_instead="{name} 现在返回 `{new}` 而不是 `{old}`",
    param_retyped="{name} 的参数 `{param}` 现在接受 `{new}`（原为 `{old}`）",
    made_covariant=("{names} 现在是协变的", "{names} 现在是协变的"),
    return_retyped="{name} 现在返回 `{new}`（原为 `{old}`）",
    typing_only="仅类型注解（运行时行为不变）：{changes}",
    kept_code=(
        "行为不变：除{differences}外，{paths} 与之前是相同的代码",
        "行为不变：除{differences}外，{paths} 与之前是相同的代码",
    ),
    kept_apart=(
        ("layout", "排版、注释、文档字符串"),
        ("annotations", "类型注解、未使用的导入"),
        ("format", "改写为 f-string 的 `str.format` 调用"),
        ("negation", "改写为 `x not in y` 的 `not x in y`"),
        ("imports", "重新分组的导入"),
        ("flow", "退出（`return`、`raise` 等）之后省去的 `else`"),
    ),
    kept_and="和",
    kept_unread="；其余文件未作比较",
    typing_only_aliases="仅类型注解（运行时行为不变，但类型别名 {aliases} 已移除）：{changes}",
    params_retyped=(
        "{names} 的参数 {params} 现在接受 `{new}`（原为 `{old}`）",
        "{names} 的参数 {params} 现在接受 `{new}`（原为 `{old}`）",
    ),
    returns_retyped=(
        "{names} 现在返回 `{new}`（原为 `{old}`）",
        "{names} 现在返回 `{new}`（原为 `{old}`）",
    ),
    signatures_typed="{names} 中的类型注解有变",
    no_longer_catches="{name} 不再捕获 {names}",
    checks_for="{name} 现在检查 {values}",
    also_checks_for="{name} 现在还检查 {values}",
    raises_message="{name} 现在抛出 `{exception}`，消息为“{text}”",
    logs={
        "warning": "{name} 现在记录一条警告：“{text}”",
        "error": "{name} 现在记录一条错误：“{text}”",
        "critical": "{name} 现在记录一条严重错误：“{text}”",
    },
    reworded="{name} 抛出的 `{exception}` 的消息改为“{text}”",
    reworded_was="{name} 抛出的 `{exception}` 的消息改为“{text}”（原为“{was}”）",
    tests_now="{name} 现在判断 `{test}`（原为 `{was}`）",
    returns_early="{name} 现在在 `{test}` 时提前返回",
    returns_early_with="{name} 现在在 `{test}` 时提前返回 `{value}`",
    returns_when_last="{name} 现在在 `{test}` 时返回 `{value}`，原先返回 `{last}`",
    recomputes="{name} 现在将 `{target}` 计算为 `{new}`（原为 `{old}`）",
    sets_from_start="{name} 现在一开始就将 `{target}` 设为 `{value}`（此前由 {setters} 设置）",
    recomputes_returned="{name} 现在将其返回值 `{target}` 计算为 `{new}`（原为 `{old}`）",
    raises_when="{name} 现在在 `{test}` 时抛出 `{exception}`",
    narrowed_raises="{name} 现在在 `{test}` 时抛出 `{exception}`{unless}，原先返回 `{was}`",
    narrowed_unless="（`{test}` 时返回 `{value}`）",
    narrowed_error="（此前 `{call}` 会抛出 `{error}`）",
    narrowed_from="；{callers} 会调用到它",
    skips_when="{name} 现在在 `{test}` 时跳到下一次循环",
    rebinds_when="{name} 现在在 `{test}` 时设置 `{was}`",
    no_longer_tests="{name} 不再判断 `{test}`",
    no_longer_raises_when="{name} 在 `{test}` 时不再抛出 `{exception}`",
    became="{name} 中的 `{old}` 改为 `{new}`",
    used_by="{name}（由 {users} 使用）",
    fallback="后备定义 {name}",
    passes="{name} 现在向 `{callee}` 传入 `{arg}={value}`",
    passes_when="{name} 现在在 `{when}` 时向 `{callee}` 传入 `{arg}={value}`",
    passes_was="{name} 现在向 `{callee}` 传入 `{arg}={value}`（原为 `{was}`）",
    no_longer_passes="{name} 不再向 `{callee}` 传入 `{arg}={was}`",
    now_optional="{name} 的参数 `{param}` 现在可省略（默认值 `{default}`）",
    now_required="{name} 的参数 `{param}` 现在必须传入（原默认值 `{was}`）",
    name_in="`{path}` 中的 `{name}`",
    now_calls=("{callers} 现在调用 {callees}", "{callers} 现在调用 {callees}"),
    now_calls_raising="{caller} 现在调用 {callee}，它在 `{test}` 时抛出 `{exception}`",
    now_calls_raising_more=(
        "{caller} 现在调用 {callee}，它在 `{test}` 时抛出 `{exception}`（另有 1 种情况也会抛出）",
        "{caller} 现在调用 {callee}，它在 `{test}` 时抛出 `{exception}`"
        "（另有 {more} 种情况也会抛出）",
    ),
    sets_raising="{name} 现在把 {targets} 设为 {closure}，它抛出 `{exception}`，消息为“{text}”",
    sets_raising_when=(
        "当 `{test}` 时，{name} 现在把 {targets} 设为 {closure}，"
        "它抛出 `{exception}`，消息为“{text}”"
    ),
    sets_raising_default=(
        "当 `{test}`（默认 `{default}`）时，{name} 现在把 {targets} 设为 {closure}，"
        "它抛出 `{exception}`，消息为“{text}”"
    ),
    now_calls_documented=(
        "{callers} 现在调用 {callee}，其文档字符串：“{text}”",
        "{callers} 现在调用 {callee}，其文档字符串：“{text}”",
    ),
    no_longer_calls=("{callers} 不再调用 {callees}", "{callers} 不再调用 {callees}"),
    both="{first} 和 {second}",
    tests_call=("新增的测试调用了 {names}", "新增的测试调用了 {names}"),
    now_imports=(
        "{paths} 现在从 `{module}` 导入 `{name}`",
        "{paths} 现在从 `{module}` 导入 `{name}`",
    ),
    deprecation="新增弃用警告：“{text}”",
    fixes="修复了 {where} 中的“{words}”",
    fixes_plain="修复了“{words}”",
    fix_in="修复位于 {where}",
    fix_in_tooling="修复位于项目自身的工具：{paths} 中的 {where}",
    same_shipped="；发布的包中的代码不变",
    speedup_in="提速位于 {where}",
    internal_private="仅内部改动：只改私有的 {names}；{paths} 的公开名称、签名和默认值均未变",
    internal_kept="仅内部改动：{paths} 的公开名称、签名和默认值均未变",
    fixed_issues="（修复 {issues}）",
    affecting="；作者称影响“{impact}”",
    reports="作者给出的数据：“{number}”",
    by_default="改变了默认行为：“{phrase}”",
    revert="回退了“{title}”，行为恢复到该变更之前",
    revert_in=("回退了“{title}”：{where} 恢复为该变更之前的代码",) * 2,
    lands_branch="合入分支 `{name}`",
    reland="重新合入了此前被回退的变更：“{title}”",
    experimental="只修改了实验性或 `contrib` 代码（{paths}）",
    footer="提交信息声明了破坏性变更：“{text}”",
    bang="标题将此变更标记为破坏性变更（`{prefix}!`）",
    title_mark="标题将此变更标记为破坏性变更（`{mark}`）",
    records="在变更日志中记录“{text}”",
    label="该 PR 带有标签 `{label}`",
    fragment="作者在 `{path}` 中将其列为破坏性变更：“{text}”",
    fragment_bare="作者在 `{path}` 中将其列为破坏性变更",
    removal_title="标题表明有功能被移除：“{title}”",
    module_removed="移除了模块 `{module}`",
    python_floor=(
        "此后的版本只安装在 `python{spec}` 上（原为 `{old}`）："
        "更旧的解释器停留在最后一个支持它们的版本"
    ),
    python_floor_new=(
        "此后的版本只安装在 `python{spec}` 上（此前未限定 Python 版本）："
        "更旧的解释器停留在最后一个支持它们的版本"
    ),
    imports_fail=(
        "从 `{module}` 导入 {names} 的代码将失败。",
        "从 `{module}` 导入 {names} 的代码将失败。",
    ),
    module_imports_fail="导入 `{module}` 的代码将失败。",
    module_renamed_fails="导入 `{module}` 的代码将失败；它现在是 `{new}`。",
    passing_fails=("按名传入 {params} 的调用将失败。", "按名传入 {params} 的调用将失败。"),
    passing_shifted="按位置传入 {old} 的调用现在会把它传给 {param}。",
    callers_fail="调用 `{old}` 的代码将失败。",
    calls_fail="调用 {names} 的代码将失败。",
    members_fail="使用 {names} 的代码将失败。",
    decorated_lacks="被 {via} 装饰的函数不再有 {names}",
    returned_lacks="{via} 返回的对象不再有 {names}",
    decorated_renamed="被 {via} 装饰的函数的 {old} 更名为 {new}",
    returned_renamed="{via} 返回的对象的 {old} 更名为 {new}",
    decorated_loses="被 {via} 装饰的函数的 {member} 不再接受{params}",
    returned_loses="{via} 返回的对象的 {member} 不再接受{params}",
    reached_fail="在其上使用 {names} 的代码将失败。",
    constant_fails="读取 `{old}` 的代码将失败；设置它的代码不再生效。",
    setting_ignored="设置 `{module}.{name}` 不再有任何效果：已发布的代码都不再读取它",
    call_instead="请改为调用 `{new}`。",
    env_no_effect=("设置 {names} 将不再生效。", "设置 {names} 将不再生效。"),
    extras_empty=(
        "安装 {installs} 将不再带上该组的依赖（安装程序只给出警告）。",
        "安装 {installs} 将不再带上这些组的依赖（安装程序只给出警告）。",
    ),
    extra_empty_named="`pip install {install}` 将不再安装 {names}（安装程序只给出警告）。",
    commands_fail=("运行 {names} 的脚本在升级后将失败。", "运行 {names} 的脚本在升级后将失败。"),
    flags_fail=("传入 {names} 的命令将失败。", "传入 {names} 的命令将失败。"),
    keys_no_effect=("设置了 {names} 的配置将失去作用。", "设置了 {names} 的配置将失去作用。"),
    default_differs="未设置 `{name}` 的运行行为将改变。",
    default_differs_in="调用 {functions} 时未设置 `{name}` 的，行为将改变。",
    default_keep="如需保持原有行为，请将 `{name}` 设为 `{old}`。",
    use_instead="请改用 {names}。",
    forwards=(
        "`{function}` 不再自行接收 {options}：现在将其传给 `{callee}(...)`",
        "`{function}` 不再自行接收 {options}：现在将其传给 `{callee}(...)`",
    ),
    tests_rewrite="其测试现在写作 `{new}`，原先写作 `{old}`（`{path}`）。",
    tests_rewrite_more=(
        "其测试现在写作 `{new}`，原先写作 `{old}`（`{path}`），另有 {more} 处同样改写。"
    ),
    migrate="升级前请检查代码、配置和启动命令是否用到了 {names}。",
    deprecation_replaced="请在旧接口移除之前迁移到 `{replacement}`。",
    security="请评估“{words}”的修复是否需要发布版本或安全公告。",
    exposure="修复了凭据泄露到其他源或主机的问题：“{words}”",
    author_says="提交说明写道：“{text}”",
    section_says="`{path}` 新增章节“{title}”：“{text}”",
    adds_alias="在 `{path}` 中新增 {name}，即 {of} 的别名",
    no_test="此修复（{where}）未修改任何测试：请要求补充回归测试。",
)


def analysis_phrases(language: str) -> AnalysisPhrases:
    return ZH if language == "zh-CN" else EN


def forms(pair: tuple[str, str], count: int) -> str:
    """The one or many form of a phrase."""
    return pair[0] if count == 1 else pair[1]


# The author's words quoted in a sentence of the App's: a title or a warning may be of any
# length, and the sentence must stay within its field's bound (a risk holds 300 characters).
QUOTE_LIMIT = 160


def excerpt(text: str, limit: int = QUOTE_LIMIT) -> str:
    """The author's text to quote: whole within `limit`, otherwise cut at a word and marked."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut[limit // 2 :]:
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:.") + "…"


def sentence(p: AnalysisPhrases, clause: str) -> str:
    """A statement of fact as a sentence: its first letter capitalised, its end added."""
    text = clause[:1].upper() + clause[1:] if clause[:1].islower() else clause
    if text.endswith(p.sentence_end) or (text[-1:] in '”"' and text[-2:-1] in ".!?。！？"):
        return text
    return text + p.sentence_end
