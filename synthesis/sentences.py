"""Sentences shared by the planner and the offline synthesizer: a passage's sentence units (list items with their
lead-ins, table rows, code lines) and a question's asked sentences. Quantities ("30 minutes") are in
`quantities.py`, what a sentence points at in `pointers.py`, the numbered steps a chunk holds in `lists.py`, and the
words of a text (stopwords, content words, stems, key phrases) in `stems.py`.
"""

from __future__ import annotations

import re
from itertools import islice
from typing import NamedTuple

from .stems import STOPWORDS, WORD as _WORD


_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "approx.", "fig.", "no.", "dr.", "mr.", "mrs.", "ms.", "inc.",
                  "ltd.", "et al.", "cf.", "min.", "max.", "jan.", "feb.", "mar.", "apr.", "jun.", "jul.", "aug.",
                  "sep.", "sept.", "oct.", "nov.", "dec.", "u.s.", "u.k.", "a.m.", "p.m.", "v.", "vol.")
# (a quote or bracket closing the sentence stays with it: 'access your "personal user data." Providing …')
_SENTENCE_END = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"'”’)\]])|(?<=[.!?][\"'”’)\]][\"'”’)\]]))\s+"
                           r"(?=[\"'(\[]?[A-Z0-9`*_])")
_MD_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_MD_MARK = re.compile(r"(\*\*|__|`)")
# a list item's line: its indent, and its number when it is a numbered one
ITEM_LINE = re.compile(r"^(?P<indent>\s*)(?:[-*+•]|(?P<number>\d+)[.)])\s+")
_BULLET = ITEM_LINE
_PLACEHOLDER = "\x00"
_CODE_SPAN = re.compile(r"`[^`\n]+`")
LABEL_LINE = re.compile(r"^\w[\w -]{0,30}:\s*\S")  # a field: "Default: 2", "Owner: Ops", "Type: Number"


def clean_markdown(text: str) -> str:
    """Links to their text, emphasis and code marks removed: what a reader would read aloud."""
    return _MD_MARK.sub("", _MD_LINK.sub(r"\1", text))


# A sentence end inside brackets or a quotation ends no sentence of the text: "… either in public (“Herbert, what do
# you think? I know you have expertise in this area”) or privately (…)." is one sentence, not one that stops at
# "think?" and one that starts mid-quote (QUOTED_ENDS). The pieces are joined only when the bracket or quotation closes
# within QUOTED_PIECES more pieces (a stray "(" never swallows a paragraph).
QUOTED_ENDS = True
QUOTED_PIECES = 3


_NOT_PAIRED = re.compile(r'(?<=\d)"|[:;]-?[()]')  # an inch mark ('a 27" monitor'), an emoticon (":(", ":)")


def _open(piece: str) -> bool:
    """The piece leaves a bracket or a quotation open."""
    piece = _NOT_PAIRED.sub(" ", piece)
    return (piece.count("(") > piece.count(")") or piece.count("“") > piece.count("”")
            or piece.count('"') % 2 == 1)


def _rejoined(parts: list[str]) -> list[str]:
    """`parts` with the pieces of a sentence cut inside brackets or a quotation joined again (QUOTED_ENDS)."""
    out: list[str] = []
    k = 0
    while k < len(parts):
        whole = parts[k]
        if _open(whole):
            for more in range(1, QUOTED_PIECES + 1):
                if k + more >= len(parts):
                    break
                joined = " ".join(parts[k:k + more + 1])
                if not _open(joined):
                    whole, k = joined, k + more
                    break
        out.append(whole)
        k += 1
    return out


def _split_prose(text: str, end: re.Pattern[str] = _SENTENCE_END, *, rejoin: bool = True) -> list[str]:
    protected = text
    for abbr in _ABBREVIATIONS:  # keep "e.g. Foo" in one sentence
        # a whole word ("v." but not the end of "dev."), in the text's own case: a quote stays verbatim ("the U.S.")
        protected = re.sub(r"(?<![\w.])" + re.escape(abbr), lambda m: m.group(0).replace(".", _PLACEHOLDER),
                           protected, flags=re.IGNORECASE)
    parts = [p.strip() for p in end.split(protected) if p.strip()]
    if QUOTED_ENDS and rejoin and len(parts) > 1:
        parts = _rejoined(parts)
    return [p.replace(_PLACEHOLDER, ".") for p in parts]


# A chat message's sentences may start in lower case ("my build dir has stale files in it. is there a flag …?"):
# after "?" or "!" anything starts a sentence; after a full stop, a capital, a word that opens a question or a
# statement of one's own, or (after a word of three letters or more) a last clause that asks ("… for our project.
# good idea for new stuff?"). Abbreviations ("5 p.m. on Friday", "v. 2") are protected before splitting.
_ASKED_END = re.compile(
    r"(?<=[!?])[\"')\]]*\s+(?=\S)|"
    r"(?<=\.)[\"')\]]*\s+(?=[\"'(\[]?(?:[A-Z0-9`*_$]|(?:what|which|who|whom|whose|when|where|why|how|is|are|am|was|"
    r"were|do|does|did|can|could|should|would|will|shall|may|might|must|have|has|had|i|we|you|it|they|my|our|there|"
    r"any|anyone|so|but|and|also)\b))|"
    r"(?<=[A-Za-z]{3}\.)\s+(?=[a-z][^.!?]*\?\s*$)")


def asked_sentences(question: str) -> list[str]:
    """The sentences of a question as people type them: a full stop, '!' or '?' then a space ends one, whatever
    case follows ("… in it. is there …"), except after an abbreviation ("e.g. the", "i.e. what"); and a statement
    that a spaced dash joins to the asking (DASH_STATEMENTS)."""
    pieces = _split_prose(question.strip(), _ASKED_END, rejoin=False)  # (a question's quotes are loose: '27" monitor')
    return [x for p in pieces for x in _dash_statement(p)] if DASH_STATEMENTS else pieces


# Chat joins a statement to its question with a dash as often as with a full stop: "my old manager swore by the
# compliment sandwich for tough convos - is that how we're supposed to do feedback here?", "had a client call clash
# with one of my onboarding classes - how long until it comes around again?" were read as one asking sentence, and
# their story words ("swore", "clash") refused them as topics no page names. A spaced dash (-, --, en or em) before a
# last clause that asks ends the statement (DASH_STATEMENTS) when:
#   * the statement is a clause: a subject pronoun, or a verb form (-ed, -ing, or a form the lexicon knows only as an
#     inflected verb or auxiliary: "had", "swore", "was"); a noun phrase ("Parental leave for adoptive parents of
#     older kids - how many weeks?") names the topic and stays with the asking;
#   * of DASH_STATEMENT_WORDS words or more (with a letter: "9 - 5" is no word), asking nothing itself (no question
#     word: "trying to find out how many hours I can carry over - is it 240?"; not opening on "any idea", "anyone
#     know", "wondering");
#   * not opening on an -ing form: "Writing some docs for pip — should it be "Pip" at the start of a sentence?" names
#     the activity the question is about, a label that `parts.DASH_LABELS` reads (as a statement it lost pip's
#     "spelt all lowercase" line from the answer, pp-05);
#   * not naming two sides ("Consensus vs. just deciding myself — what does the playbook say about each?" compares);
#   * and the asking after the dash is more than DASH_TAIL_WORDS words ("- can you help?", "- is it 240?" only
#     appeal or check: the statement holds the question).
DASH_STATEMENTS = True
DASH_STATEMENT_WORDS = 5
DASH_TAIL_WORDS = 3
_DASH_ASKS = re.compile(r"\s+(?:--?|[—–])\s+(?=(?:what|which|who|whom|whose|when|where|why|how|is|are|am|was|were|do|"
                        r"does|did|can|could|should|would|will|shall|may|might|must|any|anyone)\b[^!?]*\?\s*$)", re.I)
_OPENS_ASKING = re.compile(r"(?i)^\W*(?:(?:what|which|who|whom|whose|when|where|why|how|is|are|am|was|were|do|does|"
                           r"did|can|could|should|would|will|shall|may|might|must)\b(?!['’]t)|any\s+idea|anyone\b|"
                           r"anybody\b|wondering\b|not\s+sure\b)")
_ASKING_WORDS = re.compile(r"(?i)\b(?:what|which|who|whom|whose|when|where|why|how|whether)\b")
_OPENS_ON_ACTIVITY = re.compile(r"^\W*[A-Za-z]{2,}ing\b")  # "Writing some docs for pip — …" (parts.DASH_LABELS)
_SIDES = re.compile(r"(?i)\s(?:vs\.?|versus)\s")  # "Consensus vs. just deciding myself — what does … say about each?"
_TOLD_SUBJECTS = frozenset("i i'm i’m i've i’ve i'd i’d we we're we’re we've we’ve you they he she".split())


def _dash_statement(sentence: str) -> list[str]:
    m = _DASH_ASKS.search(sentence) if sentence.endswith("?") else None
    if not m:
        return [sentence]
    told, asking = sentence[:m.start()].strip(), sentence[m.end():].strip()
    words = [w for w in told.split() if re.search(r"[A-Za-z]", w)]
    if (len(words) < DASH_STATEMENT_WORDS or len(asking.split()) <= DASH_TAIL_WORDS or _OPENS_ASKING.match(told)
            or _OPENS_ON_ACTIVITY.match(told) or _SIDES.search(told)
            or _ASKING_WORDS.search(told) or _DASH_ASKS.search(told) or not _a_clause(words)):
        return [sentence]
    return [told, asking]


def _a_clause(words: list[str]) -> bool:
    """Whether a statement's words hold a subject pronoun or a verb form (see DASH_STATEMENTS)."""
    from .qa.wordforms import lexicon  # (qa imports this module)

    for w in (re.sub(r"[^\w'’-]", "", x).lower() for x in words):
        if w in _TOLD_SUBJECTS:
            return True
        forms = lexicon(w)
        if "VERB" in forms and (re.search(r"\w{2}(?:ed|ing)$", w) or (set(forms) <= {"VERB", "AUX"}
                                                                     and w not in forms["VERB"])):
            return True
    return False


def told_statements(question: str) -> list[str]:
    """The sentences of a question that tell rather than ask ("I'm a supervisor." of "I'm a supervisor. Will the
    agency reimburse me?")."""
    return [s for s in asked_sentences(question) if not s.endswith("?")]


def asking_sentence(question: str) -> str:
    """The sentence that asks ("I'm a supervisor. Will the agency reimburse me?" → the second)."""
    sentences = asked_sentences(question)
    asks = [s for s in sentences if s.endswith("?")]
    return asks[0] if len(asks) == 1 else question.strip()


class Sentence(NamedTuple):
    """One unit of text; a list item knows its lead-in ("A request states:", or the heading above the list)."""

    text: str
    listed: bool = False
    lead_in: str = ""
    code: bool = False  # a line of a code block
    goes_on: bool = False  # a list item's second or later sentence: it goes on from the one before it
    row: bool = False  # a table row, read as "Header: cell; Header: cell"
    paragraph: int = -1  # the paragraph (or list item) of prose it sits in, numbered in the text; -1: a row or code
    label: str = ""  # the label of a word or two the item is nested under, last in its lead-in (LABEL_PARENTS)
    step: bool = False  # an item of a numbered list ("1. Log into Concur …")

    @property
    def fragment(self) -> bool:
        """Not a sentence that stands alone: a list item, a lowercase start, or a ';' ':' ',' ending."""
        return self.listed or self.text[:1].islower() or self.text.rstrip()[-1:] in ";:,"


def _display(line: Sentence, nxt: Sentence, out: list[Sentence]) -> bool:
    """A line read as what the sentence before it introduces stays so unless what follows it is that sentence's list
    (the line was a caption: "… fall into four different categories:" then "Concur flight selection screen") or
    another short line alone in its paragraph with no full stop (lines that are the items: "The detected errors are:"
    then "unlocking an invalid mutex" then "unlocking an unlocked mutex" …)."""
    if nxt.lead_in == line.lead_in and (nxt.listed or nxt.code or nxt.row):
        return False
    alone = sum(x.paragraph == nxt.paragraph for x in out) == 1
    return (nxt.listed or nxt.paragraph < 0 or not alone or len(_WORD.findall(nxt.text)) > DISPLAY_WORDS
            or nxt.text.rstrip()[-1:] in ".!?")  # (a sentence of prose goes on from the line)


def split_sentences(text: str) -> list[str]:
    """Sentences from prose or markdown: headings and table rules dropped, each list item its own unit."""
    return [s.text for s in sentence_units(text)]


MAX_CODE_LINES = 16  # a longer code block is an example to read whole, not lines of fact ("opt-level = 3")


def _starts_in_code(text: str) -> bool:
    """A chunk that opens inside a code block the chunker cut (too long for one chunk): an odd number of fences,
    none first, and no blank line before the first (what precedes it is one run of code lines). A chunk that ends
    inside a block has prose, and so blank lines, before its fence."""
    lines = text.splitlines()
    fences = [i for i, line in enumerate(lines) if line.strip().startswith("```")]
    if len(fences) % 2 == 0 or not lines[0].strip() or lines[0].strip().startswith("```"):
        return False
    return all(line.strip() for line in lines[:fences[0]])


SHORT_ITEMS = True  # keep a list item of one or two words when a sentence ending in ':' introduces it
# An item nested under another has that item as its lead-in ("Five days to ten days in advance for:" then "Training
# (not at a conference) that costs less than $2,500"): read alone, or under the list's heading, it says nothing
NESTED_ITEMS = True
LABEL_PARENTS = True  # … and an item nested under a label of a word or two reads under the label (with what leads it)
# A list led by "For example:" alone is an example of the sentence before it ("You will need to make manual
# adjustments to the timesheet and resubmit it. For example: 1. You submit your timesheet on Thursday …"): that
# sentence leads it too, since "For example:" says nothing of what the items show
EXAMPLE_LEADS = True
_EXAMPLE = re.compile(r"^(?:for (?:example|instance)|e\.g\.|examples?)\s*:?$", re.I)
# A sentence that announces the list after it without a colon: "you will need to submit the following paperwork to
# your supervisor." (then a numbered list), "… are as follows."
_ANNOUNCES = re.compile(r"\b(?:the following(?!\s+(?:day|days|week|weeks|month|months|year|years|morning|evening|"
                        r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|pay period|business day)\b)"
                        r"|as follows)\b", re.I)
_NOTE = re.compile(r"^(?:note|tip|important|caution|warning)\b", re.I)  # an aside between a lead-in and its list
ANNOUNCED_LISTS = True
# A sentence that points at what comes after it: "… you must follow the steps and guidelines below.", "the options
# listed below" (see `announces_next`); REFERS_BELOW is the reference alone, wherever it stands in a sentence
REFERS_BELOW = re.compile(r"\b(?:listed|outlined|described|detailed|shown|given|named|mentioned)\s+below\b", re.I)
_POINTS_BELOW = re.compile(r"\bbelow\s*[.:]?\s*$|" + REFERS_BELOW.pattern, re.I)
TABLE_ITEMS = True  # the rows of a table a sentence ending in ':' introduces are its items
# A short line set apart right after a paragraph ending in ':' ("An overly simple explanation of how we calculate
# utilization rate is:" then the quoted "Billable hours / available hours"; "Send mail to:" then an address) is what
# that sentence introduces, as a list item would be: quoted alone, the lead-in says nothing (DISPLAY_ITEMS). One
# sentence of at most DISPLAY_WORDS words; a paragraph of several sentences after a colon stands on its own.
DISPLAY_ITEMS = True
DISPLAY_WORDS = 20
OPTION_TERM = re.compile(r"^-{1,2}[A-Za-z]")  # a command-line option's term line, heading its description
# A manual's option list written as paragraphs: a term line ("--ignore-installed", "--fair-sched=<no|yes|try>
# [default: no]") then its description. The description's sentences are the term's items: quoted after it
# ("--ignore-installed: Act as if the currently installed version isn't there …") and read with it, since alone
# they never name the option they describe. Up to the next term line, heading, list or table.
OPTION_ITEMS = True
OPTION_TERM_WORDS = 8  # a term line is this short at most, and ends in no full stop


# A line set apart as a title, bold in the source and stripped of its marks at ingest ("Intergovernmental Cooperation
# Act (IGCA) as further detailed in OMB Circular A-97", then "- The project must be linked to federal funding."),
# leads the list right after it as a heading would: read alone, "The project must be linked …" names no act
# (TITLE_LINES). One line of at most TITLE_WORDS words, capitalised, with no closing punctuation.
TITLE_LINES = True
TITLE_WORDS = 14


# (no field, clause, address, link or pronoun: "Slack channel: #travel", "Never share your PIN with anyone, including
# IT staff", "Report it within One Hour"; nor a line opening as a sentence does: an instruction, a pronoun)
_NOT_TITLE = re.compile(r"[:,;@#]|https?://|\bwww\.|\b(?:it|you|your|we|our|they|their|them|my|me|us)\b", re.I)
_SENTENCE_OPENING = re.compile(r"(?:never|always|do|don['’]t|please|make|use|see|check|read|note|you|we|i|it|this|"
                               r"these|they|there|if|when|for)\b", re.I)


def _title_line(lines: list[str], sentences: list[str]) -> str:
    """The paragraph as a title line (TITLE_LINES), or ''."""
    if not TITLE_LINES or len(lines) != 1 or len(sentences) != 1 or OPTION_TERM.match(lines[0]):
        return ""
    line = lines[0].strip()
    words = _WORD.findall(line)
    if (not line[:1].isupper() or line[-1:] in ".!?:;,\"'”’" or len(words) > TITLE_WORDS
            or _NOT_TITLE.search(line) or _SENTENCE_OPENING.match(line)):
        return ""
    # a title capitalises its words ("Vendor Request Instructions"; "… Act (IGCA) as further detailed in OMB Circular
    # A-97"): half of them at least, not "Page last reviewed in March 2023"
    return line if 2 * sum(w[:1].isupper() for w in words) >= len(words) else ""


def titles(lead: str) -> bool:
    """The lead-in is a title (a heading, or a title line: TITLE_LINES), not a sentence introducing its list."""
    return TITLE_LINES and bool(_title_line([lead], [lead])) and not introduces_list(lead)


def _term_line(lines: list[str]) -> str:
    """The paragraph as an option's term line, or ''."""
    if len(lines) != 1 or not OPTION_TERM.match(lines[0]) or len(lines[0].split()) > OPTION_TERM_WORDS:
        return ""
    return "" if lines[0].rstrip().endswith((".", ":", ";", ",")) else lines[0].strip()


# "The Outreach team has a point person for each of the main business units, and they should be your first point of
# contact …" then "- COE - Andrea Sigritz": a sentence giving one thing for each of several introduces the list of
# them that follows it (EACH_OF_LISTS)
EACH_OF_LISTS = True
_EACH_OF = re.compile(r"\b(?:a|an|one)\s+(?:[\w-]+\s+){1,3}(?:for|per) (?:each|every one) of (?:the|our|its|their|"
                      r"these|those)\b", re.I)  # "a point person for each of the …"


# "1. Open a Terminal 2. Run" then a fenced "curl -Is https://<site>.gov | grep -I x-server": a list item right before
# a code block, ending in no full stop, announces it, as a sentence ending in ':' would ("Run: curl …"); before, the
# code hung off the section heading and the two-word item was dropped as too short to quote (STEP_CODE_LEADS)
STEP_CODE_LEADS = True
# "In order to join the TTS Speaker’s Bureau you will need to" then "- Create a headshot and bio …": the last sentence
# of a paragraph of prose left unfinished on a word that cannot end one (no full stop, no colon) is finished by the
# list right after it, and read as ending in ':' (UNFINISHED_LEADS; lower case: "Schedule A" ends on a name)
UNFINISHED_LEADS = True
_UNFINISHED = re.compile(r"\s(?:to|the|a|an|of|include|includes|including|such as)$")
# "To send, **reach out to us in #outreach**. We will:" then "1. Copyedit the message …": a lead of only a pronoun and
# auxiliaries says nothing of what its list is; the sentence before it in its paragraph does, and leads with it (the
# answer to "How do I get a message sent out to all of TTS?" had lost where to ask; BARE_LEADS)
BARE_LEADS = True
_BARE_LEAD = re.compile(r"^(?:we|you|they|he|she|i)(?:\s+(?:will|can|could|should|must|may|might|would|also|then|"
                        r"need to|have to|will need to))+\s*:$", re.I)
# (not after a pointer, a note or thanks: "See the FAQ for details. You can also:"; review)
_ASIDE = re.compile(r"^(?:see|read|refer|for more|note|tip|thanks|thank you)\b", re.I)


_TABLE_RULE = re.compile(r"\|?[|:\-\s]+")


def table_rule(line: str) -> bool:
    """The line is a Markdown table's header rule ("|---|:-:|"), no row."""
    return "-" in line and _TABLE_RULE.fullmatch(line) is not None


# A chunk cut inside a table row opens on the row's tail ("E.g., `redirect_from: /handbook-frontmatter` |") and the
# rows after it: the first of those was read as the table's header, and "| `redirect_to` | If present, this element
# causes the page content to be ignored …" was lost as a header of no rows. Such rows read without a header, their
# cells joined, and the tail loses its pipe: the chunk before holds only the start of a long row (CUT_ROWS). A tail
# that is the pipe alone (a cut at the row's end) counts too.
CUT_ROWS = True


def _cut_row(lines: list[str]) -> bool:
    """Whether the text opens on the tail of a table row: a first line ending in '|' that opens on none, then a row."""
    filled = list(islice((raw.strip() for raw in lines if raw.strip()), 2))  # (the first two lines are enough)
    return (len(filled) == 2 and filled[0].endswith("|") and (filled[0] == "|" or not filled[0].startswith("|"))
            and filled[1].startswith("|") and filled[1].endswith("|"))


# "  - A representative from the diversity guild …" then "  In some cases, you may also want to include …": a line
# at a nested item's own indent, not under its text, is the next paragraph of the item the nested list sits in (the
# rendered text keeps an item's paragraphs on lines of their own); it was read as the nested item going on, and
# quoted as "… a chapter diversity representative In some cases, …" (ITEM_PARAGRAPHS)
ITEM_PARAGRAPHS = True
_ITEM_PARAGRAPH = re.compile(r"^[A-Z][^.!?]*\s[^.!?]*[.!?](?:\s|$)")  # a sentence of its own, not a wrapped line
# "2. **Display Name**: The name that will display when your teammates mention you in Slack. _Required_. You can
# edit …": a one-word sentence after another of its paragraph or item tags it ("Required.", "Optional.",
# "Deprecated."); it was dropped as too short to quote, and with it whether the field is required (TAG_SENTENCES)
TAG_SENTENCES = True
_TAG = re.compile(r"^([_*]{0,2})(?P<word>(?!(?:Note|Notes|Warning|Caution|Important|Tip|Tips|Example|Examples|Hint|"
                  r"Danger|Info|Notice|Update|Reminder|Summary|Background|See|Also)\b)[A-Z][a-z]{2,})\1\.$")
# (emphasis kept by a text not rendered yet; a run-in label opens the sentence after it: "**Warning.** Never …")


def _indent(raw: str) -> int:
    """The columns a line is indented by, a tab as four."""
    line = raw.expandtabs(4)
    return len(line) - len(line.lstrip())


def _tags_kept(out: list[Sentence]) -> list[Sentence]:
    """Each one-word tag sentence joined to the sentence before it in its paragraph (TAG_SENTENCES)."""
    kept: list[Sentence] = []
    for s in out:
        prev = kept[-1] if kept else None
        tag = _TAG.match(s.text)
        if (prev is not None and tag and s.paragraph == prev.paragraph >= 0 and not s.code and not s.row
                and not prev.code and not prev.row and prev.text.rstrip()[-1:] in ".!?"):
            kept[-1] = prev._replace(text=f"{prev.text} {tag['word']}.")
            continue
        kept.append(s)
    return kept


# "Here's a short guide to facilitating an accessible meeting --" then "### Before the meeting" and its items: a
# sentence ending on a dash points at what follows, as one ending in ':' does. Its list, cut into the next chunk, was
# never read, and "What should we set up before and on the day?" lost the ASL interpreters (DASH_LEADS)
DASH_LEADS = True
# (after a word, not after a label's colon, "Default: —"; nor a command's bare "--", "put them after --": review)
_DASH_END = re.compile(r"(?<=[A-Za-z])\s(?:--|—|–)$")
_DASH_NOT_AFTER = frozenset("bare double".split())


def _dash_end(text: str) -> re.Match | None:
    """The dash a sentence ends on when it points at what follows (DASH_LEADS), else None."""
    m = _DASH_END.search(text) if DASH_LEADS else None
    before = re.findall(r"[A-Za-z']+", text[:m.start()])[-1:] if m else []
    return m if before and before[0].lower() not in STOPWORDS | _DASH_NOT_AFTER else None


def introduces_list(text: str) -> bool:
    """A sentence that can introduce a list: it ends in ':' (or a dash, DASH_LEADS), announces "the following …" or
    points at what is below (ANNOUNCED_LISTS), or gives one thing for each of several (EACH_OF_LISTS)."""
    text = text.rstrip()
    return text.endswith(":") or bool(_dash_end(text)) or (
        ANNOUNCED_LISTS and bool(_ANNOUNCES.search(text) or _POINTS_BELOW.search(text))) or (
        EACH_OF_LISTS and bool(_EACH_OF.search(text)))


def announces_next(text: str) -> str:
    """The sentence the text ends on when it introduces what follows it ("… follow these steps:", "… the following
    paperwork.", "… follow the steps and guidelines below."), else '': cut there, it says nothing without what comes
    next. Only the last paragraph is read (a chunk ending in a code block announces nothing)."""
    tail = text.rstrip()
    if not tail or tail.splitlines()[-1].lstrip().startswith("```"):
        return ""
    units = sentence_units(_BLANK_LINES.split(tail)[-1])
    if not units or units[-1].listed or units[-1].code or units[-1].row:
        return ""
    return units[-1].text if introduces_list(units[-1].text) else ""


_BLANK_LINES = re.compile(r"\n[ \t]*\n")
def lead_text(lead: str) -> str:
    """A lead-in as it is quoted before its items: without its closing ':' or full stop (not one that ends an
    abbreviation: "Washington, D.C.")."""
    lead = lead.rstrip().rstrip(":")
    if dash := _dash_end(lead):
        lead = lead[:dash.start()]
    if lead.endswith(".") and re.search(r"[a-z]{2}\.$", lead) and introduces_list(lead):
        lead = lead[:-1]
    return lead


def lead_joint(lead: str) -> str:
    """What joins a lead-in to its items: ': ', or a space after a question ("Do you need any of the following? A …")
    or after a whole sentence that keeps its full stop (an item others are nested under: "… after your final day on
    PPL. The 12 week agreement is in place …", not "PPL.: The 12 week …")."""
    return " " if lead.rstrip().endswith("?") or _CLOSES_SENTENCE.search(lead_text(lead)) else ": "


_CLOSES_SENTENCE = re.compile(r"(?:[A-Za-z0-9]{2}|[)%\]\"'’”])[.!]$")  # not an abbreviation's: "Washington, D.C."


def sentence_units(text: str) -> list[Sentence]:
    """`split_sentences` with each list item marked and given its lead-in, so it can be quoted in context. The lines
    of a short fenced code block are items too, under the sentence that introduces them ("The default settings for
    the release profile are:" then "opt-level = 3"): a config or command example read as one run-on sentence says
    nothing, and its lines are what such a sentence announces. A block left open at the end of the text (cut by
    a chunk boundary) is skipped."""
    out: list[Sentence] = []
    paragraph: list[str] = []
    in_item = False
    lead = ""  # what a list starting here hangs off: a sentence that introduces it (`introduces_list`) or the heading
    code: list[str] | None = None  # the lines of the open fenced block
    step = ""  # … and the list item it sits in, which announces it (STEP_CODE_LEADS)
    whole = True  # the open block starts in this text
    if _starts_in_code(text):
        code, whole = [], False  # a chunk cut from inside a long code block: its first fence closes it

    paragraphs = 0
    term = ""  # the option term line whose description is being read (OPTION_ITEMS)
    items: list[tuple[int, str]] = []  # the open items (indent, text), outermost first (NESTED_ITEMS)
    parent = ""  # the item the current one is nested under
    numbered = False  # the current item is a numbered list's
    label = ""  # … when that is a label of a word or two (LABEL_PARENTS)
    nesting: set[str] = set()  # the items others are nested under: a word or two under one is a link's label, no item
    said = ""  # the last sentence of the last paragraph of prose (EXAMPLE_LEADS)
    shown = ""  # the sentence ending in ':' that closed the paragraph of prose just read, if nothing came since
    displays: list[int] = []  # the lines read as what such a sentence introduces (DISPLAY_ITEMS)

    def flush() -> None:
        nonlocal lead, paragraphs, term, said, shown
        if paragraph:
            sentences = _split_prose(" ".join(paragraph))
            if (DISPLAY_ITEMS and shown and not in_item and not term and len(sentences) == 1
                    and len(_WORD.findall(sentences[0])) <= DISPLAY_WORDS and not _term_line(paragraph)
                    and not sentences[0].rstrip().endswith(":")):  # ("Income:" leads a list of its own)
                paragraphs += 1  # the line the sentence before it introduces: its item (DISPLAY_ITEMS)
                displays.append(len(out))
                out.append(Sentence(sentences[0], True, shown, paragraph=paragraphs))
                lead, said, shown = shown, "", ""  # (a list right after it still hangs off the sentence)
                paragraph.clear()
                return
            shown = sentences[-1] if (not in_item and sentences and sentences[-1].rstrip().endswith(":")) else ""
            if in_item and items and not items[-1][1] and sentences:  # the item's own paragraph, not one under it
                items[-1] = (items[-1][0], sentences[-1])  # what its nested items hang off, as a sentence of it
            paragraphs += 1
            if OPTION_ITEMS and not in_item and (line := _term_line(paragraph)):
                term = line
            elif in_item:
                term = ""  # a list ends an option's description (its items keep their own lead-in)
            if term and not in_item and term != paragraph[0].strip():  # the description of the option term above
                out.extend(Sentence(s, True, term, goes_on=k > 0, paragraph=paragraphs) for k, s in enumerate(sentences))
            else:
                out.extend(Sentence(s, in_item, (parent or lead) if in_item else "", goes_on=in_item and k > 0,
                                    paragraph=paragraphs, label=label if in_item else "", step=in_item and numbered)
                           for k, s in enumerate(sentences))
            if not in_item:  # the paragraph's sentence that introduces a list, if one follows: its last sentence,
                # or one with only asides after it ("… the following paperwork. Note: draft all four first.")
                lead = ""
                for k in range(len(sentences) - 1, -1, -1):
                    if introduces_list(sentences[k]) or (UNFINISHED_LEADS and k == len(sentences) - 1
                                                         and _UNFINISHED.search(sentences[k].rstrip())):
                        lead = sentences[k]
                        # the rule the example is of: the sentence before "For example:", in its paragraph or before it
                        rule = sentences[k - 1] if k else said
                        if EXAMPLE_LEADS and _EXAMPLE.match(lead) and rule and not introduces_list(rule):
                            lead = f"{rule} {lead}"
                        elif (BARE_LEADS and k and _BARE_LEAD.match(lead)  # "To send, reach out … We will:"
                              and not _ASIDE.match(sentences[k - 1]) and not sentences[k - 1].rstrip().endswith("!")):
                            lead = f"{sentences[k - 1]} {lead}"
                        break
                    if not _NOTE.match(sentences[k]):
                        break
                lead = lead or _title_line(paragraph, sentences)
                said = sentences[-1] if sentences and not introduces_list(sentences[-1]) else ""  # (a lead is no rule)
            else:
                said = ""  # a list comes between: the prose before it is no rule of what follows the list
            paragraph.clear()

    header: list[str] = []
    table_lead = ""  # the sentence ending in ':' that introduces the table being read ("Here is a quick comparison:")
    lines = text.splitlines()
    cut = CUT_ROWS and _cut_row(lines)  # the text opens inside a table row: its rows have no header here
    if cut:
        first = next(k for k, raw in enumerate(lines) if raw.strip())
        lines[first] = lines[first].rstrip().rstrip("|").rstrip()  # the row's tail, read as prose
    for raw in lines:
        if code is not None:  # inside a fence: lines as written (a "#" there is a comment, not a heading)
            if raw.strip().startswith("```"):
                if whole and len(code) <= MAX_CODE_LINES:  # the rest of a block too long to cut whole is no fact
                    out.extend(Sentence(c, True, step or lead, code=True) for c in code)
                code, whole, step = None, True, ""
            elif raw.strip():
                code.append(raw.strip())
            continue
        if raw.strip().startswith("```"):
            pending = bool(paragraph)
            flush()
            # the list item the block sits in announces it ("2. Run" then the command): its lead-in (STEP_CODE_LEADS)
            step = (out[-1].text if STEP_CODE_LEADS and pending and in_item and out and out[-1].listed
                    and out[-1].text.rstrip()[-1:] not in ".!?" else "")
            code, in_item, term, said, shown = [], False, "", "", ""
            continue
        line = clean_markdown(raw.strip())  # before splitting: "**Rule.** Next" must split after "Rule."
        if table_rule(line):
            continue
        if not line.startswith("|"):
            header = []
            cut = cut and not paragraph and not out  # (only the rows right after the row's tail)
        if not line or line.startswith("#"):
            flush()
            if line.startswith("#"):
                lead, in_item, term, said, shown = line.lstrip("#").strip(), False, "", "", ""
            continue
        if line.startswith("|"):  # a table row reads as "Header: cell; Header: cell" so numbers keep their subject
            flush()
            term = said = shown = ""
            cells = [c.strip() for c in line.strip("|").split("|")]
            if not header and cut:  # (CUT_ROWS: the header row is in the chunk before)
                header = [""] * len(cells)
            if not header:
                header = cells
                # rows under a sentence ending in ':' are what it introduces, like a list's items
                table_lead = lead if TABLE_ITEMS and lead.endswith(":") and not in_item else ""
                lead, in_item = "", False
                continue
            lead, in_item = "", False
            pairs = [f"{h}: {c}" if h else c for h, c in zip(header, cells) if c and c not in ("—", "-")]
            if pairs:  # a last cell ending in its own full stop keeps it: "… can begin working." not "working.."
                row = "; ".join(pairs)
                row = row if row.rstrip("\"'”’)]")[-1:] in ".!?" else row + "."
                out.append(Sentence(row, bool(table_lead), table_lead, row=True))
            continue
        if "`" in raw:  # a full stop inside inline code ends no sentence: "slower than `ALTER TABLE ... RENAME`, and"
            line = clean_markdown(_CODE_SPAN.sub(lambda m: m.group(0).replace(".", _PLACEHOLDER), raw.strip()))
        if _BULLET.match(line):
            flush()
            shown = ""
            if (UNFINISHED_LEADS and not in_item and lead and _UNFINISHED.search(lead) and out
                    and out[-1].text == lead and not out[-1].listed):
                lead += ":"  # the list finishes the sentence, as its colon would say (UNFINISHED_LEADS)
                out[-1] = out[-1]._replace(text=lead)
            indent = _indent(raw)
            if not in_item:
                items.clear()
            while items and items[-1][0] >= indent:
                items.pop()
            # (a label of a word or two, "Employee", leads nothing: the next item out that says something does)
            parent = next((t for _, t in reversed(items) if t.rstrip().endswith(":") or len(_WORD.findall(t)) >= 3),
                          "") if NESTED_ITEMS else ""
            # … but it names what its items describe: "Key AirTable interfaces: TTSC calendar" leads "Staff to see
            # TTSC events, organizational milestones, etc." (LABEL_PARENTS)
            label = items[-1][1].rstrip(".") if NESTED_ITEMS and LABEL_PARENTS and items else ""
            if label and 1 <= len(_WORD.findall(label)) <= 2 and not label.endswith(":"):
                outer = parent or (lead if lead.rstrip().endswith(":") else "")
                parent = f"{lead_text(outer)}: {label}" if outer else label
            else:
                label = ""
            if parent:
                nesting.add(parent)
            items.append((indent, ""))
            numbered = bool(_BULLET.match(line).group("number"))
            line, in_item = _BULLET.sub("", line), True
        elif (ITEM_PARAGRAPHS and in_item and paragraph and items and items[-1][0] > 0
              and _indent(raw) == items[-1][0]
              and _ITEM_PARAGRAPH.match(line) and not _UNFINISHED.search(paragraph[-1].rstrip())):
            flush()  # a paragraph of the item a nested list sits in, not the nested item's continuation
            while items and items[-1][0] >= _indent(raw):
                items.pop()
            parent = label = ""
        elif in_item and raw[:1] not in (" ", "\t") and not paragraph:
            in_item = False  # an unindented line after a blank one: prose again, not the item's continuation
            items.clear()
            parent = label = ""
        paragraph.append(line)
    flush()
    for k in displays:  # a caption before the list the sentence introduces, or the first of a run of short lines
        if k + 1 < len(out) and not _display(out[k], out[k + 1], out):  # (an HTML list's items as paragraphs)
            out[k] = out[k]._replace(listed=False, lead_in="")
    if TAG_SENTENCES:
        out = _tags_kept(out)
    # two words are a fact when one labels the other ("Default: 2", "Owner: Ops") or in code ("opt-level = 3",
    # "[workspace.dependencies]"), and so is an item of a list a sentence introduces ("CoE has six centers:" then
    # "Data analytics"); otherwise too little to quote
    return [s for s in out if len(_WORD.findall(s.text)) >= 3
            or (len(_WORD.findall(s.text)) == 2 and (s.code or LABEL_LINE.match(s.text)))
            or (SHORT_ITEMS and s.listed and s.lead_in.endswith(":") and s.lead_in not in nesting
                and _WORD.search(s.text))]
