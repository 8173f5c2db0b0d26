"""Question shapes a third fresh probe of the 18F handbook found answered wrongly (real page text throughout).

Each rule is switched off once in its test, so every test fails when its rule does nothing.
"""

from __future__ import annotations

from synthesis.qa import Expect, analyze

from .test_qa import _answer, _context, _with_and_without


def _support(minilm, frame, context) -> list[float]:
    """Each part's best support among the context's sentences, as answerability reads it."""
    from synthesis.qa import Reader, support
    from synthesis.synthesize.candidates import candidates

    units = candidates(context)
    Reader(minilm.embed).score(frame, units)
    return support(frame, units, minilm.embed).per_part

DOCKER = ("Docker Hub", "How do I get access to Docker Hub?",
          "You may use your personal Docker Hub account for work. Ask #admins-docker for access to the TTS-wide "
          "account.")
ADOBE = ("Adobe Acrobat and Creative Cloud (CC)", "Adobe Acrobat and Creative Cloud (CC)",
         "Visual designers often need Creative Cloud (CC) for access to high-powered vector control in Illustrator, "
         "image editing in Photoshop, print layout in InDesign, or video-editing tools. You can request either:\n\n"
         "- Acrobat Pro\n- Photoshop\n- The full Creative Cloud Suite\n\nby submitting a Software Request through "
         "the GSA IT Help Desk. Make sure to specify that you are on a Mac. Note that licenses are limited, so please "
         "don't request access unless you really do need it for your work.")
STOP_WORK = ("Stopping work", "Internal impact of stopping work",
             "Organizational revenue loss (because team members will likely be temporarily benched while awaiting "
             "reassignment) - each team member's opportunity cost to 18F is about $10,000/week at current billing "
             "rates.")
RESEARCH = ("TTS Research Guide: compensating research participants", "Costs",
            "Recruitment and support averaged about $125 per participant, which means that the total cost for a "
            "moderated session would be about $195 per person.")


async def test_a_reimbursement_asked_in_the_passive_needs_a_sentence_about_reimbursing_it(minilm, monkeypatch):
    """"Can I get reimbursed if I upgrade it to a paid Pro plan?" was answered with the Docker Hub page's "You may use
    your personal Docker Hub account for work": nothing there says who pays for an upgrade."""
    from synthesis.qa import answerability

    question = "I use my personal Docker Hub account for work. Can I get reimbursed if I upgrade it to a paid Pro plan?"
    liability = ("Travel guide FAQ", "How can I get reimbursed for professional liability insurance?",
                 "Supervisors may be reimbursed for up to half the cost of professional liability insurance.")
    on, off = await _with_and_without(minilm, monkeypatch, question, _context(DOCKER, liability), answerability,
                                      "REIMBURSED_PASSIVE", False)
    assert not on, on
    assert "personal Docker Hub account" in off, off
    monkeypatch.setattr(answerability, "REIMBURSED_PASSIVE", True)
    assert answerability.reimbursed_thing("Can I get reimbursed for my gym membership?") == "my gym membership"
    assert answerability.reimbursed_thing(question) == "when you upgrade it to a paid Pro plan"
    assert answerability.reimbursed_thing("Can I get reimbursed for those?") == "those"  # no words: no rule (below)
    paid = _context(("Docker Hub", "Paid plans",
                     "Staff who need a paid Docker Hub Pro plan for their work are reimbursed for the upgrade through "
                     "a purchase card request."))
    assert "purchase card request" in (await _answer(minilm, question, paid)).summary


async def test_a_price_asked_of_a_thing_is_answered_only_by_a_price_of_that_thing(minilm, monkeypatch):
    """"How many Adobe Creative Cloud licenses does TTS have in total, and how much does each seat cost my team?" was
    answered with an opportunity cost of $10,000/week and research participants' $125: prices, not of a seat."""
    from synthesis.qa import answerability

    question = ("How many Adobe Creative Cloud licenses does TTS have in total, and how much does each seat cost my "
                "team?")
    context = _context(ADOBE, STOP_WORK, RESEARCH)
    on, off = await _with_and_without(minilm, monkeypatch, question, context, answerability, "PRICED", False)
    assert not on, on
    assert "$" in off, off
    monkeypatch.setattr(answerability, "PRICED", True)
    assert answerability.priced_noun("how much does the Adobe Creative Cloud license cost per year?") == "license"
    assert answerability.priced_noun("How much does it cost?") == ""  # a pronoun prices what was told
    priced = _context(("Adobe", "Licenses", "A Creative Cloud seat costs the team $85 per month."), STOP_WORK)
    s = await _answer(minilm, "How much does each Creative Cloud seat cost my team?", priced)
    assert "$85 per month" in s.summary, s.summary


async def test_how_long_a_span_of_time_is_asks_a_duration(minilm, monkeypatch):
    """"How long is the comment window before a decision gets made?" was answered with the RFC page's list of past
    RFCs ("RFC 003 - TTS Senior Cybersecurity Advisor"): no page states how long comments stay open."""
    from synthesis.qa import values

    rfc = _context(("Request for Comments", "Request for Comments",
                    "TTS recently instituted a Request for Comment (RFC) process for TTS policies and decisions that "
                    "affect multiple parts of the organization. For employees, you can view the repository that "
                    "houses all proposed and approved RFCs as well as their respective discussions. The following "
                    "RFCs went through the discussion process and were ultimately approved."),
                   ("Request for Comments", "RFC History",
                    "- RFC 003 - TTS Senior Cybersecurity Advisor\n- RFC 004 - Cross-TTS Hiring at Scale\n"))
    question = "Someone opened a new TTS RFC. How long is the comment window before a decision gets made?"
    on = (await _answer(minilm, question, rfc)).summary
    monkeypatch.setattr(values, "SPANS", False)
    values.asked_value.cache_clear()  # (read per sentence, so cached)
    off = (await _answer(minilm, question, rfc)).summary
    assert not on, on
    assert "RFC" in off, off
    monkeypatch.setattr(values, "SPANS", True)
    values.asked_value.cache_clear()
    assert values.asked_value("How long is the probationary period for new hires?") == (values.DURATION,
                                                                                        values.DURATION)
    assert values.asked_value("How long is the password supposed to be?") is None  # a length, no time
    assert values.asked_value("how long are lines supposed to be at most?") is None
    stated = _context(("Request for Comments", "Process", "Each RFC stays open for comments for two weeks."))
    assert "two weeks" in (await _answer(minilm, question, stated)).summary


async def test_a_common_part_of_a_hyphenated_word_after_a_rarer_one_need_not_be_there(minilm, monkeypatch):
    """"I was reading the handbook's 2021 COVID-era travel guidance. Under that guidance, could I still travel to go to
    a conference?" was refused: no page says "covid-era"; the guidance says "COVID-19" and answers."""
    from synthesis.qa import wordforms

    guidance = _context(("Updated Travel Guidance for GSA Employees (07/13/2021)", "",
                         "GSA continues to adjust to the changing COVID-19 pandemic status. Effective immediately as "
                         "of July 13, any requests for travel must be mission critical, time sensitive and required "
                         "to perform essential duties.\n\nAll travel for conferences, related events and training do "
                         "not meet this requirement and are not authorized."))
    question = ("I was reading the handbook's 2021 COVID-era travel guidance. Under that guidance, could I still "
                "travel to go to a conference or a training?")
    on, off = await _with_and_without(minilm, monkeypatch, question, guidance, wordforms, "COMMON_PART", 0)
    assert "not authorized" in on, on
    assert not off, off
    monkeypatch.setattr(wordforms, "COMMON_PART", 4.5)
    # the rarer part must be there: "pet-friendly" is not "friendly" (both common), nor "post-doc" "posted"
    assert not wordforms.hyphenated("pet-friendly", {"friend"}, ["friendly"])
    assert not wordforms.hyphenated("post-doc", {"post"}, ["documents"])
    assert wordforms.hyphenated("covid-related", {"covid"}, [])


async def test_a_word_judging_what_the_asker_does_is_no_topic(minilm, monkeypatch):
    """"… it's faster to just make calls myself instead of looping the team in. Is that frowned upon?" was refused:
    no page says "frowned"; the playbook's rule on unilateral decisions answers it."""
    from synthesis.qa import topic

    play = _context(("Play 8 - Be decisive and involve others whenever possible", "Play 8",
                     "Seek input from others and involve your team in decisions where you can. Avoid making "
                     "unilateral decisions about the team without looping the team in; do so only as a last resort, "
                     "as it can erode trust."))
    question = ("I'm a new supervisor and it's faster to make decisions myself instead of looping the team in. Is "
                "that frowned upon?")
    on, off = await _with_and_without(minilm, monkeypatch, question, play, topic, "JUDGEMENTS", frozenset())
    assert "last resort" in on, on
    assert not off, off


async def test_a_comparison_whose_parts_each_ask_is_two_questions(minilm, monkeypatch):
    """"Someone recommended the ACE feedback framework. What do the three letters stand for and how are they
    different from each other?" was read as a comparison of two sides, each without the framework, and refused."""
    from synthesis.qa import question as q

    ace = _context(("Additional feedback frameworks", "ACE: appreciation, coaching, evaluation",
                    "Everyone needs appreciation, coaching, and evaluative feedback to learn and improve. The ACE "
                    "framework is from Thanks for the Feedback."),
                   ("Additional feedback frameworks", "ACE: appreciation, coaching, evaluation > Appreciation",
                    "Appreciation is specific, positive information about what behavior or action to do more of."),
                   ("Additional feedback frameworks", "ACE: appreciation, coaching, evaluation > Coaching",
                    "Coaching communicates what \"good\" looks like, to help the recipient learn and improve."))
    question = ("Someone recommended the ACE feedback framework. What do the three letters stand for and how are they "
                "different from each other?")
    frame = analyze(question)
    assert not frame.comparison and all("ACE feedback framework" in p.query for p in frame.parts), frame
    assert [p.text for p in frame.parts] == ["What do the three letters stand for",
                                             "how are they different from each other"]
    # read with what was recommended, the parts are about the framework's page; as sides they were about nothing
    on = _support(minilm, frame, ace)
    monkeypatch.setattr(q, "PARTS_NOT_SIDES", False)
    sides = analyze(question)
    assert sides.comparison and not any("ACE" in p.query for p in sides.parts)
    assert min(on) >= 0.45 > max(_support(minilm, sides, ace)), (on, _support(minilm, sides, ace))
    # a comparison with sides is still one
    assert analyze("How does the way I build up sick leave differ from how I build up annual leave?").comparison


async def test_who_holds_a_role_the_question_names_is_never_high(minilm, monkeypatch):
    """"Who is the current director of TTS's Market Development and Partnerships division?" (no page names one) was
    answered 'high' with the division's description: it names the division and its staff, which reads as a role."""
    from synthesis.qa import kinds

    mdp = _context(("Market Development and Partnerships Division", "Market Development and Partnerships Division",
                    "Our Market Development and Partnerships Division supports TTS' strategic direction by providing "
                    "guidance and leadership for TTS business development and partnerships staff."))
    question = "Who is the current director of TTS's Market Development and Partnerships division?"
    s = await _answer(minilm, question, mdp)
    assert s.summary and s.quality.support < 0.9, s.quality
    monkeypatch.setattr(kinds, "ROLE_HOLDER", False)
    assert (await _answer(minilm, question, mdp)).quality.support == 0.9
    monkeypatch.setattr(kinds, "ROLE_HOLDER", True)
    assert kinds.asks_holder("who is my supervisor?") and not kinds.asks_holder("Who approves my travel?")
    assert analyze(question).parts[0].expect is Expect.WHO
