"""Markdown as real wikis write it: front matter, Liquid/Jinja/Eleventy tags, link syntax, comments, footnotes,
tables. What is stored is what a reader of the page sees; link targets ride along as metadata."""

from __future__ import annotations

from pathlib import Path

import pytest

from synthesis.ingest import ingest
from synthesis.ingest.documents import chunk_id
from synthesis.ingest.markup import parse_markdown
from synthesis.ingest.templates import render_templates

# Written in the style of a static-site handbook (Eleventy shortcodes, prettier-wrapped links).
TRAVEL = """---
title: Book travel and secure approvals
sidebar:
  navigation: travel
---

{% include "step-indicator.html"
steps: travel-steps.steps
current_step: step_indicator.current_step %}

<!-- prettier-ignore -->
[Next to What to consider while traveling >]({% page "/travel/travel-guide-3/" %})

## Booking travel

If you have been [set up in
Concur]({% page "/first-time-travel-get-in-concur" %}) and have your
[travel card][card], head into Concur. Ask in {% slack_channel "travel" %} if stuck.

{% alert "Updated guidance (07/13/2021)" %}
  GSA published [updated travel guidance]({% page "/july-13-travel-guidance/" %}) for all employees.
{% endalert %}

{% comment %}
TODO: the [old policy](https://old.example.gov) link is dead, remove this section.
{% endcomment %}

Ensure all steps are done by 3:30 PM ET.<br>
<br> To rebook, read the instructions [here]({% page "/travel-guide-a-amended-authorizations" %}).

[card]: {% page "/first-time-travel-travel-card" %}
"""


def test_links_render_to_their_text_and_templates_disappear():
    meta, text, blocks, h1 = parse_markdown(TRAVEL)
    assert meta["title"] == "Book travel and secure approvals"
    for syntax in ("{%", "%}", "{{", "](", "<!--", "[card]", "<br>", "step-indicator", "TODO", "old policy"):
        assert syntax not in text, syntax
    assert "If you have been set up in Concur and have your travel card, head into Concur." in text
    assert "Ask in #travel if stuck." in text
    assert "Updated guidance (07/13/2021):" in text
    assert "GSA published updated travel guidance for all employees." in text
    assert "To rebook, read the instructions here." in text
    assert "Next to What to consider while traveling >" in text
    booking = [b for b in blocks if "Concur" in text[b.start:b.end]][0]
    assert booking.section == "Booking travel"
    assert booking.links == ["/first-time-travel-get-in-concur", "/first-time-travel-travel-card"]
    rebook = [b for b in blocks if "rebook" in text[b.start:b.end]][0]
    assert rebook.links == ["/travel-guide-a-amended-authorizations"]
    for b in blocks:
        assert text[b.start:b.end] == text[b.start:b.end].strip() and b.start < b.end


def test_reference_links_footnotes_escaped_links_and_html_anchors():
    meta, text, blocks, _ = parse_markdown(
        "# Leave\n\n"
        "You can carry over up to 240 hours[^1] of annual leave, see [the OPM fact sheet][opm].\n\n"
        "Use this <a href=\"https://docs.example.com/chart\">leave comparison chart</a> to compare.\n\n"
        "The \\[Promotions Handbook page]({% page \"/promotions\" %})\nexplains merit promotions.\n\n"
        "![a chart of leave balances](_img/leave.png)\n\n"
        "[opm]: https://www.opm.gov/leave \"OPM\"\n"
        "[^1]: Senior executives can carry over 720 hours.\n")
    assert meta == {}
    assert "You can carry over up to 240 hours of annual leave, see the OPM fact sheet." in text
    assert "Use this leave comparison chart to compare." in text
    assert "The [Promotions Handbook page" not in text and "The Promotions Handbook page explains merit" in text
    assert "Senior executives can carry over 720 hours." in text  # the footnote's text stays
    for syntax in ("[^1]", "](", "[opm]", "opm.gov", "<a", "_img", "a chart of leave"):
        assert syntax not in text, syntax
    links = [link for b in blocks for link in b.links]
    assert links == ["https://www.opm.gov/leave", "https://docs.example.com/chart", "/promotions"]


def test_tables_lists_and_code_keep_their_shape():
    _, text, blocks, _ = parse_markdown(
        "## [Health plans]({% page '/benefits/' %}) **2026**\n\n"
        "| Plan | Premium | Details |\n|---|---:|---|\n"
        "| Basic | $0 | [summary]({{ site.baseurl }}/plans/basic) |\n| Plus | $25 | [summary]({{ \"/plans/plus\" | url }}) |\n\n"
        "Steps:\n\n1. Open [Concur](https://concur.example).\n2. Pick a plan\n   - Basic\n   - Plus\n\n"
        "```liquid\n{% raw %}{% page \"/x/\" %}{% endraw %}\n```\n")
    assert "| Plan | Premium | Details |\n| Basic | $0 | summary |\n| Plus | $25 | summary |" in text
    assert "Steps:" in text and "1. Open Concur.\n2. Pick a plan\n  - Basic\n  - Plus" in text
    assert '```\n{% page "/x/" %}\n```' in text  # {% raw %} shows template syntax literally, as the site does
    assert [b.links for b in blocks][0] == ["/plans/basic", "/plans/plus"]
    assert all(b.section == "Health plans 2026" for b in blocks)  # a heading's link and emphasis: text only


def test_an_html_table_in_markdown_reads_as_key_value_rows():
    """18F handbook office pages open with an HTML metadata table; it was stored as one run-on sentence
    ("… Washington, D.C. 20405 Points of contact GSA Tenant Support Slack channels #dc Office / Seats TTS is …")."""
    page = """---
title: Washington, D.C.
---

<div class="table-wrapper">
  <table class="table-office-metadata">
    <tbody>
      <tr>
        <td class="col-key"><strong>Location</strong></td>
        <td class="col-value">
          1800 F St. NW  <br />
          Washington, D.C. 20405
        </td>
      </tr>
      <tr>
        <td class="col-key"><strong>Points of contact</strong></td>
        <td class="col-value"><a href="mailto:support@gsa.gov">GSA Tenant Support</a></td>
      </tr>
      <tr>
        <td class="col-key"><strong>Office / Seats</strong></td>
        <td class="col-value">TTS is located on the 6th floor, 4th wing.</td>
      </tr>
    </tbody>
  </table>
</div>

## Getting here

Take the Blue line to Farragut West.
"""
    _, text, blocks, _ = parse_markdown(page)
    paragraphs = text.split("\n\n")
    assert "Location: 1800 F St. NW Washington, D.C. 20405" in paragraphs
    assert "Points of contact: GSA Tenant Support" in paragraphs
    assert "Office / Seats: TTS is located on the 6th floor, 4th wing." in paragraphs
    assert any("mailto:support@gsa.gov" in b.links for b in blocks)
    assert "<" not in text and "Take the Blue line to Farragut West." in paragraphs
    # a lead-in keeps its colon (it starts its list's chunk), a wider table keeps its columns, code keeps its lines
    assert parse_markdown("<p>Follow these steps:</p>\n\n- one\n- two\n")[1].startswith("Follow these steps:\n")
    wide = ("<table><tr><th>Name</th><th>Role</th><th>Office</th></tr>"
            "<tr><td>Ana</td><td>Lead</td><td>DC</td></tr></table>")
    assert parse_markdown(wide + "\n")[1].split("\n\n") == ["Name | Role | Office", "Ana | Lead | DC"]
    assert parse_markdown("<pre>\nx = 1 ;\n\ny = 2\n</pre>\n")[1] == "```\nx = 1 ;\n\ny = 2\n```"


def test_task_boxes_and_wiki_links_read_as_their_words():
    """A new user's checklist answer quoted "By the end of week two: [ ] Read the pages in Read first."; wiki links
    (`[[Page]]`, `[[page|label]]`) stayed as written. Shell's `[[ -f x ]]` in code is left alone."""
    _, text, blocks, _ = parse_markdown("See [[Deploy Guide]] and [[ops/rollback|the rollback page]]. Run "
                                        "`[[ -f x ]]` first.\n\n- [ ] Read the pages in Read first.\n"
                                        "- [x] Set up your laptop.\n")
    assert text.split("\n\n") == ["See Deploy Guide and the rollback page. Run `[[ -f x ]]` first.",
                                    "- Read the pages in Read first.\n- Set up your laptop."]
    assert blocks[0].links == ["Deploy Guide", "ops/rollback"]
    assert parse_markdown("Pairs such as [[1, 2]] stay.\n")[1] == "Pairs such as [[1, 2]] stay."  # no page name


def test_a_variable_the_page_sets_is_output_as_its_value():
    """`{% set owner = "Team Falcon" %}` then `{{ owner }}` read "owned by  and must …" with the value dropped."""
    page = ('{% set owner = "Team Falcon" %}{%- assign channel = \'#widgets\' -%}\n'
            "Widget releases are owned by {{ owner }} and announced in {{ channel | strip }}; see {{ site.url }}.")
    assert render_templates(page) == "\nWidget releases are owned by Team Falcon and announced in #widgets; see ."
    # in the page's order: a later assignment holds from there on, an output before any has no value we know
    assert render_templates('{{ x }}{% set x = "a" %} {{ x }} {% set x = "b" %}{{ x }}') == " a b"


def test_template_rendering_rules():
    assert render_templates('{%- if x -%}kept{%- endif -%}') == "kept"  # control tags go, their content stays
    assert render_templates("a {# jinja note #}b {{ page.title }}c") == "a b c"
    assert render_templates("{% comment %}unclosed to the end") == ""
    assert render_templates('{% image_with_class "_img/o.png" "usa-input" "an ocelot" %}') == "an ocelot"
    assert render_templates("no templates here { braces }") == "no templates here { braces }"
    # stray delimiters stay; a real tag after one is still rendered (and long runs of them stay linear)
    assert render_templates("50% {% of {{ x") == "50% {% of {{ x"
    assert render_templates("a {% b {% page '/x/' %} c") == "a {% b /x/ c"
    assert render_templates("{% " * 5000 + "{% endif %}") == "{% " * 5000
    assert render_templates("{{ x }}" + "y" * 3000 + "}}") == "y" * 3000 + "}}"


def test_markdown_without_text_is_skipped(tmp_path, make_store, counting_embedder):
    path = tmp_path / "only-tags.md"
    path.write_text('---\ntitle: x\n---\n{% include "nav.html" %}\n<!-- nothing -->\n# Heading only\n')
    report = ingest(make_store(counting_embedder), [path])
    assert report.chunks == 0 and "no text" in report.skipped[0].reason


@pytest.fixture
def wiki(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "travel.md").write_text(TRAVEL)
    return tmp_path / "kb"


def _chunks(store) -> dict[str, tuple[str, dict]]:
    return {i: (d, m) for ids, docs, metas in store.scan() for i, d, m in zip(ids, docs, metas)}


def test_ingested_chunks_are_clean_and_carry_link_targets(wiki, make_store, counting_embedder):
    store = make_store(counting_embedder)
    ingest(store, [wiki])
    chunks = _chunks(store)
    assert chunks
    for text, meta in chunks.values():
        for syntax in ("{%", "{{", "](", "<!--"):
            assert syntax not in text
    links = "\n".join(m.get("links", "") for _, m in chunks.values()).split("\n")
    assert "/first-time-travel-get-in-concur" in links and "/travel-guide-a-amended-authorizations" in links
    assert all(isinstance(v, str | int | float | bool) for _, m in chunks.values() for v in m.values())


def test_reingest_replaces_chunks_stored_by_an_older_cleaner(wiki, make_store, counting_embedder):
    """A store written before cleaning (raw markup, another hash) is rewritten: no old chunk survives."""
    store = make_store(counting_embedder)
    ingest(store, [wiki])
    coll = store.collection()
    clean = _chunks(store)
    got = coll.get(ids=list(clean), include=["embeddings", "metadatas"])
    coll.delete(ids=list(clean))
    old_ids = [chunk_id(m["doc_id"], "raw-markup-era", m["chunk_index"]) for m in got["metadatas"]]
    coll.add(ids=old_ids, embeddings=got["embeddings"], documents=[TRAVEL[:200]] * len(old_ids),
             metadatas=[{**m, "doc_hash": "raw-markup-era"} for m in got["metadatas"]])
    report = ingest(store, [wiki])
    assert report.updated == 1
    new = _chunks(store)
    assert set(new) == set(clean) and not set(new) & set(old_ids)
    assert all("{%" not in text for text, _ in new.values())
    # Changing a link target changes the stored chunks too (the target is part of what a chunk carries).
    (wiki / "travel.md").write_text(TRAVEL.replace("/travel-guide-a-amended-authorizations", "/rebooking/"))
    ingest(store, [wiki])
    final = _chunks(store)
    assert not set(final) & set(new)
    assert "/rebooking/" in "\n".join(m.get("links", "") for _, m in final.values())


def test_a_front_matter_description_is_the_pages_first_paragraph(tmp_path, make_store, counting_embedder):
    """npm's docs keep what a command does only in front matter ('description: Clean install a project'); the body
    opens with a synopsis. The summary is stored (and searched) as the page's first paragraph, once."""
    page = tmp_path / "npm-ci.md"
    page.write_text("---\ntitle: npm-ci\nsection: 1\ndescription: Clean install a project\n---\n\n### Synopsis\n\n"
                    "```bash\nnpm ci\n```\n\n### Description\n\nThis command is similar to npm install, except it's "
                    "meant to be used in automated environments.\n")
    same = tmp_path / "same.md"
    same.write_text("---\ndescription: Rotate a leaked key at once\n---\n# Keys\n\nRotate a leaked key at once. Then "
                    "report it.\n")
    marked = tmp_path / "marked.md"
    marked.write_text("---\ndescription: Use `npm ci` for [clean installs](/cli/ci) {{ site.name }}\n---\nBody text "
                      "about installs.\n")
    stub = tmp_path / "stub.md"
    stub.write_text("---\ntitle: Moved\ndescription: This page moved to the new handbook\n---\n")
    store = make_store(counting_embedder)
    report = ingest(store, [page, same, marked, stub])
    assert any(x.path.endswith("stub.md") for x in report.skipped)  # a stub stays a stub
    chunks = sorted(_chunks(store).values(), key=lambda c: (c[1]["doc_id"], c[1]["chunk_index"]))
    ci = [(text, meta) for text, meta in chunks if meta["doc_id"].endswith("npm-ci.md")]
    assert ci[0][0].startswith("Clean install a project"), ci
    assert "similar to npm install" in " ".join(t for t, _ in ci)
    body = " ".join(t for t, m in chunks if m["doc_id"].endswith("same.md"))
    assert body.count("Rotate a leaked key at once") == 1, body  # said under a heading: not repeated
    marked_text = " ".join(t for t, m in chunks if m["doc_id"].endswith("marked.md"))
    assert marked_text.startswith("Use `npm ci` for clean installs"), marked_text  # rendered as the body is
    assert "](" not in marked_text and "{{" not in marked_text


def test_a_description_that_is_not_markdown_of_its_own_does_not_lose_the_page(tmp_path, make_store,
                                                                                counting_embedder):
    page = tmp_path / "odd.md"
    page.write_text("---\ndescription: |\n  ---\n  x: [\n  ---\n  odd\n---\nBody text about the odd page.\n")
    report = ingest(make_store(counting_embedder), [page])
    assert report.chunks >= 1 and not report.skipped


def test_html_preformatted_text_is_fenced_like_markdown_code():
    """mdBook and DocBook pages keep code in <pre>: fenced, its lines read as code, not as one run-on sentence."""
    from synthesis.ingest.markup import parse_html

    _, text, blocks = parse_html("<html><body><p>The default settings are:</p><pre><code>[profile.release]\n"
                                 "opt-level = 3\n</code></pre><p>After.</p></body></html>")
    assert text == "The default settings are:\n\n```\n[profile.release]\nopt-level = 3\n```\n\nAfter."
    assert [text[b.start:b.end] for b in blocks][1] == "```\n[profile.release]\nopt-level = 3\n```"


def test_a_myst_directive_is_prose_unless_it_holds_code():
    """pip's docs (MyST Markdown): "```{note}" and "```{versionadded} 22.3" hold prose; "```{code-block}" and a
    shell session hold code; "```{toctree}" shows nothing of its own."""
    from synthesis.ingest.markup import parse_markdown

    text = parse_markdown("Intro.\n\n```{note}\n:class: tip\nExperimental support, behind `--use-feature=truststore`."
                          "\n```\n\n```{versionadded} 22.3\nThe [--python](#python) option.\n```\n\n"
                          "```{code-block} shell\npip install x\n```\n\n```{pip-cli}\n$ pip install truststore\n```"
                          "\n\n```{toctree}\ngetting-started\n```\n")[1]
    assert text == ("Intro.\n\nExperimental support, behind `--use-feature=truststore`.\n\n"
                    "New in version 22.3. The --python option.\n\n```\npip install x\n```\n\n"
                    "```\n$ pip install truststore\n```")


def test_an_html_page_with_a_main_element_is_read_from_it_alone():
    """mdBook exports repeat a "Keyboard shortcuts" pop-up and the book's menu title on every page, outside <main>:
    99 of the Cargo book's chunks were that pop-up. A page without <main> is read whole."""
    from synthesis.ingest.markup import parse_html

    page = ("<html><head><title>FAQ - The Cargo Book</title></head><body><div id='help'><h2>Keyboard shortcuts</h2>"
            "<p>Press ? to show this help</p></div><div class='menu'><h1>The Cargo Book</h1></div><main><h1>Frequently "
            "Asked Questions</h1><p>No. The plan for Cargo is to use crates.io.</p></main></body></html>")
    title, text, blocks = parse_html(page)
    assert title == "FAQ - The Cargo Book"
    assert text == "Frequently Asked Questions\n\nNo. The plan for Cargo is to use crates.io."
    assert blocks[0].section == "Frequently Asked Questions"
    _, whole, _ = parse_html("<html><body><div><p>Press ? to show this help</p></div><p>Body text.</p></body></html>")
    assert "Press ?" in whole and "Body text." in whole


def test_site_chrome_marked_by_class_or_id_is_not_read():
    """DocBook exports (the Valgrind manual) open each chapter with a table of contents and close it with a
    "Prev / Up / Next / Home" bar: headings without text, quoted as if they answered."""
    from synthesis.ingest.markup import parse_html

    page = ("<html><body><div class='navheader'><table><tr><td>Prev</td><td>Next</td></tr></table></div>"
            "<div class='chapter'><h1>4. Memcheck</h1><div class='toc'><dl><dt>4.1. Overview</dt><dt>4.2. Explanation "
            "of error messages</dt></dl></div><p>Memcheck is a memory error detector.</p></div>"
            "<div id='footer'>Home</div></body></html>")
    _, text, _ = parse_html(page)
    assert text == "4. Memcheck\n\nMemcheck is a memory error detector."


def test_a_myst_note_that_shows_a_command_stays_prose_and_nesting_is_bounded():
    """A note whose text leads to a command is prose; a version directive's note on its first line follows its
    label; directives nested past MAX_DIRECTIVE_DEPTH are kept as plain text instead of recursing."""
    from synthesis.ingest.markup import MAX_DIRECTIVE_DEPTH, parse_markdown

    text = parse_markdown("```{note}\nTo install, run:\n\n$ pip install x\n```\n\n"
                          "```{versionchanged} 23.1 The resolver is now the default.\n```\n")[1]
    assert text == "To install, run:\n\n$ pip install x\n\nChanged in version 23.1. The resolver is now the default."
    depth = 200
    nested = ("".join("`" * (3 + depth - i) + "{note}\n" for i in range(depth)) + "deep\n"
              + "".join("`" * (4 + i) + "\n" for i in range(depth)))
    assert "deep" in parse_markdown(nested)[1] and depth > MAX_DIRECTIVE_DEPTH


def test_a_slack_channel_written_with_its_hash_renders_one():
    """18F handbook: `{% slack_channel "#g-research" %}` was stored as "##g-research" and quoted so."""
    assert render_templates('Ask on Slack in {% slack_channel "#g-research" %}.') == "Ask on Slack in #g-research."
    assert render_templates('Ask in {% slack_channel "travel" %}.') == "Ask in #travel."


def test_a_line_break_inside_a_table_cell_keeps_the_row_whole():
    """18F handbook (frontmatter.md, shared-resources.md): a cell's `<br>` split its row over lines, so the cell's
    second half was stored as a row of its own ("`outdated: true` |") cut off from the field it describes."""
    _, text, _, _ = parse_markdown(
        "| element | what it does |\n|---|---|\n"
        "| `outdated` | Shows an out-of-date banner. E.g.,<br><br>`outdated: true` |\n"
        "| [**Handbook**](https://x.example)<br> Our procedures | TTSC Chief of Staff |\n")
    assert "| `outdated` | Shows an out-of-date banner. E.g., `outdated: true` |" in text
    assert "| Handbook; Our procedures | TTSC Chief of Staff |" in text
    assert all(line.startswith("|") and line.endswith("|") for line in text.splitlines())


PLAYBOOK = """---
title: New Supervisor Playbook
cSpell: ignore Costino
---

A guide for transitioning from being an individual contributor to a supervisor.

## Congratulations!

Whether you are starting your supervisory career for the first time or joining
TTS as a new hire, it can be daunting to step into a supervisory role. I have
written this playbook to document my experience re-joining TTS as an Engineering
Supervisor.

Above all, **make time for your team members**.

I wish you the best of luck on your supervisory and leadership journey!

_Carlo Costino_

## The plays

Each play contains a short description about the philosophy and goals behind it.
"""


def test_a_sign_off_or_a_front_matter_author_is_every_chunks_author(tmp_path, make_store, counting_embedder):
    """The 18F handbook's New Supervisor Playbook is signed "_Carlo Costino_" at the end of its first-person letter,
    two chunks after "I have written this playbook …": the name is stored as the author of every chunk of the page
    (`ingest.authors`), as a front matter `author` is; a page that names no author keeps its chunk ids."""
    (tmp_path / "playbook.md").write_text(PLAYBOOK)
    (tmp_path / "guide.md").write_text("---\ntitle: Style guide\nauthors:\n  - Jane Doe\n  - Sam Roe\n---\n"
                                       "Write plainly.\n")
    # not a sign-off: a closing line of a page in the third person, and a name that is a heading's last paragraph
    # in no first-person section; (review) a closing wish, a name after a lead-in, "Title I" read as the first person
    (tmp_path / "hiring.md").write_text("# Hiring\n\nThe panel reviews every packet.\n\nTalent Team\n")
    (tmp_path / "hack.md").write_text("# Hack week\n\nI wrote this for you.\n\n_Happy Hacking_\n")
    (tmp_path / "thanks.md").write_text("# Credits\n\nI want to thank my colleague:\n\nJane Doe\n")
    (tmp_path / "grants.md").write_text("# Grants\n\nTitle I funds are for schools.\n\nMaria Lopez\n")
    # … and a letter's closing and name in one paragraph is one
    (tmp_path / "letter.md").write_text("# Welcome\n\nI hope this helps you settle in.\n\nThanks,\nJane Roe\n")
    store = make_store(counting_embedder)
    ingest(store, [tmp_path])
    chunks = _chunks(store).values()
    authors = {m["doc_id"].rsplit("/", 1)[-1]: m.get("author") for _, m in chunks}
    assert authors == {"playbook.md": "Carlo Costino", "guide.md": "Jane Doe, Sam Roe", "hiring.md": None,
                       "hack.md": None, "thanks.md": None, "grants.md": None, "letter.md": "Jane Roe"}
    plays = [m for t, m in chunks if "Each play contains" in t]
    assert plays and plays[0]["author"] == "Carlo Costino"  # (a later section's chunk too: the page's author)


def test_no_author_leaves_a_pages_hash_as_it_was(tmp_path, monkeypatch):
    """Only a page that names its author gets a new hash (and is re-embedded on the next ingest)."""
    from synthesis.ingest import loaders

    unsigned, signed = tmp_path / "unsigned.md", tmp_path / "signed.md"
    unsigned.write_text(PLAYBOOK.replace("_Carlo Costino_", "Thanks for reading."))
    signed.write_text(PLAYBOOK)

    def hashes() -> tuple[str, str]:
        return tuple(loaders.load_file(p, model="m", dimension=3).documents[0].doc_hash for p in (unsigned, signed))

    on = hashes()
    monkeypatch.setattr(loaders, "AUTHORS", False)
    off = hashes()
    assert on[0] == off[0]
    assert on[1] != off[1]
