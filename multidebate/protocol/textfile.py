"""Read a file as turn text, safely: no symlink followed, nothing huge, nothing binary."""

from __future__ import annotations

import os
import stat
from typing import NamedTuple

from .findings import Finding, finding

__all__ = ["MAX_BYTES", "TextRead", "read_bytes", "read_text"]

MAX_BYTES = 1024 * 1024


class TextRead(NamedTuple):
    """The text of a file (None when it cannot be read as text) and what was found on the way."""

    text: str | None
    findings: tuple[Finding, ...]
    raw: bytes = b""


def read_text(path: str, shown_as: str | None = None) -> TextRead:
    """Read `path` as UTF-8 turn text with LF line endings.

    Never raises for a bad file: a symlink, a non-regular file, a file over
    1 MiB, an empty, binary or non-UTF-8 file give an error finding and no
    text.  A BOM or CRLF endings are removed and reported as warnings.
    """
    name = shown_as or path
    try:
        info = os.lstat(path)
    except OSError as exc:
        return TextRead(None, (finding(name, 1, "E001", f"cannot read: {exc.strerror or exc}"),))
    if stat.S_ISLNK(info.st_mode):
        return TextRead(None, (finding(name, 1, "E006", "is a symbolic link; turn files must be regular files"),))
    if not stat.S_ISREG(info.st_mode):
        return TextRead(None, (finding(name, 1, "E007", "is not a regular file"),))
    if info.st_size > MAX_BYTES:
        return TextRead(None, (finding(name, 1, "E005", f"is {info.st_size} bytes; a turn file is at most 1 MiB"),))
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        return TextRead(None, (finding(name, 1, "E001", f"cannot read: {exc.strerror or exc}"),))
    return decode_turn_bytes(raw, name)


def read_bytes(path: str) -> bytes | None:
    """A turn file's bytes as `read_text` would read them (a regular file, no symbolic link followed, at most
    1 MiB and one byte); None when `read_text` would read none."""
    try:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:
            return None
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            return handle.read(MAX_BYTES + 1)
    except OSError:
        return None


def decode_turn_bytes(raw: bytes, name: str) -> TextRead:
    """Decode bytes read from a turn file; see `read_text`."""
    if len(raw) > MAX_BYTES:
        return TextRead(None, (finding(name, 1, "E005", "is over 1 MiB; a turn file is at most 1 MiB"),), raw)
    if not raw.strip():
        return TextRead(None, (finding(name, 1, "E004", "is empty"),), raw)
    if b"\x00" in raw:
        return TextRead(None, (finding(name, 1, "E003", "is binary (contains NUL bytes), not markdown"),), raw)
    notes: list[Finding] = []
    if raw.startswith(b"\xef\xbb\xbf"):
        notes.append(finding(name, 1, "W001", "starts with a byte order mark; save as UTF-8 without BOM"))
        raw_body = raw[3:]
    else:
        raw_body = raw
    try:
        text = raw_body.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw_body[: exc.start].count(b"\n") + 1
        return TextRead(None, (finding(name, line, "E002", f"is not UTF-8 text (byte {exc.start})"),), raw)
    if "\r" in text:
        line = text[: text.index("\r")].count("\n") + 1
        notes.append(finding(name, line, "W002", "has CRLF or CR line endings; use LF"))
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return TextRead(text, tuple(notes), raw)
