"""Question shapes the fourteenth and fifteenth fresh probes of the 18F handbook (hp27, hp28, written by helpers that
read only the corpus) and the earlier development-side sets found answered wrongly, each on the page text it failed
on.

A rule with a flag is switched off once in its test, so the test fails when the rule does nothing.
"""

from __future__ import annotations

from synthesis.qa import asker
from synthesis.synthesize.candidates import candidates
from synthesis.synthesize.extractive import ExtractiveSynthesizer

from .test_qa import _answer, _context, _with_and_without

VLTP_USING = ("Leave", "Types of leave > Using donated leave",
              "If you have a personal or family medical emergency and have exhausted your earned leave, you can enroll "
              "in the Voluntary Leave Transfer Program (VLTP). Your colleagues can donate their annual leave for you. "
              "Reach out to your Workforce Relations HR Specialist to start the process.")
VLTP_UNENROL = ("Voluntary Leave Transfer Program", "To receive donated hours > Un-enrolling from VLTP",
                "1. Notify your supervisor of the date you wish to withdraw from VLTP. This is typically when your "
                "medical emergency is resolved.\n2. Check your leave balances in HR Links to ensure that your donated "
                "hours have been used.\n3. Once you've finished amending timecards, your supervisor notifies your "
                "Workforce Relations HR Specialist.")
VLTP_DONATE = ("Voluntary Leave Transfer Program", "Donating leave > Donating hours through VLTP system",
               "You can donate hours to your colleagues through VLTP or the Emergency Leave Transfer Program "
               "(ELTP).\n\n"
               "1. Go to vltp.gsa.gov and log in using your PIV card or GSA email with 2-factor authentication.\n"
               "2. You will be taken to the GSA Payroll System VLTP page.\n"
               "3. Click the button on the bottom to Donate Annual Leave Hours To A Shared Leave Recipient.\n"
               "4. Follow the system prompts to donate leave; select General Services Administration as the agency "
               "and 0 - Central Office as the region.")


async def test_a_section_for_the_other_side_of_a_giving_states_the_other_sides_steps(minilm, monkeypatch):
    """"… I'd like to give them some of my annual leave. How do I do that?" (hp23, hp25) was answered with how to
    enrol to receive donated leave and how to withdraw from it: the sections headed "Using donated leave" and "To
    receive donated hours" are the recipient's, and the asker gives."""
    question = ("A teammate is out on a long medical emergency and I'd like to give them some of my annual leave. "
                "How do I do that?")
    on, off = await _with_and_without(minilm, monkeypatch, question, _context(VLTP_USING, VLTP_UNENROL, VLTP_DONATE),
                                      asker, "GIVING_SIDE", False)
    assert "vltp.gsa.gov" in on and "Central Office" in on, on
    assert "withdraw" not in on, on
    assert "vltp.gsa.gov" not in off.split("[1]")[0], off  # (the donor's steps may follow, not lead)


def test_the_side_of_a_giving_is_the_askers_own():
    sides = {
        "How should I go about giving a teammate some constructive feedback?": "give",
        "how do I actually donate some of my annual leave to them": "give",
        "My teammate just gave me some tough feedback. How should I handle it?": "receive",
        "I received a time-off award. When does it expire?": "receive",
        "How do I get donated leave?": "",  # neither side said
        "Can I give feedback on feedback I received?": "",  # both
        "Who gives the final approval?": "",  # not the asker's giving
        # (review) nothing changes hands in a talk or a heads-up; "… to me" is the receiver's
        "I've been invited to give a talk at a conference. Where do I send the invitation?": "",
        "We're hosting some visitors. Do we have to give security a heads-up?": "",
        "Can I ask colleagues to donate some of their annual leave to me?": "receive",
    }
    for question, side in sides.items():
        assert asker.asked_side(question) == side, question
    assert asker.other_side("give", "Voluntary Leave Transfer Program > To receive donated hours")
    assert asker.other_side("give", "Leave > Types of leave > Using donated leave")
    assert not asker.other_side("give", "Voluntary Leave Transfer Program > Donating leave")
    assert asker.other_side("receive", "Healthy conflict > Giving feedback with power and identity in mind")
    assert not asker.other_side("receive", "Receiving feedback > Tips for processing feedback better")
    assert not asker.other_side("give", "Leave > Annual leave")  # no side at all
    assert not asker.other_side("give", "Leave > Donated leave program")  # the program, either side's


REOPEN = ("End of Year Performance Management HRLinks Steps", "Re-opening a performance plan",
          "If modifications need to be made to an existing performance plan, a plan can be re-opened by the "
          "Supervisor and resubmitted to the employee to acknowledge.\n\nNOTE: 120 days must pass from the date the "
          "employee acknowledges the updated plan before they can be rated against it.")


def test_a_pronoun_after_an_opening_clause_points_at_that_clauses_thing(minilm, monkeypatch):
    """"My supervisor reopened my performance plan to tweak the critical elements. Once I acknowledge the new
    version, how long before I can be rated on it?" (hp27) was refused for "tweak": "it" is the new version the
    asking's own clause names, so the story before it sets the scene and its words decide nothing."""
    from synthesis.qa import analyze, pointing

    from .test_probe_shapes import checked

    question = ("My supervisor reopened my performance plan to tweak the critical elements. Once I acknowledge the "
                "new version, how long before I can be rated on it?")
    assert checked(minilm, analyze(question), _context(REOPEN)).missing == []
    monkeypatch.setattr(pointing, "CLAUSE_WITHIN", False)
    assert checked(minilm, analyze(question), _context(REOPEN)).missing == ["tweak"]
    monkeypatch.setattr(pointing, "CLAUSE_WITHIN", True)
    assert not pointing._points_back("Once I acknowledge the new version, how long before I can be rated on it?")
    for asking in ("If I buy it, will it be reimbursed?", "Will TTS pay for it?",
                   "Once it is approved, who books the travel?",  # nothing of its own before "it"
                   # (review) a clause on another thing: "it" is still the story's ("… pet insurance for my dog.")
                   "If I miss the open season deadline, can I still sign up for it?"):
        assert pointing._points_back(asking), asking


MISSION = ("History and values of 18F", "18F: a civic consultancy",
           "When 18F launched officially, it had 15 full-time staff and had settled on a name: 18F refers to the "
           "location of GSA headquarters at the intersection of 18th and F Streets in Washington, DC.")
HIRING = ("Tock", "Quick reference > 18F", "18F Hiring / Onboarding - #1241: Time specifically spent working on 18F "
          "hiring and onboarding, for a new hire or a hiring panel.")
ENGAGEMENTS = ("Engagement overview", "",
               "Historically, 18F has referred to this work as “projects” and CoE has called them “engagements.” As "
               "part of our realignment, we are standardizing this language:\n\n- Projects are focused around "
               "addressing a specific service challenge or problem\n- Engagements are generally a broader effort "
               "which can contain one or more projects")
PHISHING = ("Security incidents", "Reporting Phishing",
            "If you receive a suspicious email, follow these steps:\n\n1. Do not click any links in the email. Do not "
            "delete it yet.\n2. Follow the \"Cofense Report\" video on the Phishing Emails and Scams InSite page.\n3. "
            "This should instruct you in how to use the Cofense tool (the little fish icon that should be on the "
            "right) to report the phish.")
PAYCHECKS = ("Benefits", "Paychecks", "We are paid biweekly. You'll receive your first paycheck about three weeks "
             "after your start date. Please direct questions to the payroll help desk: 1-844-303-6515 or email them.")


async def test_words_of_how_the_asker_talks_refuse_nothing(minilm, monkeypatch):
    """Three hp27/hp28 questions were refused for a word that says how they are asked, not what: a lead naming the
    asking ("Random trivia question from a new hire: …"), the register of a term ("In TTSC lingo, …") and a look
    ("a sketchy-looking email")."""
    from synthesis.qa import analyze, chatter, parts

    from .test_probe_shapes import checked

    cases = [("Random trivia question from a new hire: why is it called 18F?", MISSION, parts, "ASKING_LEAD", "trivia"),
             ("In TTSC lingo, is an 'engagement' the same thing as a 'project', or is one bigger than the other?",
              ENGAGEMENTS, chatter, "REGISTER_WORDS", "lingo"),
             ("Got a sketchy-looking email asking me to 'verify my payroll info'. What's the tool I'm supposed to use "
              "to report it?", (PHISHING, PAYCHECKS), chatter, "LOOKS",
              "sketchy-looking")]
    for question, pages, module, flag, word in cases:
        pages = pages if isinstance(pages[0], tuple) else (pages,)
        assert word not in checked(minilm, analyze(question), _context(*pages)).missing, question
        monkeypatch.setattr(module, flag, False)
        assert word in checked(minilm, analyze(question), _context(*pages)).missing, question
        monkeypatch.setattr(module, flag, True)
    lead = parts.without_lead
    assert lead("Random trivia question from a new hire: why is it called 18F?") == "why is it called 18F?"
    assert lead("Dumb question from a newbie — is TTS Consulting paid for out of the budget?").startswith("is TTS")
    for kept in ("Quick question about parental leave: how many weeks do I get?",  # the lead's topic
                 "Pet insurance question: is it covered?",  # nothing asked of its own after the lead
                 # (review) a lead naming a topic or a role says what is asked
                 "ATO question: how long does it take?", "Parental leave question: how many weeks do I get?",
                 "Question from a contractor: can I use Slack?",
                 "Two HR Links questions: where do I see the date, and where can I check it?"):
        assert lead(kept) == kept
    assert "18th and F" in (await _answer(minilm, "Random trivia question from a new hire: why is it called 18F?",
                                          _context(HIRING, MISSION, ENGAGEMENTS))).summary
    talk = chatter.chatter
    assert talk("Is there a jargon guide for writers?") == set()  # not "in … jargon"
    assert talk("In the terminology guide, what is an engagement?") == set()  # (review) the guide is the topic
    assert talk("In meetings can I speak freely?") == set()
    assert talk("In TTSC-speak, what is an engagement?") == {"ttsc-speak"}
    assert talk("A shady-looking link came in. Should I click it?") == {"shady-looking"}
    assert talk("I got a weird-sounding voicemail from IT. Who do I call?") == {"weird-sounding"}
    assert talk("Is the forward-looking statement required?") == set()  # "forward" is no judgement


async def test_asking_why_a_name_is_what_it_is_wants_the_line_saying_what_it_refers_to(minilm, monkeypatch):
    """"… why is it called 18F?" (hp27) was answered with Tock lines about "calls with partners" and a "previously
    called" date: the answer is the line saying what the name refers to (question.NAME_ORIGIN)."""
    from synthesis.qa import question as q

    asked = "Random trivia question from a new hire: why is it called 18F?"
    tock = ("Tock", "Quick reference > 18F", "18F Intake & Scoping - #1811: Capture all activities for calls with "
            "partners, briefings with the Scoping team, proposal writing, and working with the TTS Agreements team.")
    dates = ("History and values of 18F", "Key dates",
             "2016: 18F creates login.gov and cloud.gov Pages, previously called \"Federalist.\"")
    on, off = await _with_and_without(minilm, monkeypatch, asked, _context(tock, dates, MISSION), q, "NAME_ORIGIN",
                                      False)
    assert on.startswith("When 18F launched officially") and "18th and F" in on, on
    assert not off.startswith("When 18F launched officially"), off
    monkeypatch.setattr(q, "NAME_ORIGIN", True)
    for asking in ("Why is it called Tock?", "where does the name Tock come from?", "What does CoE stand for?",
                   "Why is the team named 18F?"):
        assert q.asked_field(asking) is q.Field.NAME, asking
    for asking in ("Why is 18F called 18F?", "Why do we call it 18F?", "Why’s it called 18F?", "What is 18F short for?",
                   "Where did 18F get its name?", "What does TTS stand for"):  # (review) paraphrases
        assert q.asked_field(asking) is q.Field.NAME, asking
    for asking in ("What is the tool called?", "What's the channel named?", "Why is it so slow?",
                   "Why was the meeting called off?", "Why was I called into the meeting?", "What does it mean?"):
        assert q.asked_field(asking) is None, asking


FUNDING = ("History and values of 18F", "How we fund our work",
           "18F is a cost-recoverable organization. We rely mostly on the following two channels for funding our "
           "work:\n\nGSA funds 18F through the Acquisition Services Fund (ASF), which allows for investment in the "
           "development and delivery of products and tools that will be used by other agencies on a reimbursable "
           "basis.\n\nThe Economy Act allows 18F to be reimbursed for services provided to other agencies.")
REVOLVING = ("Organizational financial management", "",
             "In contrast to appropriated funds, which are provided by Congress through the annual budget process, a "
             "revolving fund like ASF is designed to be replenished through reimbursements. This is why we must charge "
             "our partners for our actual time and material costs, plus a fixed overhead amount.")


async def test_a_percentage_asked_is_answered_only_by_a_share(minilm, monkeypatch):
    """"What percentage does 18F add on top of time and materials as its overhead charge to partner agencies?" (hp27,
    unanswerable) was answered with how 18F is funded, which states no share (values.PERCENT_ASKED)."""
    from synthesis.qa import kinds, values

    question = ("What percentage does 18F add on top of time and materials as its overhead charge to partner "
                "agencies?")
    outcome = await ExtractiveSynthesizer(minilm).synthesize(question, _context(REVOLVING, FUNDING))
    assert not outcome.synthesis.summary and outcome.missing == ["a percentage"], outcome.missing
    monkeypatch.setattr(values, "PERCENT_ASKED", False)
    monkeypatch.setattr(kinds, "TOLD_CODES", False)  # (it too refuses here: "18F" states no amount)
    assert "cost-recoverable" in (await _answer(minilm, question, _context(REVOLVING, FUNDING))).summary
    monkeypatch.setattr(values, "PERCENT_ASKED", True)
    for text in ("Overhead is 7% of labor.", "It adds 12.5 percent.", "GSA pays half the cost.", "It adds five percent.",
                 "Half of the fee is refunded."):
        assert values.states_value(text, values.PERCENT), text
    for text in ("18F is a cost-recoverable organization.", "There are 3 steps.", "Take the other half.",
                 "You can compare all of the plans on OPM."):  # (review) "all of" is no share
        assert not values.states_value(text, values.PERCENT), text
    assert values.asked_value("What share of my premium does GSA pay?") == (values.PERCENT, values.PERCENT)
    assert values.asked_value("What percent of the budget is overhead?") == (values.PERCENT, values.PERCENT)
    assert values.asked_value("Which share drive do we use?") is None


TIME_IN_GRADE = ("Promotions", "Introduction to the Merit Promotion process",
                 "For all Merit Promotion roles: employees must be at their current GS level for one year in order to "
                 "apply for a position at the next highest GS level. This is called the “time-in-grade” requirement, "
                 "and an applicant must meet time-in-grade within 30 days of an application’s closing date.")


async def test_a_window_asked_when_it_opens_wants_a_date_of_that_program(minilm, monkeypatch):
    """"When does the application window for GSA's Competitive Development Program open each year?" (hp27,
    unanswerable) was answered 'high' with "the CDP is only open to full-time, permanent employees …", then with the
    Merit Promotion line's "within 30 days of an application's closing date": the first says who, the second dates
    another program's applications (values.WINDOW_DATES, unstated.NAMED_DATES)."""
    from synthesis.qa import unstated, values

    from .test_probe25_shapes import CDP

    question = "When does the application window for GSA's Competitive Development Program open each year?"
    outcome = await ExtractiveSynthesizer(minilm).synthesize(question, _context(CDP, TIME_IN_GRADE))
    assert not outcome.synthesis.summary and outcome.missing == ["a date"], outcome.missing
    monkeypatch.setattr(values, "WINDOW_DATES", False)
    assert (await _answer(minilm, question, _context(CDP))).summary
    monkeypatch.setattr(values, "WINDOW_DATES", True)
    monkeypatch.setattr(unstated, "NAMED_DATES", False)
    assert "within 30 days" in (await _answer(minilm, question, _context(CDP, TIME_IN_GRADE))).summary
    monkeypatch.setattr(unstated, "NAMED_DATES", True)
    dated = (CDP[0], CDP[1], CDP[2] + " The Competitive Development Program application window opens in March.")
    assert "March" in (await _answer(minilm, question, _context(dated, TIME_IN_GRADE))).summary
    for asking in ("When does open season close?", "When will the registration for the summit open?",
                   # (review) "open for" and "is … open"
                   "When does registration open for the summit?", "When is the CDP application window open?"):
        assert values.asked_value(asking) == (values.DATE, values.DATE), asking
    # a program named by its initials: "IDPs are due by October 31" dates an Individual Development Plan
    idp = ("Training", "Individual Development Plans", "IDPs are due by October 31 each year.")
    assert "October 31" in (await _answer(minilm, "When is my Individual Development Plan due?", _context(idp))).summary
    for asking in ("When does the office open to visitors?", "When does my leave start?"):
        assert values.asked_value(asking) is None, asking


BLOG_AUTHORS = ("Blogging Guide", "Authorship",
                "The authors listed on a blog post should be only the people who have actively contributed "
                "significant portions of text to the blog post. Generally, posts should only be written by one or two "
                "people.")
BLOGS = ("Blogging Guide", "Choosing a blog", "These are the TTS blogs: 18F blog.")


def test_a_count_of_a_thing_is_a_number_near_it_and_not_a_name(monkeypatch):
    """"Is there a minimum number of blog posts each TTS team is expected to publish per quarter?" (hp27,
    unanswerable) was answered by "These are the TTS blogs: 18F blog.": "18F" names a blog and counts none, and
    "posts should only be written by one or two people" counts people (NAMES_COUNT_NOTHING, COUNT_NEAR)."""
    from synthesis.qa import unstated

    assert unstated.counted_noun("Is there a minimum number of blog posts each TTS team is expected to publish?") \
        == "posts"
    units = {c.text: c for c in candidates(_context(BLOG_AUTHORS, BLOGS))}
    people = units["Generally, posts should only be written by one or two people."]
    blogs = units["These are the TTS blogs: 18F blog."]
    assert not unstated._counts("posts", people) and not unstated._counts("blog", blogs)
    monkeypatch.setattr(unstated, "COUNT_NEAR", False)
    assert unstated._counts("posts", people)
    monkeypatch.setattr(unstated, "NAMES_COUNT_NOTHING", False)
    assert unstated._counts("blog", blogs)
    monkeypatch.setattr(unstated, "COUNT_NEAR", True)
    monkeypatch.setattr(unstated, "NAMES_COUNT_NOTHING", True)
    for text, noun in (("TTS has 3,000 Mural member seats.", "seats"), ("Responses are capped at 500.", "responses"),
                       ("There are 11 federal holidays each year.", "holidays"),
                       # (review) a label line, "the number of … is", a range, a number with a sign
                       ("Breakout rooms: up to 50 per meeting.", "rooms"), ("You can get 1-2 external monitors.", "monitors"),
                       ("The total number of member seats available to the whole of TTS is 3,000.", "seats"),
                       ("Up to 300+ participants can join.", "participants")):
        assert unstated._counts(noun, candidates(_context(("Page", "", text)))[0]), text
    # the numbers listed before a unit are that unit's: "holiday pay for the 8, 9, 10, 12 hours" counts no holidays
    pay = candidates(_context(("Work schedules", "", "You will receive holiday pay for the 8, 9, 10, 12 hours you "
                                                     "were scheduled to work.")))[0]
    assert not unstated._counts("holidays", pay)
    # nor is a compound's first word a count: "two-factor authentication" counts no requests
    first = candidates(_context(("npm-trust", "Bulk Usage", "The first request will require two-factor "
                                                            "authentication.")))[0]
    assert not unstated._counts("requests", first)
    # (review) … but a compound naming the counted noun counts it: "a 300-seat license" is 300 seats
    seats = candidates(_context(("Mural", "Licenses", "TTS has a 300-seat enterprise license.")))[0]
    assert unstated._counts("seats", seats)
    many = ",".join(str(k) for k in range(25))  # (review) read in linear time: no backtracking over the list
    assert unstated._LISTED_BEFORE.search(f"numbers {many}, ")


SPEAK_INTRO = ("External speaking request playbook", "Share your expertise",
               "Speaking externally in your official capacity is a privilege, as you are representing GSA and your "
               "fellow TTSers. There is an approval process.")
PROFESSIONAL = ("FAS speaker guide", "Professional vs personal capacity > Professional capacity",
                "- You'll participate as a TTS employee and discuss the work you do on behalf of GSA and our partners.\n"
                "- You'll be using GSA funds to travel to the event or pay for conference fees.\n"
                "- You'll prepare during your work time and use GSA equipment.")
PERSONAL = ("FAS speaker guide", "Professional vs personal capacity > Personal capacity",
            "- You won't be representing TTS/GSA.\n- You'll refrain from discussing any official work you do at "
            "TTS/GSA or with our partners.\n- You'll use your personal leave or participate after work hours.\n"
            "- You'll prepare on your own time and use your own equipment.")


async def test_a_side_the_page_names_otherwise_is_the_sibling_of_the_other_sides_section(minilm, monkeypatch):
    """"How is speaking in my official capacity different from doing it in a personal capacity?" (hp27) was answered
    for the official side with "Speaking externally in your official capacity is a privilege": the page's
    "Professional capacity", beside "Personal capacity", is that side's (selection.SIBLING_SIDE)."""
    from synthesis.qa import selection

    question = "How is speaking in my official capacity different from doing it in a personal capacity?"
    # one page: the two sections share a document, as they do in the handbook
    context = _context(SPEAK_INTRO, PROFESSIONAL, PERSONAL)
    for source in context.sources[1:]:
        source.passage = source.passage.model_copy(update={"doc_id": "speaker-guide"})
    on, off = await _with_and_without(minilm, monkeypatch, question, context, selection, "SIBLING_SIDE", False)
    assert "GSA funds" in on and "personal leave" in on, on
    assert "GSA funds" not in off, off


def test_a_sibling_section_is_a_sides_only_when_it_is_the_one_beside_the_other_side(minilm):
    """(review) Three sections beside the titled one: which is "family leave"? None is taken; nor is a sibling taken
    for a side whose own words are all common, or one named by a number."""
    from synthesis.qa import Reader, analyze, selection

    def siblings(question: str, *sections: str) -> list[str]:
        context = _context(*[("Leave", f"Leave types > {h}", f"{h} is described here. It has rules of its own.")
                             for h in sections])
        for source in context.sources:
            source.passage = source.passage.model_copy(update={"doc_id": "leave"})
        units = candidates(context)
        frame = analyze(question)
        Reader(minilm.embed).score(frame, units)
        return sorted({c.passage.section for j in range(len(frame.parts))
                       for c in selection.sibling_section(frame, j, units)})

    assert siblings("What's the difference between professional capacity and personal capacity?",
                    "Official capacity", "Personal capacity") == ["Leave types > Official capacity"]
    assert siblings("What's the difference between family leave and sick leave?",
                    "Annual leave", "Sick leave", "Military leave") == []
    assert siblings("What's the difference between sick leave and advanced sick leave?",
                    "Advanced sick leave", "Donated sick leave") == []
    assert siblings("What's the difference between 2025 holidays and 2024 holidays?",
                    "2024 holidays", "2023 holidays") == []
