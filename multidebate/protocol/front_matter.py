"""YAML frontmatter: split from a text, keeping line numbers, without ever raising; and written.

Writing goes through python-frontmatter's public API (`frontmatter.dumps` of a
`frontmatter.Post`): it quotes what YAML would read as another type, so a slug
such as `no` or `123` reads back as the slug written.

Reading keeps its own split, because the files read are written by anyone with
access to the folder and `frontmatter.parse`/`loads` cannot read them safely
and leniently: they strip the text and the body (the findings' line numbers
would be lost), close a block on any line of three or more dashes but never on
`...`, parse a block of any size (no bound on the YAML parser's time or
memory), and take a block that is no mapping for no metadata without saying
so, where a finding must say what is wrong.  The block so split and bounded
is read with PyYAML's safe loader, the one python-frontmatter itself uses.
"""

from __future__ import annotations

import functools
import re
from typing import Any, NamedTuple

__all__ = ["FrontmatterSplit", "render_frontmatter", "split_frontmatter", "strip_frontmatter", "MAX_FRONTMATTER"]

MAX_FRONTMATTER = 64 * 1024
_MAX_NODES = 10_000
_CLOSE_RE = re.compile(r"^(?:---|\.\.\.)[ \t]*$", re.MULTILINE)


class FrontmatterSplit(NamedTuple):
    """Metadata (empty when absent or invalid), the body, and the body's first line number."""

    metadata: dict[str, Any]
    body: str
    body_line: int
    error: str = ""
    error_line: int = 1
    present: bool = False


def _too_many_values(value: object, budget: int) -> bool:
    """True when `value` expands to more than `budget` values, counting every alias use.

    A YAML bomb is small as objects (aliases share them) but huge once
    anything walks or serialises it; recursive aliases never end.  The walk
    is iterative and stops at the budget, so it costs at most `budget` steps.
    """
    stack = [value]
    count = 0
    while stack:
        item = stack.pop()
        count += 1
        if count > budget:
            return True
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def strip_frontmatter(text: str) -> str:
    """The text without its frontmatter block, found as split_frontmatter finds it but never parsed."""
    if not text.startswith("---\n"):
        return text
    close = _CLOSE_RE.search(text, 4)
    return text if close is None else text[close.end() + 1:]


def split_frontmatter(text: str) -> FrontmatterSplit:
    """Frontmatter is a `---` first line and a closing `---` (or `...`) line."""
    if not text.startswith("---\n"):
        return FrontmatterSplit({}, text, 1)
    close = _CLOSE_RE.search(text, 4)
    if close is None:
        # an opening rule with no close is a thematic break, not frontmatter
        return FrontmatterSplit({}, text, 1)
    block = text[4:close.start()]
    after = close.end() + 1 if close.end() < len(text) else close.end()
    body = text[after:]
    body_line = text[:after].count("\n") + 1
    if len(block) > MAX_FRONTMATTER:
        return FrontmatterSplit({}, body, body_line, "frontmatter is over 64 KiB", 1, True)
    if not block.strip():
        return FrontmatterSplit({}, body, body_line, "", 1, True)
    import yaml  # only files with frontmatter pay for YAML

    try:
        data = yaml.load(block, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.MarkedYAMLError as exc:
        line = 2 + (exc.problem_mark.line if exc.problem_mark else 0)
        problem = exc.problem or "invalid YAML"
        return FrontmatterSplit({}, body, body_line, f"frontmatter is not valid YAML: {problem}", line, True)
    except (yaml.YAMLError, RecursionError, ValueError, TypeError, OverflowError) as exc:
        return FrontmatterSplit({}, body, body_line, f"frontmatter is not valid YAML: {type(exc).__name__}", 1, True)
    if not isinstance(data, dict):
        return FrontmatterSplit({}, body, body_line, "frontmatter must be a YAML mapping (key: value lines)", 2, True)
    if _too_many_values(data, _MAX_NODES):
        return FrontmatterSplit({}, body, body_line, "frontmatter expands to over 10,000 values (YAML aliases?)",
                                2, True)
    return FrontmatterSplit(data, body, body_line, "", 1, True)


def render_frontmatter(metadata: dict[str, Any]) -> str:
    """`---`, `metadata` as YAML in the order given, `---` (and a newline), by python-frontmatter.

    Block lists are indented under their key and long values kept on one line, the
    layout TASK.md and turn files have always had.
    """
    import frontmatter

    post = frontmatter.Post("")
    post.metadata.update(metadata)
    return frontmatter.dumps(post, Dumper=_indented_dumper(), sort_keys=False, width=1_000_000) + "\n"


@functools.cache
def _indented_dumper() -> type:
    """PyYAML's safe dumper, but with `- item` lines indented under their key (`participants:` then `  - a`)."""
    import yaml

    class IndentedDumper(yaml.SafeDumper):
        def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
            super().increase_indent(flow, False)

    return IndentedDumper
