"""The summary's answer sentences: the best answers to each part of the question, quoted with what they need.

`pick_answers` (qa.selection) chooses the sentences; this quotes them as a reader needs them: a list item under
its lead-in (once per summary), a line announcing a list with the list, a short next sentence of the same
paragraph, a list "below" a sentence, and a part whose best answer is one side of a disagreement as how the
disagreement resolves.
"""

from __future__ import annotations

import re

from ..citations import cite
from ..pointers import is_pointer, leans_on_context
from ..qa import Candidate, Expect, Frame, pick_answers
from ..qa.asker import asked_case, same_case
from ..qa.selection import parallel
from ..sentences import introduces_list, split_sentences
from ..verify import as_clause
from . import quotes as quoting
from .contradictions import ClaimConflict, Verdict, resolution
from .linked import linked_steps
from .quotes import (MAX_STEPS, PROCEDURE_CHARS, PROCEDURE_STEPS, continued_by, items_under, list_below, list_for,
                     quote, same_list, upto)
from .quotes import sentence as full_sentence

ONE_LEAD = True  # the summary quotes a lead-in once: a later item under it reads without it
PARAGRAPH_NEXT_WORDS = 20  # the next sentence of a quoted line's paragraph is quoted with it when this short
# … and for a part asking how to do something, when this short and sharing a word with the part: "Start with the
# training request form. That form has annotations …" goes on with how ("Briefly, the book title is used for the name
# of the event and the current date is used for all of the date fields." for "… buy a technical book, and how do I
# actually request it?")
PROCEDURE_NEXT_WORDS = 40
ITEM_HEAD = True  # a later sentence of a list item is quoted after the item's first one …
ITEM_HEAD_WORDS = 15  # … when that is this short
DISPUTE_MARGIN = 0.08  # a disagreement leads a part's answer only when a side is (nearly) the best answer to it


def answer_lines(frame: Frame, units: list[Candidate], disputes: list[tuple[ClaimConflict, Verdict]],
                 by_claim: dict[tuple[int, str], Candidate], gap_parts: set[int],
                 titles: dict[int, str]) -> tuple[list[str], list[Candidate], bool]:
    """The summary's answer sentences, one or two per part, in the question's order.

    A part whose best answer is (nearly) one side of a disagreement is answered with how the disagreement
    resolves; a disagreement about something else never leads the summary.
    """
    candidates = [u for u in units if not leans_on_context(u.text) or u.fragment] or units
    picked = pick_answers(frame, candidates, exclude=gap_parts)
    picked_ids = {id(u) for chosen in picked for u in chosen}  # quoted in their own turn, as answers
    lines: list[str] = []
    answers: list[Candidate] = []
    disputed = False
    stated: set[int] = set()
    quoted: set[str] = set()  # sentences already in the summary, alone or as items of a quoted list
    led: set[tuple] = set()  # (document, lead-in) of the items quoted after their lead-in (ONE_LEAD)
    said_in_leads: set[tuple] = set()  # (document, sentence) of the sentences of those lead-ins
    case = asked_case(frame.question)
    for j, chosen in enumerate(picked):
        if not chosen:
            continue
        best = max(chosen, key=lambda u: u.scores[j])  # a side's section is in its order, not best first
        # a line that states the rule for the asker's own case answers it, whatever the general rule's dispute
        own_case = same_case(case, best.text)
        dispute = _dispute_for(j, frame.parts[j].stems, best, disputes, by_claim, subject=not own_case)
        if dispute is not None and id(dispute[0]) not in stated:
            stated.add(id(dispute[0]))
            disputed = True
            part = frame.parts[j].text
            lines.append(_disagreement(dispute, part if len(frame.parts) > 1 else frame.question, titles))
            continue
        quotes: list[str] = []
        for u in chosen:
            if u.text in quoted or (u.lead_in and u.lead_in in quoted):  # already said, alone or in its list (or
                continue  # the same line on another page)
            if ONE_LEAD and (u.document, u.text) in said_in_leads:
                continue  # said as (part of) a lead-in already: "… and resubmit it. For example: …"
            if quoting.CARRIED_OPENINGS and not u.fragment and any(
                    x.fragment and x.lead_in.startswith(f"{u.text} ") and x.passage.id == u.passage.id
                    and x.text not in quoted for x in chosen):
                continue  # it opens the lead-in of an item chosen too, quoted there with its list
            if u.fragment and u.lead_in and any(
                    x is not u and x.text == u.lead_in and same_list(u, x) and x.text not in quoted
                    and u in items_under(x.text, x, units)[:MAX_STEPS] for x in chosen):
                continue  # its lead-in is chosen too: quoted with its list, from the top, this item among them

            items, more = list_for(u, units, frame.parts[j].expect)
            lead = None if items else continued_by(u, units)
            if lead is not None and lead.text not in quoted:  # "… named Support me. This link may be: A; B."
                items, more = list_for(lead, units, frame.parts[j].expect)  # -- the list is the answer
            if lead is not None and (lead.text in quoted or not items):
                lead = None
            quoted.update(x.text for x in [u, *([lead] if lead else []), *items])
            if items:
                quoted.add(items[0].lead_in)  # the list: a later item of it would quote it again
            # "… you can use the [Docusign template](…) for the Advanced Sick Leave Request": its page's steps
            linked, beyond = ([], False) if items or lead or frame.parts[j].expect is not Expect.PROCEDURE else upto(
                [x for x in linked_steps(u, units) if x.text not in quoted], PROCEDURE_STEPS, PROCEDURE_CHARS)
            quoted.update(x.text for x in linked)
            then = None if items or lead or linked else _next_in_paragraph(
                u, units, quoted, picked_ids,
                PROCEDURE_NEXT_WORDS if frame.parts[j].expect is Expect.PROCEDURE else PARAGRAPH_NEXT_WORDS,
                frame.parts[j].stems)
            # an item whose lead-in the summary has quoted already reads without it ("You will need to make
            # manual adjustments … For example:" once, not before each example step)
            bare = ONE_LEAD and not items and u.fragment and (u.document, u.lead_in) in led
            alone = cite(full_sentence(u.text), [u.source]) if bare else quote(u)
            # a later sentence of a list item reads after the item's own first one, its rule ("Ask TTS Tech
            # Operations before integrating a service with GitHub. Many websites offer …"; ITEM_HEAD)
            head = None if items or lead else _item_head(u, units, quoted, picked_ids)
            if head is not None:
                quoted.add(head.text)
                answers.append(head)
                # (after its lead-in once, as any item: ONE_LEAD)
                ruled = cite(full_sentence(head.text), [head.source]) if bare else quote(head)
                alone = f"{ruled} {cite(full_sentence(u.text), [u.source])}"
            # the lead-in this quote prints: the item's own, its list's, or the sentence it continues
            printed = (lead.text if lead is not None else items[0].lead_in if items
                       else (head.lead_in if head.fragment and not bare else "") if head is not None
                       else u.lead_in if u.fragment and not bare else "")
            if printed:
                led.add((u.document, printed))
                said_in_leads.update((u.document, x) for x in split_sentences(printed))
            if then is not None:
                quoted.add(then.text)
                quotes.append(f"{alone} {cite(full_sentence(then.text), [then.source])}")
            elif linked:  # (under their own heading: "Instructions for using Docusign templates: Login to …")
                quotes.append(f"{alone} {quote(linked[0], linked, beyond)}")
            else:
                quotes.append(f"{alone} {quote(lead, items, more)}" if lead else
                              (quote(u, items, more) if items else alone))
            answers.extend(x for x in [u, *([lead] if lead else []), *items, *linked] if x not in answers)
            below = list_below([u, *([lead] if lead else []), *items], units)
            if below is not None and below[0].text not in quoted:  # "… the platforms listed below": the list
                quoted.update(x.text for x in [below[0], *below[1]])
                quotes.append(quote(*below))
                answers.extend(x for x in [below[0], *below[1]] if x not in answers)
        if quotes:
            lines.append(" ".join(quotes))
    return lines, answers, disputed


def _dispute_for(j: int, stems: set[str], best: Candidate, disputes: list[tuple[ClaimConflict, Verdict]],
                 by_claim: dict[tuple[int, str], Candidate], *, subject: bool = True,
                 ) -> tuple[ClaimConflict, Verdict] | None:
    """The disagreement this part asks about: a side is (nearly) its best answer, or (with `subject`) the
    disputed subject is the part's own subject (two or more of its words, e.g. "approve" and "hotfix" for "who
    approves a hotfix")."""
    for c, v in disputes:
        sides = [by_claim[(x.source, x.text)] for x in (c.a, c.b)]
        if not all(s.part == j for s in sides):
            continue
        close = any(s is best or s.scores[j] + DISPUTE_MARGIN >= best.scores[j] for s in sides)
        if close or (subject and len(set(c.conflict.shared) & stems) >= 2):
            return c, v
    return None


def _disagreement(dispute: tuple[ClaimConflict, Verdict], subject: str, titles: dict[int, str]) -> str:
    verb, clause = as_clause(subject) if subject else ("", "")
    narrow = verb == "explain" and not re.match(r"how (?!quickly|fast|long|soon|often|many|much|far)\b", clause, re.I)
    return resolution(dispute[0], dispute[1], titles=titles, subject=clause if narrow else "")


def _item_head(u: Candidate, units: list[Candidate], quoted: set[str], picked: set[int]) -> Candidate | None:
    """The first sentence of the paragraph `u` goes on in inside a list item (or an option's description), when it
    is short (ITEM_HEAD_WORDS), not quoted yet, not picked as an answer of its own, and says something alone (no
    pointer, nothing it leans on): a handbook's "**Rule.** Why and how." item states its rule first. (An item's
    second paragraph opens with its own first sentence: that one is taken.)"""
    if not (ITEM_HEAD and u.goes_on and u.fragment):
        return None
    first = max((v for v in units if v.passage is u.passage and v.paragraph == u.paragraph
                 and v.position < u.position and not v.goes_on), key=lambda v: v.position, default=None)
    if (first is None or first.text in quoted or id(first) in picked or len(first.text.split()) > ITEM_HEAD_WORDS
            or is_pointer(first.text, first.passage.section) or leans_on_context(first.text)):
        return None
    return first


def _next_in_paragraph(u: Candidate, units: list[Candidate], quoted: set[str], picked: set[int],
                       words: int = PARAGRAPH_NEXT_WORDS, asked: frozenset[str] | set[str] = frozenset(),
                       ) -> Candidate | None:
    """The short sentence right after `u` in the same paragraph, not yet quoted: what a paragraph's answer goes on
    to say ("If you only use GitHub from the web interface, you do not need to configure signing." → "The web
    interface automatically signs your work for you."). None after a lead-in ending in ':' or a question (a line
    announcing a list none of whose items was retrieved does go on: "… choose one of the following compilation
    targets." then "For the STM32F3DISCOVERY board …, use the thumbv7em-none-eabihf target."), and for a sentence
    that is a lead-in (ending in ':' or announcing a list), a question or a pointer itself, one picked as an answer
    (its own turn quotes it), or one that states the same rule for another case (`parallel`: "A secondary
    caregiver receives up to 6 weeks …" after the primary caregiver's 16). Code lines and table rows have no
    paragraph. Up to `words` long; beyond PARAGRAPH_NEXT_WORDS only when it shares a stem with the part (`asked`,
    PROCEDURE_NEXT_WORDS)."""
    if u.paragraph < 0 or u.text.rstrip().endswith((":", "?")):
        return None
    for v in units:
        if (v.passage is u.passage and v.position == u.position + 1 and v.paragraph == u.paragraph
                and id(v) not in picked and v.text not in quoted and len(v.text.split()) <= words
                and (len(v.text.split()) <= PARAGRAPH_NEXT_WORDS or v.stems & asked)
                and not v.text.rstrip().endswith((":", "?")) and not introduces_list(v.text)
                and not is_pointer(v.text, v.passage.section) and not parallel(v, u)):
            return v
    return None
