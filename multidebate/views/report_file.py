"""Where `report -o` may write, and writing there without harm.

`report` is a session's command (the skill pre-approves it), so its `-o` is a way for a session to create
files: one wrote a report into `~/.ssh/authorized_keys` with a peer's line as a valid key, and through a
hard link overwrote a turn file in place.  So a report goes only to a file named as a report
(`.md`, `.markdown`, `.json`, `.html`, `.htm`, `.txt`), never to the debate's own files or through a
link, never over an existing file without `--force`, and always as a new file: written whole to a
temporary file beside it and then linked (new) or renamed (forced) into place, so an existing file's
other names (a hard link to a turn file) keep their content.
"""

from __future__ import annotations

import os

from ..protocol.errors import FolderError
from ..protocol.naming import looks_like_turn_attempt, parse_turn_name
from ..protocol.oneline import one_line
from ..state.atomic import create_exclusive, replace_file
from ..state.layout import STATE_DIR

__all__ = ["REPORT_SUFFIXES", "refusal", "save_report"]

REPORT_SUFFIXES = (".md", ".markdown", ".json", ".html", ".htm", ".txt")


_OUTSIDE = "choose a path outside the debate's own files"


def refusal(folder: str, output: str, force: bool) -> str:
    """Why `output` may not receive the report, in one sentence that says what to do instead ('' when it may)."""
    shown = one_line(output)
    if not output.lower().endswith(REPORT_SUFFIXES):
        return (f"refusing to write the report to {shown}: a report's file name ends in "
                f"{', '.join(REPORT_SUFFIXES[:-1])} or {REPORT_SUFFIXES[-1]} (the format is --format's); "
                "choose such a name")
    if os.path.islink(output):
        return (f"refusing to write the report to {shown}: it is a symbolic link (the report would be written "
                "wherever it points); choose another path")
    where = os.path.realpath(output)
    root = os.path.realpath(folder)
    if os.path.commonpath([where, root]) == root:
        inside = os.path.relpath(where, root).split(os.sep)
        if STATE_DIR in inside:
            return f"refusing to write the report to {shown}: it is in the tool's state (ledger, keys, cache); {_OUTSIDE}"
        if len(inside) == 1 and (inside[0] == "TASK.md" or parse_turn_name(inside[0])
                                 or looks_like_turn_attempt(inside[0])):
            verb = "over" if os.path.lexists(output) else "to"
            return (f"refusing to write the report {verb} {shown}: it is named as a file of the debate (TASK.md or "
                    f"a turn file); {_OUTSIDE}")
    if os.path.lexists(output) and not force:
        return f"refusing to write the report over {shown}: the file exists; give --force to replace it"
    if os.path.lexists(output) and not os.path.isfile(output):
        return f"refusing to write the report over {shown}: it is not a regular file; choose another path"
    return ""


def save_report(folder: str, output: str, text: str, force: bool = False) -> None:
    """Write the report to `output` as a new file (FolderError when refused or when it cannot be written)."""
    why = refusal(folder, output, force)
    if why:
        raise FolderError(why)
    data = (text if text.endswith("\n") else text + "\n").encode("utf-8")
    try:
        if force:
            replace_file(output, data, ".report-")  # a rename: the old file's other names keep their content
        elif not create_exclusive(output, data):
            raise FolderError(f"refusing to write the report over {one_line(output)}: it was created meanwhile "
                              "(give --force to replace it)")
    except OSError as exc:
        raise FolderError(f"cannot write {one_line(output)}: {exc.strerror or exc}") from exc
