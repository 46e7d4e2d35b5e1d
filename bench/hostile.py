"""Time every hostile-corpus case through validate, status and next (the issue's bound: 2 s each).

Run: python bench/hostile.py   (prints the slowest cases; not a test, never in CI)
"""

from __future__ import annotations

import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))

from click.testing import CliRunner  # noqa: E402
from helpers import key_of, make_debate  # noqa: E402
from hostile_corpus import CASES  # noqa: E402

from multidebate.cli import cli  # noqa: E402


def main() -> None:
    rows = []
    for index, case in enumerate(CASES):
        with tempfile.TemporaryDirectory() as tmp:
            folder = os.path.join(tmp, "d")
            make_debate(folder, [{"a": "**Use TOML.**"}])
            case.make(os.path.join(folder, case.name))
            key = key_of(folder, "a")
            for command in (["validate", folder], ["status", folder], ["next", folder, "--slug", "a", "--key", key]):
                start = time.perf_counter()
                CliRunner().invoke(cli, command)
                rows.append((time.perf_counter() - start, index, case.name[:30], command[0]))
    rows.sort(reverse=True)
    print(f"{len(CASES)} cases x 3 commands; slowest first:")
    for seconds, index, name, command in rows[:10]:
        print(f"  {seconds * 1000:8.1f} ms  case {index:2d} {command:8s} {name}")
    print(f"max {rows[0][0]:.3f} s (bound: 2 s)")


if __name__ == "__main__":
    main()
