"""Reading the tool's JSON state files: a damaged value is a ValueError, whatever the damage.

Every file under `.multidebate/` can be written by anyone who shares the folder, so its JSON is untrusted:
one line of 50,000 `[` made the decoder raise RecursionError, and a 400-digit token count or `Infinity`
made every later `status` and `report` die with OverflowError (issue 33).  `loads_state` turns each of these
into the ValueError every reader already handles (a damaged cache is no cache; a damaged ledger or record
line is a finding), and keeps every number finite and bounded: an integer of at most MAX_DIGITS digits, a
float finite and at most FLOAT_LIMIT in size, no NaN or Infinity.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

__all__ = ["loads_state", "read_records", "MAX_DIGITS", "FLOAT_LIMIT"]

MAX_DIGITS = 20  # an inode or a time in nanoseconds fits (2**64 has 20 digits)
FLOAT_LIMIT = 1e18
_LONG_DIGITS = re.compile(rb"\d{%d}" % (MAX_DIGITS + 1))


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is no number a state file holds")


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"an integer of {len(text)} digits is no number a state file holds")
    return int(text)


def _bounded_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or abs(value) > FLOAT_LIMIT:
        raise ValueError(f"{text[:40]} is no number a state file holds")
    return value


def loads_state(data: bytes | str) -> Any:
    """`json.loads` for state: ValueError for bad JSON, nesting too deep, NaN, Infinity or a number out of bounds."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    try:
        if _LONG_DIGITS.search(raw) is None:
            # the common case: no run of digits long enough to be an integer out of bounds (checked in C)
            return json.loads(data, parse_float=_bounded_float, parse_constant=_no_constant)
        return json.loads(data, parse_int=_bounded_int, parse_float=_bounded_float, parse_constant=_no_constant)
    except RecursionError:
        raise ValueError("nested too deep for a state file") from None


def read_records(path: str, limit: int = 16 * 1024 * 1024) -> tuple[list[tuple[int, dict[str, object]]], list[int]]:
    """An append-only JSON-lines record (`acts.jsonl`, `run/turns.jsonl`): (line number, object) for every line
    that is a JSON object, and the numbers of the damaged lines; a missing or unsafe file has neither."""
    from .layout import read_state

    try:
        lines = read_state(path, limit).decode("utf-8", "replace").split("\n")
    except OSError:
        return [], []
    records: list[tuple[int, dict[str, object]]] = []
    damaged: list[int] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            value = loads_state(line)
        except ValueError:
            value = None
        if isinstance(value, dict):
            records.append((number, value))
        else:
            damaged.append(number)
    return records, damaged
