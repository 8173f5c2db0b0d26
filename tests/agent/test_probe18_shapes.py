"""Question shapes the fifth and sixth fresh probes of the 18F handbook (hp18, hp19, written by helpers that read only
the corpus) found answered wrongly, each on the page text it failed on, and what two reviews of the rules tried.

A rule with a flag is switched off once in its test, so the test fails when the rule does nothing.
"""

from __future__ import annotations

from synthesis.qa import Expect, analyze, compared

from .test_probe_shapes import checked
from .test_qa import _answer, _context, _with_and_without

WEATHER = ("Leave types", "Leave > Types of leave > Weather and safety",
           "You can receive ad hoc “Weather and Safety Leave” if you are prevented from safely working because of an "
           "unexpected event such as:\n\n* Weather-related damage to your home that makes occupying the home unsafe\n"
           "* Loss of power at home (which makes your home not an approved location under agency telework policies)\n"
           "\nWeather and Safety Leave does not count against any of your other leave balances.\n\nThis leave is "
           "entered in HR Links under Administrative Leave Code 094 - Weather & Safety.")
CARRY_OVER = ("Leave types", "Leave > Types of leave > Use or Lose",
              "Use or Lose is the number of annual leave hours you would forfeit at the end of the leave year, if you "
              "do not use any of your annual leave hours between now and then. As noted above, there is a 240 hour "
              "limit on the number of hours you can carry over from one leave year to the next. Use or Lose only "
              "applies to annual leave.")
ANNUAL = ("Leave types", "Leave > Types of leave > Annual leave",
          "You can carry over a maximum of 240 annual leave hours, from one leave year to the next. If you’ve "
          "transferred to TTS from another federal agency, your accrued annual leave will transfer with you.")
GITHUB_RULES = ("GitHub", "GitHub > Rules",
                "- **Ask TTS Tech Operations before creating private repositories.** We pay GitHub for the ability to "
                "create private repositories and need to bill clients for repositories created on their behalf. "
                "Before you do anything, drop into #admins-github and explain what you'd like to do and why.")
STOP_WORK = ("Stopping work", "Internal impact of stopping work",
             "Organizational revenue loss (because team members will likely be temporarily benched while awaiting "
             "reassignment) - each team member's opportunity cost to 18F is about $10,000/week at current billing "
             "rates.")
TRAVEL_CARD = ("What to consider while traveling", "Use your travel card when possible",
               "Use of the GSA travel card is mandatory for all expenses as per the Federal Travel Regulation, except "
               "expenses for which it \"is impractical (e.g., vendor does not accept credit cards) or imposes "
               "unreasonable burdens or costs (e.g., fees are charged for using the card).\" A GSA travel card will "
               "help you pay for lodging, taxis, and other miscellaneous expenses while on your trip. Pay your bill "
               "within 30 days.")
MEALS = ("Frequently Asked Questions", "How should I claim meals and incidental expenses?",
         "- **The allowance for Meals and Incidental Expenses (M&IE) is a flat rate given to a traveler regardless of "
         "what they actually spent.** No receipts or justification is needed to receive M&IE.\n- **For example**: "
         "Consider a trip taken between 9/16 and 9/18. M&IE is $69 per day in DC, and is 75% of $69 ($51.75) on the "
         "first and last days of a trip.")
BARGAINING = ("HR Links", "Bargaining status",
              "If you are in a Bargaining Unit (aka a union), your Workforce Relations HR Specialist can confirm if "
              "non-standard work schedules are available to you, based on your Bargaining Status.\n\n1. Click on the "
              "**View My Employment Information** tile.\n2. Navigate to the **Employment Data 2** tab.\n3. If it "
              "says **Bargaining Unit: 8888 - Ineligible for Inclusion**, or **7777 - Eligible But Not In A "
              "Bargaining Unit**, you are *not* in a Bargaining Unit.")
FAREWELL = ("Leaving TTS & Offboarding", "Sending an email",
            "You are under no obligation to send out a farewell email, but if you do, please use bcc: for any "
            "distribution lists you're sending it to. This allows people to respond to you directly without creating "
            "additional email noise for coworkers.")
VARIABLE_DAY = ("Work schedules", "Types of flexible schedules > Variable Day",
                "- Each day in the work work can be slightly longer or shorter than 8 hours, but must add up to 40 "
                "hours per week.\nYou work 5 days a week.\n- The maximum number of hours you can work in a single day "
                "is 12.")
VARIABLE_WEEK = ("Work schedules", "Types of flexible schedules > Variable Week",
                 "- Each day in the workweek can be slightly longer or shorter than 8 hours.\n- Each week can be "
                 "shorter/longer than 40 hours, as long as together, the two weeks add up to 80 hours for the pay "
                 "period.\n- You work 5 days a week.\n- The maximum number of hours you can work in a single day is "
                 "12.")
MAXIFLEX = ("Work schedules", "Types of flexible schedules > Maxiflex",
            "- Same as Variable Week, but you may work fewer than 10 days per pay period.\n\nFor example:\n\n"
            "| Day | Hours | Day | Hours |\n| --- | --- | --- | --- |\n| Monday | 8 | Monday | Off |\n"
            "| Tuesday | 10 | Tuesday | 10 |\n| Wednesday | 11 | Wednesday | 6 |\n"
            "| **Week 1 Total** | **46** | **Week 2 Total** | **34** |\n")
SCHEDULES = (MAXIFLEX, VARIABLE_WEEK, VARIABLE_DAY)


async def test_hours_of_a_named_leave_are_answered_only_where_that_leave_is_named(minilm, monkeypatch):
    """"How many hours of weather and safety leave am I allowed per year?" was answered with annual leave's 240-hour
    carry-over limit: hours, but of another leave. The handbook heads a section "Weather and safety" and states no
    yearly hours there."""
    from synthesis.qa import values

    question = ("A big storm is forecast and I might lose power for days. How many hours of weather and safety leave "
                "am I allowed per year?")
    on, off = await _with_and_without(minilm, monkeypatch, question, _context(WEATHER, CARRY_OVER), values,
                                      "OF_SUBJECT", False)
    assert not on, on
    assert "240" in off, off
    monkeypatch.setattr(values, "OF_SUBJECT", True)
    assert values.measured_subject("How many days of military leave do I get each year?") == "military leave"
    # a subject no section is headed with (the pages say "annual leave") is answered by any related sentence
    vacation = await _answer(minilm, "How many hours of unused vacation can I roll over into the next year?",
                             _context(ANNUAL, CARRY_OVER))
    assert "240" in vacation.summary, vacation.summary


def _unstated(minilm, question: str, context) -> list[str]:
    """The values answerability finds asked and stated nowhere about them."""
    return checked(minilm, analyze(question), context).unstated


async def test_what_a_provider_charges_asks_a_price_of_the_thing_charged_for(minilm, monkeypatch):
    """"How much does TTS charge a partner agency for each private GitHub repository …?" was answered with the GitHub
    rules (which say clients are billed, and give no amount)."""
    from synthesis.qa import values

    question = ("How much does TTS charge a partner agency for each private GitHub repository we create for their "
                "project?")
    context = _context(GITHUB_RULES, STOP_WORK)
    assert not (await _answer(minilm, question, context)).summary
    assert _unstated(minilm, question, context) == ["a price of a repository"]
    monkeypatch.setattr(values, "CHARGED", False)
    assert _unstated(minilm, question, context) == []
    assert values.asked_value(question) is None
    monkeypatch.setattr(values, "CHARGED", True)
    assert values.priced_words(question) == ["private", "GitHub", "repository"]
    assert values.asked_value("What does 18F charge for a discovery sprint?") == (values.PRICE, values.PRICE)


async def test_a_credit_limit_is_an_amount_of_money(minilm, monkeypatch):
    """"What's the credit limit on the GSA travel card?" was answered with the card's rules of use."""
    from synthesis.qa import values
    from synthesis.qa.question import expected

    question = "What's the credit limit on the GSA travel card? I've got a long trip coming up."
    assert expected("What's the credit limit on the GSA travel card?") is Expect.QUANTITY
    context = _context(TRAVEL_CARD)
    assert not (await _answer(minilm, question, context)).summary
    assert _unstated(minilm, question, context) == ["an amount for the credit limit"]
    monkeypatch.setattr(values, "MONEY_LIMITS", False)
    assert _unstated(minilm, question, context) == []


async def test_a_place_the_asking_points_at_with_there_must_be_named(minilm, monkeypatch):
    """"I'm going to a conference in Denver next month. What's the daily meals and incidentals rate there?" was
    answered with the FAQ's DC example ($69 a day): no retrieved page names Denver."""
    from synthesis.qa import pointing

    question = "I'm going to a conference in Denver next month. What's the daily meals and incidentals rate there?"
    on, off = await _with_and_without(minilm, monkeypatch, question, _context(MEALS), pointing, "PLACE_THERE", False)
    assert not on, on
    assert "$69" in off, off
    monkeypatch.setattr(pointing, "PLACE_THERE", True)
    assert pointing.pointed_places(question) == [["denver"]]
    assert pointing.pointed_places("I'm going to Denver. Is there a per diem?") == []  # "is there" points nowhere


async def test_a_sentence_opening_on_what_the_asker_was_doing_tells_their_story(minilm, monkeypatch):
    """"Poking around HR Links, my Employment Data 2 tab says …" was refused for lacking "poking"."""
    from synthesis.qa import topic

    question = ("Poking around HR Links, my Employment Data 2 tab says 'Bargaining Unit: 7777'. Does that mean I'm "
                "in the union?")
    on, off = await _with_and_without(minilm, monkeypatch, question, _context(BARGAINING), topic,
                                      "OPENING_PARTICIPLE", False)
    assert "7777" in on, on
    assert not off, off


async def test_asking_for_etiquette_asks_what_the_rules_are(minilm, monkeypatch):
    """"Is there any etiquette I should follow?" (a goodbye note to distribution lists) was refused for lacking
    "etiquette"; the page answers with its rule ("use bcc:")."""
    from synthesis.qa import topic

    question = ("I'm leaving GSA at the end of the month and want to send a goodbye note to a couple of big "
                "distribution lists. Is there any etiquette I should follow?")
    on, off = await _with_and_without(minilm, monkeypatch, question, _context(FAREWELL), topic, "NORMS", frozenset())
    assert "bcc" in on, on
    assert not off, off


def test_when_do_we_use_one_or_the_other_asks_a_case_not_a_time(monkeypatch):
    """"When do we use a multi-workspace channel versus Slack Connect?" read as a time ('high' on a line holding
    "two")."""
    from synthesis.qa import question as q

    text = "When do we use a multi-workspace channel versus Slack Connect?"
    assert q.expected(text) is not Expect.QUANTITY
    assert q.expected("When do I submit my timesheet?") is Expect.QUANTITY
    monkeypatch.setattr(q, "WHEN_CASE", False)
    assert q.expected(text) is Expect.QUANTITY


async def test_a_side_defined_against_the_other_under_its_own_heading_answers_it(minilm, monkeypatch):
    """"How is a maxiflex schedule different from a variable week schedule?" led with the rows of maxiflex's example
    table: the line that defines it ("Same as Variable Week, but …") names only the other side."""
    from synthesis.qa import selection

    question = "How is a maxiflex schedule different from a variable week schedule?"
    on, off = await _with_and_without(minilm, monkeypatch, question, _context(*SCHEDULES), selection, "SIDE_HEADED",
                                      False)
    assert "fewer than 10 days" in on and "80 hours" in on, on
    assert not on.startswith("For example"), on
    assert on != off


async def test_sides_told_apart_by_a_common_word_are_named_by_their_whole_phrase(minilm, monkeypatch):
    """"What's the difference between variable day and variable week?": "day" and "week" are in nearly every line of
    the page; "Same as Variable Week, but you may work fewer than 10 days" is maxiflex's, not variable day's."""
    from synthesis.qa import sides

    question = "trying to pick a flexible schedule. what's the difference between variable day and variable week?"
    on, off = await _with_and_without(minilm, monkeypatch, question, _context(*SCHEDULES), sides, "COMMON_SIDES",
                                      False)
    assert "40 hours per week" in on and "80 hours" in on, on
    assert "Same as Variable Week" not in on, on
    assert on != off
    monkeypatch.setattr(sides, "COMMON_SIDES", True)
    assert sides.names_whole("variable day", "", "Variable Day", ["variable week"])
    assert not sides.names_whole("variable day", "Same as Variable Week, but … fewer than 10 days", "",
                                 ["variable week"])


async def test_the_rows_of_an_example_table_give_way_to_the_rule_they_illustrate(minilm, monkeypatch):
    """The rows of maxiflex's example table ("Day: Monday; Hours: 8; Day: Monday; Hours: Off.") ranked over the
    lines stating the schedules: an example illustrates the rule, it does not state it."""
    from synthesis.qa import reader

    question = "How is a maxiflex schedule different from a variable week schedule?"
    on, off = await _with_and_without(minilm, monkeypatch, question, _context(*SCHEDULES), reader, "ROW_FACTOR", 1.0)
    assert on.index("fewer than 10 days") < on.index("Hours:"), on
    assert on != off, off


def test_a_label_before_the_asking_is_every_parts_context(monkeypatch):
    """"Two HR Links questions: where do I see …, and where can I check whether I'm FLSA exempt?" was read as one
    question (its first part did not open with a question word), and the FLSA part went unanswered."""
    from synthesis.qa import parts
    from synthesis.qa import question as q

    text = ("Two HR Links questions: where do I see the date my term appointment ends, and where can I check whether "
            "I'm FLSA exempt?")
    frame = q.analyze(text)
    assert [p.text for p in frame.parts] == ["where do I see the date my term appointment ends",
                                             "where can I check whether I'm FLSA exempt"]
    assert all(p.query.startswith("Two HR Links questions") for p in frame.parts)
    assert len(q.analyze("Where is the office: DC or NYC?").parts) == 1
    monkeypatch.setattr(parts, "LABELLED_PARTS", False)
    assert len(q.analyze(text).parts) == 1


async def test_sides_listed_with_commas_are_each_a_side(minilm, monkeypatch):
    """"… what's the difference between marking an expense as IBA, CASH or CBA?" had two sides, "marking an expense
    as IBA, CASH" and "CBA", and answered CASH with a line naming IBA too."""
    from synthesis.qa import question as q

    text = "In my Concur voucher, what's the difference between marking an expense as IBA, CASH or CBA?"
    assert [p.text for p in q.analyze(text).parts] == ["IBA", "CASH", "CBA"]
    assert [p.text for p in q.analyze("What is the difference between Slack, Zoom, and Google Meet?").parts] == [
        "Slack", "Zoom", "Google Meet"]
    context = _context(("Travel guide FAQ", "Add, edit or delete expenses > Selecting payment type",
                        "- Use IBA for anything paid for on the travel card.\n- Use CASH for anything paid for using "
                        "cash or a personal card.\n- CBA is only used for air and rail expenses paid through Concur "
                        "directly."),
                       ("Travel guide FAQ", "Can I amend my voucher after it is approved?",
                        "Note: Vouchers should NOT be amended in the case of revising the payment method (IBA to CASH "
                        "or vice versa, or reducing a claim on an already-approved expense."))
    on, off = await _with_and_without(minilm, monkeypatch, text, context, compared, "LISTED_SIDES", False)
    assert "personal card" in on and "air and rail" in on, on
    assert on != off


async def test_the_rules_leave_the_review_s_counterexamples_alone(minilm):
    """What a review of these rules tried: each must keep answering (or reading) as before."""
    from synthesis.qa import parts
    from synthesis.qa import question as q
    from synthesis.qa import pointing, sides, topic, values

    # a place a page names by one of its words ("DC"), and a month, are no missing place
    dc = await _answer(minilm, "I'm traveling to Washington DC in September. What's the M&IE rate there?",
                       _context(MEALS))
    assert "$69" in dc.summary, dc.summary
    assert pointing.pointed_places("I'm in Denver. What's the rule there?") == [["denver"]]
    assert pointing.pointed_places("I'm in Denver. Can I expense it if there's no receipt?") == []
    assert pointing.pointed_places("I'm in Denver. Is there a rule?") == []
    # a credit limit named, not asked; time charged to a line; a person in charge
    for text in ("Who can raise the credit limit on my travel card?", "What do I charge my time to for a conference?",
                 "What does the person in charge of travel approval do?"):
        assert values.asked_value(text) is None, text
    assert q.expected("When can I apply for paid parental leave?") is Expect.QUANTITY
    assert topic.story_verbs("Coworking in Denver, can I pay with the travel card?") == set()
    # an accrual table states the rule itself: its rows keep their weight
    accrual = _context(("Leave types", "Annual leave",
                        "Annual leave accrues based on years of service:\n\n"
                        "| Years of service | Hours per pay period |\n"
                        "| --- | --- |\n| Fewer than 3 years | 4 |\n| 3 to 15 years | 6 |\n| 15+ years | 8 |\n"))
    earned = await _answer(minilm, "How much annual leave do new employees earn each pay period?", accrual)
    assert "Hours per pay period" in earned.summary, earned.summary
    assert sides.names_whole("a variable day schedule", "", "Variable Day", ["a variable week schedule"])
    assert parts.context_of("Quick q: what time is it due, and does anything happen if I forget?") == ""


DIRECTOR = ("Engineering", "Engineering Chapter > Director",
            "The Director of Engineering is responsible for the Engineering Chapter. The Director represents the "
            "chapter "
            "on the Senior Management Team of 18F, is responsible for the strategic planning of the chapter including "
            "hiring approach, capacity planning, and expanding the impact of the chapter and engineers’ work.")
PIV_READERS = ("PIV card", "Card reader unreliable",
               "Everyone should have two readers (so they have a backup) --- request a backup and/or replacement if "
               "you "
               "don't. If the card is lost, follow these instructions.")
LEAD_TIMES = ("Conferences, events and training", "How far in advance should I submit a request?",
              "- Five days to ten days in advance for:\n  - Training (not at a conference) that costs less than "
              "$2,500, "
              "including travel\n- Ten days to two weeks\n  - Conference events that cost less than $2500, including "
              "travel\n- Three to five weeks in advance for:\n  - Conference events that costs more than $2,500, "
              "including travel\n  - Speaking events in your official capacity")


async def test_who_holds_a_role_is_answered_only_by_a_name(minilm, monkeypatch):
    """"Who is the current 18F Director of Engineering?" (hp19, unanswerable) was answered with the page describing
    the role: the handbook names roles, rarely the people in them."""
    from synthesis.qa import specifics

    question = "Who is the current 18F Director of Engineering? I'd like to reach out to them by name."
    assert not (await _answer(minilm, question, _context(DIRECTOR))).summary
    assert _unstated(minilm, question, _context(DIRECTOR)) == ["the name of the person who holds it"]
    monkeypatch.setattr(specifics, "HOLDER_NAMED", False)
    assert _unstated(minilm, question, _context(DIRECTOR)) == []
    named = _context((DIRECTOR[0], DIRECTOR[1], DIRECTOR[2] + " Our current Director is Maria Lopez."))
    monkeypatch.setattr(specifics, "HOLDER_NAMED", True)
    assert "Maria Lopez" in (await _answer(minilm, question, named)).summary
    opening = _context((DIRECTOR[0], DIRECTOR[1], "Maria Lopez is our current Director of Engineering."))
    assert "Maria Lopez" in (await _answer(minilm, question, opening)).summary  # a name opening its sentence
    for text in ("The travel team is Djemila McCray (EMPO).", "The current Director is Kim White.",
                 "Contact Maria Lopez for details.", "María López leads it.", "Write to jane.doe@gsa.gov."):
        assert specifics.names_person(text), text
    for text in ("Use Google Meet or Slack Connect with the Senior Management Team.", "Ask Tech Ops.",
                 "Open a ticket in Jira Service Management.", "Write to tock.support@gsa.gov.",
                 "Rituals like Daily Standups, Sprint Reviews, Sprint Retros, and Sprint Planning."):
        assert not specifics.names_person(text), text
    assert specifics.asks_named_holder("Who is GSA's EAP program manager?")
    for text in ("Who is my supervisor if my manager is out?", "Who is the TTS Director of Operations responsible for?",
                 "Who is GSA's contracting officer for my project?",
                 "Who is the current owner of a GitHub repo after someone leaves?"):  # a role answers these
        assert not specifics.asks_named_holder(text), text


async def test_a_fee_asked_yes_or_no_needs_a_sentence_about_money(minilm, monkeypatch):
    """"I cracked my PIV badge. Will I be charged a fee for a replacement card?" (hp19, unanswerable) was answered
    with how to request a replacement: nothing there says what it costs."""
    from synthesis.qa import specifics

    question = "I cracked my PIV badge. Will I be charged a fee for a replacement card?"
    on, off = await _with_and_without(minilm, monkeypatch, question, _context(PIV_READERS), specifics, "FEES", False)
    assert not on, on
    assert "replacement" in off, off
    monkeypatch.setattr(specifics, "FEES", True)
    # leave is charged too, and a debt is paid back: no fee asked
    assert not specifics.asks_fee("Will I be charged annual leave for a holiday?")
    assert not specifics.asks_fee("Do I have to pay back advanced leave?")
    free = _context((PIV_READERS[0], "Replacing a card", "A replacement PIV card is free of charge."))
    assert "free of charge" in (await _answer(minilm, question, free)).summary


async def test_the_rule_whose_threshold_the_askers_sum_meets_answers(minilm, monkeypatch):
    """"… a regional conference that'll cost about $1,200 all in … How far ahead should I put in the request?" (hp19)
    led with the lead time for conferences costing more than $2,500."""
    from synthesis.qa import asker, thresholds

    question = ("I'd like to go to a regional conference that'll cost about $1,200 all in, including travel. How far "
                "ahead should I put in the request?")
    on, off = await _with_and_without(minilm, monkeypatch, question, _context(LEAD_TIMES), thresholds, "THRESHOLDS",
                                      False)
    assert "Ten days to two weeks" in on.split(". ")[0] or on.index("Ten days") < on.index("Three to five"), on
    assert on != off, off
    monkeypatch.setattr(thresholds, "THRESHOLDS", True)
    assert thresholds.told_amounts("Do purchases over $500 need approval?") == []  # a threshold asked, no sum told
    assert thresholds.told_amounts("My rent is $1,200/month.") == []  # a rate, no sum
    assert asker.threshold_fit([1200.0], "Anything over $10k needs approval") == asker.THRESHOLD_MISS
    assert asker.threshold_fit([500.0], "Purchases up to $500 need no quote.") == asker.SAME_CASE  # inclusive
    assert asker.threshold_fit([3000.0], "Events costing $2,500 or more need a review.") == asker.SAME_CASE
    # a clause with no threshold may be the asker's: "Speaking events" shares its line with "more than $2,500"
    assert asker.threshold_fit([300.0], "Three to five weeks in advance for: Conference events that cost more than "
                                         "$2,500; Speaking events in your official capacity") == 1.0


def test_where_an_approval_is_listed_scopes_nothing(monkeypatch):
    """"There's a desktop app I need that's already approved in GEAR. How do I actually get it onto my GSA Mac?"
    (hp19) was refused: "in GEAR" read as the question's place, and the Mac answered only on other pages."""
    from synthesis.qa import asker

    question = "There's a desktop app I need that's already approved in GEAR. How do I actually get it onto my GSA Mac?"
    assert not asker.named_scopes(question)
    assert asker.named_scopes("I'm posted in Chicago for a detail. Is there a lactation room?") == ["Chicago"]
    monkeypatch.setattr(asker, "RECORDED_IN", False)
    assert asker.named_scopes(question) == ["GEAR"]


def test_shapes_of_the_seventh_probe(monkeypatch):
    """hp20 (measured once, untouched, then read for faults): a story verb with the asker as its object ("a search
    firm pinged me") and an adjective that says how ordinary ("the usual incident emails") were missing words that
    refused their questions; "… a couple of FAILs and one HARDFAIL. What's the difference between the two?" found no
    sides (the statement joins three things); "What's the name of the … HR Specialist …?" asks for a person."""
    from synthesis.qa import question as q
    from synthesis.qa import specifics, topic

    pinged = "A recruiter from a search firm pinged me about a role. Do I already have to recuse myself?"
    assert "pinged" in topic.story_verbs(pinged)
    usual = "Besides the usual incident emails, where do I flag it for the Login.gov team?"
    assert topic.compound_modifiers(usual, {"usual"}, {"incid", "email"}) == []
    fails = ("I'm stamping my Concur authorization and the pre-audit results show a couple of FAILs and one HARDFAIL. "
             "What's the difference between the two?")
    assert [p.text for p in q.analyze(fails).parts] == ["FAILs", "HARDFAIL"]
    name = "What's the name of the Workforce Relations HR Specialist who supports TTS? I'd like to email them."
    assert specifics.asks_named_holder(name)
    for text in ("What's the name of the tool for tracking time?", "What's the name of the contact form for reporting "
                 "an incident?", "What's the name of the lead agency for Login.gov?",
                 "What's the name of the contact for my travel questions?"):  # things, or a role answers
        assert not specifics.asks_named_holder(text), text
    # (review) a past participle after "been" and a verb with no past form are no story verbs; three things compared
    # ("How do they differ?") are not cut to two, nor is a clause a side
    assert topic.story_verbs("Has a Login.gov token been provisioned me yet? Thanks.") == set()
    assert "embed" not in topic.story_verbs("Can the TTS team embed me on a partner agency project?")
    assert compared.told_sides("I have a travel card and a purchase card and I'm not sure which to use. How do "
                               "they differ?") == []
    assert compared.told_sides("I see Teladoc visits and One Medical. How do they differ?") == [
        "Teladoc visits", "One Medical"]
    monkeypatch.setattr(topic, "VERB_ME", False)
    assert "pinged" not in topic.story_verbs(pinged)
    monkeypatch.setattr(topic, "ORDINARY_WORDS", False)
    assert topic.compound_modifiers(usual, {"usual"}, {"incid", "email"}) == ["usual"]
    monkeypatch.setattr(compared, "LAST_PAIR", False)
    assert len(q.analyze(fails).parts) == 1
    monkeypatch.setattr(specifics, "NAME_ASKED", False)
    assert not specifics.asks_named_holder(name)
