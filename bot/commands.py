"""`/ask` command text → an AskRequest, or a UsageError carrying the usage text."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pydantic import BaseModel, Field

from synthesis.models import AskOptions, SearchFilters

K_MIN, K_MAX = 1, 50

USAGE = (
    "*Usage:* `/ask QUESTION [options]`\n"
    "• `/ask how do we roll back a deploy?`\n"
    "• `--sources-only` list the matching sources, no answer\n"
    "• `--detailed` a longer answer with more findings\n"
    f"• `--k N` how many passages each search returns ({K_MIN}–{K_MAX})\n"
    "• `--source URL` only use the document at URL\n"
    "• `--tag T` only use documents tagged T (repeat for more tags)\n"
    "• `--debug` show the plan, sub-queries and timings\n"
    "• `--coverage [topic]` how well the knowledge base covers a topic (or everything): a coverage %, the facets, "
    "the gaps and a chart\n"
    "• `/ask help` this message. Put `--` before a question that itself contains `--`.\n"
    "In a thread I already answered, just reply: no need to tag me."
)


class AskRequest(BaseModel):
    """A parsed `/ask`: the question and the per-question options."""

    question: str = ""
    options: AskOptions = Field(default_factory=AskOptions)
    coverage: bool = False
    coverage_topic: str | None = None
    help: bool = False


@dataclass(frozen=True)
class UsageError:
    """Why the command text could not be used; `text` is what to show the user (ephemeral)."""

    message: str
    usage: str = field(default=USAGE, repr=False)

    @property
    def text(self) -> str:
        return f"{self.message}\n\n{self.usage}"


# Slack (and macOS autocorrect) turn typed quotes and `--` into typographic ones.
_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "«": '"', "»": '"', "‘": "'", "’": "'", "‚": "'"})
_DASHED_OPTION = re.compile(r"^(?:--|—|–|-—|-–|——|––)(?=[A-Za-z])")
# A Slack `<url|label with spaces>` stays one token; so does a quoted "a b" or 'a b'.
_TOKEN = re.compile(r"""(?P<dq>"[^"]*")(?=\s|$)|(?P<sq>'[^']*')(?=\s|$)|(?P<word>(?:[^\s<]|<[^<>]*>)+)|<""")
# Slack control sequences in command text: <https://x|label>, <mailto:..>, <@U1|name>, <#C1|name>, <!here>.
_SLACK_LINK = re.compile(r"<([^<>|\s]+)(?:\|([^<>]*))?>")
_FLAGS = {"--sources-only": "sources_only", "--detailed": "detailed", "--debug": "debug"}
_VALUED = {"--k", "--source", "--tag"}
_HELP = {"help", "--help", "-h", "-help", "?"}


@dataclass
class _Token:
    raw: str
    value: str


def _tokens(text: str) -> list[_Token]:
    """Whitespace tokens; a quoted token ("a b" or 'a b') is one token, apostrophes inside words are kept."""
    out = []
    for m in _TOKEN.finditer(text):
        raw = m.group(0)
        value = raw[1:-1] if (m.group("dq") or m.group("sq")) else raw
        out.append(_Token(raw, value))
    return out


def unwrap_slack_text(text: str) -> str:
    """Slack's `<url|label>`/`<@U|name>`/`<!here>` and `&amp;` entities → what the user typed."""

    def repl(m: re.Match) -> str:
        target, label = m.group(1), m.group(2)
        if target.startswith("@"):
            return f"@{label}" if label else target
        if target.startswith("#"):
            return f"#{label}" if label else target
        if target.startswith("!"):
            name = target[1:].split("^")[0]
            return f"@{label.lstrip('@')}" if label else f"@{name}"
        if target.startswith("mailto:"):
            return label or target[len("mailto:"):]
        return target  # a URL: the address matters, not Slack's display label
    text = _SLACK_LINK.sub(repl, text)
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def _unwrap_url(value: str) -> str:
    m = _SLACK_LINK.search(value.strip())
    url = m.group(1) if m else value.strip()
    return url.replace("&amp;", "&")


def parse_ask(text: str) -> AskRequest | UsageError:
    """Parse the text after `/ask`.

    Example:
        >>> parse_ask("how do deploys work? --k 5 --tag ops").options.filters.tags
        ['ops']
    """
    text = (text or "").translate(_QUOTES).replace("\u00a0", " ").strip()
    tokens = _tokens(text)
    if not tokens or (len(tokens) == 1 and tokens[0].value.lower() in _HELP):
        return AskRequest(help=True)

    words: list[str] = []
    flags: dict[str, bool] = {}
    k: int | None = None
    source: str | None = None
    tags: list[str] = []
    coverage = False
    i, literal = 0, False
    while i < len(tokens):
        tok = tokens[i]
        i += 1
        opt = _DASHED_OPTION.sub("--", tok.value) if not literal else tok.value
        if literal or not opt.startswith("--"):
            words.append(tok.raw)
            continue
        if opt == "--":
            literal = True
            continue
        name, eq, inline = opt.partition("=")
        name = name.lower()
        if name in ("--help", "--h"):
            return AskRequest(help=True)
        if name in _FLAGS:
            if eq:
                return UsageError(f"`{name}` takes no value.")
            flags[_FLAGS[name]] = True
        elif name == "--coverage":
            coverage = True  # the topic is the rest of the (non-option) text
        elif name in _VALUED:
            if eq:
                value = inline
            elif i < len(tokens) and not _DASHED_OPTION.sub("--", tokens[i].value).startswith("--"):
                value = tokens[i].value
                i += 1
            else:
                return UsageError(f"`{name}` needs a value.")
            value = value.strip()
            if not value:
                return UsageError(f"`{name}` needs a value.")
            if name == "--k":
                try:
                    k = int(value)
                except ValueError:
                    return UsageError(f"`--k` must be a whole number from {K_MIN} to {K_MAX}, not `{value}`.")
                if not K_MIN <= k <= K_MAX:
                    return UsageError(f"`--k` must be from {K_MIN} to {K_MAX}, not {k}.")
            elif name == "--source":
                if source is not None:
                    return UsageError("Give `--source` once (one document per question).")
                source = _unwrap_url(value)
            else:
                tags.extend(t.strip() for t in unwrap_slack_text(value).split(",") if t.strip())
        else:
            return UsageError(f"Unknown option `{tok.value}`.")

    question = unwrap_slack_text(" ".join(words)).strip()
    options = AskOptions(k=k, filters=SearchFilters(source_url=source, tags=list(dict.fromkeys(tags))), **flags)
    if coverage:
        return AskRequest(question=question, options=options, coverage=True, coverage_topic=question or None)
    if not question:
        return UsageError("Ask a question as well as options, e.g. `/ask how do we deploy? --k 5`.")
    return AskRequest(question=question, options=options)
