"""An answer key for `score`, and the one normalisation answers and key values are compared under.

The key is a text file, one item per line: `Q1: A`, or the value alone (then
the n-th value line is item Qn).  Blank lines and lines starting with `#` are
ignored.  A malformed key is an error naming the file and the line: a key that
scores silently against the wrong items would report a wrong accuracy.

The normalisation is deliberately small (docs/accuracy.md states it): what a
session plainly meant to be one value compares equal, nothing is guessed.
"""

from __future__ import annotations

import os
import re
from decimal import Decimal, InvalidOperation
from typing import NamedTuple

from ..protocol.errors import KeyFileError

__all__ = ["AnswerKey", "normalise", "parse_key", "read_key"]

_LABELLED_RE = re.compile(r"^Q\s*(\d+)\s*:\s*(.*)$", re.IGNORECASE)
# peeled off the ends, again and again, so `"12".` and `**C**` lose all of it
_WRAPPERS = "'\"`*\u201c\u201d\u2018\u2019"
_CHOICE_RE = re.compile(r"^\(?([a-z])\)?$")
# -1,234.5 / $12 / 14 days: an optional minus, an optional $, digits (grouped by commas of three, or not),
# an optional fraction, an optional unit word (dropped: the key's item states its unit)
_NUMBER_RE = re.compile(r"^([-\u2212])?\s*\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:\s*(?:%|[a-z]+))?$")


def normalise(value: str) -> str:
    """`value` as it is compared: see docs/accuracy.md, "How answers are compared".

    Case folded, runs of spaces made one; surrounding spaces, quotes, backticks,
    asterisks and trailing periods, commas and semicolons peeled off; a number written as its plain
    decimal (`1,234` = `1234.0` = `$1234` = `1234 days` -> `1234`); a letter
    choice as the letter (`(C)` = `C)` = `c` -> `c`).  Never raises.
    """
    text = " ".join(value.split()).lower()
    while True:
        peeled = text.strip().rstrip(".,;").strip(_WRAPPERS)  # "Q1: 12," in a list: the comma is the list's
        if peeled == text:
            break
        text = peeled
    choice = _CHOICE_RE.match(text)
    if choice:
        return choice.group(1)
    number = _NUMBER_RE.match(text)
    if number:
        sign, whole, fraction = number.groups()
        try:
            amount = Decimal(whole.replace(",", "") + (fraction or ""))
        except InvalidOperation:  # cannot happen for digits, but a scorer must never raise on an answer
            return text
        if amount == 0:
            return "0"
        plain = format(amount.normalize(), "f")
        return f"-{plain}" if sign else plain
    return text


class AnswerKey(NamedTuple):
    """The items' right answers in order: values[0] is Q1.  `path` names the file in messages."""

    path: str
    values: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.values)

    def is_right(self, item: int, answer: str | None) -> bool:
        """Whether `answer` (None: not given) is the right answer to item `item` (1-based)."""
        if answer is None:
            return False
        given = normalise(answer)
        return bool(given) and given == normalise(self.values[item - 1])  # an empty answer is no answer


KEY_MAX_BYTES = 1024 * 1024


def read_key(path: str) -> AnswerKey:
    """The answer key in the file `path` (KeyFileError, naming the file, when it cannot be read or is malformed)."""
    import stat

    try:
        # never blocks on a FIFO, and reads a regular file only, at most one byte past the limit (issue 33:
        # `--key /dev/zero` read without bound and a FIFO blocked)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise KeyFileError(f"{path}: not a regular file; an answer key is a text file")
            raw = handle.read(KEY_MAX_BYTES + 1)
    except OSError as exc:
        raise KeyFileError(f"cannot read the answer key {path}: {exc.strerror or exc}") from None
    if len(raw) > KEY_MAX_BYTES:
        raise KeyFileError(f"{path}: over 1 MiB; an answer key is at most 1 MiB")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise KeyFileError(f"{path}: not UTF-8 text") from None
    return parse_key(text.replace("\r\n", "\n"), path)


def parse_key(text: str, path: str) -> AnswerKey:
    """The answer key written in `text`; `path` names it in errors, as `path:line: problem`."""
    labelled: dict[int, tuple[int, str]] = {}  # item -> (line, value)
    bare: list[str] = []
    first_bare = first_labelled = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        match = _LABELLED_RE.match(line)
        if match is None:
            if not normalise(line):  # `...` or `""`: no answer could ever match it
                raise KeyFileError(f"{path}:{number}: `{line}` is no value once quotes and punctuation are taken off")
            bare.append(line)
            first_bare = first_bare or number
        else:
            item, value = int(match.group(1)), match.group(2).strip()
            if item == 0:
                raise KeyFileError(f"{path}:{number}: items are numbered from Q1, not Q0")
            if not normalise(value):
                raise KeyFileError(f"{path}:{number}: Q{item} has no value")
            if item in labelled:
                raise KeyFileError(f"{path}:{number}: Q{item} is given twice (first on line {labelled[item][0]})")
            labelled[item] = (number, value)
            first_labelled = first_labelled or number
        if bare and labelled:
            # mixed, a bare value's item number would depend on the labels around it: refuse rather than guess
            raise KeyFileError(f"{path}:{number}: mixes `Qn: value` lines (line {first_labelled}) with bare values "
                               f"(line {first_bare}); write every line one way")
    if labelled:
        gap = next((n for n in range(1, max(labelled) + 1) if n not in labelled), None)
        if gap is not None:
            raise KeyFileError(f"{path}: Q{gap} is missing (items are numbered from Q1 without a gap)")
        return AnswerKey(path, tuple(labelled[n][1] for n in range(1, len(labelled) + 1)))
    if not bare:
        raise KeyFileError(f"{path}: no items (one line per item: `Q1: A`, or the value alone)")
    return AnswerKey(path, tuple(bare))
