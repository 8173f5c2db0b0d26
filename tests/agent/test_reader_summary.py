"""The offline summary's choice of sentences, on text taken from real handbooks and papers (the bundled model and
the real synthesizer; nothing scored by hand)."""

from __future__ import annotations

from synthesis.models import Passage
from synthesis.synthesize.base import Context, ContextSource
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
    summary = await _summary(minilm, "Can I work remotely from outside the U.S. while on vacation in Europe?", context)
    assert "outside the u.s. while on personal travel is not allowed" in summary, summary
    assert "Dental" not in summary


def test_a_finding_quotes_a_lists_lead_in_once():
    """npm's docs: 'The main differences between using npm install and npm ci are: [1] The main differences between
    using npm install and npm ci are: If a node_modules is already present, …' -- the lead-in quoted alone and again
    before each item."""
    from synthesis.qa.reader import Candidate
    from synthesis.synthesize.extractive import _quote_all

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
