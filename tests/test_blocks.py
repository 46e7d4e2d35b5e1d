"""The mistune hook the reader stands on: heading lines, fences, and the mistune API it overrides."""

from __future__ import annotations

import mistune
from mistune.block_parser import BlockParser

from multidebate.protocol.blocks import outline


def test_mistune_still_has_the_methods_we_override() -> None:
    # pyproject pins mistune>=3.1,<4; parse_atx_heading exists from 3.1 on
    assert callable(getattr(BlockParser, "parse_atx_heading", None))
    assert callable(getattr(BlockParser, "parse_fenced_code", None))
    assert mistune.__version__.startswith("3.")


def test_heading_lines_and_fences() -> None:
    text = ("# Turn 1 \u2014 a\n\n## Reasoning\nx\n```\n## Answer\n```\n~~~~\n## Converged\n~~~~\n"
            "    ## indented code\n> ## quoted\n- ## listed\n## Answer ##\n")
    result = outline(text)
    assert [(h.level, h.text, h.line) for h in result.headings] == [(1, "Turn 1 \u2014 a", 1),
                                                                    (2, "Reasoning", 3), (2, "Answer", 14)]
    assert len(result.code_spans) == 2
    assert result.in_code(text.index("## Answer"))


def test_unclosed_fence_swallows_the_rest() -> None:
    result = outline("## Reasoning\n```\n## Answer\n")
    assert [h.text for h in result.headings] == ["Reasoning"]
