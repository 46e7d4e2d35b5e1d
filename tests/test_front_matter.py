"""Frontmatter: read by our own bounded split (findings with lines), written by python-frontmatter."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Cli
from helpers import turn_body

from multidebate.protocol.front_matter import render_frontmatter, split_frontmatter
from multidebate.state.debate import load_debate
from multidebate.state.task import load_task, render_task

BODY = "# Turn 1 \u2014 a\n\n## Answer\nx\n"


@pytest.mark.parametrize(("block", "error", "line"), [
    ("x: [1\n", "frontmatter is not valid YAML: did not find expected ',' or ']'", 3),
    ("a: 1\nb: : 2\n", "frontmatter is not valid YAML: mapping values are not allowed in this context", 3),
    ("- a\n- b\n", "frontmatter must be a YAML mapping (key: value lines)", 2),
    ("# only a comment\n", "frontmatter must be a YAML mapping (key: value lines)", 2),
    ("x: !!python/object/apply:os.system ['echo pwned']\n",
     "frontmatter is not valid YAML: could not determine a constructor for the tag "
     "'tag:yaml.org,2002:python/object/apply:os.system'", 2),
    ("a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
     "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n",
     "frontmatter expands to over 10,000 values (YAML aliases?)", 2),
    ("k: v\n" * 20_000, "frontmatter is over 64 KiB", 1),
])
def test_a_broken_block_is_a_finding_with_its_line_and_the_body_is_kept(block: str, error: str, line: int) -> None:
    split = split_frontmatter("---\n" + block + "---\n" + BODY)
    assert (split.metadata, split.error, split.error_line, split.present) == ({}, error, line, True)
    assert split.body == BODY
    assert split.body_line == block.count("\n") + 3


def test_what_is_no_frontmatter_is_left_as_text() -> None:
    for text in ("---\nprotocol: 1\n" + BODY, "\n---\na: 1\n---\n" + BODY, "----\na: 1\n----\n" + BODY):
        assert split_frontmatter(text) == (({}, text, 1, "", 1, False))
    split = split_frontmatter("---\nturn: 1\n...\n" + BODY)  # YAML's document end closes it too
    assert split.metadata == {"turn": 1}
    assert split.body == BODY
    assert split.body_line == 4


def test_written_frontmatter_reads_back_as_written_even_where_yaml_would_guess_a_type() -> None:
    meta = {"protocol": 1, "slug": "no", "participants": ["on", "123", "0x10", "null", "a"], "sealed": True,
            "written_at": "2026-01-02T03:04:05Z", "peers_read": []}
    text = render_frontmatter(meta)
    assert text.startswith("---\nprotocol: 1\nslug: 'no'\nparticipants:\n  - 'on'\n  - '123'\n")
    assert text.endswith(
        "sealed: true\nwritten_at: '2026-01-02T03:04:05Z'\npeers_read: []\n---\n")
    assert split_frontmatter(text + BODY).metadata == meta


def test_a_roster_of_slugs_yaml_would_misread_survives_init_and_write(cli: Cli, tmp_path: Path) -> None:
    """Hand-written frontmatter put `- no` in TASK.md, which YAML reads as false: the roster was then unreadable."""
    folder = str(tmp_path / "d")
    result = cli("init", folder, "--task", "Pick one.", "--participants", "no,123,on", "--role", "null=judge",
                 mixed=True)
    assert result.code == 0, result.out
    task = load_task(folder)
    assert task is not None
    assert task.findings == ()
    assert task.participants == ("no", "123", "on")
    assert task.judge == "null"
    for slug in ("no", "123"):
        written = cli("write", folder, "--slug", slug, input=turn_body(1, "**Use TOML.**"), mixed=True)
        assert written.code == 0, written.out
    debate = load_debate(folder)
    entry = debate.entry(1, "no")
    parsed = debate.parsed(entry) if entry is not None else None
    assert parsed is not None
    assert parsed.metadata["slug"] == "no"
    assert render_task("Pick one.", ("no",), created_at="2026-01-02T03:04:05Z") == (
        "---\nprotocol: 1\nparticipants:\n  - 'no'\ncreated_at: '2026-01-02T03:04:05Z'\n---\n\nPick one.\n")
