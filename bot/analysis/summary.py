"""The summary a description gives: the sentence that says what the change does. Pure.

Read from the description's paragraphs (list items on lines of their own, see
`messages.paragraphs`), first ones first. Greetings, lines that only point elsewhere, side
notes, questions and the author's story ("I found my way here while debugging …") are
skipped; a sentence that says what the change does ("This PR adds …", "Fixes …", "Adds …")
is preferred to one that sets the scene ("Currently, …"). A lead-in that ends with a colon
brings its first items; a list item brings the items after it, cut at an item boundary. A
summary that repeats the title is no summary. Nothing is ever cut mid-sentence.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from bot.analysis.messages import dangles, leans

# Verbs that say what a change does, as an author writes them (any form).
_ACTION = (
    r"(?:add|adds|added|adding|fix|fixes|fixed|fixing|remove|removes|removed|removing"
    r"|make|makes|made|introduce[sd]?|introducing|support[ss]?|supported|implement(?:s|ed)?"
    r"|update[sd]?|updating|replace[sd]?|replacing|move[sd]?|moving|use[sd]?|using"
    r"|enable[sd]?|disable[sd]?|refactor(?:s|ed)?|rename[sd]?|skip(?:s|ped)?|avoid(?:s|ed)?"
    r"|allow(?:s|ed)?|improve[sd]?|optimi[sz]e[sd]?|reduce[sd]?|speed(?:s)? up|sped up"
    r"|bump(?:s|ed)?|upgrade[sd]?|drop(?:s|ped)?|deprecate[sd]?|extend(?:s|ed)?|align(?:s|ed)?"
    r"|wrap(?:s|ped)?|switch(?:es|ed)?|set(?:s)?|change[sd]?|return(?:s|ed)?|raise[sd]?"
    r"|handle[sd]?|prevent(?:s|ed)?|ensure[sd]?|clean(?:s|ed)? up|simplif(?:y|ies|ied)"
    r"|split(?:s)?|unif(?:y|ies|ied)|expose[sd]?|widen(?:s|ed)?|migrate[sd]?|port(?:s|ed)?"
    r"|create[sd]?|accelerate[sd]?|collapse[sd]?|restrict(?:s|ed)?|guard(?:s|ed)?"
    r"|record(?:s|ed)?|preserve[sd]?|cache[sd]?|convert(?:s|ed)?|extract(?:s|ed)?"
    r"|delete[sd]?|eliminate[sd]?|lazily|lazy-load(?:s|ed)?|load(?:s|ed)?|pass(?:es|ed)?"
    r"|register(?:s|ed)?|initiali[sz]e[sd]?|reuse[sd]?|merge[sd]?|consolidate[sd]?"
    r"|standardi[sz]e[sd]?|provide[sd]?|apply|applies|applied|adapt(?:s|ed)?|modif(?:y|ies|ied)"
    r"|correct(?:s|ed)?|resolve[sd]?|address(?:es|ed)?|restore[sd]?|revert(?:s|ed)?"
    r"|reland(?:s|ed)?|run(?:s)?|call(?:s|ed)?|compute[sd]?|check(?:s|ed)?|rewrite|rewrites"
    r"|rewrote|decouple[sd]?|defer(?:s|red)?|stop(?:s|ped)?|start(?:s|ed)?|keep(?:s)?)"
)
# "This PR adds …", "The change makes …", "In this PR we …", "We now …", "Adds …", "This
# updates …": a sentence that says what the change does.
_DOES = re.compile(
    r"(?:^|,\s+(?=this\b|we\b|it\b))"
    r"(?:(?:this|the)\s+(?:pr|pull request|change|commit|patch|diff|fix|update)\s+"
    r"(?:\w+\s+){0,3}?|in\s+this\s+(?:pr|change),?\s+(?:we\s+)?|(?:this|it)\s+"
    r"|we\s+(?:now\s+|also\s+)*|now\s+)?(?:do\s+not\s+|don't\s+|no\s+longer\s+|never\s+)?"
    + _ACTION
    + r"\b"
    # "the autowrapper now only visits …", "X is now Y": the state the change leaves
    r"|(?<!^)\bnow\s+(?:only\s+|also\s+|always\s+)?(?:\w+s|is|are|has|uses|can)\b",
    re.IGNORECASE,
)
# A sentence that points at the change without saying what it is ("This PR fixes the issue.")
_VACUOUS = re.compile(
    r"^(?:this|the)\s+(?:pr|pull request|change|commit|patch)\s+(?:\w+\s+)?(?:fix(?:es)?|solves?"
    r"|resolves?|addresses|handles)\s+(?:the|this|that|it|these|those)?\s*(?:issue|bug|problem"
    r"|error|errors|issues|bugs)?\W*$",
    re.IGNORECASE,
)
# A sentence that sets the scene: the state before the change, the problem, its cause.
_SCENE_OPENER = re.compile(
    r"^(?:currently|previously|before|at the moment|right now|on main|since|as of|due to"
    r"|because|in the (?:current|existing)|there (?:is|was|are|were)|if you|this is because"
    r"|as a result|the (?:root )?cause|the problem|the issue)\b",
    re.IGNORECASE,
)
_SCENE = re.compile(
    r"\b(?:fails?|failing|failed|broken|does not|doesn't|cannot|can't|crash\w*|errors?"
    r"|is not|isn't|was not|wasn't|were not|never)\b",
    re.IGNORECASE,
)
# A need or a gap the change answers, said of the time before it: "… currently have no API",
# "its `site_*` counterpart was missing", "there's no way to …": why, not what.
_NEED = re.compile(
    r"\b(?:currently|was missing|were missing|lacked|lacking|there(?:'s| is| was) no way"
    r"|no way to|had no|needs? (?:a|an|to))\b",
    re.IGNORECASE,
)
# "The new `use_site_for_root` parameter (defaulting to `False`) redirects …": the author
# naming what the change brings
_NEW_NAME = re.compile(r"^the new\s+`[^`]+`", re.IGNORECASE)
# A pictograph an author writes before a sentence (gitmoji in prose: "✨ The new …")
_PICTOGRAPH = "\u2600-\u27bf\u2b00-\u2bff\U0001f300-\U0001faff\ufe0f"
_LEADING_PICTOGRAPHS = re.compile(f"^[{_PICTOGRAPH}\\s]+")
# A sentence that leans on the one before it ("Instead, …", "This eliminates …").
# A sentence past its paragraph's first that says what the sentence before it caused, or
# names what it showed: "This creates API inconsistency …" after the gap it names is the
# gap's consequence, not the change's; "This made it impossible …" is history; "This adds
# the identical overrides" names those the sentence before shows. ("This updates X to …"
# there is still the change.)
_CAUSED = re.compile(
    r"^(?:this|that|these|those)\s+(?:\w+\s+)?(?:(?:also|then|in turn)\s+)?(?:\w+ed|made|broke"
    r"|led|meant|creates|causes|breaks|leads|results|forces)\b",
    re.IGNORECASE,
)
_BACK = re.compile(
    r"^(?:this|that|these|those)\s+(?:(?:also|then|in turn)\s+)?(?:\w+ed|made|broke|led"
    r"|meant|creates|causes|breaks|leads|results)\b"
    r"|\bthe\s+(?:identical|aforementioned|above|former|latter)\b",
    re.IGNORECASE,
)
_CONTINUES = re.compile(
    r"^(?:instead|however|therefore|thus|hence|also|so|then|otherwise|additionally"
    r"|furthermore|moreover|in addition|as such|as a result|because of this|that way)\b"
    # "This means …", "It was …"; not "This adds …", which speaks of the change itself
    r"|^(?:this|it|these|they)\s+(?!pr\b|pull request\b|change\b|commit\b|patch\b|"
    + _ACTION
    + r"\b)\w+",
    re.IGNORECASE,
)
# The work on the branch rather than the change: "Fix linters issue", "docs: Add news fragment."
_PROCESS = re.compile(
    r"\b(?:news\s*fragments?|newsfragments?|fragments?|change\s*log|changelog|linters?|lint"
    r"|pre-commit|reformat\w*|formatting|review\s+comments?|code\s+review)\b",
    re.IGNORECASE,
)
# "The fallbacks are tried before the current key now.": the state the change leaves, said
# in the passive
_NOW_STATE = re.compile(
    r"\b(?:is|are)\s+(?:now\s+\w+(?:ed|en)\b|\w+(?:ed|en)\b[^.]*\bnow\W*$)", re.IGNORECASE
)
_PROBLEM_LABEL = re.compile(r"^(?:problem|issue|cause|bug|symptom|motivation)\s*[:：]", re.I)
# A label the author put before the sentence ("Fix: …", "RFC: <link> Reason: …").
_LABEL = re.compile(
    r"^(?:(?:rfc|issue|related|ref|refs|see)\s*[:：]\s*\S+\s*)?"
    r"(?:fix|reason|summary|motivation|purpose|description|changes?|solution|root cause"
    r"|background|what|why|feature|bug ?fix)\s*[:：]\s*",
    re.IGNORECASE,
)
_GREETING = re.compile(
    r"^(?:hi|hello|hey|dear|thanks|thank you|thx|cheers|lgtm|ping|cc|kindly)\b", re.IGNORECASE
)
# A sentence that only credits: "Reported by @x", "Bug found by Jane Doe in #12", "Patch by
# @a, reported by @b", "Thanks to @c for the report", "Co-authored-by: …" (who, never what).
# A name is a handle or capitalised words (case kept: "Fixed by using a lock" says how).
_NAMED = r"(?-i:@[\w/-]+|[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*)*)"
_CREDITED = (
    r"(?:(?:originally|first|initially|kindly)\s+)?"
    r"(?:(?:bug|issue|problem|regression|patch|fix|idea|report|work|change|pr)\s+"
    r"(?:(?:reported|found|spotted|noticed|suggested|requested|proposed|discovered"
    r"|identified|raised|flagged|contributed|written|authored|fixed|implemented)\s+)?by"
    r"|(?:reported|found|spotted|noticed|suggested|requested|proposed|discovered|identified"
    r"|raised|flagged|investigated|debugged|diagnosed|contributed|written|authored|fixed"
    r"|patched|implemented|tested|reviewed|sponsored)(?:\s+(?:and|&)\s+\w+)?\s+by)"
    rf"\s+{_NAMED}(?:\s*(?:,|and|&)\s*{_NAMED})*"
    r"(?:\s+(?:in|on|at|via|from|see)\s+[^.;!]*)?"
)
_CREDIT = re.compile(
    rf"^(?:{_CREDITED}(?:\s*[,;]\s*(?:and\s+)?{_CREDITED})*"
    r"|(?:(?:many|special|big|huge)\s+)?(?:thanks|thank\s+you|kudos|credits?|props|hat\s*tip)\b"
    r"[^.!]*"
    r"|co-?authored-by\s*:.*)"
    r"(?:\s*[,;]?\s*(?:thanks|thank\s+you|cheers)\b)?\W*$",
    re.IGNORECASE,
)
# A sentence of references and handles alone ("#3360 #3434.", "(@a, #12)")
_POINTERS = re.compile(
    r"^[\s(\[]*(?:(?:[\w.-]+/[\w.-]+)?#\d+|@[\w/-]+)"
    r"(?:[\s,;&]+(?:and\s+)?(?:(?:[\w.-]+/[\w.-]+)?#\d+|@[\w/-]+))*[\s)\].]*$"
)
# ... and such a run after a sentence's end: "… for `TextWrapper`. #3360 #3434" (click's
# `:issue:` and `:pr:` roles after the item's words)
_POINTERS_AFTER = re.compile(r"(?<=[.!?])(?:\s+(?:(?:[\w.-]+/[\w.-]+)?#\d+|@[\w/-]+)[,;]?)+\s*$")
# The author's story: what they did or saw, not what the change does.
_STORY = re.compile(
    r"^(?:so,?\s+)?(?:i|we)\s+(?:first\s+|recently\s+|just\s+)?(?:found|noticed|was|were|ran"
    r"|have|had|tried|saw|hit|encountered|discovered|reali[sz]ed|came|spent|started|got"
    r"|wanted|needed|observed|think|believe|hope|guess)\b"
    r"|^(?:while|when|after|as)\s+(?:i|we|\w+ing)\b|^(?:recently|yesterday|last\s+\w+)\b"
    r"|\bi\s+(?:noticed|found|saw|reali[sz]ed|discovered|ran into)\b"
    r"|\b(?:my|our)\s+(?:experiment|setup|machine|local)",
    re.IGNORECASE,
)
# A side note, a pointer or a place holder: not the description of the change.
_ASIDE = re.compile(
    r"^(?:note|nb|n\.b\.|ps|p\.s\.|todo|fixme|wip|tbd|edit|update|rfc|related|refs?|see also"
    r"|cc"
    # what stacking and review tools write (ghstack, Phabricator): where, never what
    r"|stack-info|ghstack-source-id|pull request resolved|differential revision)\s*[:：-]"
    r"|^(?:see|follow[- ]?up(?: to)?|part of|depends on|builds? on|supersedes|blocked by"
    r"|co-authored|this reverts commit|please (?:provide|describe|fill|add|explain)"
    r"|this (?:pr|change|pull request) (?:is|was) (?:a |an )?(?:follow[- ]?up|auto-?generated"
    r"|cherry-?pick|backport))\b"
    # (or only the issues it refers to: "Refs #379, #383.")
    r"|^(?:fix(?:es)?|close[sd]?|resolve[sd]?|refs?|related(?:\s+to)?)\s*:?\s*"
    r"(?:[\w.-]+/[\w.-]+)?#\d+(?:\s*(?:,|and|&)\s*(?:[\w.-]+/[\w.-]+)?#\d+)*\W*$"
    # the changelog's own upkeep ("add changelog entry", "docs: Add news fragment."): a step
    r"|^(?:\w+:\s*)?(?:add|adds|added|update[sd]?|reword(?:s|ed)?|fix(?:es|ed)?|split|move[sd]?)"
    r"\s+(?:(?:the|a|an|up)\s+)*(?:changelog|change\s*log|news\s*fragment|newsfragment|change"
    r"\s*fragment)s?(?:\s+(?:entry|entries|file|into\s+separate\s+ones))?\W*$"
    # … and of its release headings ("docs: Changed release date of v0.25.0 to UNRELEASED.")
    r"|^(?:\w+:\s*)?(?:change[sd]?|update[sd]?|set|fix(?:es|ed)?|correct(?:s|ed)?|adjust(?:s|ed)?)"
    r"\s+(?:the\s+)?release\s+date\b|^.*\bto\s+unreleased\W*$"
    # the review's own steps, in a squashed branch's list: never what the change does
    r"|^(?:respond\w*|address\w*|apply\w*|incorporat\w+)\s+(?:to\s+)?(?:the\s+|all\s+)?"
    r"(?:suggestions?\s+from\s+)?(?:pr|code\s+review|review(?:er)?s?'?)\s*(?:comments?|feedback"
    r"|suggestions?)?\b",
    re.IGNORECASE,
)
# "follow up to #2666: fixing the layouts …": the pointer goes, what follows it is the change.
_LEAD_POINTER = re.compile(
    r"^(?:follow[- ]?up(?:\s+(?:to|of|on|for))?|part\s+of|builds?\s+on)\s+"
    r"(?:[\w.-]+/[\w.-]+)?#\d+\s*[:：,-]\s*(?=\w)",
    re.IGNORECASE,
)
_URL = re.compile(r"https?://\S+|\b[0-9a-f]{12,40}\b")
_ABBREVIATION = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|fig|no)\.)$", re.IGNORECASE)
_SENTENCE_END = re.compile(f"(?<=[.!?])\\s+(?=[A-Z`\"'(\\[{_PICTOGRAPH}])|(?<=[。！？])")
_WORD = re.compile(r"\w+")
# "… for VL models (e.g. Step3p7): #10500": the issue it points at is not part of the sentence.
_TRAILING_REFERENCE = re.compile(r"\s*:\s*(?:[\w.-]+/[\w.-]+)?#\d+\s*$")
# A sentence that only introduces what follows it (a code block, a list): "Examples of …",
# "The following …", "For example:", "… as follows." Alone it says nothing of the change.
_INTRODUCES = re.compile(
    r"^(?:examples?\b|for (?:example|instance)\b|e\.g\.|the following\b|following (?:is|are)\b"
    r"|here(?:'s| is| are)\b|see (?:below|the following)\b|below (?:is|are)\b)"
    r"|\b(?:as follows|below|the following)\W*$",
    re.IGNORECASE,
)
# a sentence whose last words point at a link or an issue ("… as <URL>", "… in #785")
_POINTER_END = re.compile(
    r"\b(?:as|in|to|of|at|from|by|like|per|see)\s+(?:https?://\S+|(?:[\w.-]+/[\w.-]+)?#\d+)\W*$",
    re.IGNORECASE,
)
_ENDED = re.compile(r"[.!?)`”\"]$")
# a sentence's own end (an item that ends in a code span has none)
_STOPPED = re.compile(r"[.!?。][)”\"']?$")
# Plain words a sentence may start with in lower case (an identifier keeps its case).
_PLAIN_START = re.compile(
    r"^(?:when|the|this|if|since|as|currently|previously|because|for|in|on|with|to|a|an"
    r"|there|it|we|our|all|some|now|after|before|support|add|adds|fix|fixes|remove|removes"
    r"|make|makes|update|updates|use|uses|move|moves|replace|replaces|skip|skips|refactor"
    r"|refactors|enable|enables|disable|disables|improve|improves|avoid|avoids|allow|allows"
    r"|adding|fixing|removing|making|updating|moving|replacing|using|guard|guards)\b"
)


# A figure said of speed or size: "~40x at 800 keys" beside "faster", "30% less memory".
_FIGURE = re.compile(r"(?<![\w.])~?\d+(?:\.\d+)?\s*(?:x|×|%|ms|times)(?![\w])", re.IGNORECASE)
# What a sentence says changes for a user, in the author's words: "reject a row instead of
# eating it", "a tab no longer makes …", "the render is now O(n)", "No behaviour change",
# "~40x at 800 keys", "30% less memory".
_EFFECT = re.compile(
    r"\binstead of\b|\bno longer\b|\bnow\b|\bno (?:behaviou?r(?:al)?|functional|user-visible)"
    r"\s+changes?\b|\bbyte[- ]identical\b|" + _FIGURE.pattern,
    re.IGNORECASE,
)
_MEASURE = re.compile(
    r"\b(?:faster|slower|speed\w*|quicker|latency|throughput|memory|overhead|allocations?"
    r"|less|fewer|smaller|reduc\w+|improv\w+|render\w*|time)\b",
    re.IGNORECASE,
)
_UNCHANGED = re.compile(
    r"^(?:there\s+is\s+)?no\s+(?:behaviou?r(?:al)?|functional|user-visible|output)\s+changes?\b"
    r"|\bbyte[- ]identical\b",
    re.IGNORECASE,
)
_FIGURE_START = re.compile(r"(?<=[.!?])\s+(?=~?\d)")

# A list item of a description that says what users get: a fix, an output, an error, a value
# now taken or refused ("Emit and drop items at item_depth … to restore low memory usage",
# "Support tuple of element names …"), not how the code is arranged
_USER_VERB = re.compile(
    r"^(?:fix(?:es|ed)?|emit(?:s|ted)?|raise[sd]?|support[s]?|restore[sd]?|allow(?:s|ed)?"
    r"|reject(?:s|ed)?|accept(?:s|ed)?|prevent(?:s|ed)?|handle[sd]?|ensure[sd]?|preserve[sd]?"
    r"|attach(?:es|ed)?|return[s]?|skip(?:s|ped)?|stop(?:s|ped)?|avoid(?:s|ed)?|honou?r[s]?"
    r"|respect[s]?|no longer|now)\b",
    re.IGNORECASE,
)
# "Always attach …", "Also reject …": the verb after its adverb
_ADVERB = re.compile(r"^(?:always|also|now|correctly|properly|consistently)\s+", re.IGNORECASE)
# A list item that says how the code is arranged ("Use `_XMLGenerator.comment` for output"):
# beside an item of what users get, it is the mechanism
_HOW_ITEM = re.compile(
    r"^(?:use[sd]?|using|refactor(?:s|ed)?|extract(?:s|ed)?|rename[sd]?|move[sd]?"
    r"|simplif(?:y|ies|ied)|clean(?:s|ed)?\s+up|unif(?:y|ies|ied)|reorgani[sz]e[sd]?"
    r"|inline[sd]?|split(?:s)?|wire[sd]?|delegate[sd]?|route[sd]?)\b",
    re.IGNORECASE,
)
# A list item that only tells the work around the change: the tests it adds ("Add tests",
# "Add comprehensive test coverage for …", "Add tracemalloc-based memory regression test"),
# the docs it updates ("Update documentation …", "Docs: …"), that the suite passes, a credit
# ("Credit: @x"), or a private helper it adds ("Add _should_force_cdata method"): none says
# what a user gets, and a claim of tests is one the commit may not bear out
_WORK_ITEM = re.compile(
    r"^(?:add|adds|added|adding|extend[s]?|extended|update[sd]?|improve[sd]?|expand(?:s|ed)?"
    r"|write|wrote|include[sd]?|cover[s]?|covered)\b[^.;]*\b(?:tests?|testing|test\s+coverage"
    r"|coverage|unit\s*tests?|regression\s+tests?|test\s+cases?|docs?|documentation"
    r"|docstrings?|readme)\b"
    r"|^(?:tests?|docs?|documentation|readme|changelog)\s*[:：]"
    r"|^(?:all\s+)?(?:the\s+)?(?:tests?|checks?)\s+(?:pass|passes|passed|are\s+green)\b"
    r"|^(?:credits?|thanks|co-authored-by|reported\s+by|props)\b"
    r"|^(?:add|adds|added|introduce[sd]?)\s+(?:an?\s+|the\s+)?(?:new\s+|private\s+)?"
    r"`?_\w+`?(?:\(\))?\s+(?:helper|method|function|utility)\b",
    re.IGNORECASE,
)
# The issues an item closes and whom it credits ("Fixes #365, #369. Credit: @bigpick (see
# PR #370)."): pointers and thanks, never what changes
_POINTERS_ONLY = re.compile(
    r"^(?:(?:fix(?:es)?|close[sd]?|resolve[sd]?|refs?)\s*:?\s*(?:[\w.-]+/[\w.-]+)?#\d+"
    r"(?:\s*(?:,|and|&)\s*(?:[\w.-]+/[\w.-]+)?#\d+)*\W*)?"
    r"(?:(?:credits?|thanks(?:\s+to)?)\s*:?\s*@[\w-]+.*)?$",
    re.IGNORECASE,
)
# how far a quoted sentence of the author's may run
_SAID_MAX = 160


def effect_sentences(paragraphs: list[str] | tuple[str, ...]) -> list[tuple[str, str]]:
    """The description's sentences that say what changes for a user, with their theme: a
    figure of speed or size with its scope ("~4x faster rendering a 50-key inline table, ~40x
    at 800 keys."), performance; that nothing a user sees changes ("No behaviour change: the
    precomputed predicates are exactly equivalent …"), compatibility. The first of each,
    whole sentences within a quotation's length, never a question, a story or an aside."""
    out: dict[str, str] = {}
    # (a sentence may open with a figure: "… passes. ~4x faster rendering …")
    units = [
        _Unit(text, u.paragraph, u.item, u.line)
        for u in _units(paragraphs)
        for text in _FIGURE_START.split(u.text)
    ]
    for unit in units:
        text = unit.text
        if len(text) > _SAID_MAX or text.endswith("?") or not _usable(unit):
            continue
        if _FIGURE.search(text) and _MEASURE.search(text):
            out.setdefault("performance", text)
        elif _UNCHANGED.search(text):
            out.setdefault("compatibility", text)
    return list(out.items())


def says_effect(text: str) -> bool:
    """Whether `text` says what changes for a user (or that nothing does), not only how."""
    return bool(_EFFECT.search(text))


_ACTS = re.compile(rf"\b{_ACTION}\b", re.IGNORECASE)


def says_what_it_does(text: str) -> bool:
    """Whether `text` says what a change does: a verb of action ("Fix readonly __args__",
    "Support generics") or of effect; "A hotfix and not a definitive solution for sure", a
    branch's name (`nounionmatchfix`) say neither."""
    return says_effect(text) or _ACTS.search(text) is not None


@dataclass(frozen=True)
class _Unit:
    text: str
    paragraph: int
    # a list item, and the paragraph's line it is on (items of one list share a paragraph)
    item: bool
    line: int


def summary_from(paragraphs: list[str] | tuple[str, ...], title: str, *, limit: int) -> str | None:
    """The description's summary within `limit` characters, or None when it has none that
    says more than the title."""
    units = _units(paragraphs)
    # Every word of the title counts: its tags and `(#N)` are words of it too.
    title_words = _words(title)
    usable = [u for u in units if _usable(u)][:16]
    # What the change does first, then other sentences, then those that set the scene (and
    # those that go on with the scene: "This gap forced consumers to …").
    # (a list item that says what users get before every other sentence: "Emit and drop
    # items … to restore low memory usage" before "Add tracemalloc-based memory regression
    # test", xmltodict 220240c)
    ranks = {id(u): -1 if _user_item(u) else _rank(u.text) for u in units}
    for before, unit in itertools.pairwise(units):
        if (
            not unit.item
            and before.paragraph == unit.paragraph
            and ranks[id(before)] == 2
            and ranks[id(unit)] < 2
            and (_CONTINUES.match(unit.text) or _CAUSED.match(unit.text))
        ):
            ranks[id(unit)] = 2
    ranked = sorted(usable, key=lambda u: (ranks[id(u)], usable.index(u)))
    for unit in ranked:
        text = _grow(unit, units, limit)
        if text is not None and not _words(text) <= title_words:
            return _capitalised(_TRAILING_REFERENCE.sub(".", text))
    return None


def authored_summary(
    entry: list[str] | tuple[str, ...],
    description: list[str] | tuple[str, ...],
    title: str,
    *,
    limit: int,
    single: bool = False,
) -> str | None:
    """The summary of the author's words: the description's where it says what the changelog
    entry or news fragment says (the author's own words first), the entry's where the
    description says something else (a template's story, a squashed branch's steps, "Related
    issue number") or nothing, and always where it is the one item the commit adds to its
    changelog (`single`)."""
    own = summary_from(description, title, limit=limit)
    written = entry_summary(entry, title, limit=limit)
    if tuple(description) == tuple(entry):
        # the entry is all the description there is: read as an entry, whole sentences on
        return written or own
    if written and single:
        # one item added to the changelog is the author's own words of what users get,
        # before any line of the message, even one that says it in the code's terms
        # (wrapt 99bf4ef's item on where `lru_cache` keeps its cache, not its body's "Add
        # regression tests covering …"; 5848404's "Fixed a reference leak in … `__round__`",
        # not "Remove the spurious Py_INCREF")
        return written
    if own and written and not _says_same(own, written):
        # the description's own statement of what the change does stands ("This change adds
        # a validator that raises …"); its story, its steps and its notes give way
        doing = (_rank(own) == 0 or bool(_NOW_STATE.search(own))) and not _PROCESS.search(own)
        return own if doing else written
    return own or written


def _says_same(text: str, other: str) -> bool:
    """Whether most of the words that carry `text` are in `other` too."""
    words = {w for w in _stems(text) if len(w) > 3}
    return bool(words) and len(words & _stems(other)) * 2 >= len(words)


def entry_summary(paragraphs: list[str] | tuple[str, ...], title: str, *, limit: int) -> str | None:
    """The summary a changelog entry or news fragment gives: its sentences in order, whole
    ones within `limit`, from the first paragraph whose first fits (one that introduces what
    was left out, a code block or a list, ends it); None when it says no more than the title."""
    kept: list[str] = []
    for paragraph in paragraphs:
        stopped = False
        for said in (
            _POINTERS_AFTER.sub("", s) for line in paragraph.split("\n") for s in _sentences(line)
        ):
            if (
                len(_WORD.findall(said)) < 2
                or _GREETING.match(said)
                or credit_only(said)
                or _POINTERS.match(said)
            ):
                # a pull request's number on a line of its own, or the numbers Sphinx's
                # roles render ("#3360 #3434."); a credit ("Thanks OkeyDev for the PR.")
                # says who, never what
                continue
            ended = _STOPPED.search(said) or said.endswith(":")
            sentence = said if ended else f"{said.rstrip(';, ')}."
            stopped = (
                sentence.endswith(":")
                or bool(_INTRODUCES.search(sentence))
                or (not kept and dangles(sentence, alone=True))
                or len(" ".join([*kept, sentence])) > limit
            )
            if stopped:
                break
            kept.append(sentence)
        if not kept and paragraph and _INTRODUCES.search(paragraph.split("\n")[0]):
            # what follows speaks of what it introduced, which is not shown
            break
        if stopped and kept:
            break
    text = " ".join(kept)
    if not text or _words(text) <= _words(title):
        return None
    return _capitalised(text)


def _stems(text: str) -> set[str]:
    """The text's words, their endings aside: "Adds support" says what "Add support" did."""
    return {re.sub(r"(?:ing|ed|es|s|e)$", "", w) if len(w) > 3 else w for w in _words(text)}


def _rank(text: str) -> int:
    if _SCENE_OPENER.match(text) or _PROBLEM_LABEL.match(text) or _NEED.search(text):
        return 2
    if _DOES.search(text) or _NEW_NAME.match(text):
        return 0
    return 2 if _SCENE.search(text) else 1


def _units(paragraphs: list[str] | tuple[str, ...]) -> list[_Unit]:
    out: list[_Unit] = []
    for number, paragraph in enumerate(paragraphs[:12]):
        lines = paragraph.split("\n")
        for index, raw in enumerate(lines):
            line = _LABEL.sub("", _LEAD_POINTER.sub("", raw.strip().strip('"“”')))
            if not line:
                continue
            if index > 0:
                out.append(_Unit(line, number, True, index))
                continue
            for sentence in _sentences(line):
                said = _LABEL.sub("", _LEADING_PICTOGRAPHS.sub("", sentence))
                if said:
                    out.append(_Unit(said, number, False, 0))
    return out


def _sentences(text: str) -> list[str]:
    """Sentences of a line of prose; "e.g. X" and "v0.8.0" do not end one."""
    out: list[str] = []
    for raw in _SENTENCE_END.split(text):
        part = raw.strip()
        if not part:
            continue
        if out and _ABBREVIATION.search(out[-1]):
            out[-1] = f"{out[-1]} {part}"
        else:
            out.append(part)
    return out


def _user_item(unit: _Unit) -> bool:
    """Whether the unit is a list item that says what users get (`_USER_VERB`)."""
    return unit.item and bool(_USER_VERB.match(_ADVERB.sub("", unit.text)))


def _work_item(unit: _Unit) -> bool:
    """Whether the unit is a list item of the work around the change (`_WORK_ITEM`) or only
    of the issues it closes and whom it thanks."""
    return unit.item and bool(_WORK_ITEM.match(unit.text) or _POINTERS_ONLY.match(unit.text))


def credit_only(text: str) -> bool:
    """Whether a sentence only credits someone (`_CREDIT`): who, never what changes."""
    return bool(_CREDIT.match(text.strip()))


def _usable(unit: _Unit) -> bool:
    text = unit.text
    if _work_item(unit) or credit_only(text):
        return False
    bare = _URL.sub(" ", text)
    if len(_WORD.findall(bare)) < 3 or text.endswith("?") or _VACUOUS.match(text):
        return False
    if _POINTER_END.search(text) and not _DOES.search(text):
        # it points at a link and says no more ("In the same rationale as <URL>")
        return False
    return not (_GREETING.match(text) or _STORY.search(text) or _ASIDE.match(text))


def _grow(unit: _Unit, units: list[_Unit], limit: int) -> str | None:
    """The unit, and what belongs with it: a lead-in's items, a list's next items, the next
    sentence of a short paragraph, within `limit`; None when the unit alone does not fit."""
    text = _fit(unit.text, limit)
    if text is None:
        return None
    before = [u for u in units[: units.index(unit)] if u.paragraph == unit.paragraph]
    if not unit.item and before and (_CONTINUES.match(text) or leans(text) or _BACK.search(text)):
        # Read with the sentence it leans on (the first of a paragraph leans on the change).
        if before[-1].item or not _usable(before[-1]):
            return None
        joined = f"{before[-1].text} {text}"
        return joined if len(joined) <= limit and not dangles(joined, alone=True) else None
    if leans(text):
        # a bare pronoun whose referent is not in the description ("Keep it at first
        # position …" below "It's confusing to have a bool pad_level and an int pad_event.")
        return None
    if text != unit.text:
        return None if _INTRODUCES.search(text) else text
    after = [
        u
        for u in units
        if u.paragraph == unit.paragraph
        and (u.line > unit.line or (not u.item and not unit.item and u is not unit))
        and units.index(u) > units.index(unit)
    ]
    joined = text
    # A lead-in: the last sentence before a paragraph's items, ending in a colon or not at all
    # ("This updates pre-processing to" and the items).
    introduces = not unit.item and bool(_INTRODUCES.search(unit.text))
    lead = (
        not unit.item
        and any(u.item for u in after)
        and (introduces or not _ENDED.search(unit.text))
    )
    if introduces and not lead:
        # what it introduces is not shown (a code block, or nothing)
        return None
    if lead and not joined.endswith(":"):
        joined = f"{joined.rstrip('.')}:"
    if lead or unit.item:
        items = [u for u in after if u.item and _usable(u)]
        if _user_item(unit):
            # what users get leads, then the list's other items of it, the author's order
            # kept; the mechanism ("Use `X` for output") stays unsaid
            items = [
                u
                for u in units
                if u.paragraph == unit.paragraph
                and u.item
                and u is not unit
                and _usable(u)
                and not _HOW_ITEM.match(u.text)
            ]
        if lead and not items:
            return None
        for item in items:
            piece = item.text.rstrip(".;, ")
            glue = " " if joined.endswith(":") else "; "
            candidate = f"{joined.rstrip('.;, ')}{glue}{piece}"
            if len(candidate) + 1 > limit:
                break
            joined = candidate
        if joined.endswith(":"):
            return None
        ended = joined if joined[-1] in ".!?。" else f"{joined}."
        # (the full stop an item lacks counts against the limit too)
        return ended if len(ended) <= limit else None
    # Prose: the next sentence too, while the two stay short.
    following = next((u for u in after if not u.item), None)
    into_list = following is not None and any(u.item for u in after)
    if (
        following is not None
        and not into_list
        and _usable(following)
        and not dangles(following.text)
        and not re.search(r"[:：]\s+[A-Z]", following.text)
    ):
        candidate = f"{text} {following.text}"
        # a short statement brings the sentence that details it ("This adds `X` following
        # official platform conventions." and "On Linux it returns …")
        room = limit if len(text) <= 120 else min(limit, 320)
        if len(candidate) <= room and not candidate.endswith(":"):
            return candidate
    return None if dangles(text) else text


def _fit(text: str, limit: int) -> str | None:
    """The text, or its whole sentences within `limit`; None when the first is too long. A
    statement that a colon joins to the next sentence ("Adds X: This is required …") ends
    there too."""
    if len(text) <= limit:
        return text
    ends = [m.end() for m in re.finditer(r"[.!?](?=\s)|[。！？]|:(?=\s+[A-Z])", text[:limit])]
    ends = [e for e in ends if not _ABBREVIATION.search(text[:e])]
    if not ends:
        return None
    cut = text[: ends[-1]].rstrip()
    return f"{cut[:-1]}." if cut.endswith(":") else cut


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text.replace("`", ""))}


def capitalised(text: str) -> str:
    """The text with a capital first letter where it opens with a plain word (a verb, an
    article), not with a name that keeps its case (`vllm`, `cuDNN`)."""
    return _capitalised(text)


def _capitalised(text: str) -> str:
    if _PLAIN_START.match(text):
        return text[0].upper() + text[1:]
    return text
