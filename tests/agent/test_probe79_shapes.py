"""Question shapes the fifty-third session found answered wrongly on the 18F handbook, on the page text they failed on
(three fresh probes hp79–hp81, written by helpers that read only the corpus and measured before any change).

A rule with a flag is switched off once in its test, so the test fails when the rule does nothing.
"""

from __future__ import annotations

import pytest

from synthesis.ingest import chunking
from synthesis.ingest.chunking import table_headers
from synthesis.models import Passage
from synthesis.sentences import sentence_units
from synthesis.synthesize.base import Context, ContextSource
from tests.scope.conftest import ingest_into, write_docs

# The handbook's "Managing public or shared resources" page (its links rendered to their text by ingest): one table
# too long for one chunk, cut between rows; the Tock row opens a chunk three rows after the header.
SHARED = """---
title: Managing public or shared resources
---

Over the years 18F and CoE have both developed resources or products that others rely on. Some of these are publicly available websites and others are tools used by teams across TTS.

| Resource | Where we manage and maintain it | Point of contact |
|----------|---------------------------------|------------------|
| [**TTS Consulting Handbook**](https://handbook.tts.gsa.gov/)<br> Documentation of standard operating procedures for TTS Consulting staff | [GitHub: 18F/handbook](https://github.com/18F/handbook)<br> [Cloud.gov Pages config](https://pages.cloud.gov/sites/21)  | TTSC Chief of Staff |
| [**TTSC Resources Library**](https://airtable.com/appkBrEBVTMd9M5VC/pagyCKyWNdrBCgvP1)<br>  An AirTable  | [Airtable base](https://airtable.com/appkBrEBVTMd9M5VC/pagyCKyWNdrBCgvP1)  | Currently, 18F Director of Product |
| **[CoE website](https://coe.gsa.gov/)**<br>  Our public-facing site | [GitHub: gsa/centers-of-excellence](https://github.com/gsa/centers-of-excellence)<br> [Cloud.gov Pages config](https://pages.cloud.gov/sites/449)  | CoE Communications Lead |
| [**18F website**](https://18f.gsa.gov/)<br>  Our public-facing site | [GitHub: 18F/18f.gsa.gov](https://github.com/18F/18f.gsa.gov)<br> [Cloud.gov Pages config](https://pages.cloud.gov/sites/3)  | 18F Outreach Lead |
| [**18F blog**](https://18f.gsa.gov/blog/)<br>  Our blog is part of the public site but blog post draft are managed in a different repo. | [GitHub: 18F/blog-drafts](https://github.com/18F/blog-drafts) | 18F Outreach Lead |
| [**18F Guides**](https://18f.gsa.gov/guides/)<br>  Public-facing resources including Derisking Guide, UX Guide, Product Guide, Content Guide, Engineering Guide, and more | [GitHub: 18F/guides](https://github.com/18F/guides)<br> [Cloud.gov Pages config](https://pages.cloud.gov/sites/1372)  | 18F Chief of Delivery  |
| [**Tock**](https://tock.18f.gov/)<br>  18F maintains this time tracking tool used by a couple different offices | [GitHub: 18F/tock](https://github.com/18F/tock/)  | 18F Director of Engineering |
"""  # noqa: E501  (the page's own table rows)
HEADER = "| Resource | Where we manage and maintain it | Point of contact |"


def _chunks(tmp_path, minilm, name: str) -> list[Passage]:
    from synthesis.config import Settings
    from synthesis.retrieval import make_retriever

    settings = Settings(_env_file=None, home=tmp_path / name, collection=name)
    store = ingest_into(settings, minilm, name, write_docs(tmp_path / f"{name}-docs", {"shared-resources.md": SHARED}))
    # (as the agent reads them: a search's results carry the metadata)
    out = make_retriever(settings, store).search("Tock time tracking Director of Engineering", k=20).results
    return sorted(out, key=lambda p: p.chunk_index)


def _planned(tmp_path, minilm) -> list[chunking.Planned]:
    from synthesis.ingest.loaders import load_file

    [path] = write_docs(tmp_path / "planned", {"shared-resources.md": SHARED})
    [doc] = load_file(path, model="all-MiniLM-L6-v2", dimension=384).documents
    return chunking.Chunker(minilm).chunk(doc, chunking.TokenCounts(chunking.token_starts(minilm, [doc.text])[0]))


def test_a_chunk_opening_on_a_tables_rows_reads_them_under_its_header(tmp_path, minilm, monkeypatch):
    """"Tock is acting weird — who's the point of contact for the tool itself?" (hp79-16) and "There's an outdated
    page on coe.gsa.gov. Who should I flag it to?" (hp79-18): the rows naming the 18F Director of Engineering and the
    CoE Communications Lead sit in chunks after the one holding the table's header, and read as "Tock; … | GitHub:
    18F/tock | 18F Director of Engineering" with no "Point of contact" (chunking.TABLE_HEADERS)."""
    chunks = _chunks(tmp_path, minilm, "shared")
    [tock] = [p for p in chunks if "18F Director of Engineering" in p.content]
    assert tock.content.lstrip().startswith("| Tock"), tock.content[:80]  # (the precondition: cut between rows)
    assert tock.metadata["table_header"] == HEADER
    read = [u.text for u in sentence_units(tock.readable)]
    assert any("Point of contact: 18F Director of Engineering" in t for t in read), read
    # the chunk holding the header reads it as before, and keeps no header of its own
    [first] = [p for p in chunks if HEADER in p.content]
    assert "table_header" not in first.metadata and first.readable == first.content
    assert any("Point of contact: TTSC Chief of Staff" in u.text for u in sentence_units(first.readable))

    # … and is embedded with the rows it names (the window has room)
    planned = _planned(tmp_path, minilm)
    [embedded] = [p.embed_text for p in planned if "18F Director of Engineering" in p.chunk.text]
    assert f"{HEADER}\n| Tock" in embedded, embedded[:200]

    monkeypatch.setattr(chunking, "TABLE_HEADERS", False)
    [embedded] = [p.embed_text for p in _planned(tmp_path, minilm) if "18F Director of Engineering" in p.chunk.text]
    assert HEADER not in embedded
    chunks = _chunks(tmp_path, minilm, "plain")
    [tock] = [p for p in chunks if "18F Director of Engineering" in p.content]
    assert "table_header" not in tock.metadata
    assert not any("Point of contact" in u.text for u in sentence_units(tock.readable))


@pytest.mark.parametrize(("needle", "header"), [
    ("| 3 | 4 |", "| A | B |"),  # a later row: the header of its table
    ("| A | B |", ""),  # the header itself
    ("| C | D |", ""),  # the header of the next table, after a blank line: no row of the first
    ("| 5 | 6 |", "| C | D |"),
    ("Intro.", ""),  # prose
    ("4 |", ""),  # a chunk cut inside a row: its tail reads as prose (sentences.CUT_ROWS), under no header
])
def test_which_header_a_chunk_keeps(needle, header):
    text = "Intro.\n\n| A | B |\n| 1 | 2 |\n| 3 | 4 |\n\n| C | D |\n| 5 | 6 |\n"
    assert table_headers(text).get(text.index(needle), "") == header


def test_a_row_repeating_the_header_keeps_none():
    """A long table that repeats its header: a chunk opening on the repeat would read "Name: Name; …" (review)."""
    text = "| C | D |\n| 5 | 6 |\n| C | D |\n| 7 | 8 |\n"
    assert table_headers(text).get(text.index("| C | D |", 1), "") == ""
    assert table_headers(text).get(text.index("| 7"), "") == "| C | D |"


def test_a_written_rule_is_kept_with_the_header():
    text = "| A | B |\n|---|:-:|\n| 1 | 2 |\n"
    assert table_headers(text).get(text.index("| 1"), "") == "| A | B |\n|---|:-:|"
    assert table_headers(text).get(text.index("|---"), "") == ""  # (a chunk opening on the rule: no rows of its own)


SLACK_VALUES = (
    "- Refrain from posting anything that would make our systems vulnerable or would impact the privacy of others.\n"
    "- Flag inappropriate messages. Just like our in-person interactions, there are a variety of ways to address "
    "issues: you can have a conversation directly with the person; you can discuss with a supervisor, team lead, or "
    "project lead; you can reach out to our Workforce Relations HR Specialist.\n"
    "- Ask questions in the relevant channels, and engage when people respond to you. If someone you pinged directly "
    "hasn’t responded within a few days, you may want to try contacting them using a  different type of "
    "communication "
    "(email, Gchat, put time on their calendar).\n"
    "- If you are unsure or unclear about any of the recommendations above, please reach out to your supervisor for "
    "assistance.")
CALENDAR = ("Google Calendar is the primary way we indicate our availability and reserved time blocks. Keep your "
            "calendar up to date so that people can find a time to meet with you.")


def _ranked_low(*passages: tuple[str, str, str, float]) -> Context:
    """(title, section, content, retrieval score) chunks, numbered 1..n."""
    return Context(sources=[
        ContextSource(number=i, passage=Passage(id=f"p{i}", doc_id=f"d{i}", content=content, score=score,
                                                title=title, section=section))
        for i, (title, section, content, score) in enumerate(passages, start=1)])


async def test_a_close_line_stating_the_duration_asked_answers_a_weakly_ranked_number_question(minilm, monkeypatch):
    """"I pinged someone directly on Slack and got nothing back. How long should I wait before trying email or
    putting time on their calendar?" (hp80-14) was refused: the line saying "within a few days" is 0.88 close to the
    part, but its passage ranked low and its score fell under QUANTITY_FLOOR (answerability.QUANTITY_CLOSE)."""
    from synthesis.qa import answerability

    from .test_qa import _with_and_without

    asked = ("I pinged someone directly on Slack and got nothing back. How long should I wait before trying email or "
             "putting time on their calendar?")
    context = _ranked_low(
        ("Getting started with Slack", "How do I make sure I’m using Slack in line with TTS values?", SLACK_VALUES,
         0.30),
        ("Internal communications", "Calendars", CALENDAR, 0.29))
    on, off = await _with_and_without(minilm, monkeypatch, asked, context, answerability, "QUANTITY_CLOSE", 0.0)
    assert "within a few days" in on, on
    assert "within a few days" not in off, off


@pytest.mark.parametrize(("asked", "read", "flag"), [
    ("Managing a performance problem — does the approach differ if the person is brand new versus someone who's been "
     "on the team a long time?", "if the person is new versus", "BRAND_NEW"),
    ("I got a brand-new laptop. How do I set it up?", "I got a new laptop", "BRAND_NEW"),
    ("Two people on our new project both want to be project lead. Who has the final say?",
     "Who has the final decision?", "FINAL_SAY"),
    ("who gets final say on hires?", "who gets the final decision on hires?", "FINAL_SAY"),
])
def test_idioms_read_plainly(asked, read, flag, monkeypatch):
    """"brand new" names no brand: it had put "brand management means presenting our organization consistently …"
    first (hp81-29); "the final say" is the final decision ("The final decision is made by the staffing team.",
    hp80-17) (idioms.BRAND_NEW, idioms.FINAL_SAY)."""
    from synthesis.qa import idioms

    assert read in idioms.plain(asked), idioms.plain(asked)
    monkeypatch.setattr(idioms, flag, False)
    assert read not in idioms.plain(asked)


@pytest.mark.parametrize("asked", [
    "Do I have a say in this?",  # a say is no final decision
    "Who has the last word in the email?",  # a word of a text
    "Can I update our brand guidelines?",  # a brand
])
def test_what_idioms_leave_alone(asked):
    from synthesis.qa import idioms

    assert idioms.plain(asked) == asked


TRELLO_RULES = (
    "- Use your `@gsa.gov` email to sign in, if you have one. Signing in via Google is recommended.\n"
    "- Abide by the TTS Code of Conduct. If you see anyone violating our Code of Conduct, see the reporting section.\n"
    "- All boards used for work should be created under an Enterprise Workspace, not as a \"personal board\".\n"
    "- Only use approved Power-Ups.\n"
    "- Invite people to boards via email. It's easy to invite the wrong user otherwise.\n"
    "- Close boards rather than deleting them. This ensures records are retained.")
TRELLO_TOOLS = (
    "Trello is a project management tool that organizes information into lists. Teams often use it to track specific "
    "tasks through different stages (such as backlog, in progress, in review, and done). Trello boards can be private "
    "or public.\n\nCompliance and records considerations:\n\n- GSA Tech Operations is working on a FedRAMP application "
    "as of January 2020. Members of TTS can use it and will be notified if anything changes.\n- Trello boards should "
    "be considered records.\n\nTrello alternatives")


async def test_a_way_preferred_over_the_one_asked_answers_yes_or_no(minilm, monkeypatch):
    """"our project wrapped up, can I just delete the trello board?" (hp81-02) quoted what Trello boards are, not
    "Close boards rather than deleting them.": a way preferred over another is a rule, a yes/no answer, as "should"
    makes one (kinds.PREFERRED_RULES)."""
    from synthesis.qa import kinds

    from .test_qa import _with_and_without

    assert kinds.Expect.YESNO in kinds.answer_kinds("Use email instead of Slack for this.")
    assert kinds.Expect.YESNO not in kinds.answer_kinds("The board was closed rather quickly.")
    context = _ranked_low(("Collaboration tools", "Using TTS tools > Tracking project tasks", TRELLO_TOOLS, 0.5),
                          ("Trello", "Rules", TRELLO_RULES, 0.48))
    asked = "our project wrapped up, can I just delete the trello board?"
    on, off = await _with_and_without(minilm, monkeypatch, asked, context, kinds, "PREFERRED_RULES", False)
    assert "Close boards rather than deleting them" in on, on
    assert "Close boards rather than deleting them" not in off, off


# The handbook's FITARA page, to its "Approval Process": "What is FITARA" is two chunks, the first naming the act and
# when it was enacted, the second (which ranked second for "When did FITARA actually become law?", the first at
# tenth, past the context) its objective.
FITARA = """---
title: Federal Information Technology Acquisition Reform Act (FITARA)
keywords: fitara, Acquisition, act
redirect_from:
  - /fitara/
cSpell: ignore Dotgov,Gengo
---

_The objective of FITARA policy is to improve the management of IT within an
agency._

## What is FITARA

The [Federal IT Acquisition Reform Act](https://www.cio.gov/policies-and-priorities/FITARA/), or FITARA,
is U.S. legislation enacted on December 19, 2014 that puts federal agency CIOs
in control of IT investments. What does that mean? It means that the CIO (Chief
Information Officer) and CTO (Chief Technology Officer) need to give documented
approval of an IT purchase to remain compliant with this act.

More broadly, FITARA outlines specific requirements related to:

1. CIO authority enhancements
2. Enhanced transparency and improved risk management in IT investments
3. Portfolio reviews
4. Expansion of training and use of IT cadres
5. Federal Data Center Consolidation Initiative (FDCCI), more recently known as
   the Data Center Optimization Initiative (DCOI)
6. Maximizing the benefit of the federal strategic sourcing initiative (SSI)
7. Government-wide software purchasing program The goal of FITARA is to
   eliminate duplication and waste in information technology acquisition for the
   federal government. The goals of the legislation – reduction of duplicative
   systems, examine software licensing options, making the business case for
   acquisition, and the consolidation of data centers.

The objective of FITARA is to improve the management of IT within an agency and
hence, improve the ability for that agency to deliver its mission and conduct
its business.

## What requires FITARA review?

Want to know if your software request requires FITARA? That’s easy, almost all
of them do! According to the CTO, at GSA we require FITARA approval for every
single IT purchase/investment you make.

For all TTS acquisitions, it is critical to obtain FITARA approval prior to
releasing the solicitation and when exercising option years on existing
contracts. Note: For Non-[AcqDiv (TTS Acquisition Division)]({% page "/oa/" %})
acquisitions, when the acquisition plan and Statement of Work (SOW) have been
finalized, please send an email to devops@gsa.gov. [The TTS Tech
Portfolio]({% page "/tech-operations/" %}) will conduct their initial review of
the acquisition and initiate the FITARA review with the CTO office.

**Note:** There are some exceptions and blanket approvals, such as Dotgov
domains or Professional Services (ex. Gengo Translation Services is an online
subscription that bills monthly but is essentially a professional services). But
**it is up to the CTO to determine on a case-by-case basis if it is necessary
and CIO to ultimately agree**.

"""  # noqa: E501


async def test_a_later_chunk_of_a_section_is_read_after_the_chunk_opening_it(tmp_path, minilm, monkeypatch):
    """"When did FITARA actually become law?" (hp78-11) was refused ("No retrieved page mentions 'become', 'law'"):
    the chunk saying "FITARA, is U.S. legislation enacted on December 19, 2014" opens "What is FITARA" and ranked
    tenth; the section's second chunk ranked second. A best passage that is a later chunk of its section is read
    after the chunk before it, when that is the same section's (agent.LEAD_TOP)."""
    from synthesis import agent as agent_module
    from synthesis.agent import _Run, build_agent
    from synthesis.config import Settings
    from synthesis.errors import StoreUnavailable
    from synthesis.models import AggregatedResults
    from synthesis.retrieval import make_retriever

    settings = Settings(_env_file=None, home=tmp_path / "home", collection="fitara")
    store = ingest_into(settings, minilm, "fitara", write_docs(tmp_path / "docs", {"fitara.md": FITARA}))
    results = make_retriever(settings, store).search("What is FITARA", k=20).results
    section = sorted((p for p in results if p.section == "What is FITARA"), key=lambda p: p.chunk_index)
    assert len(section) >= 2 and "December 19, 2014" in section[0].content  # (the precondition: the cut)
    later = section[-1]
    assert "December 19, 2014" not in later.content
    [review] = [p for p in results if p.section == "What requires FITARA review?"][:1]
    from synthesis.library import Library
    from synthesis.scoping import Grant, Visibility

    scoped = Library(settings, minilm).search(Visibility((Grant(collection="fitara"),), "test"))
    assert [r.id for r in scoped.preceding([later])] == [section[-2].id]  # (Slack's scoped search reads it too)
    agent = build_agent(settings, store)
    run = _Run(None)
    try:
        led = await agent._led(AggregatedResults(results=[later, review]), run)
        assert [p.id for p in led.results] == [section[-2].id, later.id, review.id]
        assert led.results[0].score == later.score and led.results[0].metadata["precedes"] == later.id
        assert [s.name for s in run.steps] == ["lead"]
        # the chunk before, retrieved already, stays where it ranked; a chunk `_continued` added is not led (review)
        already = AggregatedResults(results=[later, section[-2]])
        assert [p.id for p in (await agent._led(already, run)).results] == [later.id, section[-2].id]
        added = later.model_copy(update={"metadata": {**later.metadata, "continues": "x"}})
        assert [p.id for p in (await agent._led(AggregatedResults(results=[added]), run)).results] == [later.id]
        # a chunk opening a section is read alone: the chunk before it is another section's
        opening = AggregatedResults(results=[review])
        assert [p.id for p in (await agent._led(opening, run)).results] == [review.id]

        def failing(passages):
            raise StoreUnavailable("the Chroma server is down")

        monkeypatch.setattr(agent.retriever, "preceding", failing)  # the answer goes on without it
        assert [p.id for p in (await agent._led(AggregatedResults(results=[later]), run)).results] == [later.id]
        monkeypatch.undo()
        monkeypatch.setattr(agent_module, "LEAD_TOP", 0)
        assert [p.id for p in (await agent._led(AggregatedResults(results=[later]), run)).results] == [later.id]
    finally:
        agent.close()
