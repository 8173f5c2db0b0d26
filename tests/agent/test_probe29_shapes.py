"""Question shapes the sixteenth to nineteenth fresh probes of the 18F handbook (hp29-hp32, written by helpers that
read only the corpus) found answered wrongly, each on the page text it failed on.

A rule with a flag is switched off once in its test, so the test fails when the rule does nothing.
"""

from __future__ import annotations

from synthesis.synthesize.extractive import ExtractiveSynthesizer

from .test_qa import _answer, _context

SPEAKING = ("External speaking request playbook", "Steps > Approval timeline",
            "Most approvals will take 2–3 weeks to complete. Some approvals can take up to 3-6 weeks to complete "
            "depending on the approvals necessary. Requests submitted with less than a week lead time are not likely "
            "to be approved–please check in with your designated Outreach/Events lead before submitting an approval "
            "with less than a week lead time.")
CONFERENCE = ("Conferences, events, and training", "Getting approval for a conference, event, or training",
              "1. Submit this form to initiate the request process. Upon completing it, you and your supervisor will "
              "get an automated email, which confirms the details you entered and provides all of the actions that "
              "you will need to complete for the request.")
DISTRESS = ("Managing 18F Projects in Distress — When to Pivot / Pause / Stop", "Internal impact of stopping work",
            "- When a team rolls off a project unexpectedly, staffing representatives must re-staff that team. This "
            "may lead to lengthy periods without billable work depending on availability of project work.\n"
            "- Organizational revenue loss (because team members will likely be temporarily benched while awaiting "
            "reassignment) - each team member’s opportunity cost to 18F is about $10,000/week at current billing "
            "rates.")


def test_an_it_that_stands_for_the_clause_after_it_points_at_nothing_told(minilm, monkeypatch):
    """"Got invited to be on a panel at a civic tech conference, which is exciting! Roughly how long does it take to
    get the official go-ahead?" (hp29) was refused for "tech": the "it" of "does it take to get" stands for getting
    the go-ahead, so the story sets the scene and the tech conference is no topic the pages must name
    (pointing.DUMMY_IT)."""
    from synthesis.qa import analyze, pointing

    from .test_probe_shapes import checked

    question = ("Got invited to be on a panel at a civic tech conference, which is exciting! Roughly how long does it "
                "take to get the official go-ahead?")
    assert checked(minilm, analyze(question), _context(SPEAKING, CONFERENCE)).missing == []
    monkeypatch.setattr(pointing, "DUMMY_IT", False)
    assert checked(minilm, analyze(question), _context(SPEAKING, CONFERENCE)).missing == ["tech"]
    monkeypatch.setattr(pointing, "DUMMY_IT", True)
    for asking in ("Roughly how long does it take to get the official go-ahead?", "Is it OK to expense lunch?",
                   "Is it possible to bring a guest?", "Does it matter whether I use Chrome?",
                   "How much does it usually cost to ship a monitor?"):
        assert not pointing._points_back(asking), asking
    for asking in ("How long does it take?", "Is it allowed?", "Will TTS pay for it?",  # nothing after: the story's
                   "How much does it cost to renew it?",  # a second "it" still points back
                   "Can I use it to pay for lunch?",  # an object, not a subject standing for a clause
                   "Is it worth it?"):
        assert pointing._points_back(asking), asking


async def test_a_billed_rate_is_about_money(minilm, monkeypatch):
    """"What hourly rate does 18F bill a partner agency for one team member's time?" (hp29, unanswerable) was answered
    with "each team member’s opportunity cost to 18F is about $10,000/week at current billing rates": a billed rate is
    an amount of money per hour, and no page states one (rates.BILLED)."""
    from synthesis.qa import rates

    question = "What hourly rate does 18F bill a partner agency for one team member's time?"
    outcome = await ExtractiveSynthesizer(minilm).synthesize(question, _context(DISTRESS))
    assert not outcome.synthesis.summary and outcome.missing == ["an amount per hour"], outcome.missing
    monkeypatch.setattr(rates, "BILLED", False)
    assert "$10,000/week" in (await _answer(minilm, question, _context(DISTRESS))).summary
    monkeypatch.setattr(rates, "BILLED", True)
    assert rates.asked_rate("What hourly rate does a contractor charge for design work?") == "hour"
    for text in ("Can I charge my laptop at the hourly rate limit?", "Who takes charge of the hourly rate limit?",
                 "Does the new bill change the hourly rate limit?"):  # (review) no money asked
        assert rates.asked_rate(text) is None, text
    assert rates.asked_rate("Who is in charge of the hourly rate limit?") is None  # "in charge" is no money
    assert rates.asked_rate("What's the hourly API rate limit?") is None


PRODUCT_WHO = ("Joining the Product team", "Who we are",
               "The 18F Product team consists of experienced product managers. We come from a variety of backgrounds, "
               "including government, non-profits, consultancies, and corporations.")
PRODUCT_RITUALS = ("Joining the Product team", "How we work > Rituals",
                   "Most of the product team works on a mix of partner projects and internal initiatives, so "
                   "everyone’s weeks look a little different. However, we make time to get together regularly.\n\n"
                   "- **Wednesdays:** Every other week the product team meets for an hour starting at 11:30am PT / "
                   "2:30pm ET. The product leadership team shares reminders, announcements, and internal project "
                   "updates.\n"
                   "- **Bi-weekly:** Meet with your supervisor. Bi-weekly, you'll have a 1:1 meeting with your "
                   "supervisor at a time that works well for both of you. This meeting is both administrative and "
                   "personal.\n"
                   "- **At least once a month:** Meet with the chapter director. You'll have regular skip-level 1:1s "
                   "with the director of product.")
SURVEYS = ("Planning and measuring our work", "How we measure partner satisfaction",
           "- **18F Partner Satisfaction Surveys.** For several years, 18F account managers have conducted partner "
           "satisfaction surveys after an engagement ends. These surveys are structured interviews. In FY24, began "
           "collecting them throughout the delivery cycle: 90 days after the engagement/project starts, and for longer "
           "engagements, every six-months thereafter.")


async def test_how_often_is_answered_by_a_frequency(minilm, monkeypatch):
    """"On the 18F product team, how often do I meet with my supervisor compared with the chapter director?" (hp30)
    was answered with "The 18F Product team consists of experienced product managers." and "Meeting: 18F Team
    Coffee.": "18F" held a number, and "Bi-weekly" or "At least once a month" none. A frequency answers "how often"
    (values.FREQUENCY_ASKED); a part asking one that nothing states is a gap."""
    from synthesis.qa import kinds, values

    question = "On the 18F product team, how often do I meet with my supervisor?"
    on = (await _answer(minilm, question, _context(PRODUCT_WHO, PRODUCT_RITUALS))).summary
    assert on.startswith("Rituals: Bi-weekly") or on.startswith("Bi-weekly"), on
    outcome = await ExtractiveSynthesizer(minilm).synthesize("How often do product managers join the 18F Product "
                                                             "team?", _context(PRODUCT_WHO))
    assert not outcome.synthesis.summary and values.FREQUENCY in outcome.missing, outcome.missing
    monkeypatch.setattr(values, "FREQUENCY_ASKED", False)
    monkeypatch.setattr(kinds, "TOLD_CODES", False)  # (it too keeps "18F" from holding the number asked)
    off = (await _answer(minilm, question, _context(PRODUCT_WHO, PRODUCT_RITUALS))).summary
    assert not off.startswith(("Rituals: Bi-weekly", "Bi-weekly")), off
    monkeypatch.setattr(values, "FREQUENCY_ASKED", True)
    for text in ("Bi-weekly: Meet with your supervisor.", "At least once a month: Meet with the chapter director.",
                 "for longer engagements, every six-months thereafter", "We meet weekly.", "It runs on Tuesdays.",
                 "Check in every 2-3 weeks.", "Reviews happen twice a year."):
        assert values.states_value(text, values.FREQUENCY), text
    for text in ("The 18F Product team consists of experienced product managers.", "Meeting: 18F Team Coffee.",
                 "Every employee must take annual leave.", "It takes 2 weeks."):
        assert not values.states_value(text, values.FREQUENCY), text
    assert "six-months" in (await _answer(minilm, "How often are partner satisfaction surveys collected on longer "
                                                  "engagements?", _context(SURVEYS))).summary


HIRING_GUIDE = ("Hiring at TTS", "TTS Hiring Managers Guide",
                "The Hiring Manager Guide contains information from the Talent team as well as tips and best practices "
                "from seasoned TTS hiring managers. The Guide helps a Hiring Manager navigate through the Hiring "
                "Process laid out below.")
HIRING_NEED = ("Hiring at TTS", "TTS Hiring Process > Identifying a Hiring Need",
               "Hiring managers work with the head of their Business Unit to determine if a position or vacancy needs "
               "to be filled. Review the hiring needs section of the Hiring Manager Guide to learn more.")


def test_the_askers_own_role_is_no_one_to_deal_with(minilm, monkeypatch):
    """"First time as a hiring manager here. Before anything gets posted, who do I work with to decide whether the
    role even needs to be filled?" (hp29) was answered with "Hiring managers lead the hiring process …" and "The Guide
    helps a Hiring Manager navigate …": the asker is the hiring manager, so a line whose only role is theirs names no
    one to work with (kinds.ASKER_ROLE)."""
    from synthesis.qa import Reader, analyze, kinds
    from synthesis.synthesize.candidates import candidates

    question = ("First time as a hiring manager here. Before anything gets posted, who do I work with to decide "
                "whether the role even needs to be filled?")

    def best() -> str:
        units = candidates(_context(HIRING_GUIDE, HIRING_NEED))
        Reader(minilm.embed).score(analyze(question), units)
        return max((u for u in units if u.scores), key=lambda u: u.scores[0]).text

    assert best().startswith("Hiring managers work with the head of their Business Unit"), best()
    monkeypatch.setattr(kinds, "ASKER_ROLE", False)
    assert not best().startswith("Hiring managers work with"), best()  # "Review the … Hiring Manager Guide …"
    monkeypatch.setattr(kinds, "ASKER_ROLE", True)
    part = analyze(question).parts[0]
    assert kinds.asker_roles(question, part) == {"manag"}
    assert kinds.names_asker_only({"manag"}, "Hiring managers lead the hiring process for a specific role.")
    assert not kinds.names_asker_only({"manag"}, "Ask your manager first.")  # someone else's manager
    assert not kinds.names_asker_only({"manag"}, "Hiring managers work with the head of their Business Unit.")
    # the asker's own role may be the answer when the asking is not whom they deal with
    supervisor = "I'm a supervisor. Who approves my team's timecards?"
    assert kinds.asker_roles(supervisor, analyze(supervisor).parts[0]) == set()


TERM_DECISION = ("Term extensions", "What happens between the decision and the end of term?",
                 "- Approved extensions are added to the TTS PeopleOps internal Operations Trello board.\n"
                 "- GSA HR reviews and confirms the PAR, checking that all information is accurate (employee has "
                 "another term left, correct extension dates, etc.). HR is not \"approving\" the extension request at "
                 "this step of the process. The extension has already been approved; this is just a matter of "
                 "processing.\n"
                 "- If the decision is not to extend, TTS PeopleOps will submit a PAR to GSA HR near the end of the "
                 "employee's term to initiate offboarding.")
TERM_PROCESS = ("Term extensions", "What's the process?",
                "1. 6-7 months before an employee's term ends, TTS PeopleOps will reach out to the Supervisor of the "
                "employee and the Director of that office with a list of staff whose terms are about to end.\n"
                "2. Supervisors and Directors will consider the individual's performance, organizational priorities, "
                "position needs, and other factors to determine their recommendation.")


async def test_the_act_asked_a_way_to_do_must_be_named(minilm, monkeypatch):
    """"My supervisor just told me my term extension wasn't approved. Is there a formal way to appeal that decision?"
    (hp29, unanswerable) was answered with how an approved extension is processed: no page speaks of appealing, and
    the act asked a way to do is the topic, however common the verb (topic.ACTION_ASKED)."""
    from synthesis.qa import topic

    question = ("My supervisor just told me my term extension wasn't approved. Is there a formal way to appeal that "
                "decision?")
    outcome = await ExtractiveSynthesizer(minilm).synthesize(question, _context(TERM_DECISION, TERM_PROCESS))
    assert not outcome.synthesis.summary and outcome.missing == ["appeal"], outcome.missing
    monkeypatch.setattr(topic, "ACTION_ASKED", False)
    assert (await _answer(minilm, question, _context(TERM_DECISION, TERM_PROCESS))).summary
    monkeypatch.setattr(topic, "ACTION_ASKED", True)
    assert topic.asked_action("Is there a process to donate my award leave?") == {"donate"}
    assert topic.asked_action("Is there a way to get a new laptop?") == set()  # a light verb
    assert topic.asked_action("How should I handle the conversation?") == set()  # a manner asked
    assert topic.asked_action("How many hours of unused vacation can I roll over?") == set()  # an amount asked


HIRING_CAP = ("RFC 004 - Cross-TTS Hiring at Scale", "The proposed path forward",
              "3. We’ll cap the number of people a hiring manager can select to interview based on the number of "
              "hires they’re trying to make. Talent will look at the conversion rates of recent hiring actions to "
              "inform their recommended number per hiring manager. If the hiring manager is unable to hire enough "
              "qualified candidates from that initial pool, they can select a second pool of candidates.")


async def test_a_sharpened_maximum_and_a_meeting_that_runs_ask_values(minilm):
    """Two hp31/hp32 questions read as asking no value: "what's the exact maximum number of candidates a hiring
    manager is allowed to pick …?" (unanswerable) was answered with "We'll cap the number of people …", which states
    none ("exact" hid the maximum, question.QUANTITY_CUE); "How long does the 18F Team Coffee meeting run?" was
    answered 'high' with "Meeting: 18F Team Coffee." ("run" was no verb of a duration, values._ASKS_TIME)."""
    from synthesis.qa import Expect, analyze
    from synthesis.qa.values import DURATION, asked_value

    question = ("In the cross-TTS hiring pilot, what's the exact maximum number of candidates a hiring manager is "
                "allowed to pick for interviews?")
    assert analyze(question).parts[0].expect is Expect.QUANTITY
    outcome = await ExtractiveSynthesizer(minilm).synthesize(question, _context(HIRING_CAP))
    assert not outcome.synthesis.summary and "a number of candidates" in outcome.missing, outcome.missing
    assert asked_value("How long does the 18F Team Coffee meeting run?") == (DURATION, DURATION)
    assert asked_value("How long will the workshop run?") == (DURATION, DURATION)
    assert asked_value("How long can a package name run?") is None  # a length, not a time
    assert analyze("What's the exact process for onboarding?").parts[0].expect is not Expect.QUANTITY


AWARD_EXPIRY = ("HR Links", "Award Leave expiration",
                "1. From the Employee Self-Service homepage, click on the Print SF-50 tile.\n"
                "2. You'll see a list of SF-50 documents.\n"
                "3. In the Action Reason column, look for Time Off Award or Special Act Time Off Award.\n"
                "4. Find the date in the Effective Date column.\n"
                "5. Your award leave will expire one year after the listed effective date.")


def test_a_verb_the_asker_tells_is_no_topic_that_it_points_at(minilm, monkeypatch):
    """"I got a time-off award a while back and I'm worried it'll lapse. How do I figure out when it expires in HR
    Links?" (hp31) was refused for "lapse": "it" points back at the award, and a verb after a modal or "to" in what
    the asker tells is what they fear or do, not the thing (topic.STORY_INFINITIVES). "Do we need anybody's
    sign-off?" asks no "anybody's" either (an indefinite pronoun's possessive is a stopword)."""
    from synthesis.qa import analyze, topic
    from synthesis.stems import contracted_stopword

    from .test_probe_shapes import checked

    question = ("I got a time-off award a while back and I'm worried it'll lapse. How do I figure out when it expires "
                "in HR Links?")
    assert checked(minilm, analyze(question), _context(AWARD_EXPIRY)).missing == []
    monkeypatch.setattr(topic, "STORY_INFINITIVES", False)
    assert "lapse" in checked(minilm, analyze(question), _context(AWARD_EXPIRY)).missing
    monkeypatch.setattr(topic, "STORY_INFINITIVES", True)
    assert {"summarize"} <= topic.story_verbs("Our team wants to try an AI chatbot to summarize notes. Do we need a "
                                              "sign-off before we start using it?")
    # a word that is also a noun counts only after a modal: "to moonlight" may be what is asked about
    assert "moonlight" not in topic.story_verbs("I want to moonlight as a consultant. Is that allowed?")
    assert contracted_stopword("anybody's") and contracted_stopword("someone's")
    assert not contracted_stopword("manager's")


def test_the_last_reads_inputs_stay_as_they_were():
    """Inputs a review tried on this session's rules, each left alone now."""
    from synthesis.qa import Expect, analyze, kinds, pointing, topic, values

    # a verb the asking uses too is asked about ("Can we unionize …?"), after "to" in the asking as well
    assert "unionize" not in topic.story_verbs("Our team wants to unionize. Can we unionize as contractors?")
    assert topic.compound_modifiers("Can I use Copilot to translate documents?", {"translate"},
                                    {"document"}) == ["translate"]
    # someone else's role names someone; "such as a supervisor" is no self-description
    assert not kinds.names_asker_only({"supervisor"}, "Supervisors should talk to their director first.")
    question = "Who do I talk to about extended leave, such as a supervisor?"
    assert kinds.asker_roles(question, analyze(question).parts[0]) == set()
    # an "it" before "to arrive", "to Denver" or "that much" still points back
    for asking in ("How long will it take to arrive?", "Will it take effect before I move to Denver?",
                   "Does it matter that much?"):
        assert pointing._points_back(asking), asking
    # "once an employee is hired" and "$50 per day" state no frequency; "How often and for how many days" asks days
    for text in ("Once an employee is hired, HR sends a packet.", "The rate is $50 per day."):
        assert not values.states_value(text, values.FREQUENCY), text
    assert values.asked_value("How often and for how many days can I telework?")[0] == values.DURATION
    assert analyze("How frequently do I need to renew my badge?").parts[0].expect is Expect.QUANTITY
    assert values.asked_value("How frequently do I need to renew my badge?") == (values.FREQUENCY, values.FREQUENCY)


ONBOARDING_STEPS = ("Onboarding new TTSC staff", "Supervisor checklist > Within the first two weeks",
                    "- Check that they submitted their timecard correctly.\n"
                    "- Make sure the new employee has a 1:1 meeting with their chapter or center director.\n"
                    "- (For 18F) reach out in #18f-team-coffee-ideas to find a time to welcome the new employee at "
                    "Team Coffee. Prepare them to unmute and introduce themselves.")


async def test_a_value_only_in_the_lead_in_is_never_high(minilm, monkeypatch):
    """"How long does the 18F Team Coffee meeting run?" (hp32) was answered 'high' with "Within the first two weeks:
    (For 18F) reach out … to welcome the new employee at Team Coffee.": the duration is the lead-in's, which dates
    the step, not the meeting (extractive.OWN_VALUE)."""
    from synthesis.synthesize import extractive

    question = "How long does the 18F Team Coffee meeting run?"
    on = (await _answer(minilm, question, _context(ONBOARDING_STEPS))).quality.support
    monkeypatch.setattr(extractive, "OWN_VALUE", False)
    off = (await _answer(minilm, question, _context(ONBOARDING_STEPS))).quality.support
    assert on is not None and on < 0.9 <= off, (on, off)
