"""reStructuredText as Sphinx projects write it (CMake's and pip's manuals, a README with a grid table): what is
stored is what a reader of the built page sees, with titles as section paths and link targets as metadata."""

from __future__ import annotations

import re
import shutil
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from docutils import utils
from docutils.parsers.rst import directives, roles
from docutils.parsers.rst.directives.admonitions import Note
from docutils.parsers.rst.directives.body import CodeBlock
from docutils.parsers.rst.languages import en

from synthesis.ingest import ingest
from synthesis.ingest.loaders import load_file
from synthesis.ingest.markup import parse_markdown
from synthesis.ingest.rst import parse_rst

DATA = Path(__file__).parent / "data" / "rst"
ROLE = re.compile(r":[\w.+-]+(?::[\w.+-]+)*:`")
UNDERLINE = re.compile(r"^\s*([=\-~^*+#\"'`])\1{3,}\s*$")


def render(name: str) -> tuple[str, str, list]:
    return parse_rst((DATA / name).read_text())


def prose(text: str) -> list[str]:
    """The lines of `text` outside code fences (inside one, reStructuredText examples are content)."""
    out, fenced = [], False
    for line in text.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced:
            out.append(line)
    return out


def assert_no_markup(text: str) -> None:
    for line in prose(text):
        assert not ROLE.search(line) and "`" not in line, line
        assert not line.lstrip().startswith(".."), line
        assert not UNDERLINE.match(line), line
        assert not line.lstrip().startswith("+--"), line


def block_with(text: str, blocks, needle: str):
    return next(b for b in blocks if needle in text[b.start:b.end])


def test_sphinx_roles_show_their_title_text():
    """Sentences from CMake's manuals, as they were quoted before: with the role syntax and link targets."""
    _, text, _ = parse_rst(
        "The :manual:`CMake GUI <cmake-gui(1)>` can also recognize ``CMakePresets.json`` files.\n\n"
        "Build with multiple configurations by passing :option:`--config <cmake--build --config>` on the command "
        "line.\n\n"
        "The :command:`message()` command logs; :variable:`CMAKE_BUILD_TYPE` picks the configuration and "
        ":prop_tgt:`C++ standards <CXX_STANDARD>` the language level.\n\n"
        "See :py:func:`~importlib.metadata.version`, :ref:`!not-a-link` and *emphasis*, **strong** text.\n")
    paragraphs = text.split("\n\n")
    assert paragraphs[0] == "The CMake GUI can also recognize CMakePresets.json files."
    assert paragraphs[1] == "Build with multiple configurations by passing --config on the command line."
    assert paragraphs[2] == ("The message() command logs; CMAKE_BUILD_TYPE picks the configuration and C++ standards "
                             "the language level.")
    assert paragraphs[3] == "See version, not-a-link and emphasis, strong text."
    assert_no_markup(text)


def test_definition_terms_lead_their_descriptions_under_section_paths():
    title, text, blocks = render("cmake-presets.7.rst")
    assert title == "cmake-presets(7)"
    assert_no_markup(text)
    for gone in ("cmake-manual-description", "Excerpt of CMake", "Contents", "presets/example.json", "only::"):
        assert gone not in text, gone  # comments, a generated table of contents, an included file
    executable = block_with(text, blocks, "cmakeExecutable")
    assert text[executable.start:executable.end].startswith(
        "cmakeExecutable: An optional string representing the path to the CMake executable to use for this preset.")
    # a term heads its whole description: every paragraph of it sits under the term, as under a heading
    assert executable.section == "cmake-presets(7) > Format > Configure Preset > cmakeExecutable"
    intro = block_with(text, blocks, "One problem")
    assert intro.section == "cmake-presets(7) > Introduction"
    assert text[intro.start:].startswith("New in version 3.19. One problem that CMake users often face")
    assert "hidden: An optional boolean specifying whether or not a preset should be hidden." in text
    assert "it cannot be used in the --preset= argument, will not show up in the CMake GUI, and does not" in text
    assert "6: New in version 3.25." in text.split("\n\n")  # a nested term whose description is a version note
    assert "\n\nNote: For a CMake project using ExternalProject" in text  # an admonition keeps its content
    titles = {"cmake-presets(7)", "Introduction", "Format", "Configure Preset"}
    assert titles <= set(text.split("\n\n"))  # titles stay in the text, on their own, as Markdown headings do
    assert not any(text[b.start:b.end] in titles for b in blocks)  # … but are no blocks of their own


def test_an_option_directive_keeps_the_option_with_its_description_and_version_notes():
    title, text, blocks = render("cmake.1.rst")
    assert title == "cmake(1)"
    assert_no_markup(text)
    fresh = block_with(text, blocks, "--fresh")
    assert text[fresh.start:fresh.end] == (
        "--fresh: New in version 3.24. Perform a fresh configuration of the build tree. This removes any existing "
        "CMakeCache.txt file and associated CMakeFiles/ directory, and recreates them from scratch.")
    assert fresh.section == "cmake(1) > Generate a Project Buildsystem > Options > --fresh"
    assert "-L[A][H]: List non-advanced cached variables." in text
    assert ("New in version 3.25. See the cmake_language command for a way to query the current message logging "
            "level.") in text  # a note whose text follows "::" with no blank line
    for gone in ("OPTIONS_BUILD.txt", "program::", "\n\ncmake\n\n"):  # an include, a context-only directive
        assert gone not in text, gone
    # a definition-list term with its description, and a Sphinx code-block fenced as Markdown fences code
    assert ("cmake [<options>] <path-to-source>: Uses the current working directory as the build tree, and "
            "<path-to-source> as the source tree.") in text
    code = block_with(text, blocks, "$ mkdir build")
    markdown = parse_markdown("```console\n$ mkdir build ; cd build\n$ cmake ../src\n```\n")[1]
    assert text[code.start:code.end] == markdown == "```\n$ mkdir build ; cd build\n$ cmake ../src\n```"


OUTPUT_JUNIT = """Run Tests
=========

.. option:: --output-junit <file>

 .. versionadded:: 3.21

 Write test results in JUnit format.

 This option tells CTest to write test results to ``<file>`` in JUnit XML
 format. If ``<file>`` already exists, it will be overwritten. If using the
 :option:`-S <ctest -S>` option to run a dashboard script, use the
 ``OUTPUT_JUNIT`` keyword with the :command:`ctest_test` command instead.

Later paragraph of the section.
"""


def test_every_paragraph_of_an_options_description_sits_under_the_option():
    """CTest's manual: 'This option tells CTest to write test results to <file> in JUnit XML format' was quoted
    under 'Run Tests' alone, so nothing tied it to --output-junit."""
    _, text, blocks = parse_rst(OUTPUT_JUNIT)
    tells = block_with(text, blocks, "This option tells CTest")
    assert tells.section == "Run Tests > --output-junit <file>"
    assert block_with(text, blocks, "Write test results in JUnit").section == "Run Tests > --output-junit <file>"
    assert block_with(text, blocks, "Later paragraph").section == "Run Tests"  # the option ends with its indent


def test_literal_blocks_and_double_colons_read_as_markdown_code_does():
    _, text, blocks = render("pip-conventions.rst")
    assert_no_markup(text)
    assert ("Heading 2 (=) should have two empty lines before, for indicating the end of the section prior to "
            "it.") in text
    example = block_with(text, blocks, "Heading 1")  # a lone "::" introduces the block and disappears
    assert text[example.start:example.end].startswith("```\n=========\nHeading 1\n=========\n\nLorem ipsum")
    assert "::" not in text
    assert "1. = with overline\n2. =\n3. -" in text  # an auto-numbered list, numbered
    _, text, blocks = parse_rst("Write this::\n\n   $ pip install PyJWT\n")
    assert text == "Write this:\n\n```\n$ pip install PyJWT\n```"
    _, synopsis, _ = render("ctest.1.rst")  # a parsed-literal keeps its layout, its links become text
    assert "```\nRun Tests\n ctest [<options>]\n\nBuild and Test Mode\n" in synopsis


def test_tables_become_rows_without_borders_and_links_ride_on_blocks():
    _, text, blocks = render("CMAKE_FIND_USE_INSTALL_PREFIX.rst")
    assert_no_markup(text)
    assert ("| CMAKE_FIND_USE_INSTALL_PREFIX | CMAKE_FIND_NO_INSTALL_PREFIX | Search |\n"
            "| Not Defined | On | NO |\n| Not Defined | Off // Not Defined | YES |") in text
    title, text, blocks = render("pyjwt-README.rst")
    assert title == "PyJWT"
    assert_no_markup(text)
    sponsor = block_with(text, blocks, "secure token-based authentication")
    assert text[sponsor.start:sponsor.end].startswith("|  | If you want to quickly add secure token-based")
    assert sponsor.section == "PyJWT > Sponsor"
    assert sponsor.links == ["https://auth0.com/developers?utm_source=GHsponsor&utm_medium=GHsponsor"
                             "&utm_campaign=pyjwt&utm_content=auth"]
    intro = block_with(text, blocks, "RFC 7519")
    assert text[intro.start:intro.end] == ("A Python implementation of RFC 7519. Original implementation was written "
                                           "by @progrium.")
    assert intro.links == ["https://tools.ietf.org/html/rfc7519", "https://github.com/progrium"]
    assert "badge" not in text and "auth0-logo" not in text  # images and image substitutions are not text
    _, text, blocks = render("pip-ux_research_design.rst")  # named references resolve through their targets
    panel = block_with(text, blocks, "user panel")
    assert text[panel.start:panel.end].startswith("If you are interested in participating in pip user research, "
                                                  "please join pip's user panel.")
    assert panel.links == ["https://tools.simplysecure.org/survey/index.php?r=survey/index&sid=827389&lang=en",
                           "https://bit.ly/pip-ux-studies"]
    assert panel.section == "UX Research & Design > How to contribute > Participate in UX research"


def test_footnotes_substitutions_and_targets_are_markup():
    _, text, _ = parse_rst(".. _install-guide:\n\n.. |pkg| replace:: **PyJWT**\n\n"
                           "Install |pkg| first [#why]_ and read the guide [1]_.\n\n"
                           ".. [#why] Everything else imports it.\n.. [1] https://pyjwt.readthedocs.io\n")
    assert text.split("\n\n") == ["Install PyJWT first and read the guide.", "Everything else imports it.",
                                  "https://pyjwt.readthedocs.io"]


def test_directives_that_show_no_prose_leave_no_text():
    """What a built page shows for these is generated, loaded from elsewhere, or not prose."""
    _, text, _ = parse_rst(
        "Usage\n=====\n\n.. highlight:: console\n\n.. index:: pair: pip; install\n\n"
        ".. raw:: html\n\n   <div class=\"banner\">raw html</div>\n\n"
        ".. figure:: _static/flow.png\n\n   The resolver's flow.\n\n.. image:: _static/logo.png\n\n"
        ".. contents:: On this page\n\n.. include:: ../README.rst\n\n.. literalinclude:: example.json\n\n"
        ".. toctree::\n   :maxdepth: 1\n\n   install\n\n.. program:: pip\n\n"
        ".. pip-command-usage:: install \"python -m pip\"\n\nInstall packages.\n")
    assert text == "Usage\n\nInstall packages."


@pytest.mark.parametrize("source, kept", [
    ("Use `foo and :command:`bar here, **strong and ``lit.\n", ["Use foo and bar here, strong and lit."]),
    (".. weird-thing:: arg\n      deep\n  shallow\n   mid\n\n     more\n  x\n\nAfter the directive.\n",
     ["arg deep shallow mid", "more", "After the directive."]),
    ("+-----+-----+\n| key | 7   |\n+-----+\n| row |\n+-----+-----+\n\nAfter.\n", ["| key | 7 |", "| row |", "After."]),
    ("A\n===\n\ntext a\n\nB\n---\n\ntext b\n\nC\n===\n\nD\n~~~\n\ntext d\n", ["text a", "text b", "D", "text d"]),
    ("Title\n=====\n\n" + "long " * 3000 + "\n", ["Title", "long long"]),  # over docutils' line limit: plain
    ("".join("  " * i + f"- level {i}\n\n" for i in range(400)), ["level 0", "level 399"]),  # too deep: plain
])
def test_malformed_sources_keep_their_words(source, kept):
    title, text, blocks = parse_rst(source)
    assert blocks
    for words in kept:
        assert words in text, (words, text[:300])
    for b in blocks:
        assert b.start < b.end and text[b.start:b.end] == text[b.start:b.end].strip()


def test_a_page_without_prose_is_skipped_with_a_reason(tmp_path):
    (tmp_path / "index.rst").write_text("Index\n=====\n\n.. toctree::\n   :maxdepth: 2\n\n   intro\n   usage\n")
    (tmp_path / "empty.rst").write_text("\n\n")
    (tmp_path / "comments.rst").write_text(".. only a comment\n\n.. include:: other.rst\n")
    for name, reason in [("index.rst", "no text"), ("empty.rst", "empty file"), ("comments.rst", "no text")]:
        loaded = load_file(tmp_path / name, model="hash-256", dimension=256)
        assert not loaded.documents and reason in loaded.skipped[0].reason, name


def test_registration_is_thread_safe_and_leaves_docutils_directives_alone():
    """Ingest renders in worker threads; each source registers the Sphinx names it uses."""
    tag = uuid.uuid4().hex[:8]
    sources = [f":r{tag}{i}:`Title {i} <target>` and :py:r{tag}:`~a.b.Obj{i}`.\n\n"
               f".. d{tag}{i}:: --flag{i}\n\n   Described {i}.\n\n.. note:: Kept {i}.\n\n.. code:: text\n\n   x = {i}\n"
               for i in range(24)]
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(parse_rst, sources * 2))
    for i, (_, text, _) in enumerate(results):
        n = i % 24
        assert text == f"Title {n} and Obj{n}.\n\n--flag{n}: Described {n}.\n\nNote: Kept {n}.\n\n```\nx = {n}\n```"
    document = utils.new_document("<check>")
    document.reporter.stream = False
    assert directives.directive("note", en, document)[0] is Note
    assert directives.directive("code", en, document)[0] is CodeBlock
    assert roles.role("literal", en, 0, document.reporter)[0] is roles._role_registry["literal"]


@pytest.fixture
def manuals(tmp_path, monkeypatch) -> Path:
    shutil.copytree(DATA, tmp_path / "docs")
    (tmp_path / "docs" / "ctest.1.rst").rename(tmp_path / "docs" / "ctest.1.rest")
    (tmp_path / "docs" / "notes.txt").write_text("Plain text keeps ``its`` :markup:`as is`.\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "docs"


def test_ingesting_sphinx_docs_stores_chunks_without_markup(manuals, make_store, counting_embedder):
    store = make_store(counting_embedder)
    report = ingest(store, [manuals])
    assert (report.documents, report.skipped) == (8, [])
    chunks = [(d, m) for _, docs, metas in store.scan() for d, m in zip(docs, metas)]
    for text, meta in chunks:
        if meta["doc_id"].endswith(".txt"):
            assert text == "Plain text keeps ``its`` :markup:`as is`."  # .txt stays plain text
            continue
        assert_no_markup(text)
        assert meta["title"] in {"cmake-presets(7)", "cmake(1)", "ctest(1)", "CMAKE_FIND_USE_INSTALL_PREFIX", "PyJWT",
                                 "Documentation Conventions", "UX Research & Design"}
    presets = [(d, m) for d, m in chunks if m["doc_id"] == "docs/cmake-presets.7.rst"]
    executable = next((d, m) for d, m in presets if "cmakeExecutable" in d)
    assert "cmakeExecutable: An optional string representing the path to the CMake executable" in executable[0]
    assert executable[1]["section"] == "cmake-presets(7) > Format > Configure Preset > cmakeExecutable"
    ctest = [d for d, m in chunks if m["doc_id"] == "docs/ctest.1.rest"]
    assert any("--list-presets: Lists the available test presets." in d for d in ctest)
    links = "\n".join(m.get("links", "") for _, m in chunks).split("\n")
    assert "https://tools.ietf.org/html/rfc7519" in links and "https://bit.ly/pip-ux-studies" in links


@pytest.mark.timeout(10)
def test_a_long_run_of_colons_is_scanned_in_linear_time():
    """'a:a:a:…' on one 40 KB line took seconds per pattern when a role could start at every colon."""
    title, text, blocks = parse_rst("Title\n=====\n\n" + "a:" * 20000 + "\n")
    assert "a:a:a:" in text and blocks
