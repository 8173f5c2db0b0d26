"""Sphinx's roles and directives as plain docutils can read them: what each shows a reader, without Sphinx.

docutils knows none of them (`:command:`, `.. option::`, `.. versionadded::` …) and would keep each as a
"problematic" node or an error holding its source. `register_unknown(text)` scans a source for role and directive
names docutils does not know and registers a generic handler for each: a role shows its title text, a directive keeps
its content (with its argument leading it, e.g. an option's name). docutils' registries are global, so registration
is idempotent, under a lock, and never replaces a role or directive that docutils itself provides.
"""

from __future__ import annotations

import re
import threading

from docutils import nodes, utils
from docutils.parsers.rst import Directive, directives, roles
from docutils.parsers.rst.languages import en

# A role starts after a space or punctuation, never inside a run of name characters: scanning "a:a:a:…" from every
# colon would take quadratic time on a long line.
_ROLE = re.compile(r"(?<![\w:.+-]):([A-Za-z0-9]+(?:[-_.+:][A-Za-z0-9]+)*):`")
_DIRECTIVE = re.compile(r"^[ \t]*\.\.[ \t]+(?:\|[^|\n]+\|[ \t]+)?([A-Za-z0-9]+(?:[-_.+:][A-Za-z0-9]+)*)[ \t]?::", re.M)
_RULE = re.compile(r"^\s*([\w-]*)\s*:")  # "name: rule", or ": rule" continuing the one above
_EXPLICIT_TITLE = re.compile(r"^(.+?)\s*(?<!\x00)<([^<]*?)>$", re.S)  # Sphinx's "title <target>"

# What Sphinx shows for these comes from files, code or configuration we do not have (or it shows nothing).
SILENT = {"toctree", "literalinclude", "highlight", "index", "program", "currentmodule", "module", "default-domain",
          "sectionauthor", "moduleauthor", "codeauthor", "tabularcolumns", "autosummary", "graphviz", "digraph",
          "graph", "inheritance-diagram", "mermaid", "plantuml", "uml", "todo", "testsetup", "testcleanup",
          "cmake-module", "spelling:word-list"}
LITERAL = {"code-block", "sourcecode", "testcode", "testoutput", "doctest", "prompt", "ipython", "jupyter-execute"}
VERSION = {"versionadded": "New in version {}.", "versionchanged": "Changed in version {}.",
           "deprecated": "Deprecated since version {}.", "versionremoved": "Removed in version {}."}
# Their argument is a condition or layout, not a name: the content alone is what a reader sees.
CONTAINERS = {"only", "ifconfig", "tabs", "tab-set", "grid", "grid-item", "hlist", "glossary", "cssclass", "rst-class"}
LABELS = {"seealso": "See also"}

_lock = threading.Lock()
_handled: set[tuple[str, str]] = set()  # ("role" | "directive", lower-case name): known to docutils or registered


class described(nodes.Element):  # noqa: N801 - docutils names node classes in lower case
    """A directive's argument (an option, a variable, a label) leading its content: `term`: the text that leads."""


class version_note(nodes.Element):  # noqa: N801
    """`label` ("New in version 3.25.") and, when the directive had any, the text it annotates."""


def register_unknown(text: str, document: nodes.document) -> None:
    """Give every role and directive named in `text` that docutils does not know a generic handler (`document`
    only lends its reporter to the look-up)."""
    names = {("role", m.group(1).lower()) for m in _ROLE.finditer(text)}
    names |= {("directive", m.group(1).lower()) for m in _DIRECTIVE.finditer(text)}
    names = {n for n in names if n not in _handled}  # membership only: other threads may be adding
    if not names:
        return
    with _lock:
        for kind, name in sorted(names - _handled):
            if kind == "role" and roles.role(name, en, 0, document.reporter)[0] is None:
                roles.register_local_role(name, title_role)
            elif kind == "directive" and directives.directive(name, en, document)[0] is None:
                directives.register_directive(name, GenericDirective)
            _handled.add((kind, name))


def title_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """`:manual:`CMake GUI <cmake-gui(1)>`` shows "CMake GUI"; `~a.b.c` shows "c"; `!name` shows "name"."""
    m = _EXPLICIT_TITLE.match(text)
    title = m.group(1) if m else text
    if title.startswith("!"):
        title = title[1:]
    elif title.startswith("~"):
        title = title[1:].rsplit(".", 1)[-1]
    return [nodes.inline(rawtext, utils.unescape(title))], []


class _AnyOptions(dict):
    """Accept every option (`:language:`, `:caption:`, `:linenos:` …): what they do is presentation."""

    def __missing__(self, key):
        return directives.unchanged

    def __bool__(self) -> bool:  # docutils reads options only when the spec is truthy
        return True


class GenericDirective(Directive):
    """A Sphinx (or extension) directive as a reader sees its text; see the sets above for the special cases."""

    optional_arguments = 1
    final_argument_whitespace = True
    option_spec = _AnyOptions()
    has_content = True

    def run(self) -> list[nodes.Node]:
        name = self.name.lower()
        base = name.rsplit(":", 1)[-1]  # "py:function" reads like "function", "cmake:variable" like "variable"
        argument = self.arguments[0] if self.arguments else ""
        if name in SILENT or base in SILENT or base.startswith("auto"):
            return []
        if base in LITERAL:
            code = "\n".join(self.content)
            return [nodes.literal_block(code, code)] if code.strip() else []
        if base == "productionlist":  # grammar rules, shown as Sphinx lays them out: "name ::= rule"
            # Sphinx reads the rules as the argument (they follow "::" with no blank line) or as content
            rules = [line.replace("`", "") for line in [*argument.split("\n"), *self.content] if line.strip()]
            rules = [_RULE.sub(lambda m: f"{m.group(1)} ::=" if m.group(1) else "   ", line) for line in rules]
            return [nodes.literal_block("", "\n".join(rules))] if rules else []
        if base in VERSION:
            version, note = (argument.split(None, 1) + [""])[:2]
            node = version_note(label=VERSION[base].format(version))
            if note:
                node += self._paragraph(note)
            self.state.nested_parse(self.content, self.content_offset, node)
            return [node]
        if base in LABELS:
            node = described(term=LABELS[base])
            if argument:
                node += self._paragraph(argument)
        elif base in CONTAINERS or not argument:
            node = nodes.container()
        elif not self.content:
            # No content: the argument is a name or a parameter for code we do not run ("program:: cmake"),
            # unless it ran onto the lines below, where it is the directive's text (no blank line after "::").
            return [self._paragraph(argument)] if self._argument_spilled(argument) else []
        else:
            node = described(term=self._term(argument))
        self.state.nested_parse(self.content, self.content_offset, node)
        return [node]

    def _paragraph(self, text: str) -> nodes.paragraph:
        return nodes.paragraph(text, "", *self.state.inline_text(text, self.lineno)[0])

    def _term(self, argument: str) -> str:
        if "`" not in argument:  # a signature ("--preset <preset>", "foo(*args)") is shown as written
            return argument
        return "".join(n.astext() for n in self.state.inline_text(argument, self.lineno)[0])

    def _argument_spilled(self, argument: str) -> bool:
        first = self.block_text.split("\n", 1)[0].partition("::")[2]
        return first.split() != argument.split()
