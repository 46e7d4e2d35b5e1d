"""`status`'s output (text, JSON data, verdict state), from what the last full run kept when no file changed.

Kept light on purpose: a warm `status` imports neither the reader nor the analysis (#25, state/snapshot.py).
The CLI's `status` and the MCP server's `debate_status` both call `status_output`.
"""

from __future__ import annotations

from typing import NamedTuple

from ..state.snapshot import kept_or_run

__all__ = ["StatusOutput", "status_output"]


class StatusOutput(NamedTuple):
    text: str  # as `status` prints it (before terminal escaping and color)
    data: dict[str, object]  # `status --json`
    state: str  # the verdict's state


def status_output(folder: str) -> StatusOutput:
    """Where the debate in `folder` stands; FolderError and the like as `debate_status` raises them."""
    def run() -> tuple[dict[str, object], bool]:
        from .status import debate_status, keepable, render_status

        result = debate_status(folder)
        return {"text": render_status(result), "data": result.as_dict(), "state": result.verdict.state}, \
            keepable(result)

    out = kept_or_run(folder, "status", {"text": str, "data": dict, "state": str}, run)
    return StatusOutput(out["text"], out["data"], out["state"])
