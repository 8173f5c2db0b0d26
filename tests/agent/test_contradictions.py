"""The contradiction detector: numbers for the same quantity, opposite polarity, and what must not fire."""

from __future__ import annotations

import numpy as np
import pytest

from synthesis.quantities import quantities
from synthesis.synthesize.contradictions import Claim, compare, describe, find_contradictions


@pytest.mark.parametrize("hedge", ["In general, ", "Typically, ", "Then, "])
def test_a_hedge_or_a_sequence_word_excuses_no_different_number(hedge):
    c = compare("A production rollback must start within 15 minutes of a failed health check.",
                f"{hedge}a production rollback must start within 30 minutes of a failed health check.")
    assert c is not None and c.kind == "number"


def test_different_numbers_for_the_same_quantity():
    c = compare("A production rollback must start within 15 minutes of a failed health check.",
                "A production rollback must start within 30 minutes of a failed health check.")
    assert c is not None and c.kind == "number"
    assert (c.a_value, c.b_value) == ("15 minutes", "30 minutes")
    assert "rollback" in c.subject


@pytest.mark.parametrize("a, b", [
    ("Production deploys are allowed on Fridays until 15:00.", "Production deploys are not allowed on Fridays."),
    # the demo handbook's own words: a clock time's zone sets no other case than the bare time does
    ("Production deploys are allowed on Fridays until 15:00 Lisbon time.",
     "One rule that surprises people: production deploys are not allowed on Fridays."),
    ("Production deploys are allowed on Fridays until 3 pm ET.", "Production deploys are not allowed on Fridays."),
    ("Production deploys are allowed on Fridays until 3 p.m. Eastern Time.",
     "Production deploys are not allowed on Fridays."),
    ("Production deploys are allowed on Fridays until 15:00 CET.", "Production deploys are not allowed on Fridays."),
    # a word that starts with a digit is no clock time, and sets no case either way (as before the zone rule)
    ("Production deploys are allowed on Fridays if you use 1Password.",
     "Production deploys are not allowed on Fridays."),
    # a sequence word or a system's name does not set another case
    ("Then, production deploys are allowed on Fridays.", "Production deploys are not allowed on Fridays."),
    ("A hotfix is approved by the on-call lead in Slack.", "A hotfix is not approved by the on-call lead."),
    ("A production hotfix is approved by the on-call lead.", "The on-call lead can advise, but cannot approve a hotfix."),
    ("Retries increase the load on the payments queue.", "Retries decrease the load on the payments queue."),
    ("Deploys are allowed during a change freeze week.", "Deploys are forbidden during a change freeze week."),
    ("Contractors may share the deploy keys with the team.", "Contractors must not share the deploy keys"),
    # an outdated rule: what "no longer" denies is the word after it
    ("A security review is required for changes to the billing service.",
     "A security review is no longer required for changes to the billing service."),
])
def test_opposite_polarity(a, b):
    """Also when one side is a list item without a full stop: it still states a rule through its verb."""
    c = compare(a, b)
    assert c is not None and c.kind == "polarity"


@pytest.mark.parametrize("a, b", [
    ("A shift lasts seven days.", "A shift lasts 1 week."),  # same duration, other unit
    ("Sev1 incidents need an update every 30 minutes.", "Sev2 incidents need an update every 60 minutes."),
    ("The secondary is paged if the primary does not acknowledge.", "The primary is paged first, then the secondary."),
    ("Deploys are not allowed on Fridays.", "Deploys are forbidden on Fridays."),  # both negative
    ("The canary bakes for 10 minutes.", "Postmortems are due within 5 days."),  # unrelated
    ("76-85% of patients receive no treatment.", "76.3% to 85.4% of patients received no treatment."),  # rounding
    # 18F handbook: a rule narrowed by a condition the other claim does not share is about another case
    ("Overtime and comp time: Yes.",
     "If you make the maximum salary ($191,900 in 2024), you cannot receive overtime or comp time."),
    ("Rollbacks start within 15 minutes of a failed deploy.",
     "Unless the deploy touched the database, rollbacks start within 30 minutes of a failed deploy."),
    # a time bound sets no other case, but what else the condition names still does
    ("Production deploys are not allowed on Fridays.",
     "Production deploys are allowed on Fridays until 15:00 when the release manager signs off."),
    ("Production deploys are not allowed on Fridays.",
     "Production deploys are allowed on Fridays until 15:00 first thing."),  # "first" is no time zone
    # 18F handbook: a table-of-contents entry states nothing, so it disagrees with nothing ("Sources disagree" led an
    # answer about first-class seats on Amtrak)
    ("Any airfare or Amtrak tickets booked outside of Concur are at your own risk and may not be approved.",
     "Flights or Amtrak booked outside of Concur"),
    # Node.js contributor docs: a claim about a case its own passage defined ("In such cases …") is about that case;
    # "Sources disagree" led an answer on whether to send deps/ fixes to nodejs/node
    ("Do not send a patch to Node.js.", "In such cases we float the patch on the Node.js side."),
    ("Otherwise, the release is not blocked.", "A failing Tier 1 tool blocks the release."),
    # CMake's manual: a denial conflicts only with a claim that asserts what it denies; "Sources disagree" led an
    # answer over a sentence that denies one thing (two presets of one name) and one that names the same files
    ("There must not be two test presets in the union of CMakePresets.json and CMakeUserPresets.json in the same "
     "directory with the same name.",
     "--preset <preset>: Reads a preset from <path-to-source>/CMakePresets.json and "
     "<path-to-source>/CMakeUserPresets.json."),
    # Node.js contributor docs: a hedged rule allows the case the other claim describes
    ("In most cases, do not squash commits that you add to your pull request during the review process.",
     "The Squash and merge method will add metadata (the pull request #) to the commit title."),
])
def test_no_conflict(a, b):
    assert compare(a, b) is None


def test_quantities_normalise_units_and_number_words():
    found = {(family, value) for family, value, _, _ in quantities("after 2 hours, seven days, 25% and 15-minute")}
    assert found == {("time", 120.0), ("time", 10080.0), ("percent", 25.0), ("time", 15.0)}
    # a number word glued to "s", or inside a word, is no quantity (Valgrind: "stopped reporting new ones" had read
    # as one second); a digit may touch its unit
    assert quantities("Valgrind stopped reporting new ones. The bones of it.") == []
    assert {(f, v) for f, v, _, _ in quantities("a 30s timeout, one approval")} == {("time", 0.5), ("approvals", 1.0)}


def test_find_contradictions_only_across_documents_and_cites_both():
    v = np.array([1.0, 0.0], dtype=np.float32)
    claims = [
        Claim("A rollback must start within 15 minutes of a failed check.", 1, "policy", v),
        Claim("A rollback must start within 30 minutes of a failed check.", 2, "wiki", v),
        Claim("A rollback must start within 45 minutes of a failed check.", 3, "policy", v),
    ]
    found = find_contradictions(claims)
    pairs = {tuple(sorted((c.a.source, c.b.source))) for c in found}
    assert pairs == {(1, 2), (2, 3)}  # 1 and 3 are the same document
    text = describe(found[0])
    assert "[1]" in text or "[3]" in text
    assert "[2]" in text and "minutes" in text


def test_embedding_gate_skips_unrelated_claims():
    claims = [Claim("A rollback must start within 15 minutes of a failed check.", 1, "a", np.array([1.0, 0.0])),
              Claim("A rollback must start within 30 minutes of a failed check.", 2, "b", np.array([0.0, 1.0]))]
    assert find_contradictions(claims) == []


def test_a_filler_condition_does_not_hide_a_conflict():
    c = compare("When in doubt, a failed deploy must be rolled back within 15 minutes.",
                "A failed deploy must be rolled back within 30 minutes.")
    assert c is not None and c.kind == "number"


def test_claims_whose_subject_is_a_pronoun_are_not_compared():
    """Cargo book: "… they have the ability to add or remove owners" (a named owner) and "… they do not have the
    ability to add or remove owners" (a team) led an answer with "Sources disagree"; whom "they" means is in the
    sentence before each. An "it" that stands for what follows still compares."""
    named = ("In addition to being able to publish or yank versions of the crate, they have the ability to add or "
             "remove owners.")
    team = "While they have permission to publish or yank versions of the crate, they do not have the ability to add " \
           "or remove owners."
    assert find_contradictions([Claim(named, 1, "publishing.html"), Claim(team, 2, "print.html")]) == []
    found = find_contradictions([Claim("It is allowed to deploy production on Fridays.", 1, "a.md"),
                                 Claim("It is not allowed to deploy production on Fridays.", 2, "b.md")])
    assert len(found) == 1 and found[0].conflict.kind == "polarity"
    # a pronoun whose antecedent opens its own sentence, or a possessive, still names the subject
    found = find_contradictions([Claim("When contractors submit an invoice, they must be paid within 30 days.", 1,
                                       "a.md"),
                                 Claim("When contractors submit an invoice, they must be paid within 60 days.", 2,
                                       "b.md")])
    assert len(found) == 1 and found[0].conflict.kind == "number"
    found = find_contradictions([Claim("Their manager must approve leave requests within 2 days.", 1, "a.md"),
                                 Claim("Their manager must approve leave requests within 5 days.", 2, "b.md")])
    assert len(found) == 1


def test_two_copies_of_one_page_do_not_disagree():
    """The Cargo book ships every page twice (its print view holds them all): a claim and its neighbour read from
    different copies came out as two sources that disagree. One page that states both is no dispute."""
    page = ("Production deploys are allowed on Fridays until 15:00. Hotfixes are not allowed on Fridays after 15:00.")
    a = Claim("Production deploys are allowed on Fridays until 15:00.", 1, "deploys.html", passage=page)
    b = Claim("Production deploys are not allowed on Fridays.", 2, "print.html",
              passage=page + " Production deploys are not allowed on Fridays.")
    assert find_contradictions([a, b]) == []
    b.passage = "Production deploys are not allowed on Fridays."
    assert len(find_contradictions([a, b])) == 1
