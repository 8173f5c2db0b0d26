"""Template syntax in source Markdown (Liquid, Jinja, Nunjucks, Eleventy shortcodes) and HTML comments, rendered
to what a reader of the built page would see, as far as that can be known without the site's data.

- `{% comment %}…{% endcomment %}`, `{# … #}` and `<!-- … -->` are dropped with their content.
- `{% raw %}…{% endraw %}` keeps its content as written (it exists to show template syntax literally).
- Link shortcodes become their URL, so `[text]({% page "/x/" %})` is an ordinary link to `/x/`.
- A few text shortcodes become their text (`{% slack_channel "ops" %}` → `#ops`, an image → its alt text).
- `{{ "/x/" | url }}` becomes `/x/`; any other expression or tag is dropped (its value lives in site data we lack).
"""

from __future__ import annotations

import re

_BLOCK_COMMENT = re.compile(r"\{%-?\s*comment\b.*?-?%\}.*?(?:\{%-?\s*endcomment\s*-?%\}|\Z)", re.S)
_RAW = re.compile(r"\{%-?\s*raw\s*-?%\}(.*?)(?:\{%-?\s*endraw\s*-?%\}|\Z)", re.S)
_JINJA_COMMENT = re.compile(r"\{#.*?#\}", re.S)
_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.S)
_TAG = re.compile(r"\{%-?\s*(?P<name>[\w.-]*)(?P<args>.*?)-?%\}", re.S)
_OUTPUT = re.compile(r"\{\{-?(?P<expr>.*?)-?\}\}", re.S)
_STRING = re.compile(r"\"([^\"]*)\"|'([^']*)'")
_STASH = re.compile("\x00(\\d+)\x00")

# Shortcodes whose output is a URL (Eleventy, Jekyll, Hugo-style names) and ones whose output is readable text.
_LINK_TAGS = {"page", "link", "post_url", "url", "download", "asset", "asset_path", "relative_url", "absolute_url",
              "ref", "relref"}
_TEXT_TAGS = {"slack_channel": lambda args: f"#{args[0]}" if args else "",
              "alert": lambda args: f"{args[0]}:" if args else ""}


def _strings(args: str) -> list[str]:
    return [a if a is not None else b for a, b in _STRING.findall(args)]


def _tag(m: re.Match[str]) -> str:
    name, args = m.group("name").lower(), _strings(m.group("args"))
    if name in _LINK_TAGS:
        return args[0] if args else ""
    if name in _TEXT_TAGS:
        return _TEXT_TAGS[name](args)
    if name.startswith("image"):
        return args[-1] if len(args) >= 2 else ""  # the last string is the alt text
    return ""


def _output(m: re.Match[str]) -> str:
    """`{{ "/x/" | url }}` → `/x/`; a variable (`{{ site.baseurl }}`) has no value we know."""
    expr = m.group("expr").strip()
    head = expr.split("|", 1)[0].strip()
    strings = _STRING.fullmatch(head)
    return (strings.group(1) if strings.group(1) is not None else strings.group(2)) if strings else ""


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
    text = _JINJA_COMMENT.sub("", text)
    text = _HTML_COMMENT.sub("", text)
    text = _TAG.sub(_tag, text)
    text = _OUTPUT.sub(_output, text)
    return _STASH.sub(lambda m: kept[int(m.group(1))], text)
