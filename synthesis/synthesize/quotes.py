"""How the offline synthesizer quotes sentences: whole, cited, with the list a sentence introduces or belongs to,
and each list's lead-in once. Every quote is verbatim source text."""

from __future__ import annotations

import re

from ..citations import cite
from ..models import headings
from ..pointers import NOT_IT
from ..qa import Candidate, Expect
from ..qa.kinds import mostly_instructions
from ..qa.wordforms import lexicon
from ..sentences import OPTION_TERM, REFERS_BELOW, introduces_list, lead_joint, lead_text, titles
from ..stems import content_stems

Unit = Candidate
MAX_STEPS, MAX_STEP_CHARS = 5, 600  # list items quoted after a lead-in in the summary
# … and for a "how do I" part the list is the answer: up to this many steps (PROCEDURE_STEPS; the finding quotes them
# all, MAX_LIST_STEPS)
PROCEDURE_STEPS, PROCEDURE_CHARS = 8, 900
MAX_LIST_STEPS, MAX_LIST_CHARS = 15, 1500  # a "how do I" part's steps in full, as a finding of their own
SHORT_LIST = 3  # a list item that answers is quoted with its whole list when the list is this short
# … and so is one under a title line (sentences.TITLE_LINES): "Intergovernmental Cooperation Act (IGCA) …" then its
# three conditions, for "What conditions apply?" (TITLED_LISTS). Not one under a heading: the list's top items in
# place of the line chosen lost what was nested under them ("Muting: … In smaller meetings, un-muting also signals
# that you'd like to speak" for "how should I signal I want to talk in a small meeting"), four answers on the loop.
TITLED_LISTS = True
STEP_HEADS = True  # a procedure too long for the summary is quoted by its steps' first sentences (see `list_for`)
# … and so is any list: "we keep these principles in mind: Empathy: …; Curiosity: …; Humility: …" quoted its items
# whole and ran out of room before the fourth, "Transparency" (LIST_HEADS)
LIST_HEADS = True


def titled(u: Unit, units: list[Unit]) -> bool:
    """`u` is an item of a list under a title line of its passage (TITLED_LISTS): a line of the text, not a heading."""
    return TITLED_LISTS and titles(u.lead_in) and any(
        x.text == u.lead_in and not x.fragment and x.passage.id == u.passage.id for x in units)


def same_list(x: Unit, u: Unit) -> bool:
    """`x` can be an item of a list `u` leads: in `u`'s passage, or in the next chunk of its document (a list that
    chunking cut from its lead-in, read under it again: see candidates._rejoin_lists)."""
    return x.passage.id == u.passage.id or (x.document == u.document
                                            and x.passage.chunk_index == u.passage.chunk_index + 1)


def leads(u: Unit, units: list[Unit]) -> bool:
    """Some of `units` are items of a list `u` leads (`same_list`)."""
    return any(x.lead_in == u.text and same_list(x, u) for x in units)


def sentence(text: str) -> str:
    """`text` as a quoted sentence: closed by its own punctuation (inside a closing quote or bracket too: '… your
    "personal user data."'), else a full stop."""
    text = text.strip()
    return text if text.rstrip("\"'”’)]")[-1:] in ".!?:;" else text + "."


def quote(u: Unit, steps: list[Unit] | None = None, more: bool = False) -> str:
    """A sentence as the summary and findings quote it: a list item after its lead-in, then the citation; with
    `steps`, the lead-in followed by those list items in order ("…, follow these steps: Do A; do B; do C."), and
    "…" when the list goes on (`more`)."""
    if LEADLESS_STEPS and steps and not u.lead_in and u.fragment and not any(x.lead_in for x in steps):
        run = join_items(steps)
        return cite(f"{run}; …" if more else run if steps[-1].code else sentence(run),
                    sorted({u.source, *(x.source for x in steps)}))
    if steps:
        # the lead-in sentence itself (an item, when the steps are nested under it), or the item's lead-in
        whole = u.text if all(x.lead_in == u.text for x in steps) else (u.lead_in or u.text)
        lead = lead_text(whole)
        # a line of code is quoted as written: no punctuation taken off or added ("$ sudo make install")
        items = join_items(steps)
        end = "; …" if more else ("" if steps[-1].code else ".")
        who = f"{u.subject}: " if u.subject and u.fragment else ""  # the role a list of duties belongs to
        return cite(f"{who}{lead}{lead_joint(whole)}{items}{end}", sorted({u.source, *(x.source for x in steps)}))
    if u.fragment and u.lead_in:
        text = u.text if u.code else sentence(u.text.rstrip(' ;:,'))
        who = f"{u.subject}: " if u.subject else ""  # "Procurement Analyst: Responsibilities …: Serving as …"
        return cite(f"{who}{lead_text(u.lead_in)}{lead_joint(u.lead_in)}{text}", [u.source])
    if u.subject:  # "--output-junit <file>: This option tells CTest to write …" (the heading it is about)
        return cite(f"{u.subject}: {sentence(u.text)}", [u.source])
    return cite(sentence(u.text), [u.source])


def join_items(items: list[Unit]) -> str:
    """List items as one run: "Do A; do B; do C". Rows of a table, which hold ';' of their own ("Cadence; Tock:
    Weekly; HR Links: Bi-weekly"), are joined with full stops; a line of code is kept as written."""
    sep = ". " if any(x.row for x in items) else "; "
    return sep.join(x.text if x.code else x.text.rstrip(" ;:,.") for x in items)


# A sentence a carried lead-in opens with is carried too: "The best issue titles have three elements …" is quoted once,
# not alone and again as the start of its list's lead-in ("… content name. For example: Talent - …; …", where
# `sentences.sentence_units` joins a bare "For example:" to the sentence before it)
CARRIED_OPENINGS = True


def quote_all(ordered: list[Unit], units: list[Unit] | None = None) -> str:
    """Sentences in reading order, quoted once each: items of one list under their lead-in once ("…are: A; B."),
    and a lead-in that an item already carries is not quoted again on its own. Given all the `units`, lines of code
    are quoted with their block around them."""
    carried = {(u.document, u.lead_in) for u in ordered if u.fragment and u.lead_in}
    quotes: list[str] = []
    run: list[Unit] = []

    def flush() -> None:
        if run:
            if all(x.code for x in run) and units:  # a command is read with the rest of its block: no step missing
                lines, more = code_window(run, units)
                quotes.append(quote(run[0], lines, more))
            else:
                quotes.append(quote(run[0]) if len(run) == 1 else quote(run[0], run))
            run.clear()

    for u in ordered:
        if (u.document, u.text) in carried or (CARRIED_OPENINGS and not u.fragment and any(
                doc == u.document and lead.startswith(f"{u.text} ") for doc, lead in carried)):
            continue  # "The main differences are:" alone, then again before its item (or opening it: below)
        if run and not (u.fragment and u.lead_in and u.source == run[0].source and u.lead_in == run[0].lead_in):
            flush()
        if u.fragment and u.lead_in:
            run.append(u)
        elif units and _introduces(u, units) and not u.lead_in and not leads(u, ordered):
            # a lead-in alone ("Some issues … which can cause crates to get rebuilt are:") says nothing: quoted with
            # its items, or left out when none was retrieved and the finding has more to say
            items, more = upto(items_under(u.text, u, units), MAX_STEPS, MAX_STEP_CHARS)
            if items or len(ordered) == 1:
                quotes.append(quote(u, items, more) if items else quote(u))
        else:
            quotes.append(quote(u))
    flush()
    return " ".join(quotes)


# A lead-in that goes on from the sentence before it: "This link may be:", "These include:", "It can be one of:".
_CONTINUING_LEAD = re.compile(rf"^(?:this|these|that|those|{NOT_IT}it|they|such \w+|the following|following|"
                              r"here are|here is)\b", re.I)


# … or, in the same paragraph, one pointing at its list by "these" or "the following" ("… then click "Group settings"
# on the left navigation. Enable or select these options:" then "- People outside the organization can be members")
THESE_LEADS = True
# (ending on them, after an instruction or a word of the line before: not "Visitors must show one of these IDs at the
# gate:")
_THESE = re.compile(r"\b(?:these|the following)(?:\s+[\w-]+){1,2}\s*:$", re.I)


# … or, in the same paragraph, one offering a way around what the line before says cannot be done easily ("There is
# not an easy way to export the contents of a single channel, for partners or otherwise. If you really want, you
# can:" then its steps): the steps are the answer the first line only qualifies (WORKAROUND_LEADS)
WORKAROUND_LEADS = True
_WORKAROUND = re.compile(r"^[*_]*(?:(?:however|instead|but|still|that said|alternatively)[*_]*,?\s+"
                         r"you\s+(?:can|could|may)\b|"
                         r"if\s+you\s+(?:really|still|do|absolutely|must)\b[^:]*?,?\s*you\s+(?:can|could|may)\b)", re.I)
_CANNOT = re.compile(r"\b(?:there(?:\s+(?:is|are)|['’]s)\s+(?:not|no)\b|can\s*not\b|cannot\b|\w+n['’]t\b|"
                     r"(?:is|are|['’]s)\s+not\b|not\s+possible\b|unable\b)", re.I)


def _introduces(u: Unit, units: list[Unit]) -> bool:
    """`u` is prose that introduces a list: it ends in ':', or it announces "the following …" or is an option's
    term line, and items of its passage hang off it (a sentence naming "the following" with no list after it is a
    sentence like any other)."""
    if u.text.rstrip().endswith(":") or (TITLED_LISTS and not u.fragment and titles(u.text) and leads(u, units)):
        return True
    # (an option's term line introduces its description: sentences.OPTION_ITEMS)
    return ((introduces_list(u.text) or bool(OPTION_TERM.match(u.text)))
            and leads(u, units))


def continued_by(u: Unit, units: list[Unit]) -> Unit | None:
    """The lead-in right after `u` in its passage that continues it ("Collaborators may add a link … This link may
    be:"), when `u` is prose: the list under it says what `u` only announces."""
    if u.fragment or u.text.rstrip().endswith(":"):
        return None
    nxt = next((x for x in units if x.passage.id == u.passage.id and x.position == u.position + 1), None)
    if nxt is None or nxt.lead_in or not nxt.text.rstrip().endswith(":"):
        return None
    if _CONTINUING_LEAD.match(nxt.text) or (
            THESE_LEADS and nxt.paragraph == u.paragraph >= 0 and _THESE.search(nxt.text.rstrip())
            and (_imperative(nxt.text) or content_stems(nxt.text) & content_stems(u.text))):
        return nxt
    if (WORKAROUND_LEADS and nxt.paragraph == u.paragraph >= 0 and _WORKAROUND.match(nxt.text)
            and _CANNOT.search(u.text)):
        return nxt
    return None


def _imperative(text: str) -> bool:
    """The sentence opens on a word the lexicon reads as a verb ("Enable or select these options:")."""
    first = re.match(r"[A-Za-z]+", text)
    return bool(first) and "VERB" in lexicon(first.group(0).lower())


FORWARD_LISTS = True  # a quoted line that refers to a list further on in its passage brings it (`list_below`)


def list_below(quoted: list[Unit], units: list[Unit]) -> tuple[Unit, list[Unit], bool] | None:
    """The list a quoted line points forward to ("a direct link to one of the sponsorship platforms listed below"):
    the first lead-in after the quoted lines in their passage that names a word of what is pointed at ("The
    sponsorship platforms … includes:"), its items, and whether they go on; None when no quoted line points below
    but one that leads its own list ("The platforms we accept are listed below:" has its items already)."""
    if not FORWARD_LISTS:
        return None
    pointing = [u for u in quoted if REFERS_BELOW.search(u.text) and not leads(u, units)]
    if not pointing:
        return None
    named = {w for u in pointing for w in content_stems(REFERS_BELOW.split(u.text)[0].split(",")[-1])}
    passage = quoted[0].passage
    after = max(u.position for u in quoted if u.passage.id == passage.id)
    for x in sorted((x for x in units if x.passage.id == passage.id and x.position > after), key=lambda x: x.position):
        if (not x.lead_in and _introduces(x, units) and named & content_stems(x.text)
                and (items := items_under(x.text, x, units))):
            kept, more = upto(items, MAX_STEPS, MAX_STEP_CHARS)
            return x, kept, more
    return None


NESTED_LEADS = True
# … but an item of a short list that a lead-in introduces ("To request PPL, you’ll need to email the following items
# to your Workforce Relations HR Specialist:") is quoted with its own list, not the notes nested under it: "… What do I
# need to send HR ahead of time to set up paid parental leave?" quoted the forms and their Docusign note, never the
# second item, "A timesheet report for the last 12 months." (OWN_LIST_FIRST; not an item announcing its nested list,
# "… with the following information:", whose items are what it says, nor a step whose sub-steps say how)
OWN_LIST_FIRST = True
# A step of a list that hangs off nothing (prose before it that introduces nothing, no heading over it: "It will
# make booking hotels in Concur easier …" then "1. Log into Concur …") answers a "how do I" part with the list it
# belongs to, when it is numbered or most of its items are instructions: "4. … add your GSA Credit card to Your
# Information > Credit Cards" is the step asked, and "Log into Concur" alone was all the summary quoted
# (LEADLESS_STEPS)
LEADLESS_STEPS = True
LEADLESS_ON, OVERLAP_UNITS = True, 2  # … read on into the next chunk, past this many lines the chunks overlap


# … and so does a numbered step whose lead-in is its section's heading ("Brief overview of finalizing approvals" over
# "1. Completing trip information … 3. Stamp and submit authorization …", no sentence before it ending in ':' to lead
# it): the summary quoted steps 1 and 4 as two answers (HEADED_STEPS)
HEADED_STEPS = True


def headed_steps(u: Unit, expect: Expect) -> bool:
    """`u` is a numbered step, asked by a "how do I" part, under its section's heading as its lead-in."""
    return (HEADED_STEPS and expect is Expect.PROCEDURE and u.step and bool(u.lead_in)
            and u.lead_in == headings(u.passage.section)[-1])


def _leadless_run(u: Unit, units: list[Unit]) -> list[Unit]:
    """The items of the list without a lead-in that `u` is one of, in order: the run of list items around it in its
    passage (items nested under one of them are in the run, not quoted: its own list), each item's first sentence."""
    here = sorted((x for x in units if x.passage.id == u.passage.id), key=lambda x: x.position)
    at = next(k for k, x in enumerate(here) if x is u)
    tops = {x.text for x in here if x.fragment and not x.lead_in and not (x.code or x.row)}

    def item(x: Unit) -> bool:
        return x.fragment and not (x.code or x.row) and (not x.lead_in or x.lead_in in tops)

    start = at
    while start > 0 and item(here[start - 1]) and here[start - 1].position == here[start].position - 1:
        start -= 1
    end = at
    while end + 1 < len(here) and item(here[end + 1]) and here[end + 1].position == here[end].position + 1:
        end += 1
    run = [x for x in here[start:end + 1] if not x.goes_on and not x.lead_in]
    if LEADLESS_ON and end == len(here) - 1:
        # the run closes its chunk: it goes on in the next chunk of its document, after what the chunks overlap
        # ("Feel free to provide more information …", the last item's later sentence), when that chunk was read
        after = sorted((x for x in units if x.document == u.document
                        and x.passage.chunk_index == u.passage.chunk_index + 1), key=lambda x: x.position)
        after = [x for x in after if x.passage.section == u.passage.section]  # the same section's list
        k = 0
        while k < min(len(after), OVERLAP_UNITS) and not item(after[k]):
            k += 1
        seen = {x.text for x in here}  # (an item the chunks overlap on is quoted once)
        while k < len(after) and item(after[k]):
            if not after[k].goes_on and not after[k].lead_in and after[k].text not in seen:
                run.append(after[k])
            if k + 1 < len(after) and after[k + 1].position != after[k].position + 1:
                break
            k += 1
    return run


def list_for(u: Unit, units: list[Unit], expect: Expect) -> tuple[list[Unit], bool]:
    """The list a summary sentence stands for: the items after a lead-in ("If you clicked the link, follow these
    steps:" quoted alone tells nothing), or, for an item that answers, its whole list — any list for a "how do I"
    part, a short one (SHORT_LIST items) for any other, whose items are cases of one rule ("80 hours or less: your
    supervisor; over 80 hours: your supervisor and Business Unit Director"); and whether the list goes on past what
    is quoted. ([], False) when the sentence stands alone."""
    item = False
    if u.code and u.lead_in:  # a command or config line reads with the rest of its block
        return code_window([u], units)
    # prose introducing a list (a list item has a lead-in), or an item other items are nested under (NESTED_LEADS:
    # "Connecting with 18F Leadership Team" quoted alone answered "Who should I route it through?" with nothing)
    if (OWN_LIST_FIRST and u.fragment and u.lead_in and introduces_list(u.lead_in) and leads(u, units)
            and expect is not Expect.PROCEDURE and not introduces_list(u.text) and not u.text.rstrip().endswith(":")
            and 2 <= len(items_under(u.lead_in, u, units)) <= SHORT_LIST):
        lead, item = u.lead_in, True  # the items asked for, not the notes nested under one of them (OWN_LIST_FIRST)
    elif (_introduces(u, units) or (NESTED_LEADS and u.fragment and leads(u, units))) and (
            not u.lead_in or leads(u, units)):
        lead = u.text
    elif u.fragment and (introduces_list(u.lead_in) or titled(u, units) or headed_steps(u, expect)):
        lead, item = u.lead_in, True
    elif not u.fragment and (ahead := steps_ahead(u, units)):
        return upto(ahead, *_room(expect))  # "… enroll using the process below." and the steps after
    elif (LEADLESS_STEPS and expect is Expect.PROCEDURE and u.fragment and not u.lead_in and not u.goes_on
          and not (u.code or u.row)):  # (an item's later sentence is quoted after its first: summary.ITEM_HEAD)
        steps = _leadless_run(u, units)
        if len(steps) < 2 or not (all(x.step for x in steps) or mostly_instructions([x.text for x in steps])):
            return [], False
        return upto(steps, PROCEDURE_STEPS, PROCEDURE_CHARS)
    else:
        return [], False
    items = items_under(lead, u, units)
    if items and all(x.code for x in items):  # the lines it announces, around the best of them ("codegen-units = 16")
        return code_window([max(items, key=lambda x: x.relevance)], units)
    if own := [x for x in items if x.row and x.own_number]:
        # the row for the asker's own number answers, not the whole table ("5 direct reports")
        return upto(own, MAX_STEPS, MAX_STEP_CHARS)[0], True
    if item and expect is not Expect.PROCEDURE and (
            u.row or len(items) > SHORT_LIST or sum(len(x.text) for x in items) > MAX_STEP_CHARS):
        return [], False  # one case of a long list (or a table's row) answers; a short list's cases are read together
    kept, more = upto(items, *_room(expect))
    if (STEP_HEADS and (expect is Expect.PROCEDURE or LIST_HEADS) and more
            and any(x.goes_on for x in kept)):
        # a long procedure is quoted by its steps' first sentences ("4. Add your signature to the bottom of page 1."
        # without its "IMPORTANT: …" notes), so that its later steps fit ("6. Do not fill out Section 4", "8. Login
        # to DocuSign"); the finding quotes them whole
        heads, beyond = upto([x for x in items if not x.goes_on], *_room(expect))
        # (the item that answers best stays whole when the list still fits: "For example, they will work with both
        # the Information Security and Privacy offices" is what "which GSA offices" asks)
        top = max(items, key=lambda x: x.relevance)
        whole, over = upto([x for x in items if not x.goes_on or (x.passage.id == top.passage.id
                                                                   and x.paragraph == top.paragraph)], *_room(expect))
        return (whole, over) if not over else (heads, beyond)
    return kept, more


def _room(expect: Expect) -> tuple[int, int]:
    """How many list items, and characters of them, the summary quotes after a lead-in for a part of this kind."""
    return (PROCEDURE_STEPS, PROCEDURE_CHARS) if expect is Expect.PROCEDURE else (MAX_STEPS, MAX_STEP_CHARS)


def items_under(lead: str, u: Unit, units: list[Unit]) -> list[Unit]:
    """The items `lead` introduces in `u`'s passage (and in the next chunk of its document, when chunking cut the
    list from it: `same_list`), in order: its list's items, without the code lines nested in them when it has any
    ("- Install truststore" and the commands showing how), else the code lines it announces."""
    items = sorted((x for x in units if same_list(x, u) and x.fragment and x.lead_in == lead),
                   key=lambda x: (x.passage.chunk_index, x.position))
    return [x for x in items if not x.code] or items


# A sentence that points below without a colon ("To receive a transit subsidy, you need to enroll using the process
# below.") may be followed by a section of its own whose steps hang off that section's heading, a chunk or two on:
# those steps are its items (BELOW_LISTS; the agent reads up to two chunks after it, see `Agent._continued`)
BELOW_LISTS = True


def steps_ahead(u: Unit, units: list[Unit]) -> list[Unit]:
    """The first list of the two chunks after `u`'s, in order, when `u` points below without a colon and closes its
    chunk (a list or lead-in after it in its own chunk is the one it points at: `continued_by`, `list_below`),
    no code block comes first (that is what it points at), and the list's lead-in or heading shares a word with `u`
    that is not the page title's ("… enroll using the process below." and "Enrolling in transit benefit"); else
    []."""
    if not BELOW_LISTS or u.text.rstrip().endswith(":") or not introduces_list(u.text):
        return []
    at = (u.passage.chunk_index, u.position)
    ahead = sorted((x for x in units if x.document == u.document and at < (x.passage.chunk_index, x.position)
                    and x.passage.chunk_index <= u.passage.chunk_index + 2),
                   key=lambda x: (x.passage.chunk_index, x.position))
    if any(x.passage.chunk_index == at[0] for x in ahead):
        return []  # more of its own chunk follows it: what it points at is there, if anywhere
    first = next((x for x in ahead if x.code or (x.fragment and x.lead_in)), None)
    if first is None or first.code or not (content_stems(first.lead_in) & content_stems(u.text)
                                           - content_stems(u.passage.title)):
        return []  # (a word of the page's title is every section's: "Cancelling transit benefit")
    return [x for x in ahead if x.fragment and not x.code and x.lead_in == first.lead_in]


def code_window(chosen: list[Unit], units: list[Unit]) -> tuple[list[Unit], bool]:
    """Lines of the code block of `chosen` (lines of one block): the whole block when it fits in MAX_STEPS lines,
    else a window of that many lines holding the chosen ones, and whether lines were left out."""
    block = _block(chosen[0], units)
    if len(block) <= MAX_STEPS:
        return block, False
    first = min((block.index(x) for x in chosen if x in block), default=0)
    start = max(0, min(first - 1, len(block) - MAX_STEPS))  # one line before it: "[profile.release]", "$ cd app"
    return block[start:start + MAX_STEPS], True


def _block(u: Unit, units: list[Unit]) -> list[Unit]:
    """The lines of the code block `u` is a line of: the run of code lines around it under the same lead-in."""
    same = sorted((x for x in units if x.passage.id == u.passage.id), key=lambda x: x.position)
    i = same.index(u)
    start, end = i, i
    while start > 0 and same[start - 1].code and same[start - 1].lead_in == u.lead_in:
        start -= 1
    while end + 1 < len(same) and same[end + 1].code and same[end + 1].lead_in == u.lead_in:
        end += 1
    return same[start:end + 1]


def upto(items: list[Unit], steps: int, chars: int) -> tuple[list[Unit], bool]:
    """The first items within `steps` items and `chars` characters (at least one), and whether any were left."""
    kept: list[Unit] = []
    for x in items[:steps]:
        if sum(len(k.text) for k in kept) + len(x.text) > chars and kept:
            break
        kept.append(x)
    return kept, len(kept) < len(items)


def step_list(u: Unit, units: list[Unit]) -> tuple[str, list[Unit], bool]:
    """The whole list of steps `u` belongs to (as its lead-in, or as an item), for a finding: (lead-in, items up to
    MAX_LIST_STEPS / MAX_LIST_CHARS, whether it goes on). A list that opens its chunk hangs off the section heading
    (the sentence ending in ':' stayed in the chunk before): chunking cut it, and it is joined again."""
    if _introduces(u, units) and not u.lead_in:
        lead = u.text
    elif u.fragment and u.lead_in:
        lead = u.lead_in
    else:
        return "", [], False
    # the steps are the outermost list: an item nested under a step ("for Macs: …" under "For Software Name,
    # select") is a detail of that step, not the procedure
    for _ in range(3):
        parent = next((x for x in units if x.text == lead and x.fragment and x.lead_in and same_list(x, u)), None)
        if parent is None:
            break
        lead, u = parent.lead_in, parent
    lead, items = _joined_list(lead, items_under(lead, u, units), units)
    return (lead, *upto(_with_nested(items, units), MAX_LIST_STEPS, MAX_LIST_CHARS))


def _with_nested(items: list[Unit], units: list[Unit], seen: set[int] | None = None) -> list[Unit]:
    """The steps with the items nested under each of them after it, in order ("For Software Name, select; for Macs:
    …; for PCs: …"): a step list is read whole. Each item once, however the texts repeat."""
    seen = {id(x) for x in items} if seen is None else seen
    out: list[Unit] = []
    for x in items:
        out.append(x)
        nested = [y for y in items_under(x.text, x, units) if id(y) not in seen]
        seen.update(id(y) for y in nested)
        out += _with_nested(nested, units, seen)
    return out


def _chunk_run(units: list[Unit], doc_id: str, index: int, *, tail: bool) -> list[Unit]:
    """The list items that end (tail) or open (not tail) chunk `index` of a document: one lead-in's run."""
    chunk = sorted((x for x in units if x.passage.doc_id == doc_id and x.passage.chunk_index == index),
                   key=lambda x: x.position)
    edge = list(reversed(chunk)) if tail else chunk
    run: list[Unit] = []
    for x in edge:
        if not x.fragment or (run and x.lead_in != run[0].lead_in):
            break
        run.append(x)
    return list(reversed(run)) if tail else run


def _joined_list(lead: str, items: list[Unit], units: list[Unit]) -> tuple[str, list[Unit]]:
    """A list that chunking cut in two, whole again: when `items` open their chunk under the section heading (the
    lead-in ending in ':' stayed behind), the previous chunk's trailing items or lead-in start it, and the next
    chunk's opening items continue it."""
    if not items or introduces_list(lead):
        return lead, items
    first = items[0].passage
    before = _chunk_run(units, first.doc_id, first.chunk_index - 1, tail=True)
    after = [x for x in _chunk_run(units, first.doc_id, first.chunk_index + 1, tail=False) if x.lead_in == lead]
    if before and before[0].lead_in.rstrip().endswith(":"):
        return before[0].lead_in, before + items + after
    previous = sorted((x for x in units if x.passage.doc_id == first.doc_id
                       and x.passage.chunk_index == first.chunk_index - 1), key=lambda x: x.position)
    if previous and previous[-1].text.rstrip().endswith(":") and not previous[-1].lead_in:
        return previous[-1].text, items + after
    return lead, items + after
