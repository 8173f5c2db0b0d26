"""The candidate sentences of a context: what the reader scores and the summary quotes.

Each source's passage is cut into sentence units (`sentences.sentence_units`), the document's own bracketed
numbers protected from citation processing, pointers to other pages left out, a list item given the heading it
hangs off, a sentence naming its subject only as "this option" given the reference heading that names it; then the
lists a chunk boundary cut from their lead-in, or cut between their steps, are read under it again and sentences
pointing back are joined.
"""

from __future__ import annotations

import re

from ..citations import protect
from ..lists import ends_in_steps, steps_go_on
from ..models import Passage, headings
from ..pointers import is_pointer, leans_on_context, points_back
from ..qa import Candidate
from ..qa.candidate import field_line
from ..qa.kinds import answer_kinds, mostly_instructions
from ..qa.question import Expect
from ..qa.wordforms import lexicon
from ..sentences import ITEM_LINE, Sentence, announces_next, lead_text, sentence_units
from ..stems import STOPWORDS, content_stems, content_words, stem
from .base import Context

MAX_SENTENCES_PER_SOURCE = 60  # long passages: the first sentences carry the section's point
MAX_CANDIDATES = 150  # sentences read per question (every one is embedded): the answer time is bounded by it
JOIN_WORDS = 40  # a sentence pointing back is joined to the one before it when that one is at most this long
POINTER = re.compile(r"^(see|read|refer to|more in|details in|back to)\b", re.I)
GENERIC_SECTIONS = {"", "overview", "introduction", "intro", "summary", "background", "notes", "general", "details"}
# A short question that opens a paragraph, and the sentence after it, are one unit, as a sentence pointing back and the
# one before it are: "Have questions about a role? Please reach out to the point of contact listed on the
# announcement." read alone names no role, and the question alone answers nothing. Not a question further into a
# paragraph (rhetorical, or the last of a list of questions), and not when the sentence after the answer points back
# at it: that one joins the answer instead (ASKED_BEFORE)
ASKED_BEFORE = True
ASKED_WORDS = 15  # … a question of at most this many words (a longer one is prose that ends in a question mark)
# … and so are a list item of two sentences, a short question and its answer: "- Do I have time to get this
# approved? (Allow at least 20 days.)" read alone says nothing of approval (ASKED_ITEMS). Not an answer that sends
# the reader elsewhere ("See …", "For additional information …", "(Read this document …)") nor one that leads items
# nested under it ("You can add … by following this process:"): review
ASKED_ITEMS = True
_MORE_ELSEWHERE = re.compile(r"^for (?:additional|more) (?:information|details)\b", re.I)  # (and POINTER, below)
# "are not taking a break in employment, then it will be automatically transferred to your next agency …": a chunk
# after the first may open inside a sentence, where the overlap with the chunk before began; its first words, on a
# lower-case function word, are the end of a sentence whose start is there. It was quoted for "How is a detail
# different from just transferring to another job?" (CUT_STARTS; "npm caches …" opens on a name, and stays)
CUT_STARTS = True


def _cut_start(sentence: Sentence) -> bool:
    """A sentence of prose opening on a lower-case stopword: the end of one begun before the chunk (CUT_STARTS)."""
    first = re.match(r"[a-z]+(?=\s)", sentence.text)  # a word of prose: not a term, "until-pass: Allow each …"
    return (first is not None and first.group(0) in STOPWORDS and not sentence.listed and not sentence.code
            and not sentence.row)


def candidates(context: Context) -> list[Candidate]:
    """Every source's sentences as candidates, best source first, up to MAX_CANDIDATES; a list whose lead-in
    closed the chunk before is read under it again, and a sentence pointing back is joined to the one before."""
    units: list[Candidate] = []
    for src in context.sources:  # best source first: a long context stops at the cap, not at its best sentences
        if len(units) >= MAX_CANDIDATES:
            break
        sentences = sentence_units(src.passage.readable)[:MAX_SENTENCES_PER_SOURCE]
        for pos, sentence in enumerate(sentences):
            text = protect(sentence.text)  # the document's own [4] never reads as our citation
            if POINTER.match(text) and len(text.split()) <= 8:
                continue  # "See Database migrations." points elsewhere; it answers nothing itself
            if (CUT_STARTS and pos == 0 and src.passage.chunk_index > 0 and _cut_start(sentence)
                    and src.passage.content.lstrip()[:1].islower()):  # (not "`this` refers to …": review)
                continue  # the rest of a sentence begun in the chunk before (CUT_STARTS)
            lead_in = protect(sentence.lead_in or (section_heading(src.passage) if sentence.listed else ""))
            fragment = sentence.fragment
            if FAQ_ANSWERS and pos == 0 and not lead_in and not fragment and (asked := faq_heading(text, src.passage)):
                fragment, lead_in = True, protect(asked)  # "That of your functional supervisor." (FAQ_ANSWERS)
            elif not lead_in and not fragment and (named := pronoun_heading(sentences, pos, src.passage)):
                fragment, lead_in = True, protect(named)  # "IT Service Desk: They are available …" (HEADED_PRONOUNS)
            # an item after its lead-in is quoted under it: only a list of duties names who it is about
            subject = protect(duty_doer(text, src.passage, lead_in) if fragment and lead_in
                              else subject_heading(text, src.passage) or doer(text, src.passage))
            units.append(Candidate(text=text, source=src.number, position=pos, passage=src.passage,
                                   fragment=fragment, lead_in=lead_in, subject=subject, code=sentence.code,
                                   goes_on=sentence.goes_on, row=sentence.row, paragraph=sentence.paragraph,
                                   label=protect(sentence.label), asked=_asked_before(sentences, pos),
                                   step=sentence.step))
    return _join_back(_rejoin_lists(units))


# "Who wrote the New Supervisor Playbook?": the page's sign-off ("_Carlo Costino_", two chunks after "I have written
# this playbook …", which is what a search finds) is stored as its chunks' author (`ingest.authors`); a question asking
# who wrote something reads it as one more line of each page that names its author and that the question names by its
# title (the title's last word and half its words: not the playbook's author for "Who wrote the content guide?", found
# in review), "Author: Carlo Costino", cited to the page's best passage (AUTHORED)
AUTHORED = True
AFTER_ALL = 10 ** 6  # its position: after every sentence of the passage, next to none of them


def authored(context: Context, question: str) -> list[Candidate]:
    """An "Author: <name>" line for each page in the context whose chunks name its author and whose title the
    question names (see AUTHORED)."""
    lines: list[Candidate] = []
    seen: set[str] = set()
    asked = content_stems(question)
    for src in context.sources if AUTHORED else ():
        author = str(src.passage.metadata.get("author") or "").strip()
        title = [stem(w) for w in content_words(src.passage.title)]
        if (not author or src.passage.doc_id in seen or not title or title[-1] not in asked
                or 2 * len(set(title) & asked) < len(set(title))):
            continue
        seen.add(src.passage.doc_id)
        lines.append(Candidate(text=protect(f"Author: {author}"), source=src.number, position=AFTER_ALL,
                               passage=src.passage))
    return lines


def _asked_before(sentences: list[Sentence], pos: int) -> bool:
    """The sentence at `pos` answers the short question that opens its paragraph of prose just before it, and the
    sentence after it does not point back at it (ASKED_BEFORE); or the two are a list item's question and answer
    (ASKED_ITEMS)."""
    if not ASKED_BEFORE or pos < 1:
        return False
    sentence, before = sentences[pos], sentences[pos - 1]
    here = sentence.paragraph
    if ASKED_ITEMS and sentence.listed and before.listed and before.paragraph == here >= 0:
        after = sentences[pos + 1] if pos + 1 < len(sentences) else None
        answer = sentence.text.rstrip()
        return ((after is None or after.paragraph != here)  # the item's question, then this, and nothing more
                and (pos < 2 or sentences[pos - 2].paragraph != here)
                and before.text.rstrip().endswith("?") and ":" not in before.text
                and not answer.endswith(("?", ":")) and len(before.text.split()) <= ASKED_WORDS
                and not (after is not None and after.lead_in == sentence.text)
                and not (POINTER.match(bare := answer.lstrip("( ")) or _MORE_ELSEWHERE.match(bare))
                and not is_pointer(answer))
    opens = before.paragraph == here >= 0 and (pos < 2 or sentences[pos - 2].paragraph != here)
    after = sentences[pos + 1] if pos + 1 < len(sentences) else None
    return (opens and not before.fragment and not sentence.fragment
            and before.text.rstrip().endswith("?") and ":" not in before.text  # "First check: was …?" tells
            and not sentence.text.rstrip().endswith("?") and len(before.text.split()) <= ASKED_WORDS
            and not (after is not None and after.paragraph == here and points_back(after.text)))


# "Whose signature should I get for the supervisor field?" then "That of your functional supervisor.": an FAQ whose
# questions are headings answers them in a first sentence that leans on the heading, which quoted alone says nothing
# and is kept out of the summary (`pointers.leans_on_context`). It is read as an item under its heading: scored and
# quoted after the question it answers ("Whose signature …? That of your functional supervisor.") (FAQ_ANSWERS)
FAQ_ANSWERS = True


def faq_heading(text: str, p: Passage) -> str:
    """The innermost heading when it asks a question and `text` leans on it (see FAQ_ANSWERS), else ''. Not a
    sentence opening on "This", "These", "Those" or "Such", which points at text before it ("This is different for SES
    members …" opens a later chunk of a long answer; "This happens more often than you'd think."; review)."""
    heading = headings(p.section)[-1].strip() if p.section else ""
    return heading if heading.endswith("?") and leans_on_context(text) and not _POINTS_AT_TEXT.match(text) else ""


_POINTS_AT_TEXT = re.compile(r"(?i)^(?:this|these|those|such|here)\b")


# "They are available 6am-9pm ET." opening its own paragraph under "IT Service Desk", after "… you'll need to contact
# the IT service desk through:" and a list of ways: a sentence opening on "It" or "They" with no sentence before it in
# its paragraph, in a section whose heading's last word the passage used before it, stands for what the section is
# headed with. Quoted alone it is unclear and kept out of the summary; it is read under its heading, "IT Service Desk:
# They are available 6am-9pm ET." (hp75: "what time does the GSA IT help desk open and close?"). Not under
# "Eligibility", where "They are required to finish it within 1 year" stands for the new supervisors of the paragraph
# before, nor opening a later chunk, whose words before it are in the chunk before (review) (HEADED_PRONOUNS)
HEADED_PRONOUNS = True
HEADING_WORDS = 5  # a heading naming a thing: this short
# ("It is important to …", "It can be hard to …" say "it" of nothing: an "It" only before a verb of having or doing)
_HEADED_PRONOUN = re.compile(r"^(?:They\s+(?:are|were|have|can|will|must|should|may|offer|provide|run|open|close|meet|"
                             r"cover|include)|It\s+(?:has|offers|provides|runs|opens|closes|meets|covers|includes))\b")


def pronoun_heading(sentences: list[Sentence], pos: int, p: Passage) -> str:
    """The innermost heading a prose sentence opening its paragraph on "It" or "They" stands for (HEADED_PRONOUNS);
    not a question, a generic section or a long heading."""
    sentence = sentences[pos]
    if (not HEADED_PRONOUNS or pos == 0 or not _HEADED_PRONOUN.match(sentence.text) or sentence.listed
            or sentence.row or sentence.code or sentences[pos - 1].paragraph == sentence.paragraph):
        return ""
    heading = headings(p.section)[-1].strip() if p.section else ""
    words = content_words(heading)
    if not _says_something(heading) or len(heading.split()) > HEADING_WORDS or not words:
        return ""
    before = {stem(w) for x in sentences[:pos] for w in content_words(f"{x.lead_in} {x.text}")}
    return heading if stem(words[-1]) in before else ""


# "This option tells CTest to write …": the sentence names its subject only by its kind; the heading names it.
_THIS_KIND = re.compile(r"^(?:this|that|such an?)\s+(?:option|flag|switch|setting|variable|environment variable|"
                        r"command|subcommand|property|field|value|key|parameter|argument|directive|function|method|"
                        r"module|policy|preset|mode|generator|keyword|entry|member|config|configuration)\b", re.I)
# A heading that names one thing of a reference: an option, an identifier ("--output-junit <file>", "cmakeExecutable",
# "loglevel", "CMAKE_BUILD_TYPE"), not a prose heading ("Run Tests", "Description").
_IDENTIFIER = re.compile(r"^-|[_.()<>$=]|[a-z][A-Z]|^[A-Z0-9_]{2,}$|^[a-z][a-z0-9-]*$")


def subject_heading(text: str, p: Passage) -> str:
    """The innermost heading when `text` names its subject only as "this option", or is a short field line of it
    ("Default: 3" under "net.retry"), and the heading is an identifier."""
    heading = headings(p.section)[-1]
    if not heading or len(heading) > 60 or not (field_line(text) or _THIS_KIND.match(text)) or (
            heading.lower() in GENERIC_SECTIONS):
        return ""
    return heading if _IDENTIFIER.search(heading) else ""


# "Serves as the primary liaison between TTS and GSA's OCIO …" under "Responsibilities > Collaboration with GSA IT" of
# the page "TTS Technology Operations": a role description's line opens on its verb, and who does it is the heading
# (or the title) naming a role or a unit. Quoted alone it answers "who is the go-between?" with no one (DOER).
DOER = True
# a verb's -s form followed by an article ("Provides the …", "Plays a …"), not a plural noun opening a sentence
# ("Teams adapt …", "Requests for approval …", "Teams as a whole decide …", "Access the …" is a command); "Serves as",
# "Acts as"; or "Responsible for …"
_DOERLESS = re.compile(r"^(?P<verb>[A-Z][a-z]+(?<![su])s)\s+(?:a|an|the|its|their|our)\s|"
                       r"^(?:Serves|Acts|Works|Functions)\s+as\s|^(?:Responsible|Accountable)\s+for\s")


# "We are a small team that manages TTS-wide IaaS/PaaS/SaaS contracts …" on the page "TTS Technology Operations": a
# unit describing itself names itself only as "we"; the page (or the section) names it (DOER_SELF)
DOER_SELF = True
_WE_ARE = re.compile(r"^We(?:['’]re|\s+are)\s+(?:a|an|the)\s+(?:[\w-]+\s+){0,3}?(?:team|group|office|division|unit|"
                     r"branch|staff|crew|squad)\b", re.I)
# "Responsibilities may include but are not limited to:" then "- Serving as System Administrators for procurement-
# related systems (EASi, FPDS-NG, CPARs, etc.)" under the heading "Procurement Analyst": a role's duties listed as verbs
# name the role only in the heading (DOER_ITEMS). Only its -ing or -s form ("Serving as …", "Reviews the …"): a base
# form there is as often an instruction to the reader ("Check out the 18F Product Guide for more information on this
# role!"), and a plural noun is no verb ("Contracts over …")
DOER_ITEMS = True
_DUTIES = re.compile(r"\b(?:responsibilit(?:y|ies)|duties|responsible for|accountable for)\b", re.I)
_FIRST_WORD = re.compile(r"^([A-Z][a-z]+)\s")
# (a heading naming a role by its head noun, which the role patterns leave out as a verb or a common word: "Technical
# Lead", "User Experience Design Lead")
_ROLE_HEAD = re.compile(r"\b(?:Lead|Manager|Analyst|Officer|Designer|Engineer|Strategist|Researcher|Specialist|"
                        r"Architect|Writer|Editor)s?$")


def _duty(text: str, lead_in: str) -> bool:
    """A list item opening on a verb's -ing or -s form under a lead-in announcing someone's duties (DOER_ITEMS)."""
    m = _FIRST_WORD.match(text) if DOER_ITEMS and lead_in and _DUTIES.search(lead_in) else None
    if m is None:
        return False
    word, forms = m.group(1).lower(), lexicon(m.group(1))
    return "VERB" in forms and "AUX" not in forms and word not in forms["VERB"] and (
        word.endswith("ing") or bool(_DOERLESS.match(text)))


def duty_doer(text: str, p: Passage, lead_in: str) -> str:
    """The role an item of a list of duties belongs to: the innermost heading naming a role or a unit, never the
    page's title, which names the page ("TTS Acquisition Division Team Roles & Responsibilities"); "" for any other
    item (DOER_ITEMS)."""
    heading = headings(p.section)[-1].strip()
    if not _duty(text, lead_in) or not _says_something(heading):
        return ""
    return heading if Expect.WHO in answer_kinds(heading) or _ROLE_HEAD.search(heading) else ""


def _says_something(name: str) -> bool:
    """A heading or title that can name who does something: short, asking nothing, not a generic section."""
    return bool(name) and len(name) <= 60 and not name.endswith("?") and name.lower() not in GENERIC_SECTIONS


def doer(text: str, p: Passage) -> str:
    """Who does what a sentence opening on its verb says: the innermost heading naming a role or a unit, else the
    page's title when it names one (DOER); the same for a unit describing itself as "we" (DOER_SELF); "" for any
    other sentence."""
    m = _DOERLESS.match(text) if DOER and not text.rstrip().endswith("?") else None
    verb = m and m.group("verb")
    if not (DOER_SELF and _WE_ARE.match(text)) and (
            m is None or (verb and ("VERB" not in lexicon(verb) or "AUX" in lexicon(verb)))):
        return ""  # not "Does the …?"
    for name in [*reversed(headings(p.section)), p.title.strip()]:
        if _says_something(name) and Expect.WHO in answer_kinds(name):
            return name
    return ""


def section_heading(p: Passage) -> str:
    """The passage's own heading when it says something (what a list at the top of a chunk hangs off)."""
    section = headings(p.section)[-1]
    return section if section.lower() not in GENERIC_SECTIONS else ""


REJOIN_LISTS = True


def _rejoin_lists(units: list[Candidate]) -> list[Candidate]:
    """A list whose lead-in closed the chunk before it ("… follow the steps and guidelines below." then, in the next
    chunk, "1. Make a local copy of the Outside Speaker Checklist."), read under that lead-in again when both chunks
    of the document (same collection, same version) are in the context: its opening items hang off the section
    heading, and the lead-in quoted alone says nothing. Numbered steps cut between chunks go on too
    (STEPS_GO_ON)."""
    if not REJOIN_LISTS:
        return units
    by_chunk: dict[tuple, list[Candidate]] = {}
    for u in units:
        by_chunk.setdefault((*u.document, u.passage.chunk_index), []).append(u)
    for (*doc, index), chunk in by_chunk.items():
        last = max(chunk, key=lambda u: u.position)
        nxt = sorted(by_chunk.get((*doc, index + 1), []), key=lambda u: u.position)
        announced = announces_next(last.passage.content)
        if (STEPS_GO_ON and nxt and nxt[0].position == 0 and not announced and ends_in_steps(last.passage.content)
                and nxt[0].passage.section == last.passage.section
                and steps_go_on(last.passage.content, nxt[0].passage.content)):
            _steps_go_on(chunk, nxt)
            continue
        if not nxt or nxt[0].position != 0 or not announced or last.text != protect(announced):
            continue  # (the lead-in must be the passage's own last sentence, and the list must open the next chunk)
        opening = nxt[0].lead_in
        led: set[str] = set()  # the items re-led so far: an item nested under one of them stays under it
        for u in nxt:
            if u.fragment and u.lead_in in led:
                led.add(u.text)  # (and an item nested under that one)
                continue
            # an item under a label of its own ("Docker Hub", then "Smartsheet") keeps it, after the lead-in
            labelled = bool(u.label) and u.lead_in == u.label
            if not u.fragment or not u.lead_in or (u.lead_in != opening and not labelled) or u.code or (
                    FAQ_ANSWERS and u.position == 0 and u.lead_in == protect(faq_heading(u.text, u.passage))):
                break  # (an FAQ's answer stays under its question)
            led.add(u.text)
            u.lead_in = f"{lead_text(last.text)}: {u.label}" if labelled else last.text
            if REJOINED_DUTIES:  # a list of duties found so only now names whose they are
                u.subject = protect(duty_doer(u.text, u.passage, u.lead_in))
    return units


# "Responsibilities may include but are not limited to:" closing one chunk, and "- Holding the final authority … and
# only person to change the terms and conditions of contract." opening the next under "Contracting Officer (CO)": the
# item re-led is a duty of that role, quoted with it (hp74: "who's actually allowed to change the terms and conditions
# of the contract?" was answered without the role) (REJOINED_DUTIES)
REJOINED_DUTIES = True


# A numbered list that chunking cut ("… 5. Enter the following information in Section 3: - Employer Name: …" and, in
# the next chunk, "- Hours Per Week (Average): 40" then "6. Do not fill out Section 4."), read as one list again: the
# next chunk's opening items go on under the lead-ins they had before the cut (see `_steps_go_on`)
STEPS_GO_ON = True


def _steps_go_on(chunk: list[Candidate], nxt: list[Candidate]) -> None:
    """The next chunk's opening items that hang off its heading (chunking cut them from their list: items nested
    under an item of the chunk keep it) under the previous chunk's lead-ins, up to its first line that is no list
    item: a numbered step at the top level under the lead-in of the steps, an indented or bulleted item under the
    last step. Lines and units are matched by the units' text."""
    last = next((line for line in reversed(chunk[0].passage.content.splitlines())
                 if (m := ITEM_LINE.match(line)) and m.group("number") and not m.group("indent")), "")
    as_read = " ".join(x.text for x in sentence_units(last))  # as units read it: no markup
    step = next((u for u in chunk if last and u.fragment and not u.goes_on and u.lead_in and u.text[:40] in as_read),
                None)
    steps = [u.text for u in chunk if step is not None and u.lead_in == step.lead_in and u.fragment and not u.goes_on]
    if step is None or not mostly_instructions(steps):
        return  # (a numbered list of proposals, "We'll cap the number of people …", is no procedure cut short)
    top, last_step, opening = step.lead_in, step.text, nxt[0].lead_in
    lines = [line for line in nxt[0].passage.content.splitlines() if line.strip()]
    read = [" ".join(x.text for x in sentence_units(line)) for line in lines]  # as units read them: no markup
    k = 0
    for u in nxt:
        while k < len(lines) and u.text[:40] not in read[k]:
            if ITEM_LINE.match(lines[k]) is None and u.text[:40] not in " ".join(read[k:k + 2]):
                return  # prose: the list has ended
            k += 1
        if k == len(lines) or (item := ITEM_LINE.match(lines[k])) is None or not u.fragment or u.code:
            return
        if u.goes_on or u.lead_in != opening:
            continue  # (an item nested under one of this chunk's stays under it)
        if item.group("indent") or not item.group("number"):  # (a cut can take an item's indent: a bullet of a
            u.lead_in = last_step  # numbered list is nested under its step)
        else:
            u.lead_in, last_step = top, u.text


def _join_back(units: list[Candidate]) -> list[Candidate]:
    """A sentence that points back ("This request will require approval from your supervisor and the head of your
    division.", "It must be longer than 14 characters.") is one unit with the sentence just before it: read alone
    its subject is missing, so it neither scores for it nor makes sense quoted. Sentences of prose, or a list item's
    later sentence with the item's first ("Change the phone's passcode. It must be longer …"); never code; one join
    per unit, and only after a sentence of at most JOIN_WORDS words. Positions close up behind a
    join, so the unit after the pair is still the next one (a "why" answer reads on from a restated premise)."""
    joined: list[Candidate] = []
    closed: dict[int, int] = {}  # per passage: sentences folded into the one before them so far
    for u in units:
        prev = joined[-1] if joined else None
        key = id(u.passage)
        if (prev is not None and prev.passage is u.passage and prev.position == u.position - closed.get(key, 0) - 1
                and (u.goes_on or (not prev.fragment and not u.fragment))  # (a code line is listed: a fragment)
                and not prev.joined
                and len(prev.text.split()) <= JOIN_WORDS and (points_back(u.text) or u.asked)):
            prev.text = f"{prev.text} {u.text}"
            prev.joined = True
            closed[key] = closed.get(key, 0) + 1
            continue
        u.position -= closed.get(key, 0)
        joined.append(u)
    return joined
