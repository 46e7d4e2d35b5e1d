"""`validate`'s findings, from what the last full run kept when no file of the one folder changed (#25).

Kept light on purpose, as status_output.py: a warm `validate` imports neither the rules nor the reader.
"""

from __future__ import annotations

import os
from typing import Any

from ..protocol.findings import Finding
from ..state.snapshot import kept_or_run

__all__ = ["validate_output"]


def validate_output(paths: tuple[str, ...]) -> list[Finding]:
    """The findings of `validate PATHS`; a single real folder's come from its kept output while nothing changed."""
    def run() -> tuple[dict[str, Any], bool]:
        from .validate import validate_paths

        return {"findings": [f.as_dict() for f in validate_paths(paths)]}, True

    if len(paths) == 1 and os.path.isdir(paths[0]) and not os.path.islink(paths[0]):
        kept = kept_or_run(paths[0], "validate", {"findings": list}, run)
        return [Finding(f["path"], f["line"], f["code"], f["severity"], f["message"]) for f in kept["findings"]]
    from .validate import validate_paths

    return validate_paths(paths)
