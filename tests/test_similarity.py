"""The answer comparison: what is recommended, not how it is worded."""

from __future__ import annotations

import pytest

from multidebate.similarity import compare, key_terms, recommendation, slug_words

DISAGREE = [
    ("**Use TOML, not YAML.**\n\nComments matter.", "**Use YAML, not TOML.**\n\nAnchors matter."),
    ("Use a monorepo.", "Do not use a monorepo."),
    ("**Use SQLite.** It is one file.", "**Use PostgreSQL.** It scales."),
    ("Keep the monolith; split later.", "Split into microservices now."),
    ("**Make 14 attempts over 70 hours with a fixed table.**", "**Use 12 attempts over 68 h with exponential backoff.**"),
    ("**Avoid ORMs; write SQL by hand.**", "**Use an ORM (SQLAlchemy) for everything.**"),
]
AGREE = [
    ("**Use PostgreSQL.** Long text about why.", "**PostgreSQL is the right choice** for this workload, because."),
    ("**Use TOML for the config file.**\n\nBecause comments.", "**TOML** with a JSON schema for validation."),
    ("Avoid YAML; use TOML.", "Use TOML and avoid YAML."),
    ("**Use SQLite (WAL mode) on the single server, as all three of us agree; switch to PostgreSQL only if a "
     "trigger applies.**",
     "**Use SQLite (WAL mode, local disk, off-box backups) — I agree with claude-a and claude-c; switch to "
     "PostgreSQL only on a concrete trigger.**"),
    ("### Recommendation\n\n**Recommendation:** use Go for the CLI.", "Go.\n\nIt compiles to one binary."),
]


@pytest.mark.parametrize(("left", "right"), DISAGREE)
def test_opposite_or_different_recommendations_disagree(left: str, right: str) -> None:
    assert not compare(left, right).agree
    assert not compare(right, left).agree


@pytest.mark.parametrize(("left", "right"), AGREE)
def test_same_recommendation_in_other_words_agrees(left: str, right: str) -> None:
    ignore = slug_words(["claude-a", "claude-b", "claude-c"])
    assert compare(left, right, ignore).agree, compare(left, right, ignore)


def test_conflict_is_explained() -> None:
    result = compare("Use TOML, not YAML.", "Use YAML, not TOML.")
    assert result.basis == "conflict" and result.conflict == ("toml", "yaml")
    assert "opposite stances on toml, yaml" in result.explain()


def test_recommendation_is_the_bold_opening_or_first_sentence() -> None:
    assert recommendation("**Use X.** Then more.") == "Use X."
    assert recommendation("```\ncode\n```\nUse Y. Because.") == "Use Y."
    assert recommendation("## Heading\n\n- Use Z for now.\n- more") == "Use Z for now."
    assert recommendation("") == ""


def test_negation_scope_ends_at_clause_and_but() -> None:
    assert key_terms("not YAML but TOML") == {"not:yaml": 1, "toml": 1}
    assert key_terms("12 attempts over 70 hours") == {"12": 1, "attempt": 1, "70": 1, "hour": 1}


def test_identical_answers_score_one() -> None:
    assert compare("x", "x").score == 1.0
