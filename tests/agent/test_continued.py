"""A list that chunking cut from the sentence announcing it ("… follow the steps and guidelines below." closes one
chunk, the steps open the next), read again as one: the next chunk is fetched, and its items are quoted under that
sentence. Seen on the 18F handbook's page on hosting outside speakers, with the real model and real Chroma."""

from __future__ import annotations

import pytest

from synthesis.models import AggregatedResults, Passage
from tests.scope.conftest import ingest_into, write_docs

LEAD = ("If you’d like to host a non-government speaker at a guild meeting, training, workshop, or other gathering, "
        "you must follow the steps and guidelines below.")
STEPS = [
    "Make a local copy of the Outside Speaker Checklist. It will help you spot any issues, and the Office of General "
    "Counsel will use this document to review your event. You will not need to turn this form in.",
    "Have each outside speaker sign a Gratuitous Services Agreement in advance of the event. This is necessary "
    "because the agency may not accept voluntary services without an advance written agreement.",
    "Send the signed agreement and your checklist to the events mailbox at least two weeks before the event, and "
    "wait for the confirmation email before you announce anything publicly.",
    "Schedule a short call with the speaker a week ahead to agree on the topic, the format and the questions, and "
    "remind them that the session is recorded and may be shared inside the agency.",
    "Invite your speaker and let the team know on the usual channels, such as the upcoming events channel, and post "
    "the recording link there afterwards so that people who missed it can watch.",
    "Keep a copy of everything you send in the shared drive folder for the guild, so the next organiser can reuse "
    "it.",
]  # together over one chunk, alone within one: the lead-in closes a chunk of its own
SPEAKERS = (f"---\ntitle: Hosting non-government speakers\n---\n# Hosting non-government speakers\n\n"
            f"Teams and guilds can invite people from outside government to speak to them.\n\n"
            f"## Steps for virtual meetings\n\n{LEAD}\n\n" + "\n".join(f"{i}. {s}" for i, s in enumerate(STEPS, 1))
            + "\n")
QUESTION = "Our guild wants to host a speaker from outside government at a workshop. What do I need to do first?"


@pytest.fixture(scope="module")
def speakers(tmp_path_factory, minilm):
    from synthesis.config import Settings
    from synthesis.library import Library
    from synthesis.retrieval import make_retriever

    root = tmp_path_factory.mktemp("speakers")
    settings = Settings(_env_file=None, home=root / "home", collection="speakers")
    store = ingest_into(settings, minilm, "speakers", write_docs(root, {"docs/speakers.md": SPEAKERS}))
    return settings, store, make_retriever(settings, store), Library(settings, minilm)


def _cut(retriever) -> tuple[Passage, Passage]:
    """(the chunk the lead-in closes, the chunk after it), as the retriever returns them."""
    results = retriever.search(LEAD, k=5).results
    [lead] = [r for r in results if r.content.rstrip().endswith("guidelines below.")]
    [steps] = [r for r in results if r.chunk_index == lead.chunk_index + 1]
    return lead, steps


def test_the_fixture_is_cut_where_the_handbook_was(speakers):
    """The precondition the rest rely on: the lead-in ends its chunk, the steps open the next."""
    _, _, retriever, _ = speakers
    lead, steps = _cut(retriever)
    assert "Outside Speaker Checklist" not in lead.content
    assert steps.content.startswith("1. Make a local copy")


def test_the_chunk_after_a_passage_is_fetched_at_its_score(speakers):
    _, _, retriever, library = speakers
    lead, steps = _cut(retriever)
    [after] = retriever.following([lead])
    assert after.id == steps.id and after.score == lead.score
    assert retriever.following([steps.model_copy(update={"chunk_index": steps.chunk_count - 1})]) == []
    from synthesis.scoping import Grant, Visibility

    scoped = library.search(Visibility((Grant(collection="speakers"),), "test"))
    assert [r.id for r in scoped.following([lead])] == [steps.id]


async def test_a_passage_that_announces_a_list_is_followed_by_the_next_chunk(speakers, monkeypatch):
    from synthesis import agent as agent_module
    from synthesis.agent import _Run, build_agent
    from synthesis.errors import StoreUnavailable

    settings, store, retriever, _ = speakers
    lead, steps = _cut(retriever)
    agent = build_agent(settings, store)
    run = _Run(None)
    try:
        continued = await agent._continued(AggregatedResults(results=[lead]), run)
        assert [p.id for p in continued.results] == [lead.id, steps.id]
        assert continued.results[1].metadata["continues"] == lead.id and continued.results[1].score == lead.score
        assert [s.name for s in run.steps] == ["continue"]
        nothing = AggregatedResults(results=[steps])  # announces nothing
        assert (await agent._continued(nothing, run)).results == [steps]
        # another collection's copy of the document (the same doc_id) is not this one's next chunk
        other = lead.model_copy(update={"id": "x", "metadata": {**lead.metadata, "collection": "elsewhere"}})
        assert [p.id for p in (await agent._continued(AggregatedResults(results=[other]), run)).results] == ["x"]

        def failing(passages):
            raise StoreUnavailable("the Chroma server is down")

        monkeypatch.setattr(agent.retriever, "following", failing)  # the answer goes on without it
        assert [p.id for p in (await agent._continued(AggregatedResults(results=[lead]), run)).results] == [lead.id]
        monkeypatch.undo()
        monkeypatch.setattr(agent_module, "CONTINUE_CUT", False)
        assert [p.id for p in (await agent._continued(AggregatedResults(results=[lead]), run)).results] == [lead.id]
    finally:
        agent.close()


async def test_a_list_cut_from_its_lead_in_is_quoted_under_it(speakers, minilm, monkeypatch):
    from synthesis.synthesize import candidates, quotes
    from synthesis.synthesize.base import Context, ContextSource
    from synthesis.synthesize.extractive import ExtractiveSynthesizer

    _, _, retriever, _ = speakers
    lead, steps = _cut(retriever)
    context = Context(sources=[ContextSource(number=1, passage=lead), ContextSource(number=2, passage=steps)])
    summary = (await ExtractiveSynthesizer(minilm).synthesize(QUESTION, context)).synthesis.summary
    assert "guidelines below: Make a local copy of the Outside Speaker Checklist" in summary, summary
    assert summary.count("guidelines below") == 1, summary
    # the steps of the same path in another collection are another document's
    elsewhere = steps.model_copy(update={"metadata": {**steps.metadata, "collection": "elsewhere"}})
    mixed = Context(sources=[ContextSource(number=1, passage=lead), ContextSource(number=2, passage=elsewhere)])
    apart = (await ExtractiveSynthesizer(minilm).synthesize(QUESTION, mixed)).synthesis.summary
    assert "guidelines below: Make a local copy" not in apart, apart
    monkeypatch.setattr(candidates, "REJOIN_LISTS", False)
    monkeypatch.setattr(quotes, "BELOW_LISTS", False)  # (which finds the steps a chunk on from a pointer too)
    off = (await ExtractiveSynthesizer(minilm).synthesize(QUESTION, context)).synthesis.summary
    assert "guidelines below: Make a local copy" not in off, off


# The 18F handbook's transit benefit page: "… enroll using the process below." closes the eligibility section; the
# next section opens with prose (a chunk of its own), and its steps come a chunk later, hanging off its heading.
TRANSIT = """---
title: Transit Benefit
---
This page outlines how to sign up for and how to cancel the transit benefit. 

## Eligibility

All GSA employees who take mass/public transit to work are eligible for transit
subsidies. To receive a transit subsidy, you need to enroll using the process
below.

## Enrolling in transit benefit

The step-by-step guidance below is specific to TTS employees:

Use `T-TECH TRANSFORMATION SERVICE` as your organizational code. Make sure to
select the **Transit Coordinator in the Region in which you reside** - this
information is listed in the online form.

- Go to
  [https://transitapp.ost.dot.gov/](https://transitapp.ost.dot.gov/)
- Click on **Register**
- Update your password information using the temporary password that's emailed
  to you
- Login using your government email and updated password
- Review the "Rules of behavior" and then click on **I Agree**
- Click on **Transit Benefit Application**
- Select "Certify/Enroll" and click **Continue**
- On the "Warning" screen, click **I Agree**
- Enter information into the application and verify that it's correct. _Here are
  common selections for TTS team members:_
  - Reason for Certification: **New Transit Benefit Participant**
  - Employment Type: **Permanent**
  - Work Status: **Full Time**
  - Select Transportation Method (i.e. Bus, Other Bus, Rail, Other Method, Van
    Pool)
    - Fill out corresponding information for each transportation method selected
  - Fill out "Transit Benefit Program Application"
    - Organization Code: **Q - Federal Acquisition Service**
    - Common identifier: **TRANSIT**
  - Fill out "Approver Information Section"
    - Select your Supervisor - If your supervisor is not listed, have your
      supervisor follow these steps:
      - If the Supervisor is not currently enrolled in the TranServe system,
        they will need to follow all of the steps above to enroll as a
        "participant"
      - Once enrolled, the Supervisor needs to send an email to Alexandra
        Sabbers at
        [gsa-transit-subsidy@gsa.gov](mailto:gsa-transit-subsidy@gsa.gov)
        requesting elevation to "Supervisor" status
    - Transit Coordinator:
      - DC employees: **FAS-Transit Subsidy**
      - Other regions: consult the
        [transit subsidy coordinators list](https://www.transportation.gov/transerve/participants/gsa-regional-coordinators-master-list)
    - Point of Contact:
      - DC employees: **Central Office FAS Transit Subsidy**
      - Other regions: enter region code (Ex: Chicago employees enter **Region
        5**)
- Scroll down and click **Continue** to submit

_Note: The approval process is supervisor, GSA Transit Coordinator, and DOT
review/processing._

## Cancelling transit benefit

- Go to [https://transitapp.ost.dot.gov](https://transitapp.ost.dot.gov)
- Login to your account
- Click on Transit Benefit Application
- Click on **Withdraw from the program**
- Click **Continue**
- Fill out and submit the form
"""


@pytest.fixture(scope="module")
def transit(tmp_path_factory, minilm):
    root = tmp_path_factory.mktemp("transit")
    from synthesis.config import Settings

    settings = Settings(_env_file=None, home=root / "home", collection="transit")
    store = ingest_into(settings, minilm, "transit", write_docs(root, {"docs/transit.md": TRANSIT}))
    return settings, store


def _chunks(store) -> list[str]:
    got = store.collection().get(include=["documents", "metadatas"])
    return [d for _, d in sorted(zip((m["chunk_index"] for m in got["metadatas"]), got["documents"]))]


async def test_a_section_of_prose_between_a_pointer_and_its_steps_is_read_through(transit, minilm, monkeypatch):
    """"How do I sign up for the transit subsidy?" was answered "… you need to enroll using the process below." and
    nothing more: the steps were two chunks on."""
    from synthesis import agent as agent_module
    from synthesis.agent import _Run, build_agent
    from synthesis.lists import has_list
    from synthesis.synthesize import quotes
    from synthesis.synthesize.base import Context, ContextSource
    from synthesis.synthesize.extractive import ExtractiveSynthesizer

    settings, store = transit
    chunks = _chunks(store)
    # the precondition: the pointer closes a chunk, the next holds no list, the steps open the one after
    lead_at = next(i for i, c in enumerate(chunks) if c.rstrip().endswith("process below."))
    assert not has_list(chunks[lead_at + 1]) and "transitapp" in chunks[lead_at + 2], chunks
    agent = build_agent(settings, store)
    try:
        [lead] = [r for r in agent.retriever.search("enroll using the process below", k=5).results
                  if r.chunk_index == lead_at]
        continued = await agent._continued(AggregatedResults(results=[lead]), _Run(None))
        assert [p.chunk_index for p in continued.results] == [lead_at, lead_at + 1, lead_at + 2]
        context = Context(sources=[ContextSource(number=i, passage=p) for i, p in enumerate(continued.results, 1)])
        question = "I take the Metro to work. How do I sign up for the transit subsidy?"
        summary = (await ExtractiveSynthesizer(minilm).synthesize(question, context)).synthesis.summary
        assert "process below: Go to https://transitapp.ost.dot.gov/; Click on Register" in summary, summary
        monkeypatch.setattr(quotes, "BELOW_LISTS", False)
        off = (await ExtractiveSynthesizer(minilm).synthesize(question, context)).synthesis.summary
        assert "process below: Go to" not in off, off
        # the prose chunk already retrieved: the context already holds it, and the chain stops there
        middle = continued.results[1]
        both = await agent._continued(AggregatedResults(results=[lead, middle]), _Run(None))
        assert [p.chunk_index for p in both.results] == [lead_at, lead_at + 1]
        monkeypatch.setattr(agent_module, "CONTINUE_HOPS", 1)
        one = await agent._continued(AggregatedResults(results=[lead]), _Run(None))
        assert [p.chunk_index for p in one.results] == [lead_at, lead_at + 1]
    finally:
        agent.close()


def _chunk(index: int, content: str, section: str) -> Passage:
    return Passage(id=f"t{index}", doc_id="transit.md", content=content, score=0.6, title="Transit Benefit",
                   section=section, chunk_index=index, chunk_count=3, metadata={"doc_hash": "h"})


async def test_a_pointer_is_quoted_only_with_the_list_it_points_at(minilm):
    """(review) The first list of the next chunks is not the pointer's when its own chunk goes on with one, when a
    code block comes first, or when the list's heading shares no word with it."""
    from synthesis.synthesize.base import Context, ContextSource
    from synthesis.synthesize.extractive import ExtractiveSynthesizer

    question = "How do I sign up for the transit subsidy?"
    pointer = "To receive a transit subsidy, you need to enroll using the process below."
    cancel = _chunk(1, "- Log in to transitapp.ost.dot.gov\n- Click on Withdraw from the program",
                    "Transit Benefit > Cancelling transit benefit")

    async def summary(*chunks: Passage) -> str:
        context = Context(sources=[ContextSource(number=i, passage=p) for i, p in enumerate(chunks, 1)])
        return (await ExtractiveSynthesizer(minilm).synthesize(question, context)).synthesis.summary

    # more of its own chunk after it: a later chunk's list (whose heading shares "enroll") is not the one it means
    own = _chunk(0, f"{pointer}\n\nThe benefit covers buses and trains.", "Transit Benefit > Eligibility")
    second = cancel.model_copy(update={"section": "Transit Benefit > Enrolling a second commute"})
    assert "process below: Log in" not in await summary(own, second)
    # a code block first: that is what it points at, not the list after it (whose heading shares "enroll")
    code = _chunk(1, "```sh\ntransit enroll --me\n```", "Transit Benefit > Enrolling in transit benefit")
    steps = _chunk(2, "- Clear your browser cookies\n- Ask in #transit-help",
                   "Transit Benefit > Enrolling troubleshooting")
    alone = _chunk(0, pointer, "Transit Benefit > Eligibility")
    assert "process below: Clear your browser cookies" not in await summary(alone, code, steps)
    prose = _chunk(1, "Cancelling is quick, and takes effect at the next pay period.", "Transit Benefit > Cancelling")
    later = cancel.model_copy(update={"id": "t2", "chunk_index": 2})
    assert "process below: Log in" not in await summary(alone, prose, later)  # "Cancelling" shares no word with it
    enrolling = _chunk(1, "- Go to transitapp.ost.dot.gov\n- Click on Register",
                       "Transit Benefit > Enrolling in transit benefit")
    assert "process below: Go to transitapp.ost.dot.gov; Click on Register" in await summary(alone, enrolling)


# A numbered procedure longer than a chunk (the 18F handbook's PSLF steps, shortened): chunking cuts it between
# steps, and the chunk the question finds ends inside it (CONTINUE_STEPS).
PSLF_STEPS = [
    "Download the application PDF from the PSLF application page and save it somewhere you can find it again later.",
    "Fill out your Section 1 of the application with your personal information, exactly as your loan servicer has it.",
    "Check the appropriate box in Section 2 depending on whether you think you currently qualify for PSLF or not.",
    "Add your signature to the bottom of page 1. You can sign the document in pen and ink or with a digital signature, "
    "but a digital signature must be hand-drawn.",
    "Enter the employer information in Section 3: the employer name, its identification number, its address and "
    "website, your employment begin date, your status and your average hours per week.",
    "Do not fill out Section 4. This section will be completed by a GSA HR representative as detailed below.",
    "Save your updated PDF under a name that says what it is, so the HR representative knows what they are signing.",
    "Login to DocuSign with your GSA account, and start a new envelope for the partially completed application.",
    "Upload your partially completed PSLF application to the envelope, and add our PSLF point of contact as its "
    "recipient with the signing settings set to draw a new signature.",
    "Send the envelope, and wait for the email confirming that your document has been signed by every recipient.",
]
PSLF_PAGE = ("---\ntitle: Benefits\n---\n# Benefits\n\n## Public Service Loan Forgiveness (PSLF)\n\n"
             "As a GSA employee, you are eligible for PSLF, assuming you satisfy the other conditions of the program.\n\n"
             "To fill out your PSLF application and obtain employer verification:\n\n"
             + "\n".join(f"{i}. {s}" for i, s in enumerate(PSLF_STEPS, 1)) + "\n")


def _first_cut(tmp_path, minilm, collection: str, page: str, query: str, ends_inside):
    """One page ingested as `collection`; its settings, store, and the first chunk the search for `query` returns
    that `ends_inside` a list with more chunks after it (the precondition the continuation tests rely on)."""
    from synthesis.config import Settings
    from synthesis.retrieval import make_retriever

    settings = Settings(_env_file=None, home=tmp_path / "home", collection=collection)
    store = ingest_into(settings, minilm, collection, write_docs(tmp_path, {f"docs/{collection}.md": page}))
    results = make_retriever(settings, store).search(query, k=8).results
    cut = [r for r in results if ends_inside(r.content) and r.chunk_index + 1 < r.chunk_count]
    assert cut, [r.content[-80:] for r in results]
    return settings, store, min(cut, key=lambda r: r.chunk_index)


async def _read_with(agent, first) -> list[int]:
    """The chunk indexes the agent reads for `first` alone: it, and the chunks it continues into."""
    from synthesis.agent import _Run

    return [p.chunk_index for p in (await agent._continued(AggregatedResults(results=[first]), _Run(None))).results]


async def test_a_chunk_cut_inside_numbered_steps_is_read_with_the_next(tmp_path, minilm, monkeypatch):
    from synthesis import agent as agent_module
    from synthesis.agent import build_agent
    from synthesis.lists import ends_in_steps

    settings, store, first = _first_cut(tmp_path, minilm, "pslf", PSLF_PAGE,
                                        "PSLF application employer verification steps", ends_in_steps)
    agent = build_agent(settings, store)
    try:
        assert await _read_with(agent, first) == [first.chunk_index, first.chunk_index + 1]
        monkeypatch.setattr(agent_module, "CONTINUE_STEPS", False)
        assert await _read_with(agent, first) == [first.chunk_index]
    finally:
        agent.close()


# A bulleted procedure longer than a chunk (the 18F handbook's "Editing in GitHub"): chunking cut it after the step
# that names the pull request page, and "Click the `Create pull request` button" opens the next chunk, after the
# line the chunks overlap (CONTINUE_BULLETS; the summary reads the run on: quotes.LEADLESS_ON).
GITHUB_STEPS = [
    "Click the `Edit this page` link at the very bottom of whichever page you want to edit. This will bring you to "
    "GitHub with the page you selected already loaded into an editor window. This is a plaintext editor.",
    "Make your changes. For more information about how to author Handbook content, refer back to the Making your "
    "updates section of the intro page.",
    "At the bottom of the page, you will have an opportunity to provide some text describing this edit. This will be "
    "used as part of the default description text when you open your pull request (PR) in the next step. You may "
    "leave it blank if you wish as you will have a chance to edit the PR text directly.",
    "Make sure `Create a new branch for this commit and start a pull request` is selected. Check the "
    "automatically-generated branch name in the text box below that selection – you will need it later if you want "
    "to edit multiple files as part of the same pull request – and click the `Propose changes` button.",
    "On the pull request page, give your PR a short title that helps people quickly identify what it does. Feel free "
    "to provide more information in the description field.",
    "Click the `Create pull request` button. This will automatically start a series of tests to ensure everything is "
    "still working as expected. While those run, you can assign someone to review your pull request using the "
    "\"Reviewers\" section in the right sidebar. Most PRs will be automatically assigned a reviewer, but you can add "
    "your own. See the pull requests and CODEOWNERS sections of the intro for more information.",
]
GITHUB_PAGE = ("---\ntitle: Editing in GitHub\n---\n\nIf you're not familiar with how to edit Markdown through GitHub, "
               "start with our Intro to GitHub and digital.gov's Using GitHub for Content Creation.\n\n"
               + "\n".join(f"- {s}" for s in GITHUB_STEPS) + "\n\nIf you need to edit multiple files as part of a "
               "single pull request, it is best to use a desktop file editor. Doing it directly in GitHub is a bit "
               "more complicated.\n")


async def test_a_chunk_cut_inside_bulleted_steps_is_read_with_the_next(tmp_path, minilm, monkeypatch):
    from synthesis import agent as agent_module
    from synthesis.agent import build_agent
    from synthesis.lists import last_bullets
    from synthesis.synthesize import quotes

    settings, store, first = _first_cut(tmp_path, minilm, "github", GITHUB_PAGE,
                                        "steps to edit a handbook page directly in GitHub", last_bullets)
    agent = build_agent(settings, store)
    try:
        assert await _read_with(agent, first) == [first.chunk_index, first.chunk_index + 1]
        asked = "What are the steps to edit a handbook page directly in GitHub?"
        joined = "identify what it does; Click the Create pull request button"  # the run read on, in order
        answer = await agent.answer(asked)
        assert joined in answer.synthesis.summary, answer.synthesis.summary
        monkeypatch.setattr(quotes, "LEADLESS_ON", False)
        cut_short = await agent.answer(asked)
        assert joined not in cut_short.synthesis.summary, cut_short.synthesis.summary
        monkeypatch.setattr(agent_module, "CONTINUE_BULLETS", False)
        assert await _read_with(agent, first) == [first.chunk_index]
    finally:
        agent.close()


def test_which_bulleted_chunks_go_on():
    from synthesis.lists import bullets_go_on, last_bullets

    assert last_bullets("Intro.\n\n- Do A.\n- Do B.\n  more of B\n- Do C.") == ["Do A.", "Do B.", "Do C."]
    assert last_bullets("- Do A.\n- Do B.\n\nThen some prose.") == []
    assert last_bullets("1. Do A.\n2. Do B.") == []  # numbered: lists.ends_in_steps
    assert bullets_go_on("Feel free to add more.\n- Click the button.")
    assert not bullets_go_on("A new section.\n\nMore prose.\n\nAnd more.\n- a later list")
