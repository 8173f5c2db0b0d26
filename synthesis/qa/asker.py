"""The asker's own case, read from the question: the conditions they set ("… if the engineering manager is
unreachable?"), the numbers, sums and codes they state ("I'm only working 3 days", "an 18F designer"), the kind they
ask of ("a private repo", not a public one) and the place or unit they name ("at the DC office"). The reader prefers
sentences stating the asker's case and lowers those stating another's (`reader.Reader.score`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..quantities import quantities
from ..sentences import asked_sentences, asking_sentence, told_statements
from ..stems import STOPWORDS, content_stems, fold_initialisms, stem
from .thresholds import threshold_case
from .wordforms import lexicon

if TYPE_CHECKING:
    from .candidate import Candidate

# A sentence that states the rule for the case the asker sets ("… if the engineering manager is unreachable?" → "If
# the owning team's engineering manager is unreachable for 30 minutes, any other engineering manager may approve"):
# its own condition holds CASE_SHARE of the words of the asker's (and at least two), so it answers over the general
# rule it qualifies. A preference among the sentences, like SAME_QUANTITY, not evidence that the context answers.
SAME_CASE, CASE_SHARE = 1.1, 0.6
# ("unless" states the opposite case: not compared; "When is …?" asks a time, it sets no case)
_CASE = re.compile(r"\b(?:if|when(?!\s+(?:is|are|was|were|do|does|did|will|would|should|can|could|must|may|might|"
                   r"has|have|had)\b)|whenever|in case)\s+([^,;:?.!]+)", re.I)


# A number standing alone: "5" in "with 5 direct reports" or "Number of direct reports: 5", not in "v2", "3.5.1",
# "$40" or "50%" (those are read as quantities, or are no count).
_BARE_NUMBER = re.compile(r"(?<![\w.,$/-])(\d+(?:\.\d+)?)(?![\w/%-]|[.,]\d)")
NUMBER_REACH = 40  # characters either side of a number whose words say what it counts


def numbers_stated(text: str) -> dict[tuple[str, object], set[str]]:
    """The quantities a text states ("3 days" is "72 hours") and its bare numbers ("5 direct reports"), each with
    the content stems around it (what it is a number of: "direct reports", "work week")."""
    spans = [((family, round(value, 6)), pos, pos + len(surface)) for family, value, surface, pos in quantities(text)]
    spans += [(("number", m.group(1)), m.start(), m.end()) for m in _BARE_NUMBER.finditer(text)
              if not any(start <= m.start() < end for _, start, end in spans)]  # "3" of "3 days" is that quantity
    found: dict[tuple[str, object], set[str]] = {}
    for key, start, end in spans:
        around = f"{text[max(0, start - NUMBER_REACH):start]} {text[end:end + NUMBER_REACH]}"
        found.setdefault(key, set()).update(content_stems(around))
    return found


def asked_case(question: str) -> set[str]:
    """The content stems of the conditions the asker sets in asking ("… if the engineering manager is
    unreachable?"); none when the rule is switched off (SAME_CASE 1.0). A condition in the story before the asking
    describes the situation, it asks for no case: "OpenOCD only talks to my board when I run it as root. What file
    do I need to create?" is not asking what to do when running as root."""
    if SAME_CASE == 1.0:
        return set()
    return set().union(*(content_stems(clause) for clause in _case_clauses(question)))


def _case_clauses(question: str) -> list[str]:
    """The conditions set in the asking sentences ("if the engineering manager is unreachable")."""
    asking = [q for q in asked_sentences(question) if q.rstrip().endswith("?")] or [question]
    return [m.group(1) for q in asking for m in _CASE.finditer(q)]


def case_numbers(question: str) -> dict[tuple[str, object], set[str]]:
    """The numbers of the conditions the asker sets in asking ("If I go on an alternative work schedule with nine-hour
    days, how many …"; see `numbers_stated`), years left out: a number elsewhere names a thing or a time ("Section
    508", "CMake 3.25", "my 2 kids", "in 2024")."""
    found: dict[tuple[str, object], set[str]] = {}
    for clause in _case_clauses(question):
        for key, near in numbers_stated(clause).items():
            if not (key[0] == "number" and re.fullmatch(r"(?:19|20)\d\d", str(key[1]))):
                found.setdefault(key, set()).update(near)
    return found


def same_case(case: set[str], text: str) -> bool:
    """The text states a rule under a condition that is the asker's (see SAME_CASE)."""
    if len(case) < 2:
        return False
    return any(len(shared := case & content_stems(m.group(1))) >= 2 and len(shared) >= CASE_SHARE * len(case)
               for m in _CASE.finditer(text))


# A sum of money the asker states ("a regional conference that'll cost about $1,200 all in") against the thresholds
# a rule is stated for (`thresholds.threshold_case`): a sentence with a clause whose threshold the sum meets is the
# asker's rule (SAME_CASE); one all of whose clauses state thresholds it fails is another's (THRESHOLD_MISS).
THRESHOLD_MISS = 0.9


def threshold_fit(amounts: list[float], text: str) -> float:
    """SAME_CASE, THRESHOLD_MISS or 1 for a sentence, by the thresholds it states for the asker's sums."""
    case = threshold_case(amounts, text)
    return SAME_CASE if case else THRESHOLD_MISS if case is False else 1.0


def same_number(told: dict[tuple[str, object], set[str]], text: str) -> bool:
    """The text states a number the asker states, of the same thing: a word around it is a word around theirs
    ("I'm only working 3 days this week" and "Work week: 3 days"; not "a 120-day detail" and "a performance plan
    for 120 days")."""
    return any(key in told and told[key] & near for key, near in numbers_stated(text).items())


# A coded name the asker gives, letters and digits in one word ("18F", "GS-13", "SF-182"): the "Label: value" row
# naming it is their row ("Q2ADA: 18F" for an 18F designer's office symbol), as a number they state picks theirs.
_CODE = re.compile(r"(?<![\w.-])(?:[A-Z][\w-]{0,15}\d[\w-]{0,15}|\d{1,15}[A-Z][\w-]{0,15})(?![\w-])")
# … or an affix the asker writes as one ("channels that start with g-", "the -public suffix"): a table row naming
# the same affix is the one about it (AFFIX_CODES)
AFFIX_CODES = True
_AFFIX = re.compile(r"(?<![\w-])(?:[a-z]{1,12}-|-[a-z]{1,12})(?![\w-])", re.I)


def affixes(text: str) -> set[str]:
    """The affixes the text writes as words ("g-", "-public"), lower-cased (AFFIX_CODES)."""
    return {a.lower() for a in _AFFIX.findall(text)} if AFFIX_CODES else set()


def coded_names(text: str) -> set[str]:
    """The stems of the coded names the text gives ("18f" of "I'm a fully remote 18F designer")."""
    return {stem(w) for w in _CODE.findall(text)}



# A place or unit the question is about: capitalised words or an initialism after "in/at/to/from/near/out of (the)"
# ("at the DC office", "move to New York"); not a possession ("my Mac"). The run's last word names it, and only if
# the retrieved text writes it as a name (capitalised in PROPER_SHARE of its uses): "how to Request leave" is
# title case, not a place.
_NAME = re.compile(r"\b(?:in|at|to|from|near|out of)\s+(?:the\s+)?"
                   r"(?P<name>[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*|[A-Z]{2,}s?)\b")
PROPER_SHARE = 0.8
# … but where something is recorded is no scope of the question: "a desktop app that's already approved in GEAR. How
# do I get it onto my GSA Mac?" asks about installing it, wherever the approval is listed
RECORDED_IN = True
# ("posted" and "registered" are left out: "I'm posted in Chicago for a detail" is where the asker is)
_RECORDED = re.compile(r"\b(?:approved|listed|stored|saved|recorded|logged|documented|tracked|published|found|"
                       r"mentioned|described)\s*$", re.I)


# A sentence about the opposite kind of what is asked ("Before creating a public GitHub repo …, check with your
# project lead" for "Who do I have to check with before creating a private GitHub repo?") states another case's rule:
# it keeps OPPOSITE_CASE of its relevance, unless it names the asked kind too; a question naming both asks of both.
OPPOSITE_CASE = 0.7
_OPPOSITES = (("public", "private"), ("internal", "external"), ("full-time", "part-time"), ("paid", "unpaid"),
              ("permanent", "temporary"), ("domestic", "international"), ("incoming", "outgoing"))


def words_of(text: str) -> set[str]:
    """The text's lower-cased words, hyphenated ones whole ("full-time")."""
    return set(re.findall(r"[a-z]+(?:-[a-z]+)*", text.lower()))


def opposite_kinds(question: str) -> tuple[set[str], set[str]]:
    """The kinds the question asks of ("private") and their opposites ("public"), from a short list of opposite
    pairs; none of a pair the question names both of."""
    said = words_of(question)
    asked = {a for pair in _OPPOSITES for a, b in (pair, pair[::-1]) if a in said and b not in said}
    return asked, {b for pair in _OPPOSITES for a, b in (pair, pair[::-1]) if a in asked}


# "Which wifi should my laptop join (not the guest one)?" was answered with "The guest Wi-Fi network is "GSA-Guest"":
# the kind the asker sets aside by "one" ("not the guest one", "other than the paid ones") is another case's, as an
# opposite kind is (SET_ASIDE; what is set aside keeps OPPOSITE_CASE)
SET_ASIDE = True
_SET_ASIDE = re.compile(r"\b(?:not|other than|besides|except(?:\s+for)?)\s+(?:the\s+|a\s+|an\s+)?"
                        r"(?!(?:the|a|an|this|that|any|same|other|right|wrong|only|last|just|even|really|exactly|"
                        r"single|my|your|our|his|her|their|its|every|each|such)\s)(?P<kind>[a-z][a-z-]+)\s+ones?\b",
                        re.I)


def set_aside(question: str) -> set[str]:
    """The kinds the asker sets aside ("guest" of "(not the guest one)")."""
    return {m.group("kind").lower() for m in _SET_ASIDE.finditer(question)} if SET_ASIDE else set()


def written_as_name(name: str, text: str, *, unused: bool = False) -> bool:
    """The text writes `name` capitalised in PROPER_SHARE of its uses as a word of its own (not a Slack channel's or
    an email address's: "#denver", "denver@gsa.gov"); `unused` when it does not use it."""
    uses = re.findall(rf"(?<![\w#@.-]){re.escape(name)}(?![\w@-])", text, re.I)
    return sum(u[0].isupper() for u in uses) >= PROPER_SHARE * len(uses) if uses else unused


# "Just joined Trello for my project — am I going to be a full Workspace member …?" was answered from the Slack page
# ("You're allowed to join those workspaces …"): a tool the asker joined, or does something on or using, scopes the
# question as a place does, when a retrieved page is titled with its name alone ("Trello") (JOINED_NAMES; review kept
# out a name no page is titled by, "I just joined TTS — when do I get my PIV card?", and the asker's state, "I'm on
# Slack a lot, can I get a second monitor?", "I'm using Slack all day …")
JOINED_NAMES = True
_JOINED = re.compile(r"\b(?P<verb>join|joins|joined|joining|on|using)\s+(?:the\s+)?(?P<name>[A-Z][A-Za-z]+)\b"
                     r"(?!\s+[A-Z])")
_STATE = re.compile(r"(?i)\b(?:i['’]m|i am|we['’]re|we are|they['’]re|they are|you['’]re|you are|is|are|am|be|"
                    r"been|being)(?:\s+\w+ly)?\s*$")


def named_scopes(question: str) -> list[str]:
    """The last word of each place or unit the question names (`_NAME`), not where something is recorded
    (RECORDED_IN)."""
    return [m.group("name").split()[-1] for m in _NAME.finditer(question)
            if not (RECORDED_IN and _RECORDED.search(question[:m.start()]))]


def joined_names(question: str, titles: set[str]) -> list[str]:
    """The tools the asker joined that a retrieved page is titled by alone (JOINED_NAMES; `titles` lower-cased)."""
    if not JOINED_NAMES:
        return []
    return [m.group("name") for m in _JOINED.finditer(question) if m.group("name").lower() in titles
            and not (m.group("verb") in ("on", "using") and _STATE.search(question[:m.start()]))]


# a name that heads (in effect) every retrieved passage, like the organisation's, scopes nothing, but one most of them
# carry does: DC headed 10 of the 11 passages a DC question retrieved, and the 11th, San Francisco's bike parking,
# answered it
SCOPE_SHARE = 0.95
# "Are there lockers I can use at the NYC office?" names the page titled "New York City" by its initials: the page
# is that scope's, and the DC page's lockers are another place's (TITLE_INITIALS)
TITLE_INITIALS = True


def title_initials(title: str) -> str:
    """The initials of a title of two to four capitalised words ("nyc" of "New York City"), or ''."""
    words = re.findall(r"[A-Za-z][\w'-]*", title)
    if not TITLE_INITIALS or not 2 <= len(words) <= 4 or not all(w[0].isupper() for w in words):
        return ""
    return "".join(w[0] for w in words).lower()


def scopes(question: str, candidates: list[Candidate], head: list[set[str]]) -> set[str]:
    """Names a question part sets its scope by ("at the DC office", "to Colorado", "in Tock"): see _NAME; only those
    that title or head some of the retrieved passages but under SCOPE_SHARE of them (a name every page carries, like
    the organisation's, scopes nothing)."""
    seen = {id(c.passage): c for c in candidates}.values()
    found = named_scopes(question) + joined_names(question, {c.passage.title.strip().lower() for c in seen})
    if not found:
        return set()
    text = fold_initialisms(" ".join(f"{c.heading} {c.passage.content}" for c in seen))
    initials = {title_initials(c.passage.title) for c in seen} - {""}
    names = set()
    for word in found:
        if word.lower() not in STOPWORDS and (written_as_name(word, text) or word.lower() in initials):
            names.add(stem(word))
    passages = {id(c.passage): head[i] for i, c in enumerate(candidates)}
    out = set()
    for name in names:
        share = sum(name in h for h in passages.values()) / max(1, len(passages))
        if 0 < share < SCOPE_SHARE:
            out.add(name)
    return out


# The asker's side of a giving ("How do I donate some of my annual leave to them?", "how should I go about giving a
# teammate feedback?") or of a receiving ("My teammate just gave me some tough feedback", "How do I get coworkers to
# donate leave to me?"): a section headed for the other side ("To receive donated hours", "Using donated leave";
# "Giving feedback with power …" for the receiver) states the other side's steps, and its sentences keep
# OPPOSITE_CASE of their relevance (GIVING_SIDE). Only a giving of something that changes hands (leave, hours,
# feedback, an award …): "give a talk" or "give security a heads-up" hands nothing over.
GIVING_SIDE = True
_GIVEN = r"(?:leave|hours|days|time|feedback|award|awards|gift|gifts|money|funds|donations?|bonus|credit)"
_GIVER = re.compile(r"\b(?:I|I'd|I'm|I'll|we|we'd)\b[^.?!]{0,40}?\b(?:(?:give|giving|contribute|contributing)\b"
                    rf"[^.?!]{{0,40}}?\b{_GIVEN}\b|donate\b|donating\b)", re.I)
# (the asker as what is given to, "… donate some of their leave to me", outweighs the asker as a verb's subject, "Can
# I ask colleagues to donate …")
_GIVEN_ME = re.compile(r"\b(?:gave|given|give|sent|donated|donate|offered)\s+me\b|\b(?:give|donate|transfer|send)\b"
                       r"[^.?!]{0,40}?\bto me\b", re.I)
_RECEIVER = re.compile(r"\b(?:I|I've|I'm|we)\b[^.?!]{0,20}?\b(?:receive|receiving|received|was given)\b", re.I)
_GIVING_HEAD = re.compile(r"\b(?:give|giving|donate|donating|donor|donors|contribute|contributing)\b", re.I)
_RECEIVING_HEAD = re.compile(r"\b(?:receive|receiving|recipient|recipients|(?:using|use|get|getting|requesting)\s+"
                             r"(?:donated|given|received)\s+\w+)\b", re.I)


def asked_side(question: str) -> str:
    """'give' or 'receive': the side of a giving the asker is on, or '' for neither or both (GIVING_SIDE)."""
    if not GIVING_SIDE:
        return ""
    if _GIVEN_ME.search(question):
        return "receive"
    giver, receiver = bool(_GIVER.search(question)), bool(_RECEIVER.search(question))
    return "give" if giver and not receiver else "receive" if receiver and not giver else ""


def other_side(side: str, heading: str) -> bool:
    """The heading path is the other side's of a giving (`asked_side`): it names that side and not the asker's."""
    giving, receiving = bool(_GIVING_HEAD.search(heading)), bool(_RECEIVING_HEAD.search(heading))
    return (side == "give" and receiving and not giving) or (side == "receive" and giving and not receiving)


# The asker says something has already happened ("a trip I already got approved in Concur"): a rule for while it has
# not ("If your authorization has not yet been approved, you can make all of your changes …") states another case and
# keeps OPPOSITE_CASE of its relevance (hp43-06; NOT_YET: the same verb up to three words after "has not (yet) been",
# "hasn't been" or "not yet"). Not "before", "prior to" or "until": "secure the approval before you book" still holds
# for one who already booked; nor "is not": "speakers are not permitted to sign" is no earlier case.
NOT_YET = True
_ALREADY = re.compile(r"\balready\s+(?:(?:been|got|gotten|was|were|is|are|had|has|have)\s+)?"
                      r"(?P<done>[a-z]{3,}(?:ed|en))\b", re.I)
_NOT_YET = re.compile(r"(?:\b(?:has|have|had)(?:\s+not|n['’]t)\s+(?:yet\s+)?been|\bnot\s+yet(?:\s+been)?)\s+"
                      r"(?:(?:the|an?|its|your|their|my|our)\s+)?(?P<words>[\w'’-]+(?:\s+[\w'’-]+){0,2})", re.I)


def _verb_stems(word: str) -> set[str]:
    """The stems of an inflected verb form and of its lemma ("taken": "taken", "take"); none for a word that is no
    inflected verb ("need", "open", "been")."""
    forms = lexicon(word)
    lemmas = set(forms.get("VERB", ())) - {word.lower()}
    return {stem(word), *map(stem, lemmas)} if lemmas and "AUX" not in forms else set()


def done_states(question: str) -> set[str]:
    """The stems of what the asker says has already happened ("already got approved" → {"approv"}) (NOT_YET)."""
    return set().union(*(_verb_stems(m.group("done")) for m in _ALREADY.finditer(question))) if NOT_YET else set()


def not_yet(done: set[str], text: str) -> bool:
    """The text states a case in which one of the asker's `done` states has not happened yet."""
    return any(stem(w) in done for m in _NOT_YET.finditer(text) for w in m.group("words").split())


# A question asked of "each" (or "both") of the things a statement before it joins ("I want to see who is staffed to
# which 18F projects and which projects are about to start. Where do I look for each?"): read as one part, nothing
# checks that every thing is answered, so its answer is never 'high' (EACH_ASKED; hp35 had a wrong 'high' answering
# one of two). Not "How much does a license cost each?" (nothing told) nor a yes/no ("Do I need to sign both?").
EACH_ASKED = True
_OF_EACH = re.compile(r"(?i)\b(?:each|both)(?:\s+(?:one|of\s+(?:those|these|them|the\s+two)(?:\s+[\w-]+)?))?\s*\??\s*$")
_JOINS = re.compile(r"(?i)\s(?:and|plus|as well as)\s|,\s*(?:and\s+)?(?:also\s+)?\w")
_YES_NO = re.compile(r"(?i)^\W*(?:do|does|did|can|could|should|will|would|is|are|am|must|may|have|has)\b")


def asks_each(question: str) -> bool:
    """The asking sentence ends asking its question of "each" or "both" of the things the statement before it joins
    ("… my pay stub and also raise how much I put into my TSP. Where do I do each of those?")."""
    asking, told = asking_sentence(question), told_statements(question)
    return (EACH_ASKED and bool(told) and bool(_JOINS.search(told[-1])) and not _YES_NO.match(asking)
            and bool(_OF_EACH.search(asking)))
