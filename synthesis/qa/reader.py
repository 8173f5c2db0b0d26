"""Extractive question answering over sentences: score each candidate sentence per question part (`selection`
then picks the sentences that answer).

A sentence's relevance to a part combines
  * meaning — cosine of the part with the sentence, and with the sentence read under its heading
    ("Voting and poll volunteering: You can receive Administrative Leave …"), so a line is judged in its section;
  * words — the part's content stems found in the sentence (or, at half weight, in its title and section path),
    weighted by how rare each stem is among the candidate sentences (a word every passage shares decides nothing);
  * fit — whether the sentence holds the kind of answer the part expects (a number for "how many", a role or team
    for "who", a place or system for "where", a rule for a yes/no question, an instruction for "how do I"; kinds.py);
  * section — its innermost heading read alone ("Forgot your card"), with a bonus when that heading asks the part's
    very question (an FAQ);
  * scope — a part that names a place or unit ("at the DC office") lowers sentences from pages about another;
  * the passage's retrieval score, a little.
"""

from __future__ import annotations

import math
import re
from collections import Counter

import numpy as np

from ..pointers import about_itself, is_pointer, leans_on_context
from ..sentences import OPTION_TERM
from ..stems import STOPWORDS, content_stems, stem
from . import asker, kinds
from .acronyms import definitions, expand, spelled_out
from .asker import (asked_case, numbers_stated, opposite_kinds, same_case, same_number, scopes, threshold_fit,
                    title_initials, words_of)
from .candidate import FIELD_LINE_WORDS, Candidate, field_line, last_heading, section_heading
from .question import Expect, Field, Frame, stem_weights
from .thresholds import asked_bounds, told_amounts

# Weights chosen by the rank of the gold-bearing sentence among the retrieved sentences of the handbook-qa dev
# questions (benchmarks/answers.py re-checks the end result): meaning first, read bare and under its heading.
W_BARE, W_CONTEXTUAL, W_LEX, W_HEADING, W_PRIOR = 0.3, 0.3, 0.2, 0.1, 0.2
FAQ_COSINE, FAQ_BONUS = 0.8, 0.3  # a heading that asks the part's very question ("…?"): its answer sits under it
# a section heading all of whose words the part uses ("Quarterly/semi-annually" for "what are supervisors expected to
# do on a quarterly or semi-annual basis?") names the case asked: its lines answer it, though they repeat none of it
# … and lines of its page that are under no such heading and use none of its words are outside the case asked
# (OUT_OF_SCOPE)
NAMED_SECTION, NAMED_BONUS, NAMED_LINES = True, 0.15, 2
NAMED_WORDS = 3  # … a heading of at most this many words, not a question (an FAQ's heading: FAQ_BONUS), whose own lines
# use none of them ("Caregivers" over "A primary caregiver receives …" names the topic its lines state)
# A heading that says how to do something asks its question as an FAQ's "…?" does (FAQ_BONUS): "How to check if a site
# is on cloud.gov Pages" over its steps, for "How can I tell if some .gov site is hosted on cloud.gov Pages?"
# (HOW_TO_HEADINGS)
HOW_TO_HEADINGS = True
_HOW_TO = re.compile(r"^\W*how (?:to|do (?:i|you|we)|can (?:i|you|we)|should (?:i|you|we))\s", re.I)
W_SECTION = 0.05  # the sentence's own section heading read alone ("Forgot your card")
POINTER_FACTOR = 0.6  # "… are in the rollback policy." names the topic and answers nothing
PRONOUN_FACTOR = 0.9
QUESTION_FACTOR = 0.5
SAME_QUANTITY = 1.1  # a sentence stating the quantity or number the asker states ("I'm only working 3 days" → "Work
# week: 3 days", "with 5 direct reports" → "Number of direct reports: 5"), or a row naming their code ("18F"); a
# sentence stating the rule for the asker's condition or sum, or for the opposite kind, is weighed in asker.py
# a row of an example's table ("For example: Day: Monday; Hours: 8; Day: Monday; Hours: Off."): it illustrates the
# rule stated above it, which answers (a table of the rules themselves, an accrual table, keeps its weight)
ROW_FACTOR = 0.8
_EXAMPLE = re.compile(r"(?i)^\W*(?:for example|for instance|e\.g\.|examples?\b)")
# … and so does a sentence of a paragraph that opens "For example:" ("Therefore, you can request up to 104 advanced
# sick leave hours." after "For example: You have one year left on your term …", under "You can request up to 240
# hours of advanced sick leave.")
EXAMPLE_PARAGRAPHS = True
CODE_FACTOR = 0.8  # a code line ("$ CARGO_LOG=… cargo build") says less alone than the sentence announcing it
# a sentence that states an aim or an open question restates what is asked (SciFact abstracts); one about its own
# page ("This page overviews …") says what is written there, not what holds
AIM_FACTOR = 0.8
OUT_OF_SCOPE = 0.85  # a sentence outside the place or unit the question names (which names scope it: asker.scopes)
LABEL_FACTOR, LABEL_WORDS = 0.7, 6  # a short line holding no kind of answer: a label
SELF_CONTAINED = 3  # a part with this many content words of its own is read alone too
ACRONYM_SPELLED = True  # a question's acronym is named by a sentence that spells it out (see `score`)
CONTEXTUAL_TOP = 24  # sentences also embedded under their heading (best by the bare reading): latency budget
FIELD_MISFIT = 0.85  # relevance kept, for a part asking a default or a version, by a sentence that states none
RELATED_SUPPORT = 0.45  # a sentence this close (cosine + 0.3·overlap) to a part is about it (answerability, gaps)

# What a sentence states of a setting or feature, per field a part can ask for (see Part.field): what holds when
# nothing is set ("Default: 300000", "defaults to STATUS", "if not specified"), the release that brought or changed
# it ("New in version 3.19.", "since CMake 3.23", "removed since 3.20"), and where a name comes from.
_STATES = {
    Field.DEFAULT: re.compile(r"\bdefault|\bif (?:not|none|omitted|unset|absent|missing)\b|\bif (?:it is |this is )?"
                              r"not (?:set|specified|given|present|provided|passed)\b|\bis not (?:set|specified|given)\b",
                              re.I),
    Field.VERSION: re.compile(r"(?i:\b(?:version|release|v)\s*\d+(?:\.\d+)+|\b(?:since|as of)\s+(?:version\s+)?\d+\.\d+)|"
                              r"\b(?i:since|in|from|before|after|until|as of)\s+[A-Z][\w.+-]*\s+\d+\.\d+(?:\.\d+)?\b"),
    # where a name comes from: "18F refers to the location of GSA headquarters", "CoE stands for", "named after"
    # (or spells an initialism out: "Centers of Excellence (CoE)", "LWOP (Leave Without Pay)")
    Field.NAME: re.compile(r"(?i:\b(?:refers? to|stands? for|short for|named (?:after|for)|acronym for|abbreviation "
                           r"for|(?:the|its|our) name (?:comes|came) from|is derived from)\b)|"
                           r"\b(?:[A-Z][a-z]+\s+(?:(?:of|for|and|the)\s+)?){1,6}\(\s*[A-Z][A-Za-z]{1,7}\s*\)|"
                           r"\b[A-Z][A-Za-z]{1,7}\s+\((?:[A-Z][a-z]+\s*(?:(?:of|for|and|the)\s+)?){2,7}\)"),
}
# What a paper (or page) set out to find, or says is not known: "OBJECTIVE To assess whether …", "we investigated
# whether …", "… remains unknown", "The mechanisms … are not understood".
_AIM = re.compile(
    r"^(?-i:OBJECTIVES?|AIMS?|PURPOSE|BACKGROUND|CONTEXT|IMPORTANCE|INTRODUCTION|RATIONALE)\b|"  # a structured abstract
    r"^(?:objectives?|aims?|purpose|background|context|importance|introduction|rationale)\s*:\s|"
    r"\b(?:to|we|study|studies|trial|review|article|paper)\s+(?:\w+\s+)?(?:assess|determine|investigate|examine|"
    r"evaluate|test|explore|study|ask|discuss|review|address|clarify|establish)(?:e?[ds])?\s+(?:whether|if|how|the "
    r"role|the roles|the effect|the effects|the association)\b|"
    r"\b(?:remains?|remained|is|are|was|were)\s+(?:still\s+|\w+ly\s+)?(?:unknown|unclear|uncertain|controversial|poorly "
    r"understood|not (?:well |fully |yet )?(?:understood|known|established|clear))\b|\blittle is known\b|"
    r"\bin this (?:opinion |review )?(?:article|review|paper|study),? we (?:discuss|review)\b", re.I)
_VERB = re.compile(r"\b(is|are|was|were|be|been|has|have|had|can|will|would|do|does|did|gets?|goes|means)\b|n't\b",
                   re.I)


# headings that name a part of any page, not a case of its topic ("Overview", "Next steps", "Resources", "Tips")
_STRUCTURAL = frozenset(content_stems("overview introduction intro resources tips next steps background summary faq "
                                      "faqs notes examples links references details more information getting started "
                                      "about contacts related further reading general other miscellaneous misc "
                                      "questions help"))


def named_cases(frame: Frame, candidates: list[Candidate], own: list[set[str]],
                df: Counter) -> tuple[list[list[bool]], list[dict[tuple, set[str]]]]:
    """Per line and part, whether its section heading (not its page's title) names the case the part asks of
    (NAMED_SECTION); and per part, per page, the words of the headings that do. Such a heading is short, no question
    and no page part ("Overview"); the part's own words (not the statement before it: "I'm on a gliding schedule" sets
    the asker's case) hold every word of it; no line of its section uses them and hardly any other line does (a
    heading of the topic's own word, "Travel", names no case); and none of them is modified in the part by a word the
    line and its headings lack ("Setup" of a GitHub page is no "commit-signing setup"). Never for a side of a
    comparison: its own sections answer it (`selection.SIDE_TITLED`)."""
    named = [[False] * len(frame.parts) for _ in candidates]
    cases: list[dict[tuple, set[str]]] = [{} for _ in frame.parts]
    if not NAMED_SECTION:
        return named, cases
    said: dict[tuple, set[str]] = {}  # per section of a passage: the stems its lines use
    headed: dict[tuple, tuple[str, set[str]]] = {}  # per section: its heading and the heading's words
    for i, c in enumerate(candidates):
        key = (id(c.passage), c.passage.section)
        said.setdefault(key, set()).update(own[i])
        if key not in headed:
            heading = section_heading(c)
            headed[key] = heading, content_stems(heading.replace("/", " "))
    words = [re.findall(r"[\w'-]+", p.text) for p in frame.parts]
    for i, c in enumerate(candidates):
        key = (id(c.passage), c.passage.section)
        heading, stems = headed[key]
        if (not stems or len(stems) > NAMED_WORDS or heading.rstrip().endswith("?") or stems <= _STRUCTURAL
                or stems & said[key] or any(df.get(s, 0) > NAMED_LINES for s in stems)):
            continue
        over = own[i] | content_stems(c.heading)
        for j, part in enumerate(frame.parts):
            if part.side is not None or not stems <= part.own or any(
                    stem(w) in stems and k and words[j][k - 1].lower() not in STOPWORDS
                    and stem(words[j][k - 1]) not in over for k, w in enumerate(words[j])):
                continue
            named[i][j] = True
            cases[j].setdefault(c.document, set()).update(stems)
    return named, cases


def _asks(heading: str) -> bool:
    """Whether a heading asks a question its lines answer: "…?", or how to do something (HOW_TO_HEADINGS)."""
    return heading.rstrip().endswith("?") or (HOW_TO_HEADINGS and bool(_HOW_TO.match(heading)))


def _inherit_field(candidates: list[Candidate], scores: np.ndarray, states: list[bool]) -> None:
    """A short line stating the asked field ("Default: \"notice\"", "New in version 3.19.") scores as well as the
    best other sentence of its section (before that one's FIELD_MISFIT): alone it says nothing a question's words
    match; under its setting's heading it is what the description is about. An option's term line
    ("--freelist-vol=<number> [default: 20000000]", OPTION_TERM) scores as its own description, the sentences whose
    lead-in it is: a manual's options can share one section, and a chunk can end on the next option's term line."""
    best: dict[tuple[int, str], float] = {}
    for i, c in enumerate(candidates):
        if not states[i]:
            key = (id(c.passage), c.passage.section)
            best[key] = max(best.get(key, 0.0), float(scores[i]) / FIELD_MISFIT)
    for i, c in enumerate(candidates):
        if not states[i] or len(c.text.split()) > FIELD_LINE_WORDS:
            continue
        if OPTION_TERM.match(c.text):
            # an option's term line ("--freelist-vol=<number> [default: 20000000]") heads its own description, the
            # sentences that are its items (sentences.OPTION_ITEMS): it is as relevant as they are (many options
            # share one section of a manual); one whose description the chunk cut off is a label of unknown relevance
            described = [x for x, d in enumerate(candidates) if d.passage is c.passage and d.lead_in == c.text]
            own = max((float(scores[x]) / FIELD_MISFIT for x in described if not states[x]), default=0.0)
            scores[i] = max(float(scores[i]), own) if described else LABEL_FACTOR * float(scores[i])
        else:
            scores[i] = max(float(scores[i]), best.get((id(c.passage), c.passage.section), 0.0))


def _in_example(c: Candidate, paragraphs: dict[int, list[str]]) -> bool:
    """The sentence is in a paragraph of its passage that opens with "For example" (or "e.g."), after that opening."""
    if id(c.passage) not in paragraphs:
        paragraphs[id(c.passage)] = [x.strip() for x in re.split(r"\n[ \t]*\n", c.passage.content)
                                     if _EXAMPLE.match(x.strip())]
    head = c.text[:60]
    return any(head in x and not x.startswith(head) for x in paragraphs[id(c.passage)])


def _weighted(weights: dict[str, float], wanted: set[str], found: set[str]) -> float:
    """Share of the wanted stems found, common words counting less (see `stem_weights`)."""
    total = sum(weights.get(s, 1.0) for s in wanted)
    return sum(weights.get(s, 1.0) for s in wanted & found) / total if total else 0.0


class Reader:
    """Scores candidate sentences against a question's parts (`selection.pick_answers` picks the ones that answer).

    Args:
        embed: texts → unit vectors (the store's embedder; `query=True` for the question side).
    """

    def __init__(self, embed) -> None:
        self.embed = embed

    def score(self, frame: Frame, candidates: list[Candidate]) -> np.ndarray:
        """Fill every candidate's per-part scores, relevance and part; returns the (candidates, parts) matrix."""
        if not candidates or not frame.parts:
            return np.zeros((len(candidates), len(frame.parts)), dtype=np.float32)
        queries = [p.query for p in frame.parts]
        qvecs = self.embed(queries, query=True)
        # Each part as asked, without the statement before it (the same vector when there is none).
        storied = [j for j, p in enumerate(frame.parts) if p.query != p.text]
        asked = qvecs.copy()
        if storied:
            asked[storied] = self.embed([frame.parts[j].text for j in storied], query=True)
        # A part that stands on its own ("what happens if a federal holiday falls on my day off") is read alone as
        # well as with the statement before it: the statement sets the case, the part says what is asked.
        for j in storied:
            if len(frame.parts[j].own) >= SELF_CONTAINED:
                mixed = qvecs[j] + asked[j]
                qvecs[j] = mixed / (np.linalg.norm(mixed) or 1.0)
        n = len(candidates)
        known = definitions({id(c.passage): c.passage.content for c in candidates}.values())
        reading = [expand(c.text, known) for c in candidates]  # "LWOP" read as "LWOP (Leave Without Pay)"
        bare = self.embed(reading)
        # The heading-aware reading matters among the plausible sentences only: embed it for the best by the bare
        # reading (the rest keep their bare vector), which halves the embedding work on long contexts.
        order = np.argsort(-(bare @ qvecs.T), axis=0)  # per part, best first: each part gets its share
        share = max(1, CONTEXTUAL_TOP // len(frame.parts))
        plausible = np.unique(order[:share].ravel())
        ctx = bare.copy()
        ctx[plausible] = self.embed([candidates[i].contextual(reading[i]) for i in plausible])
        dense = (W_BARE * (bare @ qvecs.T) + W_CONTEXTUAL * (ctx @ qvecs.T)) / (W_BARE + W_CONTEXTUAL)
        # The section a sentence sits in, read alone: "Forgot your card" is where "I left my badge at home" is answered.
        # A heading is matched with the part as asked, too: "What is my user type?" asks the part "Which user type do
        # I pick" whatever story came before it ("Filling out the CGE access request form for Concur. I'm …").
        sections = list(dict.fromkeys(h for c in candidates if (h := last_heading(c))))
        if sections:
            hvecs = self.embed(sections)
            section_cos = dict(zip(sections, np.maximum(hvecs @ qvecs.T, hvecs @ asked.T)))
        else:
            section_cos = {}
        section_cos[""] = np.zeros(len(frame.parts), dtype=np.float32)
        own = [content_stems(text) for text in reading]
        capitals = {w.lower() for w in re.findall(r"\b[A-Z]{2,5}\b", frame.question)}  # "NYC", as the asker writes it
        head = [content_stems(c.heading + " " + c.lead_in) | ({title_initials(c.passage.title)} & capitals)
                for c in candidates]
        df = Counter(s for stems in own for s in stems)
        idf = {s: math.log(1 + n / (1 + df.get(s, 0))) for p in frame.parts for s in p.stems}
        # per part: an acronym it writes as such that the context defines, and the words that spell it out (a
        # sentence using those words names it); "Is there a cap on …" is no "Cross-Agency Priority (CAP)"
        written = {acr for acr in known if re.search(rf"(?<![\w-]){re.escape(acr)}s?(?![\w-])", frame.question)}
        spelled = [{a: words for acr, full in known.items() if acr in written and (a := stem(acr)) in p.stems
                    and (words := content_stems(full))} if ACRONYM_SPELLED else {} for p in frame.parts]
        weights = [stem_weights(p.query) for p in frame.parts]
        scores = np.zeros((n, len(frame.parts)), dtype=np.float32)
        plain = np.zeros_like(scores)
        scoped = [scopes(p.query, candidates, head) for p in frame.parts]
        asks = [_asks(last_heading(c)) for c in candidates]
        told = numbers_stated(frame.question)
        roles = [kinds.told_roles(frame.question, p) for p in frame.parts]
        askers = [frozenset(kinds.asker_roles(frame.question, p)) for p in frame.parts]
        asks_who = any(p.expect is Expect.WHO for p in frame.parts)
        # the acronyms it names, or spells out ("Centers of Excellence" names the CoE): no one new
        asked_acronyms = (set(kinds.ACRONYM.findall(frame.question)) | spelled_out(frame.question, known)
                          if asks_who else set())
        codes = asker.coded_names(frame.question)  # "I'm a fully remote 18F designer"
        affixes = asker.affixes(frame.question)
        fields = {p.field for p in frame.parts if p.field}
        states = {f: [bool(_STATES[f].search(c.text)) for c in candidates] for f in fields}
        told_or_code = [False] * n
        case = asked_case(frame.question)
        amounts = told_amounts(frame.question) or asked_bounds(frame.question)  # "… for something under $2,500"
        asked_kind, opposite = opposite_kinds(frame.question)
        aside = asker.set_aside(frame.question)  # "(not the guest one)"
        side = asker.asked_side(frame.question)
        done = asker.done_states(frame.question)
        kind_named = kinds.asked_kind_named(frame.question)  # "Is there a specific style guide …?" (NAMED_INSTANCE)
        which = kinds.which_kind(frame.question)  # "Which of my supervisors should sign it?" (WHICH_NAMED)
        need = kinds.asks_need(frame.question)  # "do I need to ask someone before …?" (NEED_STATED)
        origins = [kinds.origin_asked(p.text) for p in frame.parts]  # "when was … set up?" (ORIGIN_STATED)
        question_stems = content_stems(frame.question)
        listed = kinds.listed_roles(candidates) if asks_who and kinds.LIST_ROLES else {}
        paragraphs: dict[int, list[str]] = {}  # per passage, read once (`_in_example`)
        named, cases = named_cases(frame, candidates, own, df)
        for i, c in enumerate(candidates):
            c.vector = bare[i]
            c.stems = own[i]
            c.kinds = kinds.answer_kinds(c.text)
            items = listed.get((id(c.passage), c.text), "")
            if items and Expect.WHO in kinds.answer_kinds(items):
                c.kinds.add(Expect.WHO)  # "New integrations/bots need approval from the following:" (LIST_ROLES)
            factor = 1.0
            # a Chicago page answering a question about the DC office (per part: "… in Tock" scopes that part only)
            outside = c.outside = [any(name not in head[i] and name not in own[i] for name in names)
                                   for names in scoped]
            c.named_case = named[i]
            # outside the case a heading of its page names ("Quarterly/semi-annually"): none of its words over or in
            # the line
            off_case = [bool(words) and not words & (head[i] | own[i])
                        for words in (cases[j].get(c.document, set()) for j in range(len(frame.parts)))]
            if c.code:  # a command or config line: the sentence announcing it answers, and is quoted with it
                factor = CODE_FACTOR
            elif (c.row and _EXAMPLE.match(c.lead_in)) or (EXAMPLE_PARAGRAPHS and _in_example(c, paragraphs)):
                factor = ROW_FACTOR
            elif c.text.rstrip().endswith("?") and ":" not in c.text:  # an FAQ heading asks; "First check: was …?" tells
                factor = QUESTION_FACTOR
            elif is_pointer(c.text, c.passage.section):
                factor = POINTER_FACTOR
            elif _AIM.search(c.text) or about_itself(c.text):
                factor = AIM_FACTOR  # "OBJECTIVE To assess whether screening improves vision" asks, it does not answer
            elif leans_on_context(c.text):
                factor = PRONOUN_FACTOR
            elif (c.fragment and c.kinds == {Expect.OTHER} and len(c.text.split()) <= LABEL_WORDS
                  and not _VERB.search(c.text)):
                factor = LABEL_FACTOR  # "Local and miscellaneous vouchers." names a topic and says nothing of it
            # the row of a table, or the case of a rule, that the asker is in: a preference among the sentences, not
            # evidence that the context answers (`plain` leaves it out for answerability)
            told_or_code[i] = bool((told and same_number(told, c.text))
                                   or (codes and field_line(c.text) and codes & own[i])
                                   or (affixes and (c.row or field_line(c.text)) and affixes & asker.affixes(c.text)))
            same = SAME_QUANTITY if told_or_code[i] else 1.0
            if case and same_case(case, c.text):
                same *= asker.SAME_CASE
            if amounts:  # "… cost about $1,200 …": the rule for "less than $2,500", not the one for "more than"
                same *= threshold_fit(amounts, f"{c.lead_in} {c.text}")
            if opposite and opposite & words_of(c.text) and not asked_kind & words_of(c.text):
                same *= asker.OPPOSITE_CASE  # "Before creating a public GitHub repo …" for "… a private GitHub repo?"
            if aside and aside & words_of(c.text):
                same *= asker.OPPOSITE_CASE  # "The guest Wi-Fi network is "GSA-Guest"" for "(not the guest one)"
            if side and asker.other_side(side, c.heading):
                same *= asker.OPPOSITE_CASE  # "To receive donated hours" for "How do I donate some of my leave?"
            if done and asker.not_yet(done, f"{c.heading} {c.lead_in} {c.text}"):
                same *= asker.OPPOSITE_CASE  # "If your authorization has not yet been approved" for "already approved"
            if kind_named and kinds.names_instance(kind_named, c.text):
                same *= kinds.NAMED_INSTANCE  # "Our publications adhere to 18F’s Content Guide" names a style guide
            elif which and kinds.names_which(which, c.text, question_stems):
                same *= kinds.NAMED_INSTANCE  # "That of your functional supervisor." names which supervisor
            if need and kinds.says_need(c.text):
                same *= kinds.NEED_STATED  # "… you do not need permission to participate"
            # once per sentence, not per part
            someone_new = asks_who and kinds.names_someone_new(f"{c.text} {items}".strip(), asked_acronyms)
            c.support = [float(bare[i] @ qvecs[j]) + 0.3 * _weighted(weights[j], part.stems, own[i] | head[i])
                         for j, part in enumerate(frame.parts)]
            c.heading_match = [max(0.0, float(x)) for x in section_cos[last_heading(c)]]
            for j, part in enumerate(frame.parts):
                total = sum(idf[s] for s in part.stems) or 1.0
                mine, over = own[i], head[i]
                if spelled[j]:  # "I opened a PR …" is named by "Each pull request should be reviewed by …"
                    mine = mine | {a for a, words in spelled[j].items() if words <= mine}
                    over = over | {a for a, words in spelled[j].items() if words <= over}
                lex = sum(idf[s] for s in part.stems & mine) / total if part.stems else 0.0
                lex_head = sum(idf[s] for s in (part.stems & over) - mine) / total if part.stems else 0.0
                fit = kinds.fit(part, c, roles[j], someone_new, askers[j])
                # "what's the default timeout": the line that says what it defaults to (a preference among the
                # sentences, not evidence that the context answers: `plain` leaves it out for answerability)
                field_fit = FIELD_MISFIT if part.field and not states[part.field][i] else 1.0
                section = max(0.0, float(section_cos[last_heading(c)][j]))
                faq = FAQ_BONUS if section >= FAQ_COSINE and asks[i] else 0.0  # the heading asks this question
                if c.named_case[j]:
                    faq += NAMED_BONUS  # the heading is the case the part asks of ("Quarterly/semi-annually")
                value = ((W_BARE + W_CONTEXTUAL) * float(dense[i, j]) + W_LEX * lex + W_HEADING * lex_head
                         + W_PRIOR * c.passage.score + W_SECTION * section + faq)
                plain[i, j] = value * fit * factor * (OUT_OF_SCOPE if outside[j] or off_case[j] else 1.0)
                began = kinds.ORIGIN_STATED if origins[j] and kinds.states_origin(origins[j], c.text, known) else 1.0
                scores[i, j] = plain[i, j] * field_fit * same * began
        for j, part in enumerate(frame.parts):
            if part.field:  # "Default: 300000" says nothing alone: it answers as well as its setting's description
                _inherit_field(candidates, scores[:, j], states[part.field])
        for i, c in enumerate(candidates):
            c.scores = [float(x) for x in scores[i]]
            c.plain = [float(x) for x in plain[i]]
            c.part = int(np.argmax(scores[i]))
            c.own_number = bool(told_or_code[i])
            c.relevance = float(scores[i, c.part])
            c.dense = float(dense[i, c.part])
        return scores
