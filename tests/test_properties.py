"""Property-based: the reader, the validator and the comparison never raise, whatever the input."""

from __future__ import annotations

import os
import tempfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from multidebate.analysis.comparison import compare
from multidebate.protocol.parse import parse_turn
from multidebate.protocol.textfile import decode_turn_bytes
from multidebate.views.validate import validate_paths

FRAGMENTS = [
    "# Turn 2 — a\n", "# Turn 1 - b\n", "## Reasoning\n", "## Answer\n", "### Agreements\n", "## Disagreements\n",
    "## Confidence\n", "## Converged\n", "## Extra\n", "**Confidence:** 85\n", "Converged: yes\n", "yes\n",
    "no — reason\n", "maybe\n", "101\n", "-1\n", "85%\n", "```\n", "~~~\n", "- With a: x\n", "- With zz, a: y\n",
    "> quote\n", "---\n", "key: [1\n", "\n", "    indented\n", "* * *\n", "<div>\n", "1. item\n", "\r\n",
    "\ufeff", "\x00", "Turn\n===\n", "#\n", "## \n", "- - - - -\n", ">" * 50 + " deep\n", "[" * 40 + "\n",
]
markdownish = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=30)), max_size=40).map("".join)


@given(markdownish)
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
def test_parse_never_raises(text: str) -> None:
    parsed = parse_turn(text.replace("\r\n", "\n").replace("\r", "\n"), "t.md")
    assert all(f.code[0] in "EW" for f in parsed.findings)


@given(st.binary(max_size=2000))
def test_decode_never_raises(raw: bytes) -> None:
    read = decode_turn_bytes(raw, "t.md")
    assert (read.text is None) == any(f.severity == "error" for f in read.findings)


@given(st.lists(st.one_of(markdownish, st.binary(max_size=300)), min_size=1, max_size=4))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_validate_folder_never_raises(contents: list[str | bytes]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        for index, content in enumerate(contents):
            data = content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content
            with open(os.path.join(folder, f"turn-{index % 2 + 1}-s{index}.md"), "wb") as handle:
                handle.write(data)
        findings = validate_paths([folder])
        assert findings == sorted(findings)


@given(markdownish, markdownish)
def test_compare_never_raises_and_is_symmetric(left: str, right: str) -> None:
    result = compare(left, right)
    assert result.relation in ("same", "different", "unsure")
    assert result.evidence
    assert compare(left, left).relation == "same" or not left.strip()
    assert compare(left, right).relation == compare(right, left).relation
