"""Template syntax in source Markdown (Liquid, Jinja, Nunjucks, Eleventy shortcodes) and HTML comments, rendered
to what a reader of the built page would see, as far as that can be known without the site's data.

- `{% comment %}…{% endcomment %}`, `{# … #}` and `<!-- … -->` are dropped with their content.
- `{% raw %}…{% endraw %}` keeps its content as written (it exists to show template syntax literally).
- Link shortcodes become their URL, so `[text]({% page "/x/" %})` is an ordinary link to `/x/`.
- A few text shortcodes become their text (`{% slack_channel "ops" %}` → `#ops`, an image → its alt text).
- A variable the page itself sets to a string (`{% set owner = "Team Falcon" %}`, Liquid's `{% assign … %}`) is
  output as that string (`{{ owner }}` → `Team Falcon`): dropping it left "owned by  and …".
- `{{ "/x/" | url }}` becomes `/x/`; any other expression or tag is dropped (its value lives in site data we lack).
"""

from __future__ import annotations

import re
from collections.abc import Callable

_BLOCK_COMMENT = re.compile(r"\{%-?\s*comment\b[^%]{0,200}%\}.*?(?:\{%-?\s*endcomment\s*-?%\}|\Z)", re.S)
_RAW = re.compile(r"\{%-?\s*raw\s*-?%\}(.*?)(?:\{%-?\s*endraw\s*-?%\}|\Z)", re.S)
MAX_TAG = 2000  # a "tag" longer than this is a stray delimiter, not a tag
_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.S)
_TAG_BODY = re.compile(r"-?\s*(?P<name>[\w.-]*)(?P<args>.*?)-?\s*\Z", re.S)
_STRING = re.compile(r"\"([^\"]*)\"|'([^']*)'")
_STASH = re.compile("\x00(\\d+)\x00")

# Shortcodes whose output is a URL (Eleventy, Jekyll, Hugo-style names) and ones whose output is readable text.
_LINK_TAGS = {"page", "link", "post_url", "url", "download", "asset", "asset_path", "relative_url", "absolute_url",
              "ref", "relref"}
_TEXT_TAGS = {"slack_channel": lambda args: f"#{args[0].lstrip('#')}" if args else "",  # ("#g-research" too)
              "alert": lambda args: f"{args[0]}:" if args else ""}


def _strings(args: str) -> list[str]:
    return [m.group(1) if m.group(1) is not None else m.group(2) for m in _STRING.finditer(args)]


def _tag(body: str) -> str:
    m = _TAG_BODY.match(body)
    name, args = m.group("name").lower(), _strings(m.group("args"))
    if name in _LINK_TAGS:
        return args[0] if args else ""
    if name in _TEXT_TAGS:
        return _TEXT_TAGS[name](args)
    if name.startswith("image"):
        return args[-1] if len(args) >= 2 else ""  # the last string is the alt text
    return ""


# A string assigned to a variable, and an output of a plain variable: read together, in the page's order.
_SET_OR_OUTPUT = re.compile(r"\{%-?\s*(?:set|assign)\s+(?P<name>[A-Za-z_]\w*)\s*=\s*(?P<value>\"[^\"\n]*\"|'[^'\n]*')"
                            r"\s*-?%\}|\{\{-?\s*(?P<used>[A-Za-z_]\w*)\s*(?:\|[^{}\n]*)?-?\}\}")


def _variables(text: str) -> str:
    """Each output of a variable the page has set to a string so far → that string (`{% set owner = "Team Falcon"
    %}` … `{{ owner }}` → `Team Falcon`); the assignments go. A variable set later, or not to a string, is left to
    the output rule (dropped)."""
    values: dict[str, str] = {}

    def render(m: re.Match[str]) -> str:
        if m.group("name"):
            values[m.group("name")] = m.group("value")[1:-1]
            return ""
        return values.get(m.group("used"), m.group(0))

    return _SET_OR_OUTPUT.sub(render, text)


def _output(body: str) -> str:
    """`{{ "/x/" | url }}` → `/x/`; a variable (`{{ site.baseurl }}`) has no value we know."""
    head = body.strip().strip("-").split("|", 1)[0].strip()
    string = _STRING.fullmatch(head)
    return (string.group(1) if string.group(1) is not None else string.group(2)) if string else ""


def _delimited(text: str, opener: str, closer: str, render: Callable[[str], str]) -> str:
    """Each `opener … closer` (at most MAX_TAG long, no opener inside) replaced by `render(inside)`; stray
    delimiters stay. Linear: every search is bounded by the next opener or by MAX_TAG."""
    out: list[str] = []
    pos, close = 0, -1
    start = text.find(opener)
    while start >= 0:
        inner = start + len(opener)
        if close < inner:
            close = text.find(closer, inner)
            if close < 0:
                break
        nxt = text.find(opener, inner, min(close, inner + MAX_TAG))
        if nxt >= 0:  # another opener first: this one is stray
            start = nxt
            continue
        if close - inner > MAX_TAG:
            start = text.find(opener, inner)
            continue
        out.append(text[pos:start])
        out.append(render(text[inner:close]))
        pos = close + len(closer)
        start = text.find(opener, pos)
    out.append(text[pos:])
    return "".join(out)


def render_templates(text: str) -> str:
    """Template tags, template comments and HTML comments rendered or removed (see the module docstring)."""
    if "{" not in text and "<!--" not in text:
        return text
    kept: list[str] = []

    def stash(m: re.Match[str]) -> str:
        kept.append(m.group(1))
        return f"\x00{len(kept) - 1}\x00"

    text = text.replace("\x00", "")
    text = _RAW.sub(stash, text)
    text = _BLOCK_COMMENT.sub("", text)
    text = _delimited(text, "{#", "#}", lambda _: "")
    text = _HTML_COMMENT.sub("", text)
    text = _variables(text)
    text = _delimited(text, "{%", "%}", _tag)
    text = _delimited(text, "{{", "}}", _output)
    return _STASH.sub(lambda m: kept[int(m.group(1))], text)
