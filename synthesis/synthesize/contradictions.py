"""Contradiction detection between claims from different sources: opposite polarity, or different numbers.

Two rules, both explainable:
  * numbers — the two claims give different values for the same kind of quantity (same unit family, e.g. 15 minutes
    vs 30 minutes, 10% vs 25%) and talk about the same thing (shared content words next to the number);
  * polarity — the two claims share most of their content words but one is negated (not/never/must not/…) or uses
    the opposite cue (increases/decreases, allowed/forbidden, required/optional, always/never).
`benchmarks/contradictions.py` measures precision and recall on SciFact SUPPORT/CONTRADICT pairs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from ..models import Passage
from ..pointers import leans_on_context
from ..quantities import NUMBER_WORDS, UNITS, quantities
from ..stems import STOPWORDS, content_stems, stem, truncate_words, words

NEGATIONS = frozenset({"not", "no", "never", "cannot", "can't", "don't", "doesn't", "didn't", "isn't", "aren't",
                       "wasn't", "weren't", "won't", "mustn't", "shouldn't", "neither", "nor", "none", "nobody",
                       "nothing"})  # "without"/"lack"/"fail" left out: they usually describe, not negate, the claim
# Opposite cue families (stems): a claim using one side and the other claim the other side flips polarity.
_OPPOSITES: list[tuple[frozenset[str], frozenset[str]]] = [
    (frozenset({"increas", "rais", "higher", "elev", "greater", "enhanc", "promot", "activ", "upregul", "improv",
                "gain", "acceler", "boost", "induc", "stimul", "more"}),
     frozenset({"decreas", "reduc", "lower", "less", "fewer", "inhibit", "suppress", "downregul", "impair", "worsen",
                "loss", "slow", "diminish", "attenu", "declin", "prevent"})),
    (frozenset({"allow", "permit", "fine", "encourag", "ok"}), frozenset({"forbidden", "forbid", "prohibit", "disallow", "ban"})),
    (frozenset({"requir", "mandatori", "must", "always"}), frozenset({"option", "never"})),
    (frozenset({"enabl"}), frozenset({"disabl"})),
]
_CUE_STEMS = frozenset().union(*(a | b for a, b in _OPPOSITES))
_DISCRIMINATOR = re.compile(r"\b[a-z]+\d+[a-z\d]*\b", re.I)  # sev1/p2/tier3: different ones mean different subjects


@dataclass
class Claim:
    """One sentence as evidence: its text, the context source number it came from, and its document."""

    text: str
    source: int
    doc_id: str
    vector: np.ndarray | None = None
    passage: str = ""  # the text of the passage it was read in


@dataclass
class Conflict:
    kind: str  # "number" | "polarity"
    subject: str
    a_value: str = ""
    b_value: str = ""
    shared: list[str] = field(default_factory=list)


@dataclass
class ClaimConflict:
    a: Claim
    b: Claim
    conflict: Conflict


def _stems(text: str) -> list[str]:
    """Content stems without numbers and unit words (those are the values, not the subject)."""
    return [stem(w) for w in words(text)
            if w not in STOPWORDS and not w[0].isdigit() and w not in NUMBER_WORDS and w.rstrip("s") not in UNITS]


def _all_stems(text: str) -> set[str]:
    """Stems of every word, stopwords included: cues like must/never/more are stopwords elsewhere."""
    return {stem(w) for w in words(text)}


_CONDITIONAL = re.compile(r"\b(if|unless|whether|until|when)\b[^,;.]*", re.I)
# Negative words that negate nothing: "no matter how long", "no later than", "not only … but".
_IDIOMS = re.compile(r"\b(no matter|no later than|no sooner|no more than|no less than|not only|not just|no longer "
                     r"than|nothing but|not least|no doubt)\b", re.I)


# An FAQ's answer word restates the polarity of what follows it, it adds none: "No. Please don't “save” hours …" says
# what "Also, please don't “save” hours …" says (hp36: reported as a disagreement) (ANSWER_WORD)
ANSWER_WORD = True
_ANSWER_WORD = re.compile(r"^\W*(?:no|nope|yes|yep)\s*[.,!:;–—-]\s*", re.I)


def _main_words(text: str) -> list[str]:
    text = _ANSWER_WORD.sub("", text) if ANSWER_WORD else text
    return words(_CONDITIONAL.sub(" ", _IDIOMS.sub(" ", text)))


def _negated(text: str) -> bool:
    """An odd number of negations in the main clauses ("if X does not …" states a condition, not a claim)."""
    count = sum(1 for t in _main_words(text) if t in NEGATIONS or t.endswith("n't"))
    return count % 2 == 1


# Words between a negation and what it denies: "no longer required", "not necessarily allowed", "never again".
_DEGREE = frozenset("longer more only always just yet even ever also necessarily actually really currently again "
                    "strictly usually generally".split())


def _deniable(word: str) -> bool:
    """A word a negation can deny: a content word, no number and no degree ("no longer required" denies "required")."""
    return word not in STOPWORDS and not word[0].isdigit() and word not in NUMBER_WORDS and word not in _DEGREE


def _negated_heads(text: str) -> set[str]:
    """The first content word after each negation: what is denied ("are not allowed" denies "allow"; "Version 1
    does not exist" denies "exist", not the server mode the sentence goes on to name)."""
    toks = _main_words(text)
    heads = set()
    for k, t in enumerate(toks):
        if t in NEGATIONS or t.endswith("n't"):
            head = next((x for x in toks[k + 1:k + 5] if _deniable(x)), None)
            if head:
                heads.add(stem(head))
    return heads


# What a denial denies is its head and the words it is said of: "These applications are not open to the general
# public" denies no "… are open to current or former Competitive Service employees" (hp75: reported as a disagreement
# between two hiring pages). A denial conflicts only with a claim sharing one of the words after its head in its
# clause, when it has any (DENIED_WORDS).
DENIED_WORDS = True
COMPLEMENT_WORDS = 3  # … read this far after the head
_CLAUSE_END = re.compile(r"[,;:.!?()]")


def _denials(text: str) -> list[tuple[str, set[str]]]:
    """Each denial of the main clauses: the stem it denies (`_negated_heads`) and the content stems that follow it
    in its clause (at most COMPLEMENT_WORDS), or none."""
    text = _ANSWER_WORD.sub("", text) if ANSWER_WORD else text
    found = []
    for clause in _CLAUSE_END.split(_CONDITIONAL.sub(" ", _IDIOMS.sub(" ", text))):
        toks = words(clause)
        for k, t in enumerate(toks):
            if not (t in NEGATIONS or t.endswith("n't")):
                continue
            at = next((i for i in range(k + 1, min(k + 5, len(toks))) if _deniable(toks[i])), None)
            if at is not None:
                after = [x for x in toks[at + 1:] if _deniable(x) and x.rstrip("s") not in UNITS]
                found.append((stem(toks[at]), {stem(x) for x in after[:COMPLEMENT_WORDS]}))
    return found


# A question put inside a sentence asserts nothing: "… will help you understand where your information is stored in
# GitHub and who can access it" says no information is stored there, against "Do not store sensitive information in
# GitHub." (hp75, reported twice) (INDIRECT_QUESTIONS)
INDIRECT_QUESTIONS = True
_INDIRECT = re.compile(r"(?P<verb>\b(?:understand|know|knew|known|learn|see|saw|seen|explain|show|shown|tell|told|"
                       r"check|find out|found out|figure out|decide|ask|wonder|determine|clarify)(?:s|es|ed|ing)?"
                       r"(?:\s+(?:you|them|us|me|him|her|everyone|people|others))?(?:\s+more\s+about)?)"
                       r"\s+(?:where|what|how|who|whom|which|why|when)\b[^,;.!?]*", re.I)


def _asserted(text: str) -> str:
    """The text without the questions it puts inside it, keeping the verb that puts them ("Supervisors cannot see
    what you post …" still denies seeing) (INDIRECT_QUESTIONS)."""
    return _INDIRECT.sub(r"\g<verb>", text) if INDIRECT_QUESTIONS else text


def _near(text: str, pos: int, window: int = 8) -> set[str]:
    """Content stems within a few words before and after a position: what the number is about."""
    before = _stems(text[:pos])[-window:]
    after = _stems(text[pos:])[:window // 2]
    return set(before) | set(after)


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def _cover(a: set[str], b: set[str]) -> float:
    """Overlap relative to the shorter claim: a short claim inside a long sentence still counts as the same topic."""
    return len(a & b) / min(len(a), len(b)) if a and b else 0.0


def _same_value(x: float, y: float) -> bool:
    """Rounded restatements agree: 76% and 76.3%, 1.4 and 1.41 (within 5% of the larger)."""
    return abs(x - y) <= 0.05 * max(abs(x), abs(y))


def _ordered_shared(text: str, shared: set[str], limit: int = 6) -> str:
    out: list[str] = []
    used: set[str] = set()
    for w in words(text):
        if stem(w) in shared and stem(w) not in used:
            out.append(w)
            used.add(stem(w))
    return " ".join(out[:limit])


def number_conflict(a: str, b: str, *, min_overlap: float = 0.2, min_near: float = 0.5) -> Conflict | None:
    """Same kind of quantity with different values, about the same subject."""
    qa, qb = quantities(a), quantities(b)
    if not qa or not qb:
        return None
    if {d.lower() for d in _DISCRIMINATOR.findall(a)} ^ {d.lower() for d in _DISCRIMINATOR.findall(b)}:
        return None
    whole = _jaccard(set(_stems(a)), set(_stems(b)))
    if whole < min_overlap:
        return None
    for fa, va, sa, pa in qa:
        if any(fb == fa and _same_value(va, vb) for fb, vb, _, _ in qb):
            continue  # b also states a's value: not a disagreement about it
        for fb, vb, sb, pb in qb:
            if fb != fa or any(f == fb and _same_value(v, vb) for f, v, _, _ in qa):
                continue
            near_a, near_b = _near(a, pa), _near(b, pb)
            shared = near_a & near_b
            if shared and _jaccard(near_a, near_b) >= min_near:
                return Conflict("number", _ordered_shared(a, shared), sa, sb, sorted(shared))
    return None


def _cue_sides(stems: set[str]) -> list[int]:
    """For each opposite family: +1 if only the first side is used, -1 if only the second, 0 otherwise."""
    sides = []
    for pos, neg in _OPPOSITES:
        p, n = bool(stems & pos), bool(stems & neg)
        sides.append(1 if p and not n else -1 if n and not p else 0)
    return sides


# A claim: a sentence that ends as one, or a clause with an auxiliary or modal verb ("- You must not share keys").
_FINITE = re.compile(r"\b(is|are|was|were|be|been|has|have|had|can|cannot|could|will|would|shall|should|may|might|"
                     r"must|do|does|did)\b|n't\b", re.I)


def _states(text: str) -> bool:
    """Whether `text` states something that can be true or false: a table-of-contents entry or a label ("Flights or
    Amtrak booked outside of Concur") has no polarity to disagree with."""
    return bool(re.search(r"[.!?][\"')\]]*\s*$", text.strip()) or _FINITE.search(text))


def polarity_conflict(a: str, b: str, *, min_overlap: float = 0.6, min_jaccard: float = 0.35) -> Conflict | None:
    """Mostly the same content words, but one is negated or uses the opposite cue.

    "Mostly the same" is measured both ways: the shorter claim's words are largely in the longer one (cover) and
    the two share a good part of all their words (Jaccard), so a short rule is not "contradicted" by a long sentence
    that happens to use its three words in another statement.
    """
    if not (_states(a) and _states(b)):
        return None
    sa, sb = set(_stems(a)), set(_stems(b))
    core_a, core_b = sa - _CUE_STEMS, sb - _CUE_STEMS
    cues_a, cues_b = _all_stems(a) & _CUE_STEMS, _all_stems(b) & _CUE_STEMS
    overlap = _cover(core_a, core_b)
    if overlap < min_overlap or len(core_a & core_b) < 3 or _jaccard(core_a, core_b) < min_jaccard:
        return None
    flips = 0
    if _negated(a) != _negated(b):  # a denial conflicts only when what it denies, the other claim asserts
        denied, asserted = (a, b) if _negated(a) else (b, a)
        whole = _all_stems(asserted)
        # what it asserts, unless the denial puts the same kind of question ("do not know who approves …")
        said = whole if _asserted(denied) != denied else _all_stems(_asserted(asserted))
        if DENIED_WORDS:
            flips = int(any(head in said and (not rest or rest & whole) for head, rest in _denials(denied)))
        else:
            flips = int(bool(_negated_heads(denied) & said))
    for side_a, side_b in zip(_cue_sides(cues_a), _cue_sides(cues_b)):
        if side_a and side_b and side_a != side_b:
            flips += 1
    if flips % 2 == 0:
        return None
    shared = core_a & core_b
    return Conflict("polarity", _ordered_shared(a, shared), shared=sorted(shared))


def compare(a: str, b: str) -> Conflict | None:
    """The conflict between two claims, if any (numbers first: they are the stronger signal).

    Two claims about different cases never conflict: "Overtime and comp time: Yes" and "If you make the maximum
    salary, you cannot receive overtime or comp time" are both true; the second is narrowed by a condition ("if …",
    "unless …", "when …") whose words the first does not share, or by a case its passage defined ("In such cases
    …"). A hedged rule ("In most cases, do not …") has no opposite, though its numbers still count."""
    if _narrowed(a, b) or _narrowed(b, a):
        return None
    if number := number_conflict(a, b):
        return number  # a hedge excuses no number: "in general within 30 minutes" still differs from 15
    if _HEDGED.match(a) or _HEDGED.match(b):
        return None  # "In most cases, do not squash …" allows the case the other claim describes
    return polarity_conflict(a, b)


# Conditions that narrow nothing: "when in doubt", "if possible", "if needed".
_FILLER_CONDITION = re.compile(r"\b(?:if|when|unless)\s+(?:in doubt|possible|necessary|needed|applicable|appropriate|"
                               r"required|so|not|in question|unsure)\b", re.I)


# A case the sentence before defined: "In such cases we float the patch", "Otherwise, …", "If so, …".
_ANAPHORIC_CASE = re.compile(r"^\W*(?:in (?:such|these|those|this|that|either|both|which) cases?|otherwise|if so|"
                             r"if not|in that event|in this event)\b", re.I)
# A rule stated as what holds in most cases ("In most cases, do not squash …") allows the case another claim
# describes: it is no opposite.
_HEDGED = re.compile(r"^\W*(?:in (?:most|many|some|certain|rare|general) cases|in general|generally|usually|typically|"
                     r"normally|often|mostly|as a rule)\b", re.I)


# A clock time and the zone it is told in bound the hours of the same case, they set no other one: "allowed on
# Fridays until 15:00 Lisbon time" disagrees with "not allowed on Fridays" as "until 15:00" does.
_CLOCK_ZONE = re.compile(r"\b\d{1,2}(?::\d{2}(?:\s*(?i:[ap]m)\b)?|\s*(?i:[ap]m)\b)(?![\w+])"
                         r"(?:\s+(?:[A-Z][a-z]+\s+[Tt]ime|local\s+time|[A-Z]{1,4}T|UTC|GMT)\b)?")
_AM_PM = re.compile(r"\b([ap])\.m\.", re.I)  # "3 p.m." is not cut at its full stops by `_CONDITIONAL`


def _narrowed(a: str, b: str) -> bool:
    """`a` states its claim under a condition that `b` does not mention (a content word of the condition is not
    in `b`), or under a case its own passage defined before it ("In such cases we float the patch"), which a quote
    cannot compare; a filler condition ("when in doubt") narrows nothing."""
    if _ANAPHORIC_CASE.match(a):
        return True
    plain = _AM_PM.sub(r"\1m", _FILLER_CONDITION.sub(" ", a))
    conditions = " ".join(_CLOCK_ZONE.sub(" ", m.group(0)) for m in _CONDITIONAL.finditer(plain))
    return bool(set(_stems(conditions)) - set(_stems(b)) - {"whether"})


# The main clause's subject is a pronoun after an opening phrase: "In addition to being able to publish …, they have
# the ability to add or remove owners" (they: a named owner, said in the sentence before).
_CLAUSE_PRONOUN = re.compile(r"^[^.;:]{0,160}?,\s*(?P<pronoun>they|he|she)\s+(?:\w+\s+){0,2}?(?:is|are|was|were|has|have|had|"
                             r"can|cannot|can't|do|does|did|don't|doesn't|will|would|may|must|should)\b", re.I)
# "It is not allowed to deploy on Fridays": an "it" that stands for what follows, not for something said before
_EXPLETIVE_IT = re.compile(r"^it(?:'s| is| was| will be| may be| must be)\s+(?:not\s+)?[\w-]+\s+(?:to|that|for)\b", re.I)


_POSSESSIVE_START = re.compile(r"^(?:its|their|his|her)\b", re.I)  # "Their manager must approve …" names a subject
# an opening phrase that names no one the pronoun after it could stand for: it holds a pronoun itself ("While they
# have permission …, they …") or only an activity ("In addition to being able to publish …, they …")
_NO_ANTECEDENT = re.compile(r"\b(?:they|them|their|he|him|his|she|her)\b|^\W*(?:\w+\s+){0,3}?\w+ing\b", re.I)


def _unnamed_subject(text: str) -> bool:
    """The claim's subject is a pronoun: who or what it is about was said elsewhere, so it cannot be compared.
    "When contractors submit an invoice, they must be paid within 30 days" names them in its own opening."""
    if leans_on_context(text) and not _EXPLETIVE_IT.match(text) and not _POSSESSIVE_START.match(text):
        return True
    m = _CLAUSE_PRONOUN.match(text)
    return bool(m) and bool(_NO_ANTECEDENT.search(text[:m.start("pronoun")]))


def find_contradictions(claims: list[Claim], *, limit: int = 3, min_cosine: float = 0.6) -> list[ClaimConflict]:
    """Pairs of claims from different documents that conflict; one per pair of sources, strongest topic match first.

    `min_cosine` gates on meaning: two claims that disagree are about the same thing, so their sentences embed close
    together (the planted handbook conflicts sit at 0.74-0.99; unrelated rules that share a few words, below 0.6).
    A claim whose subject is a pronoun is not compared: the Cargo book's "they have the ability to add or remove
    owners" (a named owner) and "they do not have the ability to add or remove owners" (a team) do not disagree.
    """
    found: list[tuple[float, ClaimConflict]] = []
    seen_pairs: set[tuple[int, int]] = set()
    for a, b in combinations(claims, 2):
        if a.doc_id == b.doc_id or a.source == b.source or _unnamed_subject(a.text) or _unnamed_subject(b.text):
            continue
        if (a.passage and b.text in a.passage) or (b.passage and a.text in b.passage):
            continue  # one page says both (a copy of the other, such as a print view): no two sources disagree
        cosine = float(a.vector @ b.vector) if a.vector is not None and b.vector is not None else 1.0
        if cosine < min_cosine:
            continue  # embeddings say these are about different things
        conflict = compare(a.text, b.text)
        if conflict is None:
            continue
        pair = tuple(sorted((a.source, b.source)))
        if pair in seen_pairs:
            continue
        seen_pairs.add(pair)
        found.append((cosine + (0.2 if conflict.kind == "number" else 0.0), ClaimConflict(a, b, conflict)))
    found.sort(key=lambda item: -item[0])
    return [c for _, c in found[:limit]]


def describe(c: ClaimConflict) -> str:
    """A reader-facing description with both claims quoted (shortened) and cited."""
    quote_a, quote_b = truncate_words(c.a.text, 28), truncate_words(c.b.text, 28)
    if c.conflict.kind == "number":
        head = f"The sources give different numbers ({c.conflict.a_value} vs {c.conflict.b_value})"
    else:
        head = "The sources disagree"
    about = f" about {c.conflict.subject}" if c.conflict.subject else ""
    return f'{head}{about}: [{c.a.source}] says "{quote_a}" while [{c.b.source}] says "{quote_b}"'


# --- which side to follow ------------------------------------------------------------------------------
_AUTHORITY = {"policy": 3, "runbook": 2, "guide": 2, "reference": 2, "doc": 1, "notes": 0, "meeting": 0, "wiki": 0}
_LEGACY = re.compile(r"\b(old|legacy|deprecated|archived?|outdated|superseded)\b", re.I)
REPLACING = re.compile(r"\b(?:replaces|supersedes|takes precedence over|overrides)\b((?:\W+\w+){1,12})", re.I)


@dataclass
class Verdict:
    """Which side of a contradiction to follow (its source number; None when nothing decides) and the advice."""

    winner: int | None
    loser: int | None
    reason: str  # "replaces" | "newer" | "authority" | ""
    suggestion: str


def _authority(p: Passage | None) -> tuple[int, str]:
    if p is None:
        return 0, ""
    score = _AUTHORITY.get(p.source_type.lower(), 1)
    tags = str(p.metadata.get("tags", ""))
    if _LEGACY.search(f"{p.title} {tags}"):
        score -= 2
    return score, str(p.metadata.get("updated") or p.metadata.get("last_reviewed") or p.metadata.get("date") or "")


def replaces(winner: Passage | None, loser: Passage | None, related: Sequence[Passage]) -> bool:
    """A passage of the winner's document says it replaces the loser ("replaces … the old incident wiki page")."""
    if winner is None or loser is None or not loser.title:
        return False
    title = content_stems(loser.title)
    texts = [p.content for p in (winner, *related) if p.doc_id == winner.doc_id]
    return any(len(title & content_stems(m.group(1))) >= min(2, len(title))
               for text in texts for m in REPLACING.finditer(text))


def judge(pa: Passage | None, na: int, pb: Passage | None, nb: int, *, related: Sequence[Passage] = ()) -> Verdict:
    """Which source looks current: one that says it replaces the other, a newer date, policy over wiki, not legacy."""
    (auth_a, date_a), (auth_b, date_b) = _authority(pa), _authority(pb)
    title_a = pa.title if pa and pa.title else f"source {na}"
    title_b = pb.title if pb and pb.title else f"source {nb}"
    for (w, nw, tw), (lo, nl, tl) in (((pa, na, title_a), (pb, nb, title_b)), ((pb, nb, title_b), (pa, na, title_a))):
        if replaces(w, lo, related) and not replaces(lo, w, related):
            return Verdict(nw, nl, "replaces", f'"{tw}" [{nw}] says it replaces "{tl}" [{nl}]; follow it and ask the '
                                               f'owner of "{tl}" to update or archive it.')
    if date_a and date_b and date_a != date_b:
        (newer, n), (older, m) = ((title_a, na), (title_b, nb)) if date_a > date_b else ((title_b, nb), (title_a, na))
        return Verdict(n, m, "newer", f'"{newer}" [{n}] is the more recently updated; follow it and ask the owner of '
                                      f'"{older}" to fix theirs.')
    if auth_a != auth_b:
        (current, n), (other, m) = ((title_a, na), (title_b, nb)) if auth_a > auth_b else ((title_b, nb), (title_a, na))
        return Verdict(n, m, "authority", f'"{current}" [{n}] looks authoritative (its document type outranks the '
                       f'other, or the other is marked old); follow it and ask the owner of "{other}" to update or '
                       f'archive it.')
    return Verdict(None, None, "", f'Confirm with the owners of "{title_a}" [{na}] and "{title_b}" [{nb}] which one is '
                                   f'current.')


def _quoted(text: str) -> str:
    return '"' + text.strip().rstrip(".;:,").strip() + '"'


def resolution(c: ClaimConflict, verdict: Verdict, *, titles: dict[int, str], subject: str = "") -> str:
    """The summary's sentence for a disagreement: the side to follow, the other marked outdated; or both sides."""
    if verdict.winner in (c.a.source, c.b.source):
        win, lose = (c.a, c.b) if verdict.winner == c.a.source else (c.b, c.a)
        value = c.conflict.b_value if lose is c.b else c.conflict.a_value
        title = titles.get(lose.source) or "the other source"
        if c.conflict.kind == "number" and value:
            tail = f'the {value} in "{title}" [{lose.source}] is outdated'
        else:
            tail = f'"{title}" [{lose.source}] says otherwise and is outdated'
        return f"{win.text.strip().rstrip('.;:,')} [{win.source}]; {tail}."
    on = f" on {subject}" if subject else ""
    return f"Sources disagree{on}: {_quoted(c.a.text)} [{c.a.source}] vs {_quoted(c.b.text)} [{c.b.source}]."


def suggest(pa: Passage | None, na: int, pb: Passage | None, nb: int) -> str:
    """The advice of `judge` alone."""
    return judge(pa, na, pb, nb).suggestion
