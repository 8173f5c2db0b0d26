"""Picking the sentences that answer: for each part of a question, its best sentence (`Reader.score` ranks them)
and the sentences that complete it (the rest of a procedure, the lines under an FAQ heading asking it, the line
after a reason, a side's own section, a second source nearly as good), in the order the summary quotes them."""

from __future__ import annotations

import re

from ..models import headings
from ..planner import main_noun_phrase
from ..pointers import is_pointer
from ..stems import content_stems, stem
from . import reader
from .candidate import Candidate, last_heading, section_heading
from .every_side import contrast_line, own_words, section_of, shared_section
from .kinds import holds
from .question import Expect, Frame, Part, expected
from .sides import (PRO_FORMS, SideName, frame_case, named_over, names_whole, numbered, split_stems, titled_by,
                    told_apart_by_common)

# Summary sentences after the best, by the number of parts (one part: up to three more; two: two each; three: one
# each; more: none), and how close behind the best each must be: from the best's own page, and from another page
# (which must also share a word with the part, hold the kind of answer it expects and contradict no chosen line).
EXTRA_SENTENCES = {1: 3, 2: 2, 3: 1}
NEXT_RATIO, CLOSE_RATIO = 0.8, 0.9
SAME_PAGE_ANYWHERE = True  # a line of the best's page at NEXT_RATIO follows wherever it stands (see `_next`)
# A "why" question whose best sentence restates its premise (this close in meaning) is answered by what follows it.
RESTATES, REASON_SENTENCES = 0.75, 2
_WHY = re.compile(r"(?i)^(why|how come|what is the reason|what's the reason)\b")
# An answer goes on in the sentence after its best line (in its passage: one section) when it is GOES_ON_RATIO as
# relevant ("The current default is 90 days." after the line that names the archiving tool); a "how do I" answer
# goes on through its section, up to STEP_SENTENCES sentences each STEP_RATIO as relevant ("email Tenant Support
# with the driver's name … Spots are located in the East Courtyard."), and starts with the unbroken run of up to
# STEP_BEFORE instructions just before its best line, each STEP_RATIO as relevant: the best line of a procedure is
# often a later step ("Then click the second link to log in"), and the first steps are the ones before it.
GOES_ON, GOES_ON_RATIO = 1, 0.6
YESNO_GOES_ON = True  # a yes/no answer's sentence goes on in an instruction right after it (what to do instead)
RULE_PURPOSE = True  # … and a rule it quotes is read with the sentence before it that gives its purpose
PURPOSE_RATIO = 0.5  # … at least half as relevant as the best: a reason speaks of something else than the question
_PURPOSE = re.compile(r"(?i)^(?:(?:in order )?to (?:ensure|comply|protect|prevent|avoid|meet|keep|make sure|"
                      r"maintain|preserve|reduce|limit)|because|due to|as required by|for (?:security|legal|"
                      r"privacy|compliance|records) reasons)\b")  # (not "since": "Since March 2020, …" is a time)
# "What's the number of the earlier RFC that concluded TTS should create a security lead position?" was answered
# with "One of the conclusions in this RFC was to create a TTS security lead position …": a line that names what is
# asked only as "this RFC" is read with the sentence before it in its paragraph that names it with the number or name
# asked ("RFC 002 received feedback from across GSA …") (ANTECEDENT; the noun is the question's, and the line itself
# holds no such answer)
ANTECEDENT = True
# (review: a noun the antecedent writes as a name, "RFC", "Form", and a number no unit follows; never a time, "this
# year" after "In fiscal year 2023 …", nor "that said")
_DEMONSTRATIVE = re.compile(r"(?i)\b(?:this|that|these|those|the same)\s+(?!(?:year|day|week|month|quarter|time|"
                            r"period|morning|afternoon|evening|night|weekend|said)\b)([A-Za-z][\w-]*)")


def _identified(noun: str, text: str) -> bool:
    """The text names `noun` with its number: "RFC 002", "Form 87", "Play #6" (ANTECEDENT)."""
    name = rf"(?:{re.escape(noun.upper())}|{re.escape(noun[:1].upper() + noun[1:].lower())})"
    return re.search(rf"\b{name}\s+(?:[Nn]o\.?\s*|#\s*)?(?:[A-Z]{{1,4}}-)?\d[\w.-]*(?!\s*(?:%|percent\b|times\b|"
                     r"(?:second|minute|hour|day|week|month|year)s?\b))", text) is not None


STEP_SENTENCES, STEP_RATIO = 8, 0.45
STEP_BEFORE = 4
# A comparison side whose best line sits under a heading naming the side is answered by that section's best lines
# (this many, each at least SIDE_RATIO as relevant), in the section's order, then the usual room for more.
SIDE_SECTION, SIDE_RATIO = 3, 0.6
SIDE_TITLED = True  # a section whose heading is the side's own words answers it first (see `pick_answers`)
# … and where the page names a side otherwise, the sibling of another side's titled section: "How is speaking in my
# official capacity different from doing it in a personal capacity?" is answered under "Professional vs personal
# capacity > Professional capacity" ("You'll be using GSA funds to travel to the event …") beside "Personal
# capacity": the sibling heading shares the sides' common word and not the other side's own (SIBLING_SIDE)
SIBLING_SIDE = True
# The sides' common word is what is compared ("leaving" of "leaving a public channel and leaving a private one"): of
# the lines naming a side, those using it lead when at least ASPECT_RATIO as relevant as the side's best
COMMON_ASPECT, ASPECT_RATIO = True, 0.9
ASPECT_SHARE = 3  # … when at most a third of the side's lines use it


def compared_word(frame: Frame) -> set[str]:
    """The stems every side of a comparison has that name none of them: not a pro-form ("one") nor a word of a
    side's noun phrase ("channel" of "a public channel and a private channel") (COMMON_ASPECT)."""
    sides = [p for p in frame.parts if p.side is not None]
    if len(sides) < 2:
        return set()
    named = set().union(*(content_stems(main_noun_phrase(p.text)) for p in sides))
    return set.intersection(*(p.own for p in sides)) - named - {stem(w) for w in PRO_FORMS}


def sibling_section(frame: Frame, j: int, candidates: list[Candidate]) -> list[Candidate]:
    """The lines, best first, of the one section beside another side's titled section (same page, same parent)
    headed in as many words as it, with the sides' common words and none of any other side's own (SIBLING_SIDE).
    Nothing when the side's own words are all common ("sick leave" against "advanced sick leave"), when a number
    names the side ("2025 holidays": "2023 holidays" is a third thing), or when more than one section qualifies
    (which of "Annual leave", "Military leave" is "family leave"?)."""
    part = frame.parts[j]
    others = set().union(*(p.own for p in frame.parts if p.side != part.side))
    for other in frame.parts:
        common = other.own & part.own
        mine = part.own - common
        if (other.side is None or other.side == part.side or not common or not mine or len(other.own) < 2
                or any(w[:1].isdigit() for w in mine)):
            continue
        theirs_all = others - common
        for theirs in (c for c in candidates if content_stems(section_heading(c)) == other.own):
            parent = headings(theirs.passage.section)[:-1]
            found = [c for c in candidates if c.scores and c.passage.doc_id == theirs.passage.doc_id
                     and headings(c.passage.section)[:-1] == parent and not is_pointer(c.text, c.passage.section)
                     and (heading := content_stems(section_heading(c))) != other.own and common <= heading
                     and not theirs_all & heading and len(heading) == len(other.own)]
            if len({section_heading(c) for c in found}) == 1:
                return sorted(found, key=lambda c: -c.scores[j])
    return []


SIDE_HEADED = True  # a line under a side's own heading answers that side, whatever other side it names
# A table row with a cell for each side ("Area: Partners; CoE common approach: An agency's OCIO; 18F common approach: A
# program office.") tells the sides apart by its column labels: it answers a side whose label it holds, whatever other
# side another label names ("At an agency, who does CoE usually partner with compared to 18F?"; ROW_SIDES)
ROW_SIDES = True


def sided_row(c: Candidate, name: SideName, others: list[set[str]]) -> bool:
    """`c` is a table row with parallel columns, one labelled by this side and one by each other side ("CoE common
    approach", "18F common approach": the same label but for the side's own words), the row's first cell, its
    header, left out (ROW_SIDES; "Partner agency: …; 18F lead: …" has no such columns: review)."""
    if not ROW_SIDES or not c.row or not others:
        return False
    labels = [content_stems(cell.split(":", 1)[0]) for cell in c.text.split("; ")[1:] if ":" in cell]
    rests = {frozenset(label - name.own) for label in labels if name.own & label and label - name.own}
    return bool(rests) and all(o and any(o & label and frozenset(label - o) in rests for label in labels)
                               for o in others)


# A "how do I" part whose best line is among the first FAQ_SECTION lines under a heading asking that very procedure
# (the reader's FAQ_COSINE) is answered by those lines, from the first through the best, in order.
FAQ_SECTION = 4
PARALLEL_COSINE = 0.9  # a next sentence this close to the best states another case of it, and does not go on


def parallel(c: Candidate, best: Candidate) -> bool:
    """The same sentence for another case ("A secondary caregiver receives up to 6 weeks …" after "A primary
    caregiver receives up to 16 weeks …"; cosine 0.96): the next row of a rule, not the rest of its answer."""
    return c.vector is not None and best.vector is not None and float(c.vector @ best.vector) >= PARALLEL_COSINE


def _asks_the_procedure(c: Candidate, j: int) -> bool:
    """The heading over `c` asks part `j`'s own question (the reader's FAQ cosine), and asks how to do something."""
    asked = last_heading(c).rstrip()
    return (asked.endswith("?") and len(c.heading_match) > j and c.heading_match[j] >= reader.FAQ_COSINE
            and expected(asked) is Expect.PROCEDURE)


# "After my supervisor and director make their recommendation, who gives the final approval?": a best line that
# states the premise (most of its words) and little of what is asked ("Supervisors and Directors will consider … to
# determine their recommendation") is a step before the answer; the answer comes after it in its passage.
AFTER_PREMISE = True
LATER_RATIO = 0.5  # … a later line at least this share as relevant as the best
_PREMISE = re.compile(r"(?i)^\s*(?:after|once)\s+(?P<premise>[^,?]{6,}?),\s*(?P<ask>[^,]+?)\??\s*$")


def restates_premise(part: str, best: Candidate) -> set[str]:
    """The stems of what the part asks when `best` states its "after …" premise (two thirds of its words) and a
    third of what it asks at most; else an empty set."""
    m = _PREMISE.match(part) if AFTER_PREMISE else None
    if m is None:
        return set()
    premise, ask = content_stems(m.group("premise")), content_stems(m.group("ask")) - content_stems(m.group("premise"))
    if (len(premise) >= 2 and len(premise & best.stems) * 3 >= 2 * len(premise)
            and len(ask & best.stems) * 3 <= len(ask)):
        return ask
    return set()


def _after(best: Candidate, candidates: list[Candidate], n: int = REASON_SENTENCES) -> list[Candidate]:
    """The `n` sentences right after `best` in its passage, in order."""
    return sorted((c for c in candidates if c.passage.id == best.passage.id
                   and 0 < c.position - best.position <= n), key=lambda c: c.position)


def _next(chosen: list[Candidate], ranked: list[Candidate], part: Part, j: int) -> Candidate | None:
    """One more sentence for the summary, nearly as good as the best: from the best's own document, one at least
    NEXT_RATIO as relevant (before a procedure's best line: only a neighbour, one that holds the answer kind the
    chosen lack, or one close behind, CLOSE_RATIO); from another document, one close behind (CLOSE_RATIO) that
    shares a word with the part, holds the kind of answer it expects and disagrees with no chosen sentence (a
    second source that answers too, never the other side of a dispute). Never a restatement."""
    # the one reader of disagreement; a condition does not excuse it here ("… allowed on Fridays until 15:00"
    # quoted after "… not allowed on Fridays" reads as agreement)
    from ..synthesize.contradictions import number_conflict, polarity_conflict

    best = max(chosen, key=lambda c: c.scores[j])  # a side's section is quoted in its order, not best first
    expect = part.expect
    for c in ranked[:5]:
        ratio = c.scores[j] / best.scores[j] if best.scores[j] > 0 else 0.0
        if ratio < NEXT_RATIO:
            break
        if any(c.text == x.text for x in chosen):
            continue
        if c.vector is not None and any(x.vector is not None and float(c.vector @ x.vector) >= 0.9
                                        for x in chosen):
            continue  # a restatement
        if c.passage.doc_id != best.passage.doc_id:
            # a weaker line from elsewhere is what makes a summary drift off topic
            if (ratio >= CLOSE_RATIO and part.stems & c.stems and (expect is Expect.OTHER or holds(part, c))
                    and not any(number_conflict(c.text, x.text) or polarity_conflict(c.text, x.text)
                                for x in chosen)):
                return c
            continue
        # the best's own page: the rest of its answer ("Gym memberships are reimbursed with a doctor's note" after
        # what an FSA pays for). For a procedure, a line before its best is background ("The building has 40
        # parking spaces." above "To get a parking permit, email …") unless it neighbours a chosen line, holds the
        # kind of answer the chosen lack, or is close behind.
        after = (c.passage.chunk_index, c.position) > (best.passage.chunk_index, best.position)
        if SAME_PAGE_ANYWHERE and (part.expect is not Expect.PROCEDURE or after):
            return c
        adjacent = any(c.passage.id == x.passage.id and abs(c.position - x.position) == 1 for x in chosen)
        adds_kind = not any(holds(part, x) for x in chosen) and holds(part, c)
        if adjacent or adds_kind or ratio >= CLOSE_RATIO:
            return c
    return None


def pick_answers(frame: Frame, candidates: list[Candidate], *,
                 exclude: set[int] | None = None) -> list[list[Candidate]]:
    """The sentences that answer each part: its best first, or in the passage's order when they are a procedure's
    steps, the lines under an FAQ heading asking it, or a side's own section; for a question of one or two parts,
    more sentences when they continue the first, add what it lacks, or are nearly as good (see `_next`)."""
    picked: list[list[Candidate]] = []
    used: set[int] = set()
    contrast = contrast_line(frame, candidates, exclude or set())
    shared = shared_section(frame, candidates, exclude or set())
    lead = next((k for k, p in enumerate(frame.parts) if p.side is not None and k not in (exclude or ())), None)
    compared = compared_word(frame) if COMMON_ASPECT and frame.comparison else set()
    for j, part in enumerate(frame.parts):
        if exclude and j in exclude:
            picked.append([])
            continue
        ranked = sorted((c for c in candidates if c.scores), key=lambda c: -c.scores[j])
        ranked = [c for c in ranked if not is_pointer(c.text, c.passage.section)] or ranked
        if frame.comparison:  # a side's answer must name the side, and only it: "Use credit hours, or use comp
            # time" names both sides and tells them apart in nothing
            elsewhere = [p for p in frame.parts if p.side != part.side]
            own = own_words(frame, j, [k for k, p in enumerate(frame.parts) if p.side is not None])
            others = [p.own - part.own for p in elsewhere]
            named = numbered(part.text, [p.text for p in elsewhere])
            if named is not None:  # "Tier 1" and "Tier 2 diagnostic tools": the number tells them apart
                side = [c for c in ranked if named.search(f"{c.text} {c.lead_in} {titled_by(c, others)}")]
            else:
                # a line under a heading naming the side names it ("Personal capacity > You'll use your …")
                name = SideName.of(part.text, own)
                side = ([c for c in ranked if name.strictly(f"{c.text} {c.lead_in}", named_over(c, others))]
                        or [c for c in ranked if name.loosely(f"{c.text} {c.lead_in}", named_over(c, others))])
            if told_apart_by_common(part.text, own):  # "variable day" against "variable week"
                side = [c for c in side if names_whole(part.text, f"{c.text} {c.lead_in}", named_over(c, others),
                                                       [p.text for p in elsewhere])] or side
            # (a line under this side's own heading that names only the other side is this side's, told apart from
            # that one: "Maxiflex > Same as Variable Week, but you may work fewer than 10 days per pay period")
            alone = [c for c in side if not any(o and o <= content_stems(c.text) for o in others)
                     or (SIDE_HEADED and own and own <= content_stems(last_heading(c))
                         and not own & content_stems(c.text))
                     or (named is None and sided_row(c, name, others))]
            ranked = alone or side or ranked  # a side whose own lines are all taken is a gap, not the other's
            if ranked and compared:
                # "leaving a public Slack channel and leaving a private one": what is compared ("leave") is in the
                # answer ("you can join and leave public channels as much as you want", not "To invite people to a
                # public Slack channel, …"), when such a line is about as relevant as the side's best
                top = ranked[0].scores[j]
                using = [c for c in ranked if compared <= content_stems(f"{c.text} {c.lead_in}")]
                speaks = [c for c in using if c.scores[j] >= ASPECT_RATIO * top]
                if len(using) * ASPECT_SHARE <= len(ranked):  # (a word most of its lines use tells none apart:
                    ranked = speaks + [c for c in ranked if c not in speaks]  # "running it with Docker / Node")
            if shared is not None:  # the one section that answers every side in the frame's case leads
                ranked = [c for c in ranked if section_of(c) == shared] + [c for c in ranked
                                                                           if section_of(c) != shared]
            elif case := frame_case(frame):
                # "How does after-hours access work at | the D.C. office compared with the New York office?": of
                # the lines naming the side, those under a heading naming all the frame's case lead ("Access the
                # building after hours > Go to the F Street entrance, where 24/7 access is available.", not the
                # office's address)
                speaks = [c for c in ranked if case <= split_stems(c.passage.section)]
                ranked = speaks + [c for c in ranked if c not in speaks]
            if SIDE_TITLED and len(part.own) >= 2 and shared is None:
                # a section headed by the side's very words ("Professional vs personal capacity > Personal
                # capacity") describes it, however little its lines repeat the name ("You'll use your personal
                # leave or participate after work hours."): its lines lead. (A heading of one word, "Tock", is a
                # tool's whole topic, and a page's title its page: neither describes a side.)
                titled = [c for c in ranked if content_stems(section_heading(c)) == part.own]
                if not titled and SIBLING_SIDE:
                    titled = sibling_section(frame, j, candidates)
                ranked = titled + [c for c in ranked if c not in titled]
        best = next((c for c in ranked if id(c) not in used), None)
        if best is None:
            picked.append([])
            continue
        chosen = [best]
        if _WHY.match(part.text) and best.dense >= RESTATES:
            # "Why is my pay less than salary / 26?" — the best line restates the premise ("Note that your pay
            # is a little less than…"); the reason is what the passage says next.
            chosen += _after(best, candidates)
        elif asked := restates_premise(part.text, best):
            # the answer is further on in the document (this chunk or the next): its best line after this one that
            # uses a word of what is asked
            at = (best.passage.chunk_index, best.position)
            later = [c for c in candidates if c.document == best.document
                     and at < (c.passage.chunk_index, c.position) and c.passage.chunk_index <= at[0] + 1
                     and c.scores and c.scores[j] >= LATER_RATIO * best.scores[j]
                     and id(c) not in used and asked & c.stems]
            chosen += [max(later, key=lambda c: c.scores[j])] if later else []
        room = EXTRA_SENTENCES.get(len(frame.parts), 0) if len(chosen) == 1 else 0
        # the answer goes on in the sentence after its best line (a procedure: through its section)
        steps = part.expect is Expect.PROCEDURE
        ratio = STEP_RATIO if steps else GOES_ON_RATIO
        chosen[1:1] = [c for c in _after(best, candidates, STEP_SENTENCES if steps else GOES_ON)
                       if id(c) not in used and c not in chosen and c.scores
                       and c.scores[j] >= ratio * best.scores[j] and not is_pointer(c.text, c.passage.section)
                       and not parallel(c, best)]
        if steps and STEP_BEFORE:  # … and it starts before it: the unbroken run of steps just before it
            at = {c.position: c for c in candidates if c.passage.id == best.passage.id}
            before: list[Candidate] = []
            for k in range(1, STEP_BEFORE + 1):
                c = at.get(best.position - k)
                if (c is None or id(c) in used or c in chosen or not c.scores
                        or c.scores[j] < ratio * best.scores[j] or Expect.PROCEDURE not in c.kinds
                        or is_pointer(c.text, c.passage.section) or parallel(c, best)):
                    break
                before.insert(0, c)
            chosen = before + chosen
        if SIDE_SECTION and ((part.side is not None and part.own and part.own <= content_stems(last_heading(best)))
                             or (len(best.named_case) > j and best.named_case[j])):
            # a side described in a section of its own ("Personal capacity: … You'll use your personal leave …
            # You'll prepare on your own time"): its best lines, in the section's order, tell it apart
            section = sorted((c for c in candidates if c.passage.id == best.passage.id and c.scores
                              and id(c) not in used and c.scores[j] >= SIDE_RATIO * best.scores[j]
                              and not is_pointer(c.text, c.passage.section)
                              and (part.side is not None or not parallel(c, best))),
                             key=lambda c: -c.scores[j])[:SIDE_SECTION]
            chosen = sorted(dict.fromkeys([*chosen, *section]), key=lambda c: c.position)
        if steps and FAQ_SECTION and best.position < FAQ_SECTION and _asks_the_procedure(best, j):
            # "How do I get certified?" under "How do I become certified as a COR?", best answered by its fourth
            # line: the passage under that heading, from its first line through the best, is the procedure, its
            # pointer lines too ("Refer to the FAITAS FAQ to learn how to apply"); a line another part answers
            # better stays that part's, and nothing is added from elsewhere
            others = [k for k in range(len(frame.parts)) if k != j and not (exclude and k in exclude)]
            section = [c for c in candidates if c.passage.id == best.passage.id and c.scores and id(c) not in used
                       and c.position <= best.position and all(c.scores[k] <= c.scores[j] for k in others)]
            chosen = sorted(dict.fromkeys([*chosen, *section]), key=lambda c: c.position)
            room = 0
        for _ in range(room):  # room for sentences that complete the answer
            extra = _next(chosen, [c for c in ranked if id(c) not in used and c not in chosen], part, j)
            if extra is None:
                break
            chosen.append(extra)
        if part.expect is Expect.YESNO and YESNO_GOES_ON:
            # "… it may have been tampered with and should not be used." goes on with what to do instead:
            # "Return the equipment to GSA IT so they can inspect it." (sharing a word with the question or the
            # line it follows, and not another part's better answer)
            others = {id(max((c for c in candidates if c.scores), key=lambda c: c.scores[k]))
                      for k in range(len(frame.parts)) if k != j}
            for c in list(chosen):
                after = next((x for x in _after(c, candidates, 1) if id(x) not in used and x not in chosen
                              and x.scores and x.scores[j] >= GOES_ON_RATIO * best.scores[j]
                              and max(x.scores) <= x.scores[j] and id(x) not in others
                              and x.stems & (frame.stems | c.stems)
                              and Expect.PROCEDURE in x.kinds and not is_pointer(x.text, x.passage.section)),
                             None)
                if after is not None:
                    chosen.insert(chosen.index(c) + 1, after)
        if part.expect is Expect.YESNO and RULE_PURPOSE:
            # "Users are prohibited from deleting messages." says why in the sentence right before it, in its
            # paragraph: "To ensure compliance …, the records retention policy is set to retain all messages forever
            # AND also retain edit and deletion logs for all messages." (a rule read with its reason)
            for c in [c for c in chosen if Expect.YESNO in c.kinds]:
                # (of the rule's own subject, and half as relevant as the best: "Because Google Meet is a web
                # application, there's no installation necessary." is a claim of its own)
                why = next((x for x in candidates if x.passage.id == c.passage.id and x.position == c.position - 1
                            and x.paragraph == c.paragraph >= 0 and _PURPOSE.match(x.text) and x.scores
                            and x.scores[j] >= PURPOSE_RATIO * best.scores[j] and x.stems & c.stems), None)
                if why is not None and why not in chosen and id(why) not in used:
                    chosen.insert(chosen.index(c), why)
        if ANTECEDENT and part.expect is not Expect.PROCEDURE:
            for c in list(chosen):
                nouns = [m.group(1) for m in _DEMONSTRATIVE.finditer(c.text) if stem(m.group(1)) in part.stems]
                named = next((x for x in candidates if x.passage.id == c.passage.id and x.position == c.position - 1
                              and x.paragraph == c.paragraph >= 0 and any(_identified(n, x.text) for n in nouns)
                              and not any(_identified(n, c.text) for n in nouns)), None)
                if named is not None and named not in chosen and id(named) not in used:
                    chosen.insert(chosen.index(c), named)
        if contrast is not None and j == lead and contrast not in chosen:
            chosen.insert(0, contrast)  # the line telling the sides apart leads the first side's answer
        used.update(id(c) for c in chosen)
        for c in chosen:  # it answers this part in the summary: its finding, fit and disputes go with this part
            c.part = j
        picked.append(chosen)
    return picked
