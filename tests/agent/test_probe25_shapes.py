"""Question shapes the twelfth and thirteenth fresh probes of the 18F handbook (hp25, hp26, written by helpers that
read only the corpus) found answered wrongly, each on the page text it failed on.

A rule with a flag is switched off once in its test, so the test fails when the rule does nothing.
"""

from __future__ import annotations

from synthesis.qa import analyze
from synthesis.synthesize.candidates import candidates
from synthesis.synthesize.extractive import ExtractiveSynthesizer

from .test_probe_shapes import checked
from .test_qa import _answer, _context, _with_and_without

CDP = ("Training and development", "Leadership development > Competitive Development Program (CDP)",
       "The Competitive Development Program provides leadership development opportunities via select external "
       "training programs. The CDP is a competitive process that requires supervisor approval. Please note: the CDP "
       "is only open to full-time, permanent employees with at least 1 year of GSA service (by the application "
       "deadline).")


async def test_a_deadline_asked_is_answered_only_by_a_date(minilm, monkeypatch):
    """"When is this year's application deadline for GSA's Competitive Development Program?" (hp26, unanswerable)
    was answered 'high' with "… at least 1 year of GSA service (by the application deadline)": it names the
    deadline and states no date."""
    from synthesis.qa import values

    question = "When is this year's application deadline for GSA's Competitive Development Program?"
    outcome = await ExtractiveSynthesizer(minilm).synthesize(question, _context(CDP))
    assert not outcome.synthesis.summary and outcome.missing == ["a date"], outcome.missing
    dated = (CDP[0], CDP[1], CDP[2] + " Applications for this year's CDP are due March 14.")
    assert "March 14" in (await _answer(minilm, question, _context(dated))).summary
    monkeypatch.setattr(values, "DATES_ASKED", False)
    assert "by the application deadline" in (await _answer(minilm, question, _context(CDP))).summary
    monkeypatch.setattr(values, "DATES_ASKED", True)
    for asked in ("What's the deadline to choose cash or time off for my award?", "By when do I have to sign up?",
                  "What day does the listing usually land?"):
        assert values.asked_value(asked) == (values.DATE, values.DATE), asked
    for asked in ("When can I apply for paid parental leave?", "When do we use Slack Connect?"):
        assert values.asked_value(asked) is None, asked  # a time or a case, no deadline
    for text in ("Date: October 17, 2025; Item: Self-assessment due.", "It usually lands on Tuesday.",
                 "You should hear back within 3 business days.", "The balance reloads on the 10th of each month.",
                 "Applications open in the spring.", "Due Nov. 15."):
        assert values.states_value(text, values.DATE), text
    for text in ("You may use it for a long time.", "Mark 3 is the third release.", CDP[2],
                 # (review) a bare "before" or "once", a form number, "this year" state no date
                 "Talk to your supervisor before you apply.", "Once approved, you'll get an email.", "Use Form 2019-A.",
                 "This year's cohort has 20 people."):
        assert not values.states_value(text, values.DATE), text
    for text in ("Tock entries are due by 10 a.m. ET.", "Applications are due in May.", "Submit it by EOD.",
                 "Applications are accepted on a rolling basis.", "Submit it 5 business days before your trip."):
        assert values.states_value(text, values.DATE), text
    for asked in ("What's the cutoff score?", "When is the due diligence review done?", "Which date format is used?",
                  "What day-to-day tools do we use?"):
        assert values.asked_value(asked) is None, asked


ZOOM_RULES = ("Zoom", "Rules", "Zoom Usage Guidance for GSA Hosted Meetings\n\n- All Zoom meetings hosted by GSA "
              "require a meeting password.\n- Do not use a Personal Meeting ID (PMI) for Zoom meetings hosted by GSA.\n"
              "- Do not share links to Zoom meetings or classrooms via publicly available websites.")
ZOOM_HOST = ("Zoom", "Setup", "1. Install the Zoom application through Self Service.\n1. Click `Sign in with SSO`.\n"
             "1. Enter `gsa.zoomgov.com`. If the domain is set to `.zoom.us`, click `I don't know the company domain` "
             "and enter your GSA email.")


async def test_a_verb_before_a_gerund_with_an_object_is_no_kind_of_it(minilm, monkeypatch):
    """"Can I just use my Personal Meeting ID and skip setting a password?" (hp26) was refused: "skip" read as a kind
    of setting (as "pet" is a kind of insurance), and no page says "skip"."""
    from synthesis.qa import topic

    question = ("I'm hosting a Zoom for Government call with another agency. Can I just use my Personal Meeting ID "
                "and skip setting a password?")
    summary = (await _answer(minilm, question, _context(ZOOM_RULES, ZOOM_HOST))).summary
    assert "Personal Meeting ID" in summary and "password" in summary, summary
    assert checked(minilm, analyze(question), _context(ZOOM_RULES, ZOOM_HOST)).missing == []
    monkeypatch.setattr(topic, "GERUND_OBJECT", False)
    assert checked(minilm, analyze(question), _context(ZOOM_RULES, ZOOM_HOST)).missing == ["skip"]
    monkeypatch.setattr(topic, "GERUND_OBJECT", True)
    # (review) a noun phrase before a time is no gerund with an object: "yoga" is a kind of training
    assert topic.compound_modifiers("Is there a yoga training this month?", {"yoga"}, {"train", "month"}) == ["yoga"]
    # a kind before a noun still decides ("pet insurance"); a gerund without an object is a noun ("skip tracing")
    assert topic.compound_modifiers("Does it cover pet insurance?", {"pet"}, {"insur"}) == ["pet"]
    assert topic.compound_modifiers("Is there a skip setting?", {"skip"}, {"set"}) == ["skip"]


CREDIT = ("Compensation for working extra hours", "Credit hours, in flexible work schedules",
          "You can be approved for credit hours if you want to voluntarily work additional hours to your "
          "normal/approved schedule.\n\n* You can have up to 24 credit hours accrued, at any given time.\n\n* The "
          "hours will rollover from one pay period to the next, and they never expire.")


async def test_an_ing_form_after_keep_or_start_is_what_the_asker_does(minilm, monkeypatch):
    """"If I'm on a flexible schedule and keep volunteering to stay late, how many credit hours am I allowed to have
    banked at one time?" (hp26) was refused for "volunteering", which no page uses."""
    from synthesis.qa import topic

    question = ("If I'm on a flexible schedule and keep volunteering to stay late, how many credit hours am I allowed "
                "to have banked at one time?")
    assert "volunteering" not in checked(minilm, analyze(question), _context(CREDIT)).missing
    monkeypatch.setattr(topic, "ASPECT_VERBS", False)
    assert "volunteering" in checked(minilm, analyze(question), _context(CREDIT)).missing
    monkeypatch.setattr(topic, "ASPECT_VERBS", True)
    assert "working" in topic.story_verbs("I've been working late a lot. Do I get comp time?")
    assert "volunteering" not in topic.story_verbs("Is volunteering covered by admin leave?")  # what is asked
    # a rare verb can be the topic the knowledge base lacks (review): "Can I keep teleworking after I move?"
    assert "teleworking" not in topic.story_verbs("Can I keep teleworking after I move to another state?")


OUTREACH = ("TTS Outreach", "Team", "The Outreach team has a point person for each of the main business units, and "
            "they should be your first point of contact when looking for Outreach services.\n\n- Director - Star "
            "Vanamali\n- 18F - Dahianna Salazar Foreman\n- Solutions - Kristina Britt\n- PIF - Vacant\n- COE - Andrea "
            "Sigritz\n\nYou can also reach the whole team at tts-outreach@gsa.gov.")


async def test_one_thing_for_each_of_several_introduces_the_list_of_them(minilm, monkeypatch):
    """"I'm on the Centers of Excellence team … Who's our Outreach point person?" (hp26) quoted "The Outreach team has
    a point person for each of the main business units …" without the list of them that follows."""
    from synthesis import sentences

    question = ("I'm on the Centers of Excellence team and want help with some marketing materials. Who's our "
                "Outreach point person?")
    assert "COE - Andrea Sigritz" in (await _answer(minilm, question, _context(OUTREACH))).summary
    monkeypatch.setattr(sentences, "EACH_OF_LISTS", False)
    assert "Sigritz" not in (await _answer(minilm, question, _context(OUTREACH))).summary
    monkeypatch.setattr(sentences, "EACH_OF_LISTS", True)
    assert not sentences.introduces_list("Each of the teams meets weekly.")
    assert not sentences.introduces_list("We review each of the requests.")


INTEGRATIONS = ("Slack integrations", "New integrations",
                "Note this is only necessary for new bots or types of integrations. The form should be filled out "
                "again if the nature of the connection changes, e.g. a webhook connection changes to using OAuth.\n\n"
                "New integrations being built/hosted by GSA should be developed against the test Slack—ask in "
                "#admins-slack for access.\n\nNew integrations/bots need approval from the following:\n\n- Security "
                "Engineering (ISE)\n- OCTO\n- GSA IT Slack admins\n\nThose that are approved will be approved across "
                "the GSA Slack Enterprise Grid.")
BOTS = ("Slack", "Records policy", "If any bot or integration ever posts something inappropriate, please call for a "
        "clean-up in #admins-slack using @slackadmin. If you're interested in learning more about the bots, or "
        "perhaps contributing to them, pop into #bots.")


async def test_a_lead_in_names_the_roles_its_list_names(minilm, monkeypatch):
    """"We've built a new bot that posts into Slack using OAuth. Whose sign-off do we need before it can go live?"
    (hp26) was answered with where to ask for a clean-up: "New integrations/bots need approval from the following:"
    names no role itself, its items do."""
    from synthesis.qa import kinds

    question = ("We've built a new bot that posts into Slack using OAuth. Whose sign-off do we need before it can go "
                "live?")
    on, off = await _with_and_without(minilm, monkeypatch, question, _context(BOTS, INTEGRATIONS), kinds,
                                      "LIST_ROLES", False)
    assert "New integrations/bots need approval from the following: Security Engineering (ISE); OCTO" in on, on
    assert "Security Engineering" not in off, off
    # (review) a lead-in of how or with what, not of whom, lends no role
    assert not kinds.listed_roles(candidates(_context(("HR", "Sign in", "Sign in with:\n\n- Your PIV card\n- Login.gov"))))
    assert kinds.listed_roles(candidates(_context(("Docs", "Review", "Approvers:\n\n- Your supervisor\n- HR"))))


ADVANCED = ("Advanced sick leave", "", "You can request up to 240 hours of advanced sick leave. If you are a term "
            "employee, you can request up to the total amount that you’ll earn during the rest of your term.\n\nFor "
            "example: You have one year left on your term, which equals to 26 pay periods. You earn 4 sick leave hours "
            "per pay period. You will earn 104 more sick leave hours (26 pay periods x 4 hours per pay period). "
            "Therefore, you can request up to 104 advanced sick leave hours.")


async def test_a_sentence_of_an_example_paragraph_illustrates_the_rule(minilm, monkeypatch):
    """"As a permanent employee, what's the most I can ask for?" (hp26) was answered 'high' with the example's
    "Therefore, you can request up to 104 advanced sick leave hours." over the rule, "up to 240 hours"."""
    from synthesis.qa import reader

    question = ("I need to request advanced sick leave for a surgery. As a permanent employee, what's the most I can "
                "ask for?")
    on, off = await _with_and_without(minilm, monkeypatch, question, _context(ADVANCED), reader, "EXAMPLE_PARAGRAPHS",
                                      False)
    assert on.startswith("You can request up to 240 hours"), on
    assert off.startswith("Therefore, you can request up to 104"), off


NYC_CARD = ("New York City", "Transit subsidies > Use your card",
            "Although it is technically a debit card, when you put the card in an MTA machine, select `Credit Card` as "
            "your payment method, and use the same office ZIP code. The balance resets on the 10th of every month. The "
            "new balance is intended to cover the following month's transit, but you can use it at any time.")
SF_SUBSIDY = ("San Francisco", "Transit subsidy", "All GSA employees are eligible for transit subsidies which cover "
              "the cost of your Clipper travel. You will get a debit card (called a “TRANServe card”) which you use to "
              "load your Clipper card each month.")


async def test_the_most_paid_per_month_asks_an_amount_per_month(minilm, monkeypatch):
    """"What's the most the transit subsidy will cover per month?" (hp25, unanswerable) was answered with "The new
    balance is intended to cover the following month's transit": no amount."""
    from synthesis.qa import rates

    question = "What's the most the transit subsidy will cover per month?"
    outcome = await ExtractiveSynthesizer(minilm).synthesize(question, _context(NYC_CARD, SF_SUBSIDY))
    assert not outcome.synthesis.summary and outcome.missing == ["an amount per month"], outcome.missing
    capped = (SF_SUBSIDY[0], SF_SUBSIDY[1], SF_SUBSIDY[2] + " The subsidy covers up to $325 per month.")
    assert "$325 per month" in (await _answer(minilm, question, _context(NYC_CARD, capped))).summary
    monkeypatch.setattr(rates, "MOST_PER", False)
    assert (await _answer(minilm, question, _context(NYC_CARD, SF_SUBSIDY))).summary
    assert rates.asked_rate("What's the most leave I can carry per year?") is None  # no money asked
    # (review) a count per period asks no amount of money, however paid
    for asked in ("What's the maximum number of reimbursed local trips per month?",
                  "What's the limit on paid sick days per year?"):
        assert rates.asked_rate(asked, asked) is None, asked


DC_LOCKERS = ("Washington, D.C.", "How do I... > Lockers", "If you work in DC and do not have a locker assigned to you,"
              " email Tenant Support to request a locker. You can request them by floor and wing or use the location "
              "label off of a locker cluster.")
NYC_OFFICE = ("New York City", "Getting there", "The office is at One World Trade Center, on the 55th floor. Take the "
              "E train to World Trade Center, or the PATH.")


async def test_a_place_named_by_its_title_s_initials_scopes_the_question(minilm, monkeypatch):
    """"Are there lockers I can use at the NYC office in One World Trade?" (hp25, unanswerable) was answered with the
    DC page's lockers: "NYC" names the page titled "New York City", which has none."""
    from synthesis.qa import asker

    question = "Are there lockers I can use at the NYC office in One World Trade?"
    on, off = await _with_and_without(minilm, monkeypatch, question, _context(DC_LOCKERS, NYC_OFFICE), asker,
                                      "TITLE_INITIALS", False)
    assert not on, on
    assert "Tenant Support" in off, off
    monkeypatch.setattr(asker, "TITLE_INITIALS", True)
    assert asker.title_initials("New York City") == "nyc" and asker.title_initials("Benefits") == ""
    # a DC question is still answered by the DC page
    assert "Tenant Support" in (await _answer(minilm, "Are there lockers at the DC office?",
                                              _context(DC_LOCKERS, NYC_OFFICE))).summary


MURAL = ("Mural", "Reclaim member seats", "We have limited member seats available. Members who have been inactive for "
         "more than 90 days should be converted to guests. From the Members page, select the Members tab and sort by "
         "Last Access Date.")
MURAL_USAGE = ("Mural", "Usage", "Mural consists of “rooms” (for example, FEC) and “murals” (for example, User "
               "Research). There’s only one \"workspace”: TTS.")


async def test_a_number_of_a_unit_counts_nothing_asked(minilm, monkeypatch):
    """"How many Mural member seats does TTS have in total?" (hp26, unanswerable) was answered under the "Reclaim member
    seats" heading by "… inactive for more than 90 days …": 90 days are no count of seats."""
    from synthesis.qa import unstated

    question = "How many Mural member seats does TTS have in total?"
    outcome = await ExtractiveSynthesizer(minilm).synthesize(question, _context(MURAL, MURAL_USAGE))
    assert not outcome.synthesis.summary and outcome.missing == ["a number of seats"], outcome.missing
    counted = (MURAL[0], MURAL[1], MURAL[2] + " TTS has two hundred member seats in all.")
    assert "two hundred member seats" in (await _answer(minilm, question, _context(counted, MURAL_USAGE))).summary
    monkeypatch.setattr(unstated, "UNIT_COUNTS_NOTHING", False)
    assert (await _answer(minilm, question, _context(MURAL, MURAL_USAGE))).summary
    monkeypatch.setattr(unstated, "UNIT_COUNTS_NOTHING", True)
    # (review) "three times a year" still counts the check-ins asked
    checkins = ("Performance", "Check-ins", "Supervisors hold check-ins with each employee three times a year.")
    assert "three times a year" in (await _answer(minilm, "How many check-ins does my supervisor hold with me each "
                                                  "year?", _context(checkins))).summary


GROUPS = ("Google Groups", "How do I configure my GSA Google Group for non-GSA users?",
          "To adjust group permissions so non-GSA people can join your Google Group, click on your Google Group, then "
          "click \"Group settings\" on the left navigation. Enable or select these options:\n\n- People outside the "
          "organization can be members (ON)\n- Allow email posting\n\nTo invite non-GSA folks to your group, use "
          "**add** instead of **invite**.")
GROUPS_CREATE = ("Google Groups", "Create a Google Group", "You will request a Google Group through the GSA IT Self "
                 "Service Portal. Search for `Google Group` and the Google Groups creation request form will appear as "
                 "an option.")
GROUPS_DIFFER = ("Google Groups", "How are GSA Google Groups different than regular Google Groups?",
                 "People outside GSA can't access GSA Google Groups via the Google Groups website, but can still "
                 "receive email if added to the group directly. Similarly, you can't access public Google Groups via "
                 "the Google Groups website with your GSA email, but you can still receive email if added to the "
                 "group directly.")


def test_a_lead_in_pointing_at_these_options_goes_on_with_the_line_before(monkeypatch):
    """"I run a GSA Google Group and want people from a partner agency to be members. How do I set that up?" (hp25)
    quoted "… then click "Group settings" on the left navigation." and stopped before "Enable or select these
    options:" and the options themselves."""
    from synthesis.synthesize import quotes

    units = candidates(_context(GROUPS_CREATE, GROUPS, GROUPS_DIFFER))
    settings = next(u for u in units if u.text.endswith('on the left navigation.'))
    assert quotes.continued_by(settings, units).text == "Enable or select these options:"
    items, _ = quotes.list_for(quotes.continued_by(settings, units), units, None)
    assert [x.text for x in items][:2] == ["People outside the organization can be members (ON)", "Allow email posting"]
    monkeypatch.setattr(quotes, "THESE_LEADS", False)
    assert quotes.continued_by(settings, units) is None
    # (review) a lead-in naming these of its own, after an unrelated line, goes on with nothing
    denver = candidates(_context(("Denver", "Office", "The office is on the 7th floor. Visitors must show one of "
                                  "these IDs at the gate:\n\n- A REAL ID\n- A passport")))
    assert quotes.continued_by(next(u for u in denver if u.text.startswith("The office")), denver) is None
    # a lead-in in another paragraph, or naming no list, goes on with nothing
    other = candidates(_context(("Google Groups", "Tips", "Click Group settings.\n\nSee these options:\n\n- A\n- B")))
    assert quotes.continued_by(next(u for u in other if u.text == "Click Group settings."), other) is None


SICK_DOCUSIGN = ("Advanced sick leave", "Getting approval for advanced sick leave",
                 "When routing for signatures, you can use the Docusign template for the Advanced Sick Leave Request to "
                 "fill out the form and request the right signatures.")


async def test_a_where_answer_naming_only_the_questions_places_is_never_high(minilm, monkeypatch):
    """"… where in Docusign do I find the ready-made form template?" (hp26) was answered 'high' with "… you can use
    the Docusign template for the Advanced Sick Leave Request to fill out the form …": it names no place the
    question did not ("form", "Docusign")."""
    from synthesis.qa import kinds

    question = "Where in Docusign do I find the ready-made form template for advanced sick leave?"
    told = await _answer(minilm, question, _context(SICK_DOCUSIGN))
    assert "Docusign template" in told.summary and told.quality.support <= 0.6, told.quality
    monkeypatch.setattr(kinds, "PLACES_TOLD", False)
    assert (await _answer(minilm, question, _context(SICK_DOCUSIGN))).quality.support == 0.9
    monkeypatch.setattr(kinds, "PLACES_TOLD", True)
    part = analyze(question).parts[0]
    assert kinds.places_told_only(part, SICK_DOCUSIGN[2])
    assert not kinds.places_told_only(part, "Along the left navigation bar, select Shared with Me in the Templates tab.")
