"""Chunking: paragraphs packed up to the model's window, long paragraphs split at sentences with a small overlap."""

from __future__ import annotations

import re

import pytest

from synthesis.embedding import HashEmbedder
from synthesis.ingest.chunking import SPECIAL_TOKENS, Chunker, TokenCounts, token_starts
from synthesis.ingest.documents import Block, Document, paragraphs

SENTENCES = " ".join(f"Sentence number {i} explains how the {w} service handles retries and timeouts in production."
                     for i, w in enumerate(["billing", "ledger", "notifier", "search", "payments"] * 12))
RUN_ON = " ".join(f"word{i}" for i in range(900))  # one "sentence" far over the window: split between words
SHORT = [f"Short paragraph {i} about the on-call rota." for i in range(12)]


def make_doc(text: str, *, title: str = "Operations handbook", section: str = "Retries") -> Document:
    return Document(doc_id="ops", text=text, title=title, source_url="ops.md", source_file="/kb/ops.md",
                    blocks=[Block(s, e, section) for s, e in paragraphs(text)])


def plan(embedder, doc):
    [starts] = token_starts(embedder, [doc.text])
    return Chunker(embedder).chunk(doc, TokenCounts(starts))


@pytest.fixture(params=["minilm", "hash"])
def embedder(request):
    return request.getfixturevalue("minilm") if request.param == "minilm" else HashEmbedder(max_tokens=64)


def test_every_embedded_input_fits_the_model_window(embedder):
    doc = make_doc("\n\n".join([SENTENCES, *SHORT, RUN_ON, "A closing paragraph."]))
    planned = plan(embedder, doc)
    assert len(planned) > 4
    for p in planned:
        assert embedder.count_tokens(p.embed_text) + SPECIAL_TOKENS <= embedder.max_tokens
        assert p.embed_text.startswith("Operations handbook > Retries\n\n")
        assert doc.text[p.chunk.char_start:p.chunk.char_end] == p.chunk.text == p.embed_text.split("\n\n", 1)[1]
    assert [p.chunk.chunk_index for p in planned] == list(range(len(planned)))
    assert {p.chunk.chunk_count for p in planned} == {len(planned)}


def test_nothing_is_lost_between_chunks(embedder):
    doc = make_doc("\n\n".join([SENTENCES, *SHORT, RUN_ON]))
    covered = set()
    for p in plan(embedder, doc):
        covered.update(range(p.chunk.char_start, p.chunk.char_end))
    missing = [i for i in range(len(doc.text)) if i not in covered and not doc.text[i].isspace()]
    assert missing == []


def test_short_paragraphs_pack_and_never_overlap(minilm):
    doc = make_doc("\n\n".join(SHORT))
    planned = plan(minilm, doc)
    assert len(planned) == 1  # twelve short paragraphs fit one window
    assert planned[0].chunk.text == doc.text


def test_long_paragraph_splits_at_sentences_with_small_overlap(minilm):
    doc = make_doc(SENTENCES)
    planned = plan(minilm, doc)
    assert len(planned) >= 3
    for a, b in zip(planned, planned[1:]):
        assert a.chunk.text.endswith(".")  # cut at a sentence end
        assert re.match(r"Sentence number \d+", b.chunk.text)  # and resumes at a sentence start
        overlap = a.chunk.char_end - b.chunk.char_start
        assert 0 < overlap  # the pieces of one paragraph overlap...
        assert minilm.count_tokens(doc.text[b.chunk.char_start:a.chunk.char_end]) <= 32  # ...a little


def test_a_table_split_at_a_row_starts_its_next_piece_at_the_next_row(minilm):
    """18F handbook (shared-resources.md): a table over the window was cut after a row, and the next piece began
    inside that row ("Guide, Engineering Guide, and more | GitHub: 18F/guides; …"), a fragment that outranked the
    rows after it; the piece after a row's end now starts at the next row."""
    rows = "\n".join(f"| Resource {i}; a public-facing site with guides, templates, decks and more | GitHub: 18F/repo{i}; "
                     f"Cloud.gov Pages config | 18F Outreach Lead {i} |" for i in range(30))
    planned = plan(minilm, make_doc("| Resource | Where we manage and maintain it | Point of contact |\n" + rows))
    assert len(planned) >= 2
    for p in planned:
        assert all(re.fullmatch(r"\| .* \|", line) for line in p.chunk.text.splitlines()), p.chunk.text[:80]


def test_run_on_text_splits_between_words(minilm):
    planned = plan(minilm, make_doc(RUN_ON))
    assert len(planned) > 2
    for p in planned:
        assert re.fullmatch(r"word\d+( word\d+)*", p.chunk.text)


def test_sections_are_chunk_boundaries_and_title_is_not_repeated(minilm):
    text = "Intro paragraph.\n\nRollback paragraph."
    doc = Document(doc_id="d", text=text, title="Deploys", source_url="d.md", source_file="/d.md",
                   blocks=[Block(0, 16, "Deploys"), Block(18, len(text), "Deploys > Rollback")])
    planned = plan(minilm, doc)
    assert [p.chunk.section for p in planned] == ["Deploys", "Deploys > Rollback"]
    assert [p.embed_text for p in planned] == ["Deploys\n\nIntro paragraph.", "Deploys > Rollback\n\nRollback paragraph."]


def test_an_overlong_title_is_not_embedded(minilm):
    doc = make_doc(SENTENCES[:200], title="very long title " * 40)
    [p] = plan(minilm, doc)
    assert p.embed_text == p.chunk.text


def test_fast_tokenizer_offsets_agree_with_count_tokens(minilm):
    [starts] = token_starts(minilm, [SENTENCES])
    counts = TokenCounts(starts)
    spans = [(0, len(SENTENCES)), (0, 100), (101, 400)]
    for a, b in spans:
        a, b = (SENTENCES.rfind(" ", 0, a) + 1 if a else 0), (SENTENCES.find(" ", b) if b < len(SENTENCES) else b)
        assert counts.count(a, b) == minilm.count_tokens(SENTENCES[a:b])


def test_a_lead_in_starts_the_chunk_of_the_list_it_introduces(minilm):
    """Seen in the 18F handbook: "…, follow these steps to report to GSA's IR team:" closed one chunk and its steps
    opened the next, so the answer quoted the lead-in and none of the steps."""
    prose = [f"Paragraph {i} explains how the phishing triage service reviews reported messages each weekday."
             for i in range(9)]
    lead = "If you also clicked on a link in a phishing email, follow these steps to report it:"
    steps = "\n".join(f"{i}. Step {i}: email itservicedesk@gsa.gov and devops@gsa.gov with the message headers "
                      f"and the time you clicked." for i in range(1, 5))
    doc = make_doc("\n\n".join([*prose, lead, steps]))
    planned = plan(minilm, doc)
    assert len(planned) >= 2
    [with_lead] = [p.chunk for p in planned if lead in p.chunk.text]
    assert "1. Step 1" in with_lead.text and with_lead.text.startswith(lead)
    assert not any(p.chunk.text.rstrip().endswith(":") for p in planned)
    # nothing lost or repeated: the chunks still tile the text
    assert "".join(p.chunk.text for p in planned).replace("\n", "") == doc.text.replace("\n", "")


LONG_LEAD = "To fill out your application and obtain employer verification:"
LONG_STEPS = "\n".join(f"{i}. Step {i}: open the form, fill in section {i} with your employment details and save the "
                       f"updated PDF before you go on." for i in range(1, 21))  # far over one chunk


def test_a_lead_in_opens_the_first_chunk_of_a_list_too_long_for_one(minilm):
    """18F handbook: "To fill out your PSLF application and obtain employer verification:" closed a chunk and its 20
    steps (far over one chunk) filled the next ones, so the answer quoted the lead-in alone."""
    prose = [f"Paragraph {i} explains who is eligible for loan forgiveness and how payments are counted."
             for i in range(6)]
    lead, steps = LONG_LEAD, LONG_STEPS
    doc = make_doc("\n\n".join([*prose, lead, steps]))
    planned = plan(minilm, doc)
    [with_lead] = [p.chunk for p in planned if lead in p.chunk.text]
    assert with_lead.text.startswith(lead) and "1. Step 1:" in with_lead.text
    assert not any(p.chunk.text.rstrip().endswith(":") for p in planned)
    assert "Paragraph 5" in planned[0].chunk.text and lead not in planned[0].chunk.text
    assert all(f"{i}. Step {i}:" in " ".join(p.chunk.text for p in planned) for i in range(1, 21))


def test_a_lead_in_alone_before_a_long_list_is_no_chunk_of_its_own(minilm):
    lead, steps = LONG_LEAD, LONG_STEPS
    planned = plan(minilm, make_doc("\n\n".join([lead, steps])))
    assert planned[0].chunk.text.startswith(lead) and "1. Step 1:" in planned[0].chunk.text
    assert not any(p.chunk.text.rstrip().endswith(":") for p in planned)


@pytest.mark.timeout(20)
def test_a_word_longer_than_the_window_is_chunked_and_ingest_moves_on(embedder):
    """A grid table's border ('+' then 300 '-') is one word of more tokens than a chunk holds; counted word by word
    (a model without a fast tokenizer) every one of its tokens starts where the word starts, and splitting it used
    to loop forever."""
    doc = make_doc("Sponsor " + "-" * 300 + " end of the table.\n\nA closing paragraph about sponsors.")
    planned = plan(embedder, doc)
    text = " ".join(p.chunk.text for p in planned)
    assert "closing paragraph" in text and "end of the table" in text
