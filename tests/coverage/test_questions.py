"""QUESTION.md parsing on every accepted format and on messy real-world files."""

from __future__ import annotations

import pytest

from synthesis.errors import QuestionFileError
from synthesis.questions import EXAMPLES, extract_metadata, load_questions, parse_questions


def texts(markdown: str) -> list[str]:
    return [q.text for q in parse_questions(markdown).questions]


def test_numbered_with_wrapped_lines_and_an_intro():
    md = ("# Rollbacks: what does the handbook say?\n\nPriya joins next month. She wants answers.\n\n"
          "1. How quickly must a rollback start after a failed\n   health check?\n"
          "2) Who approves a production hotfix?\n")
    parsed = parse_questions(md)
    assert [q.text for q in parsed.questions] == [
        "How quickly must a rollback start after a failed health check?", "Who approves a production hotfix?"]
    assert parsed.title == "Rollbacks: what does the handbook say?"
    assert [q.id for q in parsed.questions] == ["Q1", "Q2"]
    assert parsed.questions[1].metadata["number"] == 2 and parsed.questions[0].metadata["format"] == "numbered"


def test_headed_inline_and_headed_with_the_question_below():
    md = ("## Key Questions for Synthesis\n\n## Question: Are deploys allowed on Fridays?\n\n"
          "### Question 2\nHow does the DR failover\ntest work? #dr [P1]\n\nSome notes that are not a question.\n"
          "## Question 3: Who is on call during the freeze? (priority: high) [tags: oncall, freeze]\n")
    qs = parse_questions(md).questions
    assert [q.text for q in qs] == ["Are deploys allowed on Fridays?", "How does the DR failover test work?",
                                    "Who is on call during the freeze?"]
    assert qs[1].metadata["tags"] == ["dr"] and qs[1].metadata["priority"] == "P1"
    assert qs[2].metadata["tags"] == ["oncall", "freeze"] and qs[2].metadata["priority"] == "high"
    assert qs[1].metadata["number"] == 2 and qs[2].metadata["format"] == "headed"


def test_bullets_nested_lists_keep_their_parent():
    md = ("Questions:\n\n- What does the on-call secondary do?\n  - And who pages them?\n"
          "  * Is there a runbook for it?\n- Background: the team is small\n+ Where are postmortems kept?\n")
    qs = parse_questions(md).questions
    assert [q.text for q in qs] == ["What does the on-call secondary do?", "And who pages them?",
                                    "Is there a runbook for it?", "Where are postmortems kept?"]
    assert qs[1].metadata["parent"] == "Q1" and qs[2].metadata["parent"] == "Q1"
    assert "parent" not in qs[3].metadata


def test_messy_file_mixed_formats_code_blocks_comments_and_front_matter():
    md = """---
inquiry_id: INQ-042
title: On-call onboarding
---
# Key Questions for Synthesis

Intro prose with a #hashtag that is not a question.
<!-- 1. How do we hide this question? -->

```bash
1. How would this numbered line in a code block parse?
- What about this bullet?
```

~~~
## Question: fenced heading?
~~~

1. **How** do we roll back a [deploy](deploys/rollback.md)? [tags: deploys]
2. Deploy notes (no question here)

### Question 7

- [ ] Who approves a hotfix?

## Glossary
- SLO: service level objective
- Describe the escalation path #oncall
"""
    parsed = parse_questions(md)
    assert parsed.inquiry_id == "INQ-042" and parsed.title == "On-call onboarding"
    assert [q.text for q in parsed.questions] == ["How do we roll back a deploy?", "Who approves a hotfix?",
                                                  "Describe the escalation path"]
    assert parsed.questions[0].metadata["tags"] == ["deploys"]
    assert parsed.questions[1].metadata["number"] == 7
    assert parsed.questions[2].metadata["tags"] == ["oncall"]


def test_metadata_is_stripped_and_returned():
    text, meta = extract_metadata("Who approves a hotfix?  [tags: Deploys, hotfix ] #oncall (priority: HIGH)")
    assert text == "Who approves a hotfix?"
    assert meta == {"tags": ["Deploys", "hotfix", "oncall"], "priority": "high"}
    assert extract_metadata("Is C# allowed? #1 rule")[1] == {}


def test_the_demo_question_file(tmp_path):
    from tests.conftest import EXAMPLES as EX

    parsed = load_questions(EX / "QUESTION.md")
    assert len(parsed.questions) == 5
    assert all(q.text.endswith("?") for q in parsed.questions)
    assert parsed.questions[0].text.startswith("How quickly must a production rollback start")


@pytest.mark.parametrize("content", ["# Key Questions for Synthesis\n\nJust prose.\n", "", "```\n1. How?\n```\n",
                                     "- apples\n- pears\n"])
def test_no_questions_is_an_error_with_examples_of_every_format(tmp_path, content):
    path = tmp_path / "QUESTION.md"
    path.write_text(content)
    with pytest.raises(QuestionFileError) as err:
        load_questions(path)
    message = str(err.value)
    assert "no questions found" in message and EXAMPLES in message
    for form in ("1. ", "## Question:", "### Question 4", "- What", "[tags:", "(priority: high)", "[P1]", "#dr"):
        assert form in message


def test_unreadable_binary_and_bad_front_matter(tmp_path):
    with pytest.raises(QuestionFileError, match="cannot read"):
        load_questions(tmp_path / "missing.md")
    (tmp_path / "bin.md").write_bytes(b"\x00\x01PNG")
    with pytest.raises(QuestionFileError, match="binary"):
        load_questions(tmp_path / "bin.md")
    (tmp_path / "fm.md").write_text("---\n- a list\n---\n1. How?\n")
    with pytest.raises(QuestionFileError, match="front matter"):
        load_questions(tmp_path / "fm.md")
    (tmp_path / "dir").mkdir()
    (tmp_path / "dir" / "QUESTION.md").write_text("1. Why is the sky blue?\n")
    assert texts((tmp_path / "dir" / "QUESTION.md").read_text()) == ["Why is the sky blue?"]
    assert load_questions(tmp_path / "dir").questions[0].text == "Why is the sky blue?"
