"""The importance rubric: one definition of high, medium and low for the rules and the LLM.

The rules analyser (`rules.py`) implements it from evidence (`signals.py`); the LLM prompt
(`prompt.py`) carries this text word for word, so both analysers mean the same by "high".
"""

from __future__ import annotations

IMPORTANCE_RUBRIC = """\
Judge importance by what the change does and whom it affects, from the pull request
description, the files and the diff. Size alone decides nothing: a five-line fix of silent
data corruption is high; a 5,000-line refactor with no change in behaviour is medium or low.
- "high": readers must act or will notice.
  - Breaking changes: removed or renamed public APIs, removed configuration keys,
    environment variables or command-line flags, changed defaults, changed output.
  - Fixes of silent wrong results, data corruption, NaNs, crashes, deadlocks, hangs or
    memory-safety bugs in commonly used paths; security fixes.
  - Major new capabilities users will adopt: a new backend, a new kernel family, support
    for a new hardware generation or data type in a core operation.
  - Large performance changes in hot paths, backed by numbers.
- "medium": meaningful, but of limited reach: features or fixes for one variant, one
  platform or an edge case; notable refactors of core modules; build or packaging fixes
  for a supported toolchain; minor API additions; reverts.
- "low": docs, tests only, CI, benchmarks only, examples, formatting, small internal
  clean-ups, version bumps, tiny tweaks.
Where the change lands matters: only experimental or contrib code is at most medium; only
docs, tests, CI or benchmarks is low, whatever the title says.
"breaking" is true only when a user must change something (code, configuration, a command
line) to keep working, and the commit shows it: a removed or renamed public name, option,
variable or flag, a changed default, a `!` after the conventional-commit type, a
"BREAKING CHANGE:" footer. Never infer it from the change type alone."""

SPECIFIC_TEXT = """\
Every insight, risk and recommendation names the fact from the commit that supports it
(an identifier, a path, a flag, a number, the symptom), for example "Removes
`ExecutionConfig.do_finalize`; callers that pass it will fail". Where you know nothing
specific, leave the field empty rather than write a general remark. The summary says what
changed and why, in your own words, not the pull request template."""
