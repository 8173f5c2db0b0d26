"""The offline summary's choice of sentences, on text taken from real handbooks and papers (the bundled model and
the real synthesizer; nothing scored by hand)."""

from __future__ import annotations

from synthesis.models import Passage
from synthesis.synthesize.base import Context, ContextSource
from synthesis.synthesize.candidates import candidates
from synthesis.synthesize.extractive import ExtractiveSynthesizer


def _context(*passages: tuple[str, str, str, str]) -> Context:
    """(doc_id, title, section, content) numbered 1..n, best first."""
    return Context(sources=[
        ContextSource(number=i, passage=Passage(id=f"p{i}", doc_id=doc, content=content, score=0.6 - 0.02 * i,
                                                title=title, section=section))
        for i, (doc, title, section, content) in enumerate(passages, start=1)])


async def _summary(minilm, question: str, context: Context) -> str:
    outcome = await ExtractiveSynthesizer(minilm).synthesize(question, context)
    return outcome.synthesis.summary


async def test_a_second_page_that_answers_nearly_as_well_is_quoted_too(minilm):
    """18F handbook: 'Can I work remotely from outside the U.S. …?' led with a networking rule and left out the travel
    FAQ's 'Teleworking from locations outside the u.s. while on personal travel is not allowed.', which scored
    within a few per cent of it, because it stood on another page."""
    context = _context(
        ("networks.md", "Logging in & Networks", "Remote access",
         "You must be on the GSA network to connect if you work remotely. Use the VPN client that GSA IT installs on "
         "your laptop."),
        ("travel-faq.md", "Frequently Asked Questions", "International travel",
         "Teleworking from locations outside the u.s. while on personal travel is not allowed. Talk to your "
         "supervisor before you book personal travel abroad."),
        ("benefits.md", "Benefits", "Dental insurance",
         "Dental plans are offered through FEDVIP and cover preventive care at 100 %."),
    )
    summary = await _summary(minilm, "Am I allowed to telework from abroad while I'm on holiday in Spain?", context)
    assert "outside the u.s. while on personal travel is not allowed" in summary, summary
    assert "Dental" not in summary


async def test_a_second_page_that_says_the_opposite_is_not_quoted_as_if_it_agreed(minilm):
    """The other side of a disagreement is no second source: 'production deploys are not allowed on Fridays' followed
    by another page's 'Production deploys are allowed on Fridays until 15:00' read as one answer."""
    context = _context(
        ("onboarding.md", "Onboarding", "Days two to five",
         "One rule that surprises people: production deploys are not allowed on Fridays."),
        ("deploys.md", "How we deploy", "When you can deploy",
         "Production deploys are allowed on Fridays until 15:00 Lisbon time."),
    )
    summary = await _summary(minilm, "Are production deploys allowed on Fridays?", context)
    # both may be quoted only as the two sides of the disagreement they are
    both = "not allowed on Fridays" in summary and "are allowed on Fridays until" in summary
    assert not both or summary.startswith("Sources disagree"), summary


def test_a_finding_quotes_a_lists_lead_in_once():
    """npm's docs: 'The main differences between using npm install and npm ci are: [1] The main differences between
    using npm install and npm ci are: If a node_modules is already present, …' -- the lead-in quoted alone and again
    before each item."""
    from synthesis.qa.candidate import Candidate
    from synthesis.synthesize.quotes import quote_all as _quote_all

    page = Passage(id="ci", doc_id="npm-ci.md", content="", score=0.6, title="npm-ci", section="Description")
    lead = "The main differences between using npm install and npm ci are:"
    units = [Candidate(lead, 1, 0, page, fragment=True),
             Candidate("The project must have an existing package-lock.json.", 1, 1, page, True, lead),
             Candidate("If a node_modules is already present, it will be automatically removed.", 1, 2, page, True,
                       lead),
             Candidate("This command runs npm ci followed immediately by npm test.", 2, 0, page)]
    quoted = _quote_all(units)
    assert quoted.count(lead.rstrip(":")) == 1, quoted
    assert ("are: The project must have an existing package-lock.json; If a node_modules is already present, it will "
            "be automatically removed. [1]") in quoted
    assert quoted.endswith("This command runs npm ci followed immediately by npm test. [2]")


def _npm(*passages: tuple[str, str]) -> Context:
    return _context(*((f"{title}.md", title, section, text) for title, section, text in
                      ((t, "Description", x) for t, x in passages)))


async def test_the_askers_setting_and_verbs_do_not_make_a_documented_question_unanswerable(minilm):
    """npm's docs (real text): a rare word in where the asker stands ('in our CI pipeline') or in the verb they chose
    ('we nuked our package') was read as a topic the knowledge base lacks, and documented questions were refused."""
    exec_page = _npm(("npm-exec", "If any requested packages are not present in the local project dependencies, "
                                  "then a prompt is printed, which can be suppressed by providing either --yes or "
                                  "--no. When standard input is not a TTY or a CI environment is detected, --yes is "
                                  "assumed."),
                     ("npm-ci", "This command is similar to npm install, except it's meant to be used in automated "
                                "environments such as test platforms, continuous integration, and deployment."))
    s = await _summary(minilm, "Will npx sit there waiting on the install prompt in our CI pipeline?", exec_page)
    assert "--yes" in s, s
    unpublish = _npm(("npm-unpublish", "If you unpublish the entire package, you may not publish any new versions of "
                                       "that package until 24 hours have passed."),
                     ("npm-deprecate", "This command will update the npm registry entry for a package, providing a "
                                       "deprecation warning to all who attempt to install it."))
    s = await _summary(minilm, "We nuked our entire package from the registry by mistake. How long do we have to "
                               "wait before we can publish it again?", unpublish)
    assert "24 hours" in s, s


async def test_a_missing_topic_is_still_refused_where_the_asker_names_a_place(minilm):
    """The setting rule exempts only lower-case setting words: a named place still scopes the question, and a
    missing topic in the question's own clause still refuses it."""
    from synthesis.qa.topic import setting_words

    assert setting_words("Will npx wait on the prompt in our CI pipeline?") == {"pipeline"}
    assert setting_words("Is there a gym at the Denver office?") == {"office"}  # 'Denver' still decides
    assert setting_words("Does TTS match my donations to charity?") == set()
    assert setting_words("What is the leave policy on sabbaticals?") == set()  # a bare topic is what is asked
    from synthesis.qa.topic import story_verbs

    assert story_verbs("We've accidentally nuked our package. How long must we wait?") == {"nuked"}
    assert story_verbs("Can I telecommute from Guam?") == set()  # a verb in its base form can be the topic
    gym = _context(("dc.md", "Washington, D.C.", "Gym", "The building has a fitness center in the basement, free "
                                                        "for everyone with a PIV card."),
                   ("leave.md", "Leave", "Annual leave", "You earn 4 hours of annual leave per pay period. Leave "
                                                         "policy is set by OPM."))
    for question in ("Does the agency pay for a sabbatical in our home office?",
                     "What is the leave policy on sabbaticals?",
                     "Do tenured staff earn more annual leave?",  # a rare -ed adjective is a topic, not a verb
                     "Can I park my moped at the fitness center?"):
        s = await _summary(minilm, question, gym)
        assert s == "", (question, s)


async def test_a_sentence_is_quoted_with_the_list_its_next_sentence_introduces(minilm):
    """Node.js contributor docs (real text): the summary quoted 'Collaborators may add a single link … named Support
    me.' and stopped before 'This link may be:' and the list that says where the link may point."""
    text = ("Collaborators may add a single link beside their name on the nodejs/node README.md file in the section "
            "titled Collaborators named Support me. This link may be:\n\n"
            "1. a direct link to one of the sponsorship platforms listed below,\n"
            "2. a page that has text explaining how to support the collaborator including zero or more links to "
            "the sponsorship platforms listed below.\n")
    context = _context(("recognizing-contributors.md", "Recognizing Contributors",
                        "Sponsorship link on nodejs/node README.md", text),
                       ("offboarding.md", "Offboarding", "Offboarding",
                        "Open a fast-track pull request to move the collaborator to the collaborator emeriti list."))
    s = await _summary(minilm, "Where am I allowed to point the 'Support me' link next to my name in the README?",
                       context)
    assert "This link may be: a direct link to one of the sponsorship platforms listed below" in s, s
    assert s.count("This link may be") == 1


async def test_comparison_sides_told_apart_by_a_number_are_each_answered_by_their_own_line(minilm):
    """Node.js contributor docs (real text): 'How do Tier 1 and Tier 2 diagnostic tools differ …?' answered the
    'Tier 1' side with 'Tier 4 - Does not block shipping a release.': the sides differ only in a number, which no
    content word tells apart."""
    text = ("Tier 1 - Must always be working (CI tests passing) for all Current and LTS Node.js releases. A release "
            "will not be shipped if the test suite for the tool/API is not green. Tier 2 - Must be working (CI tests "
            "passing) for all LTS releases. Tier 3 - If possible its test suite will be included in the nightly "
            "builds. Tier 4 - Does not block shipping a release.")
    context = _context(("tiers.md", "Diagnostic tooling support tiers", "Diagnostic tooling support tiers", text))
    s = await _summary(minilm, "How do Tier 1 and Tier 2 diagnostic tools differ in terms of what releases they can "
                               "block?",
                       context)
    assert "Current and LTS" in s and "Tier 2 - Must be working" in s, s


def test_a_numbered_side_is_found_by_its_mark_and_the_word_before_it():
    from synthesis.qa.sides import numbered as _numbered

    tier = _numbered("Tier 1", ["Tier 2 diagnostic tools"])
    assert tier.search("Tier 1 - Must always be working") and tier.search("tier-1 tools")
    assert not tier.search("Tier 10 - no") and not tier.search("Tier 2 - Must be working")
    plan = _numbered("a 401(k)", ["a 403(b)"])  # an article before the number is no part of its name
    assert plan.search("Your 401(k) is matched up to 5 %")
    letter = _numbered("Plan A", ["Plan B"])  # a letter keeps its case: "a plan a month before" is no Plan A
    assert letter.search("Plan A covers dental") and not letter.search("pick a plan a month before")
    assert _numbered("comp time", ["credit hours"]) is None
    # a qualifier in brackets is part of the mark, however it is written (18F handbook: "Schedule A(r)" was answered
    # with "Schedule A(u) can be used to hire employees …")
    schedule = _numbered("Schedule A(r)", ["the Direct Hiring Authority"])
    assert schedule.search("The Schedule A(r) hiring authority") and schedule.search("under Schedule A (r)")
    assert not schedule.search("Schedule A(u) can be used to hire employees")
    assert plan.search("your 401k plan") and not plan.search("a 401(b) plan") and not plan.search("a 401(k plan")


async def test_a_comparison_side_of_several_words_is_named_by_more_than_one_of_them(minilm):
    """18F handbook (real text), "For IT hires, how is the Direct Hiring Authority different from Schedule A(r)?":
    the DHA side was answered with the page's opening "There are several different hiring paths within the federal
    government." (a page titled "Hiring Authorities": one word of the side in the line, one more in the title), and
    the page's "We have a side-by-side comparison chart … Below is a brief overview." after it."""
    context = _context(
        ("hiring-authorities.md", "Hiring Authorities", "",
         "There are several different hiring paths within the federal government. We have a side-by-side "
         "comparison chart of Hiring Methods we use at TTS. Below is a brief overview."),
        ("hiring-authorities.md", "Hiring Authorities", "Direct Hiring Authority (DHA)",
         "The DHA is a Competitive Service hiring authority that can be used for term or permanent appointments. The "
         "Office of Personnel Management (OPM) grants this type of hiring authority to federal agencies for filling "
         "vacancies in specific occupations, grade levels, and locations when it can be proven that there is a "
         "critical hiring need, or a severe shortage of candidates. Veterans’ preference does not apply, and these "
         "roles must be posted on USAJobs."),
        ("hiring-authorities.md", "Hiring Authorities", "Excepted Service > Schedule A(r)",
         "The Schedule A(r) hiring authority is used for term appointments between one and four years. There are "
         "two ways we hire using Schedule A(r): via posting a job on JoinTTS or via Reserved Hire."),
        ("hiring-authorities.md", "Hiring Authorities", "Excepted Service > Schedule A(u)",
         "Schedule A(u) can be used to hire employees for term or permanent appointments. Employees qualify for "
         "conversion to competitive status after two years of satisfactory service."))
    s = await _summary(minilm, "For IT hires, how is the Direct Hiring Authority different from Schedule A(r)?",
                       context)
    assert "The DHA is a Competitive Service hiring authority" in s and "between one and four years" in s, s
    assert "several different hiring paths" not in s and "Schedule A(u)" not in s, s
    # one specific word of the side names it alone (a fresh probe: "the rules for my GSA iPhone passcode" is named by
    # "Change the phone's passcode."), a common one does not
    from synthesis.qa.sides import SideName
    from synthesis.stems import content_stems

    phone = SideName.of("the rules for my GSA iPhone passcode", content_stems("rules GSA iPhone passcode"))
    assert phone.strictly("Change the phone's passcode.", "Phone > Rules")
    dha = SideName.of("the Direct Hiring Authority", content_stems("Direct Hiring Authority"))
    assert not dha.strictly("There are several different hiring paths.", "Hiring Authorities")
    assert dha.strictly("The DHA is posted on USAJobs.", "Hiring Authorities")
    assert dha.strictly("Roles are posted on USAJobs.", "Direct Hiring Authority (DHA)")
    # initials are the noun phrase's, without a stopword (found in review: "The Direct …" made "TDHA")
    assert SideName.of("The Direct Hiring Authority", dha.own).strictly("The DHA is posted on USAJobs.", "")
    # the words before the side's noun phrase, a pro-form and an adverb name nothing: such a side is named loosely
    ops = SideName.of("What kinds of questions go to TTS Ops", content_stems("kinds questions Ops"))
    assert ops.strictly("TTS Ops focuses on the back office.", "Where do I ask?")
    assert not SideName.of("one where I already clicked the link", content_stems("one already link")).naming - {"link"}


def test_a_chat_message_is_split_into_sentences_whatever_case_follows():
    from synthesis.sentences import asked_sentences

    assert asked_sentences("my build dir has stale files in it. is there a flag to start over?") == [
        "my build dir has stale files in it.", "is there a flag to start over?"]
    assert asked_sentences("how chatty is npm, i.e. what loglevel does it use?") == [
        "how chatty is npm, i.e. what loglevel does it use?"]
    assert asked_sentences("Is the timesheet deadline 5 p.m. on Friday or on Monday?") == [
        "Is the timesheet deadline 5 p.m. on Friday or on Monday?"]
    assert len(asked_sentences("Is our build pinned to v. 2 of a package?")) == 1
    assert asked_sentences("a pkg-config replacement for our autotools project. good idea for new stuff?") == [
        "a pkg-config replacement for our autotools project.", "good idea for new stuff?"]
    assert asked_sentences("are names case-insensitive? like FOO vs foo") == ["are names case-insensitive?",
                                                                            "like FOO vs foo"]


def test_an_abbreviation_keeps_its_case_in_a_quoted_sentence():
    """The 18F handbook's 'outside the U.S. while on personal travel' was quoted as 'outside the u.s.'."""
    from synthesis.sentences import split_sentences

    assert split_sentences("Roll back first. Ask the dev. Then page the lead.") == [
        "Roll back first.", "Ask the dev.", "Then page the lead."]  # "st." and "v." end words here, not abbreviations
    assert split_sentences("Teleworking from locations outside the U.S. while on personal travel is not allowed. "
                           "Talk to your supervisor first.") == ["Teleworking from locations outside the U.S. while "
                                             "on personal travel is not allowed.", "Talk to your supervisor first."]


FRESH = _context(("cmake.1.rst", "cmake(1)", "Options",
                  "--fresh: New in version 3.24. Perform a fresh configuration of the build tree. This removes any "
                  "existing CMakeCache.txt file and associated CMakeFiles/ directory, and recreates them from "
                  "scratch."),
                 ("cmake.1.rst", "cmake(1)", "Options",
                  "-L[A][H]: List non-advanced cached variables. List CACHE variables will run CMake and list all "
                  "the variables from the CMake CACHE that are not marked as INTERNAL or ADVANCED."),
                 ("cmake.1.rst", "cmake(1)", "Options",
                  "--check-system-vars: Find problems with variable usage in system files. Normally, unused and "
                  "uninitialized variables are searched for only in CMAKE_SOURCE_DIR and CMAKE_BINARY_DIR. This flag "
                  "tells CMake to warn about other files as well."))


async def test_what_the_asker_tells_before_asking_is_no_missing_topic(minilm):
    """CMake's manual: 'junk' (a word no page uses) refused a question whose asking sentence the page answers."""
    s = await _summary(minilm, "my build dir has stale cache junk in it. is there a cmake flag to reconfigure from "
                               "scratch instead of rm -rf build?", FRESH)
    assert "recreates them from scratch" in s, s


async def test_a_topic_told_and_then_pointed_back_at_is_still_missing(minilm):
    s = await _summary(minilm, "my build dir is on a zeppelin. can cmake reconfigure it from scratch?", FRESH)
    assert s == "", s


async def test_a_sentence_naming_its_subject_only_as_this_option_is_quoted_under_the_option(minilm):
    """CTest's manual: 'This option tells CTest to write test results to <file> in JUnit XML format.' was quoted with
    nothing saying which option it is."""
    junit = _context(("ctest.1.rst", "ctest(1)", "ctest(1) > Run Tests > --output-junit <file>",
                      "This option tells CTest to write test results to <file> in JUnit XML format. If <file> "
                      "already exists, it will be overwritten."),
                     ("ctest.1.rst", "ctest(1)", "ctest(1) > Run Tests > --output-log <file>",
                      "This option tells CTest to write all its output to a <file> log file."))
    s = await _summary(minilm, "GitLab wants JUnit XML from our test run. Which ctest option writes that?", junit)
    assert s.startswith("--output-junit <file>: This option tells CTest to write test results"), s


def test_only_a_heading_that_names_one_thing_is_a_sentences_subject():
    from synthesis.synthesize.candidates import subject_heading as _subject

    def passage(section):
        return Passage(id="p", doc_id="d", content="", score=0.5, section=section)

    assert _subject("This option tells CTest to stop.", passage("Run Tests > --stop-on-failure")) == "--stop-on-failure"
    assert _subject("This value is a string.", passage("Configure Preset > cmakeExecutable")) == "cmakeExecutable"
    assert _subject("This command prints the tree.", passage("npm ls > Description")) == ""  # a generic heading
    assert _subject("The policy applies to everyone.", passage("Leave > Overview")) == ""
    assert _subject("This option tells CTest to stop.", passage("Run Tests")) == ""  # prose names no one thing
    assert _subject("It tells CTest to stop.", passage("Run Tests > --stop-on-failure")) == ""


TECH_OPS = _context(
    ("office-of-solutions/tech-operations.md", "TTS Technology Operations",
     "Responsibilities > Collaboration with GSA IT",
     "Serves as the primary liaison between TTS and GSA’s Office of the Chief Information Officer (OCIO) to provide "
     "high levels of service, collaboration, and open communication. We help foster strong relationships between "
     "teams while balancing needs and expectations to find compromises when necessary."),
    ("general-information-and-resources/tech-policies/fitara.md", "FITARA", "Process",
     "TTS will submit for review to the GSA IT Chief of Staff and to the GSA TTS Liaison all contracts or agreements "
     "entered into by TTS to acquire IT or IT services for internal purposes."))


async def test_a_line_opening_on_its_verb_is_quoted_under_the_unit_that_does_it(minilm, monkeypatch):
    """18F handbook: 'who acts as the go-between for TTS and GSA IT's OCIO?' was answered "high" with "Serves as the
    primary liaison …", a role description's line that names no one: the page's title (TTS Technology Operations)
    says who does it."""
    import synthesis.synthesize.candidates as cands

    question = "Who acts as the go-between for TTS and GSA IT's Office of the Chief Information Officer?"
    s = await _summary(minilm, question, TECH_OPS)
    assert s.startswith("TTS Technology Operations: Serves as the primary liaison"), s
    monkeypatch.setattr(cands, "DOER", False)
    assert (await _summary(minilm, question, TECH_OPS)).startswith("Serves as the primary liaison")


def test_only_a_verb_opening_line_takes_a_heading_or_title_naming_a_role():
    from synthesis.synthesize.candidates import doer

    def passage(section, title=""):
        return Passage(id="p", doc_id="d", content="", score=0.5, section=section, title=title)

    ops = passage("Responsibilities > Operational Support", "TTS Technology Operations")
    assert doer("Provides the critical tools, systems, and services.", ops) == "TTS Technology Operations"
    assert doer("Responsible for developing technology-related policies.", ops) == "TTS Technology Operations"
    assert doer("Leads the product vision.", passage("Roles > Product Manager", "Product")) == "Product Manager"
    # a plural noun opening a sentence is its subject (real handbook lines)
    assert doer("Teams adapt the length, format, and cadence of meetings.", ops) == ""
    assert doer("Requests for approval of these events is typically handled by the organizer.", ops) == ""
    assert doer("Projects at 18F begin as opportunities.", ops) == ""
    # (found in review) a plural before "as"/"each", a command, an auxiliary opening a question, a heading that asks
    assert doer("Teams as a whole decide how they work.", ops) == ""
    assert doer("Access the Citrix VDI from your browser.", ops) == ""
    leads = passage("How do we decide who leads each project?", "Leading projects")
    assert doer("Does the project have disproportionate needs in one of our disciplines?", leads) == ""
    assert doer("Provides the critical tools.", leads) == ""
    # no heading or title names a role or a unit: nothing to put before it
    assert doer("Returns the URL to a downloadable file.", passage("asset_path", "Shortcodes")) == ""


def test_a_light_head_noun_after_a_covered_word_is_no_missing_kind():
    """CMake's manual: 'is there a cmake flag to reconfigure from scratch' was refused over 'flag' (the docs say
    'option'); a bonus after 'relocation' still names a kind the passages lack."""
    from synthesis.qa.topic import compound_modifiers

    assert compound_modifiers("is there a cmake flag to reconfigure from scratch?", {"flag"}, {"cmake"}) == []
    assert compound_modifiers("Is there a relocation bonus when I move?", {"bonus"}, {"reloc"}) == ["bonus"]
    # after a common word the compound is a kind of its own: a feature flag is not any flag of a feature
    assert compound_modifiers("Which feature flag tool do we use for rollouts?", {"flag"}, {"featur", "tool"}) == [
        "flag"]


def test_a_question_that_points_back_at_what_was_told_keeps_it_as_the_topic():
    from synthesis.qa.pointing import told_words

    for question in ("I would like a coworking space. Will TTS pay for that?",
                     "I want to rent a coworking space. Is that eligible for the home office stipend?",
                     "I want a coworking space. Does this apply to me?",
                     "I want a coworking space. Can I get one?",
                     "I found a coworking space. Are those reimbursable?"):
        assert "coworking" not in told_words(question), question
    # a relative "that" and a dating "this week" point nowhere: the statement stays the asker's situation
    assert "junk" in told_words("my build dir has stale cache junk. is there a flag that resets the cache?")
    assert told_words("I am new here. Is there a stipend for this week?") == {"am", "new", "here"}
    # what "it" points at is what the statement ends on; the rest still sets the scene (18F handbook fresh probes:
    # refused over "counter", and over "subscription" in "… a $6k software subscription and, separately, a $50k
    # services contract. Who handles each of those buys?")
    told = told_words("The rental car counter always pushes their extra damage coverage. If I buy it on a work "
                      "trip inside the continental US, will it be reimbursed?")
    assert "counter" in told and not {"damage", "coverage"} & told, told
    assert "subscription" in told_words("My team needs a $6k software subscription and, separately, a $50k "
                                        "services contract. Who handles each of those buys?")
    # a specific word of the statement it points at still holds the topic (found in review)
    assert "coworking" not in told_words("I would like a coworking space near my home in Denver. Will TTS pay for "
                                         "it?")

def test_a_code_blocks_lines_are_items_under_the_sentence_that_announces_them():
    """Cargo book: "The default settings for the release profile are:" then a TOML block; read as one run-on
    sentence ("[profile.release] opt-level = 3 debug = false …") no line of it could be quoted. A '#' in code is a
    comment, not a heading, and a block too long to be a list of facts is skipped."""
    from synthesis.sentences import MAX_CODE_LINES, sentence_units

    text = ("The default settings for the release profile are:\n\n```\n[profile.release]\nopt-level = 3\n"
            "split-debuginfo = '...'  # Platform-specific.\n# a comment line\ncodegen-units = 16\n```\n\n"
            "Profile settings can be overridden for specific packages.")
    units = sentence_units(text)
    lead = "The default settings for the release profile are:"
    code = [u.text for u in units if u.code]
    assert code == ["[profile.release]", "opt-level = 3", "split-debuginfo = '...'  # Platform-specific.",
                    "# a comment line", "codegen-units = 16"]
    assert all(u.listed and u.lead_in == lead for u in units if u.code)
    assert units[-1].text == "Profile settings can be overridden for specific packages." and not units[-1].lead_in
    long_block = "Example:\n\n```\n" + "\n".join(f"let x{i} = {i};" for i in range(MAX_CODE_LINES + 1)) + "\n```"
    assert not any(u.code for u in sentence_units(long_block))


def test_a_chunk_cut_inside_a_code_block_does_not_read_its_prose_as_code():
    """A chunk that starts inside a long code block (the chunker cut it) holds an odd number of fences: the first one
    closes the block, and the prose after it stays prose."""
    from synthesis.sentences import sentence_units

    text = ("    let x = E::Variant1;\n    match x {}\n}\n```\n\nMitigation strategies: when introducing the enum, "
            "mark it as non_exhaustive.\n\n```\nopt-level = 3\n```")
    units = sentence_units(text)
    assert [u.text for u in units if not u.code] == [
        "Mitigation strategies: when introducing the enum, mark it as non_exhaustive."]
    assert [u.text for u in units if u.code] == ["opt-level = 3"]  # a whole block after it is still read


async def test_a_command_is_quoted_with_the_sentence_that_announces_it(minilm):
    """Cargo's FAQ: the answer to "why does Cargo rebuild" is the command after "… by setting the CARGO_LOG
    environment variable:", which was quoted without it."""
    context = _context(
        ("faq.html", "FAQ - The Cargo Book", "Why is Cargo rebuilding my code?",
         "Cargo is responsible for incrementally compiling crates in your project. In the meantime, however, you can "
         "debug a rebuild at least a little by setting the CARGO_LOG environment variable:\n\n```\n"
         "$ CARGO_LOG=cargo::core::compiler::fingerprint=info cargo build\n```\n\nCargo will then print out "
         "information about why a crate is being rebuilt."),
        ("guide.html", "Build cache - The Cargo Book", "Build cache",
         "Cargo stores the output of a build into the target directory."),
    )
    s = await _summary(minilm, "Cargo keeps recompiling my crate. How can I find out why it thinks a rebuild is "
                               "needed?", context)
    assert "CARGO_LOG environment variable: $ CARGO_LOG=cargo::core::compiler::fingerprint=info cargo build" in s, s


def test_a_lists_items_leave_out_the_commands_nested_in_one_of_them(minilm):
    """pip's docs: "In order to use system trust stores, you need to:" lists two steps, the second with a shell
    session under it; counted as items the commands made the short list long, and only one step was quoted."""
    from synthesis.synthesize.quotes import items_under, list_for
    from synthesis.qa import Expect

    context = _context(("https-certificates.md", "HTTPS Certificates", "Using system certificate stores",
                        "In order to use system trust stores, you need to:\n\n- Use Python 3.10 or newer.\n"
                        "- Install the truststore package, in the Python environment you're running pip in.\n"
                        "  ```\n  $ python -m pip install truststore\n  $ python -m pip install SomePackage "
                        "--use-feature=truststore\n  ```"))
    units = candidates(context)
    first = next(u for u in units if u.text == "Use Python 3.10 or newer.")
    assert [u.text for u in items_under(first.lead_in, first, units)] == [
        "Use Python 3.10 or newer.", "Install the truststore package, in the Python environment you're running pip in."]
    items, more = list_for(first, units, Expect.QUANTITY)
    assert len(items) == 2 and not more
    command = next(u for u in units if u.code and "truststore" in u.text and "SomePackage" not in u.text)
    block, _ = list_for(command, units, Expect.PROCEDURE)
    assert [u.text for u in block] == ["$ python -m pip install truststore",
                                      "$ python -m pip install SomePackage --use-feature=truststore"]


def test_a_field_line_is_quoted_under_the_setting_it_belongs_to():
    """Cargo's configuration reference: "Default: 3" under "net.retry" was quoted as "Default: 3." alone."""
    from synthesis.synthesize.candidates import subject_heading as _subject

    def passage(section):
        return Passage(id="p", doc_id="d", content="", score=0.5, section=section)

    assert _subject("Default: 3", passage("Configuration > [net] > net.retry")) == "net.retry"
    assert _subject("Type: integer", passage("Configuration > [net] > net.retry")) == "net.retry"
    assert _subject("Default: 3", passage("Leave > Overview")) == ""  # prose names no one setting
    assert _subject("Default: the value of CARGO_HOME and more words than a field line", passage("x > net.retry")) == ""


def test_the_askers_verbs_and_the_docs_own_name_are_no_missing_topic():
    """Cargo book: answerable questions were refused over "declares" ("my crate declares rust-version"), "spotting"
    ("tools for spotting dependencies") and "guidelines" ("under Cargo's SemVer guidelines"). A rare activity, a
    gerund with no object and a plural modifier still decide ("a stipend for coworking spaces", "leave for
    volunteering at a food bank", "ethics training")."""
    from synthesis.qa.topic import compound_modifiers, story_verbs

    assert compound_modifiers('My crate declares rust-version = "1.70" and a user gets an error.', {"declares"},
                              {"crate", "rust-vers", "rust", "version"}) == []
    assert compound_modifiers("Is there a relocation bonus when I move?", {"bonus"}, {"reloc"}) == ["bonus"]
    assert compound_modifiers("Is there ethics training for new hires?", {"ethics"}, {"train"}) == ["ethics"]
    assert compound_modifiers("Do we have an analytics dashboard?", {"analytics"}, {"dashboard"}) == ["analytics"]
    assert compound_modifiers("Is there a savings plan?", {"savings"}, {"plan"}) == ["savings"]
    assert compound_modifiers("I'm behind a corporate proxy that re-signs TLS.", {"re-signs"}, {"proxi", "tls"}) == []
    question = "Which tools does the book point to for spotting dependencies my project no longer uses?"
    assert "spotting" in story_verbs(question, {"depend", "tool"})
    assert story_verbs("Is there a stipend for coworking spaces?", {"space", "stipend"}) == set()
    assert story_verbs("Do we get paid leave for volunteering at a food bank?", {"leav", "paid"}) == set()


async def test_the_documentations_own_name_is_not_a_missing_topic(minilm):
    """ "… under Cargo's SemVer guidelines?" was refused: "No retrieved page mentions “guidelines”"."""
    context = _context(("semver.html", "SemVer Compatibility - The Cargo Book", "Major: adding new enum variants",
                        "It is a breaking change to add a new enum variant if the enum does not use the "
                        "#[non_exhaustive] attribute."))
    s = await _summary(minilm, "If I add a new variant to a public enum in my library, does that require a major "
                               "version bump under Cargo's SemVer guidelines?", context)
    assert "non_exhaustive" in s and "couldn't find" not in s, s


def test_a_winning_line_of_a_long_code_block_is_in_its_quote(minilm):
    """The release profile's defaults run to eleven lines; "codegen-units = 16" is the tenth and was left out of the
    five lines quoted, the answer to "how many codegen units does the release profile use"."""
    from synthesis.qa import Expect
    from synthesis.synthesize.quotes import list_for, quote

    lines = ["[profile.release]", "opt-level = 3", "debug = false", 'strip = "none"', "debug-assertions = false",
             "overflow-checks = false", "lto = false", "panic = 'unwind'", "incremental = false",
             "codegen-units = 16", "rpath = false"]
    context = _context(("profiles.html", "Profiles - The Cargo Book", "Profiles > Default profiles > release",
                        "The default settings for the release profile are:\n\n```\n" + "\n".join(lines) + "\n```"))
    units = candidates(context)
    for u in units:
        u.relevance = 0.9 if u.text == "codegen-units = 16" else 0.4
    lead = next(u for u in units if u.text.endswith("are:"))
    items, more = list_for(lead, units, Expect.QUANTITY)
    assert "codegen-units = 16" in [x.text for x in items] and more
    assert "codegen-units = 16; rpath = false" in quote(lead, items, more)
    line = next(u for u in units if u.text == "codegen-units = 16")
    window, _ = list_for(line, units, Expect.QUANTITY)
    assert line in window and len(window) == 5


def test_prose_before_a_code_block_the_chunk_boundary_cut_is_kept():
    """A chunk that ends inside a code block (its closing fence in the next chunk) kept none of its prose: the
    odd fence was read as the end of a block the chunk started in."""
    from synthesis.sentences import sentence_units

    text = ("Cargo caches builds in the target directory.\n\nRun the following:\n\n```\n$ cargo build --release\n"
            "$ cargo test --all")
    assert [u.text for u in sentence_units(text)] == ["Cargo caches builds in the target directory.",
                                                      "Run the following:"]


async def test_sample_configs_with_other_values_do_not_disagree(minilm):
    """A line of a sample config or command states no policy: two pages' examples with other values are no
    dispute."""
    context = _context(
        ("sessions.md", "Sessions", "Configuration",
         "Set the session timeout in the config file:\n\n```\ntimeout = \"30 minutes\"\n```"),
        ("example.md", "Example app", "Configuration",
         "This example app sets its session timeout in its config file:\n\n```\ntimeout = \"60 minutes\"\n```"))
    outcome = await ExtractiveSynthesizer(minilm).synthesize("How do I set the session timeout?", context)
    assert outcome.synthesis.contradictions == [], outcome.synthesis.contradictions


def test_a_findings_lead_in_comes_with_its_items_or_not_at_all(minilm):
    """Cargo's FAQ: a finding quoted "Some issues we've seen historically which can cause crates to get rebuilt
    are:" and nothing after it; its items were in another chunk."""
    from synthesis.synthesize.quotes import quote_all

    context = _context(
        ("faq.html", "FAQ", "Why is Cargo rebuilding my code?",
         "Some issues we've seen historically which can cause crates to get rebuilt are:"),
        ("faq2.html", "FAQ", "Why is Cargo rebuilding my code?",
         "You can debug a rebuild by setting the CARGO_LOG environment variable."),
        ("steps.md", "Deploys", "Rollback",
         "To roll back a deploy, do the following:\n\n- Open the deploy dashboard.\n- Press the rollback button."))
    units = candidates(context)
    lone = next(u for u in units if u.text.startswith("Some issues"))
    other = next(u for u in units if u.text.startswith("You can debug"))
    assert quote_all([lone, other], units) == "You can debug a rebuild by setting the CARGO_LOG environment variable. [2]"
    assert "Some issues" in quote_all([lone], units)  # alone, it is all the finding has
    lead = next(u for u in units if u.text.startswith("To roll back"))
    assert quote_all([lead], units) == ("To roll back a deploy, do the following: Open the deploy dashboard; Press the "
                                        "rollback button. [3]")


async def test_a_past_form_after_my_noun_is_the_story_not_a_missing_topic(minilm, monkeypatch):
    """18F handbook (a fresh probe): "I'm in the NFFE bargaining unit and my supervisor hinted I'll get a Level 4 at
    year end. Do they have to put a reason for that rating in writing?" was refused: "No retrieved page mentions
    'hinted'". A past form after "my/our <noun>" is what someone in the story did, like one after "I" or "we"."""
    from synthesis.qa import topic
    from synthesis.qa.topic import story_verbs

    question = ("I'm in the NFFE bargaining unit and my supervisor hinted I'll get a Level 4 at year end. Do they "
                "have to put a reason for that rating in writing?")
    context = Context(sources=[ContextSource(number=1, passage=Passage(
        id="p1", doc_id="d1", title="Performance Management Supervisor Resources", score=0.6,
        section="AFGE Union members & NFFE Union members",
        content="For NFFE bargaining unit employees, supervisors must provide a written justification for any summary "
                "rating other than Level 3. The justification is shared with the employee."))])
    s = (await ExtractiveSynthesizer(minilm).synthesize(question, context)).synthesis
    assert "written justification" in s.summary, s.summary
    assert story_verbs(question) == {"hinted"}
    assert story_verbs("Is my commute reimbursed?") == set()  # after "is" it is what is asked
    assert story_verbs("Our team lead proceed to approve it?") == set()  # an "-eed" word is no past form
    monkeypatch.setattr(topic, "NOUN_SUBJECT", False)
    assert story_verbs(question) == set()
    s = (await ExtractiveSynthesizer(minilm).synthesize(question, context)).synthesis
    assert s.summary == "", s.summary  # refused over "hinted"


async def test_a_nested_list_is_quoted_under_the_item_it_hangs_off(minilm, monkeypatch):
    """18F handbook (real text; a fresh probe): "How much lead time should I give for a standalone training under
    $2,500 versus a conference that costs more than $2,500?" quoted "Approval timelines: Training (not at a
    conference) that costs less than $2,500, including travel": the lead time is the item the case is nested under.
    And an item that other items are nested under is quoted with them, under its own words ("Accessibility
    Review/Audit via one of the following options: TTS Accessibility Guild: …"), not alone under the heading."""
    from synthesis import sentences

    timelines = _context(("conferences.md", "Conferences, events, and training", "Approval timelines",
                          "The review and approval process times vary by the type of request and the layers of "
                          "approval required.\n\n"
                          "- Five days to ten days in advance for:\n"
                          "  - Training (not at a conference) that costs less than $2,500, including travel\n"
                          "- Ten days to two weeks\n"
                          "  - Conference events that cost less than $2500, including travel\n"
                          "- Fifteen days to three weeks in advance for:\n"
                          "  - Training (not at a conference) that costs more than $2500, including travel\n"
                          "- Three to five weeks in advance for:\n"
                          "  - Conference events that costs more than $2,500, including travel\n"
                          "  - Speaking events in your official capacity\n"))
    question = ("How much lead time should I give for a standalone training under $2,500 versus a conference that "
                "costs more than $2,500 (travel included)?")
    s = await _summary(minilm, question, timelines)
    assert "Five days to ten days in advance for: Training (not at a conference) that costs less than $2,500" in s, s
    assert "Three to five weeks in advance for: Conference events that costs more than $2,500" in s, s
    review = _context(("laws.md", "Laws and policies", "508 - Accessibility",
                       "Before you ship,\n\n"
                       "1. Developers: review the Accessibility Checklist.\n"
                       "2. Accessibility Review/Audit via one of the following options:\n"
                       "   - TTS Accessibility Guild: As soon as possible, but no later than 2 weeks before launch, "
                       "put in a request for an Accessibility Guild Support Request Form\n"
                       "   - GSA 508 Team: Request an audit/review from the GSA 508 Coordinator for GSA-owned "
                       "properties\n"))
    asked = ("We're launching a new public website. How far ahead of launch do we have to ask the Accessibility "
             "Guild for a review?")
    s = await _summary(minilm, asked, review)
    assert "options: TTS Accessibility Guild: As soon as possible, but no later than 2 weeks before launch" in s, s
    monkeypatch.setattr(sentences, "NESTED_ITEMS", False)
    s = await _summary(minilm, question, timelines)
    assert "Five days to ten days in advance for: Training" not in s, s


async def test_a_list_cut_from_its_lead_in_keeps_its_nested_items_under_their_step(minilm):
    """18F handbook (real text): the outside-speaker steps open the chunk after "… you must follow the steps and
    guidelines below."; re-led under that sentence, the quote stopped at the first step, because the lines nested
    under it ("It will help you spot any issues …") have that step as their lead-in, not the list's."""
    def chunk(index: int, content: str) -> Passage:
        return Passage(id=f"speakers#{index}", doc_id="speakers.md", content=content, score=0.6, chunk_index=index,
                       title="Guidance on hosting non-government speakers", section="Steps for virtual meetings",
                       metadata={"collection": "handbook", "doc_hash": "h1"})

    lead = chunk(0, "If you’d like to host a non-government speaker at a guild meeting, training, workshop, or other "
                    "TTS gathering, you must follow the steps and guidelines below.")
    steps = chunk(1, "1. Make a local copy of the Outside Speaker Checklist.\n"
                     "   - It will help you spot any issues and the Office of General Counsel will use this document "
                     "to review your event.\n"
                     "   - You will not need to turn this form in.\n"
                     "1. Have each outside speaker sign a Gratuitous Services Agreement in advance of the event.\n"
                     "1. Invite your speaker and let the team know on different Slack channels.\n")
    context = Context(sources=[ContextSource(number=1, passage=lead), ContextSource(number=2, passage=steps)])
    s = await _summary(minilm, "Our guild wants to host a speaker from outside government at a workshop. What do I "
                               "need to do first?", context)
    assert "guidelines below: Make a local copy of the Outside Speaker Checklist; Have each outside speaker sign" in s, s


async def test_the_steps_of_a_procedure_are_its_outer_list_with_what_is_nested_under_each(minilm):
    """18F handbook (real text): with the lines nested under a step read under it, "How do I get Microsoft Office on my
    GSA Mac?" lost its steps finding: the steps of "for Macs: …" were the two lines nested under "For Software Name,
    select", too short to list. The steps are the outer list, read whole with the lines nested under each step."""
    context = _context(("office.md", "Microsoft Office", "",
                        "In normal day-to-day operations, working on projects for GSA, you will probably never need "
                        "Microsoft Office. The most common case for needing Office is if another agency is unable to "
                        "use web-based productivity tools like GSA's G Suite.\n\nIf you only need Office "
                        "temporarily, you can access it right away through VDI. To get a license on your machine, you "
                        "will need to put in a request."),
                       ("office.md", "Microsoft Office", "Requesting a license",
                        "1. Open a Software request through ServiceNow\n"
                        "1. For `Software Name`, select\n"
                        "   - for Macs:\n"
                        "     `Microsoft Office Suite (Word, Excel, PowerPoint) (*GSA* - MAC Client only) 2019: "
                        "Approved-Preferred`\n"
                        "   - for PCs:\n"
                        "     `Microsoft Office Suite (Word, Excel, PowerPoint) (*GSA* - WIN Client only) 2019: "
                        "Approved-Preferred`\n"))
    outcome = await ExtractiveSynthesizer(minilm).synthesize(
        "A partner agency can't use Google Docs and keeps sending me Word and Excel files with tracked changes. How do "
        "I get Microsoft Office on my GSA Mac?", context)
    steps = [f.content for f in outcome.synthesis.findings if f.topic.startswith("Steps:")]
    assert steps and "Open a Software request through ServiceNow; For Software Name, select; for Macs" in steps[0], (
        outcome.synthesis.findings)
    assert "MAC Client only" in steps[0], steps


async def test_after_a_premise_the_answer_is_the_step_that_follows_it(minilm, monkeypatch):
    """18F handbook (real text; a fresh probe): "After my supervisor and director make their recommendation, who gives
    the final approval on a term renewal?" was answered with the step that states the premise ("Supervisors and
    Directors will consider … to determine their recommendation"); the answer is a later step, in the next chunk."""
    from synthesis.qa import selection

    def chunk(index: int, content: str) -> Passage:
        return Passage(id=f"terms#{index}", doc_id="term-extensions.md", content=content, score=0.6 - index / 100,
                       chunk_index=index, title="Term extensions", section="What's the process?")

    steps = Context(sources=[ContextSource(number=1, passage=chunk(0, (
        "1. 6-7 months before an employee's term ends, TTS PeopleOps will reach out to the Supervisor of the "
        "employee and their Director to ask for a recommendation on staff whose terms are about to end.\n\n"
        "2. Supervisors and Directors will consider the individual's performance, organizational priorities, position "
        "needs, and other factors to determine their recommendation. They will also confirm that the employee would "
        "like to be renewed. Renewals require mutual consent between the individual and the organization to "
        "continue."))), ContextSource(number=2, passage=chunk(1, (
        "3. Directors will provide their recommendation to TTS PeopleOps, along with the justification.\n\n"
        "4. TTS PeopleOps will send the list of renewal requests to the TTS Front Office for approval.\n\n"
        "5. If the decision is to extend, TTS PeopleOps will process a Personnel Action Request (PAR) to extend the "
        "employee's term.")))])
    question = ("My term appointment ends next year. After my supervisor and director make their recommendation, who "
                "gives the final approval on a term renewal?")
    from synthesis.qa import kinds

    monkeypatch.setattr(kinds, "SENT_FOR_APPROVAL", 0.0)  # (which finds "… to the TTS Front Office for approval" too)
    on = await _summary(minilm, question, steps)
    monkeypatch.setattr(selection, "AFTER_PREMISE", False)
    off = await _summary(minilm, question, steps)
    assert "to the TTS Front Office for approval" in on, on
    assert "Front Office" not in off, off


async def test_an_example_list_is_read_under_the_rule_it_is_an_example_of(minilm, monkeypatch):
    """18F handbook (real text; a fresh probe): "I already submitted my timesheet Thursday … put in 6 hrs of sick
    leave. What do I need to do to the timesheet?" quoted the example's steps under "For example:" and never the rule
    before it ("… and resubmit it"). The rule leads the example's items, and the summary quotes it once."""
    from synthesis import sentences
    from synthesis.synthesize import summary

    hrlinks = _context(("hrlinks.md", "HR Links", "Adding or changing an absence request after timesheet submittal",
                        "##### For current pay period\n\n"
                        "You will need to make manual adjustments to the timesheet and resubmit it.\n\n"
                        "For example:\n\n"
                        "1. You submit your timesheet on Thursday afternoon and it says that you worked all day on "
                        "Friday.\n"
                        "2. On Friday morning, you become sick and submit a Sick Leave request for 6 hours out of your "
                        "8 hour workday.\n"
                        "3. You will need to go back to the timesheet and manually change your Regular Time from 8 "
                        "hours to 2 hours.\n"))
    question = ("I already submitted my HR Links timesheet Thursday showing a full day Friday, then woke up sick "
                "Friday and put in 6 hrs of sick leave. What do I need to do to the timesheet?")
    s = await _summary(minilm, question, hrlinks)
    assert "resubmit it. For example:" in s and "Regular Time" in s, s
    assert s.count("resubmit it") == 1, s
    monkeypatch.setattr(summary, "ONE_LEAD", False)
    assert (await _summary(minilm, question, hrlinks)).count("resubmit it") > 1
    monkeypatch.setattr(sentences, "EXAMPLE_LEADS", False)
    assert "resubmit it. For example:" not in await _summary(minilm, question, hrlinks)


def test_nested_items_are_read_once_however_their_texts_repeat():
    """Found in review: a step nested under another with the same text as an outer step looped forever when the
    steps were read with what is nested under them, and a list re-led after a chunk cut stopped at a third level."""
    from synthesis.synthesize import quotes

    def units_of(*chunks: str) -> list:
        context = Context(sources=[ContextSource(number=i + 1, passage=Passage(
            id=f"d#{i}", doc_id="d.md", content=c, score=0.6, chunk_index=i, title="T", section="S",
            metadata={"collection": "c", "doc_hash": "h"})) for i, c in enumerate(chunks)])
        return candidates(context)

    cycle = units_of("Install it as follows:\n\n- Open the Settings app\n  - Click the General tab\n"
                     "- Click the General tab\n  - Open the Settings app\n")
    _, items, _ = quotes.step_list(cycle[1], cycle)
    assert len(items) == len({id(x) for x in items}) == 4, [x.text for x in items]
    deep = units_of("You must follow the steps and guidelines below.",
                    "1. Make a local copy of the checklist.\n   - It will help you spot any issues early.\n"
                    "     - The counsel will use this document too.\n1. Have each speaker sign an agreement.\n"
                    "1. Invite your speaker to the event.\n")
    led = [u.text for u in deep if u.lead_in == "You must follow the steps and guidelines below."]
    assert led == ["Make a local copy of the checklist.", "Have each speaker sign an agreement.",
                   "Invite your speaker to the event."], led
