"""The one shape of a language's catalogue: a frozen dataclass per post, a field per string.

Placeholders are named in a field's comment; `(one, many)` pairs where English needs a plural.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.models import Audience, ChangeType, Importance


@dataclass(frozen=True)
class Strings:
    default_title: str
    summary: str  # {commits} {high} {medium} {low} {contributors}
    commit_count: tuple[str, str]  # one, many ({count}): `summary`'s {commits}
    contributors: tuple[str, str]  # one, many ({count})
    not_analysed_count: str  # {count}
    table_time: str  # {zone}
    table_author: str
    table_commit: str
    table_importance: str
    not_analysed: str
    table_more: str  # {count}
    contents: str
    continued: str  # {sections}
    part: str  # {part} {total} {title}
    section: dict[Importance, str]  # {count}
    view_commit: str
    type_label: str
    importance_label: str
    rated: str  # the importance is a maintainer's correction
    breaking: str
    summary_label: str
    # the summary is the author's own text, not in the digest's language
    summary_original_label: str
    original_prefix: str
    impact_label: str
    files: tuple[str, str]  # one, many ({count})
    insights_label: str
    insight_names: dict[str, str]
    risks_label: str
    risk_columns: tuple[str, str, str]
    recommendations_label: str
    audiences: dict[Audience, str]
    importance_names: dict[Importance, str]
    change_types: dict[ChangeType, str]
    about: str
    analysed_by: str  # {parts}
    fallbacks: str  # {count} {reasons}
    not_analysed_list: str  # {count}
    not_analysed_more: str  # {count}
    excluded: str  # {count} {reasons}
    excluded_reasons: dict[str, str]
    config_error: str  # {error}
    config_ignored: str  # {keys}
    late: str  # {cutoff}
    forced: str  # {count}
    truncated: str  # {count}
    times_in: str  # {zone} {cutoff}
    folded_low: str
    folded_medium: str
    folded_table: str  # {count}
    fallback_target: str  # {reason}
    addendum_title: str  # {count} {day}
    empty_day: str  # {day}
    no_title: str  # a commit whose message is empty
    generated_by: str
    separator: str
    colon: str


@dataclass(frozen=True)
class HeadlinePhrases:
    breaking: str
    reverted: str
    relanded: str
    reverted_by: str  # {revert}: who took it out
    earlier: str  # after a sha that landed before the day
    after_revert: str  # {revert}
    fixed_by: str  # {fixes}
    # Marks beside a commit in the table and in its section.
    mark_reverted_by: str  # {sha}
    mark_reverts: str  # {sha}
    mark_reverts_earlier: str  # {sha}
    mark_relands: str  # {sha}
    mark_relanded_by: str  # {sha}
    mark_follows_up: str  # {sha}
    mark_fixed_by: str  # {sha}
    mark_alert: str  # {link}
    mark_new_today: str  # {name}, {sha}
    mark_undone: str  # {sha}: the later commit of the day that took its lines out
    mark_no_net: str  # {areas}
    alert_label: str
    related_label: str
    # after a breaking or high line's types: its top fact
    fact: str  # {fact}


@dataclass(frozen=True)
class AlertPhrases:
    title_breaking: str  # {repo} {title}
    title_high: str  # {repo} {title}
    lead_breaking: str
    lead_high: str
    landed: str  # {time}
    pull_request: str  # {link}
    what_changed: str
    breaking_note: str
    whom: str
    areas: str  # {areas}
    audiences: str  # {audiences}
    what_to_do: str
    default_action: str
    footer: str  # {day}
    fold_footer: str  # {day}
    fold_title: str  # {repo} {day}
    fold_intro: str  # {count} {max} {day}
    fold_more: str  # {count}
    fold_empty: str


@dataclass(frozen=True)
class WeeklyPhrases:
    title: str  # {repo} {first} {last}
    summary: str  # {commits} {high} {breaking} {contributors}
    narrative: str
    narrative_by: str  # {analyzer}
    counts: str
    counts_columns: tuple[str, str, str, str]
    commits_row: str
    breaking_row: str
    not_analysed_row: str
    no_previous: str
    notable: str  # {count}
    notable_none: str
    notable_more: str  # {count}
    themes: str
    themes_columns: tuple[str, str]  # area, total
    other_areas: str
    heat_legend: str
    contributors: str  # {count}
    contributors_more: str  # {count}
    days: str
    day_commits: tuple[str, str]  # one, many ({count})
    day_quiet: str
    day_not_posted: str
    day_ahead: str
    weekdays: tuple[str, ...]
    late: str  # {when}
    window: str  # {start} {end} {zone}
    empty_week: str  # {first} {last}
    generated_by: str
    # The Mermaid chart of the week (stored counts only): its title, axes and legend line.
    chart_title: str
    chart_y: str
    chart_legend: str


@dataclass(frozen=True)
class UsagePhrases:
    routes: dict[str, str]  # {n}; `sure` also {kinds}: how many commits each route analysed
    choice: str  # {parts}
    choice_dropped: str  # {parts} {n}
    budget_note: str  # {n}
    cap_note: str  # {n}
    tokens: str  # {input} {cached} {output}
    cost: str  # {cost}
    sep: str
    end: str


@dataclass(frozen=True)
class SourcesPhrases:
    """The offline digest's footer line: where each setting came from."""

    line: str  # {groups}
    names: dict[str, str]
    origins: dict[str, str]  # {names} {file} {ref}
    joined: str
    between: str
    rejected: str  # {file} {ref} {error}
    ignored: str  # {file} {keys}
    missing: str  # {file} {ref}
    so_far: str  # {time}


@dataclass(frozen=True)
class PagePhrases:
    """The status page behind GitHub sign-in."""

    title: str
    sign_in_intro: str
    sign_in: str
    sign_in_off: str
    refused: str
    session_ended: str
    unreachable: str
    signed_in_as: str  # {login}
    sign_out: str
    nothing: str
    suspended: str
    llm_usage: str  # {used} {budget}
    llm_usage_unlimited: str  # {used}
    next_digest: str
    next_weekly: str
    weekly_off: str
    waiting: str
    waiting_none: str
    waiting_some: str  # {count} {age}
    age_days: str  # {days} {hours}
    age_hours: str  # {hours} {minutes}
    age_minutes: str  # {minutes}
    posts: str
    posts_none: str
    post_kinds: dict[str, str]  # {date}
    trouble: str
    trouble_none: str
    job_kinds: dict[str, str]
    job_failed: str  # {kind} {attempts} {reason}
    job_retry: str  # {kind} {attempts} {reason} {when}
    digest_failed: str  # {date} {reason}
    config: str
    config_columns: tuple[str, str, str]
    config_origins: dict[str, str]
    config_error: str  # {error}
    config_rest: str
    attention: str  # {count} {total}
    well: str
    well_columns: tuple[str, str, str, str]
    all_repositories: str
    not_reached: str


@dataclass(frozen=True)
class CommandPhrases:
    """The replies to `/digest` commands."""

    help_head: str
    help_lines: tuple[tuple[str, str], ...]  # (usage, what it does)
    help_who: str
    problems: dict[str, str]  # {quoted}
    denied: str
    limited: str  # {when} {repo} {person}
    rated: str  # {sha} {old} {new}
    rated_same: str  # {sha} {new}
    rated_posted: str  # {day}
    rated_not_posted: str  # {day}
    rated_late: str  # {day}
    rated_not_analysed: str
    rated_excluded: str
    rated_later: str  # {who} {new}
    not_analysed: str
    config_head: str
    config_sha: str  # {sha}
    config_no_file: str
    config_unrecorded: str
    config_error: str  # {error}
    config_error_no_file: str  # {error}
    config_rejected_sha: str  # {sha}
    source_file: str
    source_default: str
    config_base: str  # {base}
    config_extends: str  # {base}
    config_ignored: str  # {keys}
    config_items_left: str  # {n}
    config_fields_left: str  # {n}
    unknown_sha: str  # {what}
    unknown_on_github: str  # {what}
    unknown_pr: str  # {what}
    pr_not_merged: str  # {what}
    not_on_branch: str  # {what} {branches}
    not_on_checked: str  # {what} {branches}
    not_on_none: str  # {what}
    unchecked_patterns: str  # {patterns}
    unchecked_more: str  # {count}
    unchecked_and: str
    unchecked: str  # {parts}, after the sentence before (a space first in English)
    ambiguous: str  # {what} {count}
    ambiguous_pr: str  # {what} {count}
    ambiguous_more: str  # {count}
    excluded: str  # {what}
    waiting: str  # {what} {day}
    failed: str  # {what} {day}
    not_stored: str
    in_digest_posted: str  # {day}
    not_in_digest: str  # {day}
    late_for_digest: str  # {day} {link}
    in_alert: str
    preview_head: str  # {day}
    preview_more: str  # {parts}
    preview_empty: str  # {day}
    preview_cut: str
    preview_posted: str  # {day} {link}
    preview_future: str  # {day} {today} {zone}
    preview_before: str  # {day} {since}
    view: str
    digest_word: str  # a link to a digest
    alert_word: str  # a link to an alert


@dataclass(frozen=True)
class Catalogue:
    """Every fixed string of the posts in one language."""

    digest: Strings
    headline: HeadlinePhrases
    alert: AlertPhrases
    weekly: WeeklyPhrases
    usage: UsagePhrases
    sources: SourcesPhrases
    page: PagePhrases
    command: CommandPhrases


def plural(forms: tuple[str, str], count: int) -> str:
    return forms[0] if count == 1 else forms[1].format(count=count)
