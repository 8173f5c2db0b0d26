"""The sides a comparison question compares ("How do comp time and credit hours differ?" → "comp time", "credit
hours"), what they are compared on ("…, including when receipts are needed") and the frame every side is asked in
("If I leave federal service, what happens to my" annual leave, sick leave, award leave). `question.analyze` makes
each side a part of the frame the reader answers.
"""

from __future__ import annotations

import re

from ..sentences import asked_sentences, asking_sentence, told_statements
from ..stems import QUESTION_WORDS, content_words
from ..stems import words as lower_words

# Explicit comparison words only: "Can I use Slack instead of email?" is a yes/no question, not two sides.
_COMPARE = re.compile(r"\b(differ\w*|different|difference|versus|vs\.?|compare\w*|comparison|as opposed to)\b", re.I)
# "different" before a noun it counts or sets apart compares nothing: "if two different offices want to hire them",
# "how can I choose a different file name"
_ATTRIBUTIVE = re.compile(r"\b(?:a|an|another|two|three|four|several|many|\d+)\s+different\s+(?=[a-z])", re.I)


def compares(text: str) -> bool:
    """The text asks for a comparison ("How do X and Y differ?"), not a different one of something."""
    return bool(_COMPARE.search(_ATTRIBUTIVE.sub(" ", text))) or _sets_apart(text) is not None


# … and what sets one side apart from the other ("When I'm giving a teammate feedback, what separates coaching from
# evaluation?", "what distinguishes X from Y", "how do I tell X apart from Y", "how can I tell X from Y"): the two
# sides of a difference (SETS_APART)
SETS_APART = True
_SETS_APART = re.compile(r"\bwhat\s+(?:(?:really|actually|exactly)\s+)?(?:separates|distinguishes|differentiates)\s+"
                         r"(?P<a>.+?)\s+from\s+(?P<b>[^?!]+)|\bwhat\s+sets\s+(?P<c>.+?)\s+apart\s+from\s+(?P<d>[^?!]+)|"
                         r"\bhow (?:do|can|would|should) (?:i|we|you|one) (?:tell|distinguish)\s+(?P<e>.+?)\s+"
                         r"(?:apart from|from)\s+(?P<f>[^?!]+)", re.I)
# (a side that says what to do or asks a clause is no side: "How do I tell npm to install from a local folder?",
# "… tell CMake from the command line which compiler to use?", "… tell my manager from HR that I am leaving?")
_NO_SIDE = re.compile(r"\b(?:to|which|what|how|that|whether|when|where|who|why)\b", re.I)


def _sets_apart(text: str) -> re.Match | None:
    """The match of SETS_APART's wording whose sides are both things, or None."""
    m = _SETS_APART.search(text) if SETS_APART else None
    return m if m is not None and not any(_NO_SIDE.search(x) for x in m.groups() if x) else None


_SIDE_SPLIT = re.compile(r"\s+(?:vs\.?|versus|compared (?:to|with)|as opposed to|rather than|instead of|"
                         r"differ(?:s)? from|(?:is |are )?different (?:from|than)|and|or)\s+", re.I)
SIDE_LEAD = re.compile(r"^(?:what(?:'s| is| are)? (?:the )?(?:\w+\s+)?(?:differences?|trade-?offs?) (?:between|of)\s+|"
                        r"how (?:does|do|is|are|should|would|can)\s+(?:(?:the way|how)\s+)?|compare\s+)", re.I)
# The aspect compared, after the sides: ", including when receipts are needed", "… in how long it can last".
_ASPECT = re.compile(r"(?:,\s*(?:including|especially|particularly|in terms of)\s+|\s+in (?:terms of\s+)?"
                     r"(?=(?:how|what|when|where|who|whether)\b))(?P<aspect>.+)$", re.I)
# … or named by a phrase that says what is compared ("how are they different when it comes to expiring?", "… as far
# as time off goes", "… with respect to approval"): ASPECT_PHRASES
ASPECT_PHRASES = True
# ("regarding" only after a comma: "the rules regarding remote work" is a side; "as far as I can tell" asks nothing)
_ASPECT_PHRASE = re.compile(r"(?:,\s*(?:regarding|as regards)|[,\s]\s*(?:when it comes to|with (?:respect|regard) to|"
                            r"as far as))\s+(?!(?:i|we|you|they)\s+(?:know|can|could|understand|see|remember|recall|"
                            r"tell)\b)(?P<aspect>.+?)(?:\s+(?:goes|go|is concerned|are concerned))?$", re.I)
_SIDE_TAIL = re.compile(r"\s+(?:differ|compare|different)\b.*$", re.I)
# The compared thing before the verb, the sides after it: "the after-hours building rules differ between DC
# headquarters and the New York office" (each side is read in the whole question's terms).
_DIFFER_BETWEEN = re.compile(r"\s(?:differ|differs|different)\s+(?:between|across|among)\s+(?P<sides>.+)$", re.I)


_COMPARING = frozenset("""differ differs differed differing difference differences different differently versus vs
compare compared compares comparing comparison separates distinguishes differentiates""".split())


def comparison_word(word: str) -> bool:
    """"differ", "difference", "versus": the question compares; the word names no topic a page must use (a "night
    differential" does)."""
    return word.lower() in _COMPARING


def comparison_sides(question: str, *, scene: bool = False) -> list[str]:
    """'How do comp time and credit hours differ?' → ['comp time', 'credit hours'] (both sides non-empty). Of several
    asking sentences, the one that compares ("What's the difference between cargo check and cargo build? Why is
    check so much quicker?"). With `scene`, a clause before the asking one is left out (SCENE_LEAD)."""
    comparing = [s for s in asked_sentences(question) if s.endswith("?") and compares(s)]
    body = (comparing[0] if len(comparing) == 1 else asking_sentence(question)).rstrip("?").strip()
    if scene and (lead := _SCENE.match(body)) and SIDE_LEAD.match(body[lead.end():]):
        body = body[lead.end():]  # "In a Memcheck leak summary, what's the difference between …"
    if SCENE_LEAD and (back := _ASKS_BACK.search(body)) and not _SIDE_SPLIT.search(back.group(0)):
        # "--force-reinstall vs --ignore-installed: how do they behave differently" (a clause naming no sides)
        body = body[:back.start()] + body[back.end():]
    if (apart := _sets_apart(body)) is not None:  # "what separates coaching from evaluation"
        body = " versus ".join(x.rstrip(". ") for x in apart.groups() if x)
    body = SIDE_LEAD.sub("", body)
    body = re.sub(r"(?i)^(?:the )?differences? between\s+", "", body)
    between = _DIFFER_BETWEEN.search(body)  # "how do the building rules differ between DC and New York"
    if between and len([x for x in _SIDE_SPLIT.split(body[:between.start()]) if content_words(x)]) < 2:
        body = between.group("sides")  # (not "how do annual and sick leave differ between full- and part-timers")
    body = _SIDE_TAIL.sub("", body) if not re.search(r"(?i)differ(?:s|ent)? (?:from|than)", body) else body
    if aspect := compared_aspect(body):
        body = body[:aspect.start()]
    sides = [s.strip(" ,.\"'") for s in _SIDE_SPLIT.split(body) if s.strip(" ,.\"'")]
    if LISTED_SIDES and len(sides) >= 2:  # "IBA, CASH or CBA": the items listed before the last "or" are sides too
        sides = [x for s in sides[:-1] for x in _listed(s)] + sides[-1:]
    sides = [s for s in sides if content_words(s)]
    if SHARED_SCOPE and len(sides) == 2 and (scope := _SCOPE.search(sides[1])) and not _SCOPE.search(f" {sides[0]}") \
            and len(sides[1][:scope.start()].split()) == len(sides[0].split()):
        sides[1] = sides[1][:scope.start()]  # "redirect_from vs redirect_to | in handbook front matter"
    if len(sides) < 2 and TOLD_SIDES and (_THEIR.search(body) or (
            BARE_DIFFERENCE and not [w for w in content_words(body) if not comparison_word(w)
                                     and w.lower() not in _FILLER] and _offers_choice(question))):
        return told_sides(question)  # "… a Remote Worker or a Routine Teleworker. What's the difference?"
    return sides if 2 <= len(sides) <= 4 else []


# "redirect_from vs redirect_to in handbook front matter — what's the difference?": a phrase after the last side,
# opening on a preposition, says where both sides are (the first side, as long as the last one without it, has none);
# read as the last side's own words, "handbook front matter" made every line about the page a line about
# redirect_to, and the redirect_to row was never quoted (SHARED_SCOPE; not "working from home vs working in the office")
SHARED_SCOPE = True
# (two words at least after it: "telework vs leave for illness", "working on site" keep theirs; review)
_SCOPE = re.compile(r"\s(?:in|on|at|for|within|inside|under)\s+\S+\s+\S", re.I)


LISTED_SIDES = True
LISTED_WORDS = 3  # an item of a list of sides is this short ("CASH"); a longer comma clause is no item


def _listed(side: str) -> list[str]:
    """'marking an expense as IBA, CASH' → ['marking an expense as IBA', 'CASH']: the short items after its commas."""
    pieces = [x.strip() for x in side.split(",")]
    if len(pieces) < 2 or not all(0 < len(x.split()) <= LISTED_WORDS for x in pieces[1:]):
        return [side]
    return pieces


TOLD_SIDES = True
# … and so does an asking sentence naming nothing but the comparison ("What's the (actual) difference?"), after a
# statement offering a choice ("… a Remote Worker or a Routine Teleworker"; not "I moved from DC to Chicago and my
# badge stopped working. What's different?")
BARE_DIFFERENCE = True
_FILLER = frozenset("exactly actual actually real really main key here now then".split())
_OFFERS = re.compile(r"(?i)\b(?:or|either|both|between|versus|vs)\b")


def _offers_choice(question: str) -> bool:
    statements = told_statements(question)
    return bool(statements) and bool(_OFFERS.search(statements[-1]))


LAST_PAIR = True  # … of a statement joining more than two things, the last two; a count before one is no side word
_COUNTED_DET = re.compile(r"^(?:one|two|three|a couple of|a few|some|several)\s+")  # lower case: "One Medical" is a name
_THE_TWO = re.compile(r"(?i)\b(?:the two|both)\b")
_SUBJECT_START = re.compile(r"(?i)^(?:i|we|you|they|he|she|it)(?:['’]\w+)?\b")
# A comparison asked after a clause that sets the scene ("For a counter shared between main and an interrupt handler,
# how does protecting it with a critical section differ from using an atomic?"), or after its sides ("X vs Y: how do
# they differ?"): the sides are in the asking clause, or before it.
SCENE_LEAD = True
_SCENE = re.compile(r"^[^,?:;]{1,120},\s*")
_ASKS_BACK = re.compile(r"\s*(?::|\s[-–—])\s+(?:how|what|which|why|when|where|who)\b[^,;?]*", re.I)
_THEIR = re.compile(r"(?i)\b(?:they|their|them|these|those|both|the two)\b")


def told_sides(question: str) -> list[str]:
    """The sides a comparison points back at ("I keep hearing about the CO and the COR. How do their roles actually
    differ?" → ['CO', 'COR']): the pair the last statement ends on, the first cut to the second's width."""
    statements = told_statements(question)
    if not statements:
        return []
    sides = [s.strip(" ,.\"'") for s in _SIDE_SPLIT.split(statements[-1].rstrip(".!")) if s.strip(" ,.\"'")]
    if LAST_PAIR and len(sides) > 2 and _THE_TWO.search(question):
        # "I'm stamping my authorization and the results show FAILs and one HARDFAIL. … the difference between the
        # two?" (asking of two; "How do they differ?" after three things asks of all three)
        sides = sides[-2:]
        if _SUBJECT_START.match(sides[0]):  # "… a purchase card and I'm not sure which to use": a clause
            return []
    if len(sides) != 2 or not all(content_words(s) for s in sides):
        return []
    second = _COUNTED_DET.sub("", DETERMINER.sub("", sides[1])) if LAST_PAIR else DETERMINER.sub("", sides[1])
    if BOTH_MARKS and (both := list(_BOTH.finditer(sides[0]))):
        # "accounts on both Docker Hub and Smartsheet for a project": "both" opens the pair, and a phrase after it
        # says what for
        second = _TRAILING_CLAUSE.sub("", second) if TRAILING_CLAUSE else second
        return [DETERMINER.sub("", sides[0][both[-1].end():]), _TRAILING_PHRASE.sub("", second)]
    first = DETERMINER.sub("", " ".join(sides[0].split()[-len(second.split()):]))
    return [first, second]


# A side told in a statement before the asking sentence is read in that statement's terms ("When I tell PeopleOps
# I'm moving, they ask if I'm a Remote Worker or a Routine Teleworker. What's the difference?": about moving)
TOLD_CONTEXT = True


def told_in(question: str, sides: list[str]) -> str:
    """The last statement of the question when it names every side and the asking sentence names none, else ''."""
    statements = told_statements(question)
    asking = asking_sentence(question)
    if not sides or not statements or any(_names(asking, x) for x in sides):
        return ""
    return statements[-1] if all(_names(statements[-1], x) for x in sides) else ""


def _names(text: str, side: str) -> bool:
    """The text uses the side's words as words ("CO" is not in "compare")."""
    return bool(re.search(rf"(?i)(?<!\w){re.escape(side)}(?!\w)", text))


BOTH_MARKS = True
_BOTH = re.compile(r"\b(?:both|either|between)\s+", re.I)
_TRAILING_PHRASE = re.compile(r"\s+(?:for|in|at|on|with|during|from)\s+(?:(?:a|an|the|my|our|your|this|that|some)\s+)?"
                              r"(?:[a-z][\w-]*\s+){0,2}[a-z][\w-]*$")  # (lower case: no name is cut)
# … and a clause of the asker's after that phrase: "credit hours for some extra hours I'm putting in" (TRAILING_CLAUSE)
TRAILING_CLAUSE = True
_TRAILING_CLAUSE = re.compile(_TRAILING_PHRASE.pattern[:-1] + r"\s+(?:[Ii]|we|you|they)(?:['’](?:m|re|ve|ll|d))?"
                              r"(?:\s+[a-z][\w'’-]*){1,3}$")


def compared_aspect(text: str) -> re.Match[str] | None:
    """The aspect named after the last side (", including when receipts are needed", "… in how long it can last"),
    never a clause inside a side ("the plan in which I enrolled")."""
    splits = list(_SIDE_SPLIT.finditer(text))
    start = splits[-1].end() if splits else 0
    return _ASPECT.search(text, start) or (_ASPECT_PHRASE.search(text, start) if ASPECT_PHRASES else None)


# A frame ends before a determiner every side opens with ("… access work at | the D.C. office" versus "the New York
# office") when it is a bare aspect (not "If my supervisor needs me to put in extra hours, how does overtime
# eligibility work on | a standard schedule": a told case with its question, read with each whole side)
PARALLEL_DETERMINER = True


def bare_aspect(frame: str) -> bool:
    """A frame that only names what is compared ("after-hours access work at"): no clause, no question word (nor a
    contracted one: "what's covered at"), no comparison word."""
    return "," not in frame and not any(re.split(r"['’]", w)[0] in QUESTION_WORDS or comparison_word(w)
                                        for w in lower_words(frame))


_LEADS_INTO = frozenset("""to of for about on in with from at as my your our their his her its the a an this that
these those""".split())
DETERMINER = re.compile(r"(?i)^(?:my|your|our|their|his|her|its|the|a|an)\s+")


def side_frame(sides: list[str]) -> tuple[str, list[str]]:
    """The frame a first side carries for all of them: 'If I leave federal service, what happens to my annual
    leave' versus 'my sick leave' → ('If I leave federal service, what happens to my', ['annual leave', 'sick
    leave']). The first side keeps as many trailing words as the longest other side has (a determiner left out);
    no frame ('', sides) unless what is left of it is a clause of its own (two content words or more)."""
    if len(sides) < 2:
        return "", sides
    rest = [DETERMINER.sub("", s) for s in sides[1:]]
    width = max(len(s.split()) for s in rest)
    words = sides[0].split()
    if len(words) <= width + 2:
        return "", sides
    frame, first = " ".join(words[:-width]), " ".join(words[-width:])
    # the frame leads into the compared thing ("… happens to my", "… the rules for"); "the policy for new employees
    # who joined | this year" versus "sick leave" is one long side, not a frame, and so is "a detail to another role
    # at my current grade" versus "a temporary promotion": a side with a determiner of its own, another than the
    # one the frame ends in, is a whole noun phrase ("… to my annual leave versus my sick leave" shares "my")
    lead = words[-width - 1].lower()
    own = {d.group(0).strip().lower() for x in sides[1:] if (d := DETERMINER.match(x))}
    parallel = (PARALLEL_DETERMINER and len(own) == 1 and not DETERMINER.match(sides[0])
                and all(bare_aspect(x) for x in sides[1:]) and (lead not in _LEADS_INTO or any(d != lead for d in own)))
    opens = [i for i in range(1, len(words) - 1) if parallel and words[i].lower() in own
             and words[i - 1].lower() in _LEADS_INTO and bare_aspect(" ".join(words[:i]))]
    if opens:
        # "after-hours access work at | the D.C. office" versus "the New York office": the first side opens with the
        # determiner the others open with (its first, after a word leading into it: "access work at | the front door
        # of the building"), after a frame that asks nothing itself; not a side that opens with it ("a temporary
        # detail at a regional office" versus "a promotion")
        cut = opens[0]
        frame, first, lead, own = " ".join(words[:cut]), " ".join(words[cut + 1:]), words[cut - 1].lower(), set()
    if (len(content_words(frame)) < 2 or not content_words(first) or lead not in _LEADS_INTO
            or any(d != lead for d in own)):
        return "", sides
    return frame.rstrip(" ,"), [first, *rest]
