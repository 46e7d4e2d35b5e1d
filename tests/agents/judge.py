"""A judge: once its briefing asks for a judgment, the four sections of one."""
import sys

from _fake import prompt

text = prompt()
if "WRITE YOUR JUDGMENT" not in text:
    sys.exit("the judge was started with no judgment due")
print("## Decision\n**Use TOML.**\n\n## Reasoning\nTOML is simpler to read.\n\n"
      "## What each side got right\n- alpha: simplicity.\n- beta: YAML is widely known.\n\n"
      "## Contested points\n- Which format people know.\n")
