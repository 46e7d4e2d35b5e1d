"""`status`'s output (text, JSON data, verdict state), from what the last full run kept when no file changed.

Kept light on purpose: a warm `status` imports neither the reader nor the analysis (#25, state/snapshot.py).
The CLI's `status` and the MCP server's `debate_status` both call `status_output`.
"""

from __future__ import annotations

from typing import NamedTuple

from ..state.snapshot import Kept

__all__ = ["StatusOutput", "status_output"]


class StatusOutput(NamedTuple):
    text: str  # as `status` prints it (before terminal escaping and color)
    data: dict[str, object]  # `status --json`
    state: str  # the verdict's state


def _fields(kept: dict[str, object], **types: type) -> bool:
    """A kept output has the fields a command prints, of the right types (it verified; this is for code changes
    that would read an older shape)."""
    return all(isinstance(kept.get(name), kind) for name, kind in types.items())


def status_output(folder: str) -> StatusOutput:
    """Where the debate in `folder` stands; FolderError and the like as `debate_status` raises them."""
    kept = Kept(folder, "status")
    hit = kept.hit
    if hit is not None and _fields(hit, text=str, data=dict, state=str):
        return StatusOutput(hit["text"], hit["data"], hit["state"])
    from .status import debate_status, keepable, render_status

    result = debate_status(folder)
    output = StatusOutput(render_status(result), result.as_dict(), result.verdict.state)
    if keepable(result):
        kept.store({"text": output.text, "data": output.data, "state": output.state})
    return output
