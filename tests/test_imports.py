"""What a warm `status`, `next` and `write` import: the parse cache answers, so no markdown or YAML parser loads.

Each command runs in a fresh interpreter (a test process has imported everything already) and reports its
`sys.modules`.  A warm command is one run after another command read the folder and filled the parse cache.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import Cli
from helpers import key_of, make_debate, turn_body, write_keyed

_PROBE = """
import contextlib, io, json, sys
sys.argv = ["multidebate"] + json.loads(sys.argv[1])
try:
    with contextlib.redirect_stdout(io.StringIO()):
        from multidebate.cli import main
        main()
except SystemExit as exc:
    code = exc.code
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""

PARSERS = ("yaml", "mistune", "frontmatter", "multidebate.protocol.parse", "multidebate.protocol.blocks")
NEVER_IN_A_TURN = ("watchdog", "multidebate.views.report", "multidebate.views.report_html",
                   "multidebate.analysis.trajectory", "multidebate.skill")


def imported(*args: str, stdin: str = "") -> set[str]:
    done = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(list(args))], input=stdin, capture_output=True,
                          text=True, timeout=60)
    data = json.loads(done.stdout)
    assert data["code"] in (0, None), done.stderr
    return {name for name in data["modules"] if name.startswith(PARSERS + NEVER_IN_A_TURN)}


def test_warm_status_next_and_write_import_no_parser_they_do_not_need(cli: Cli, tmp_path: Path) -> None:
    folder = str(tmp_path / "d")
    # long Reasonings: three peers' files are over 20,000 characters in all, so `next` cuts them to fit
    long, other = "**Use TOML.**", "**Use YAML.**"  # lines that differ from a's are served whole (#36)
    make_debate(folder, [{"a": long, **{s: other for s in "bcd"}}], participants=("a", "b", "c", "d"))
    for slug in "bcd":
        write_keyed(folder, slug, turn_body(2, other).replace("Thinking for turn 2.", "A reason. " * 900).encode())
    write_keyed(folder, "a", turn_body(2, long).encode())  # `a` reads the long turn-2 files for its turn 3
    key = key_of(folder, "a")
    imported("status", folder)  # cold: parses and fills the cache
    imported("next", folder, "--slug", "a", "--key", key)

    assert imported("status", folder) == set()
    assert imported("next", folder, "--slug", "a", "--key", key) == set()  # its long peer files cut, unparsed
    served = cli("next", folder, "--slug", "a", "--key", key).out
    assert "is cut (where it says so), the room shared out evenly" in served
    assert served.count("[Reasoning cut by multidebate: ") == 3
    # write parses its own input (the markdown parser) and composes frontmatter (YAML): nothing a turn never needs
    wrote = imported("write", folder, "--slug", "a", "--key", key, stdin=turn_body(3, long))
    assert "multidebate.protocol.parse" in wrote
    assert not {n for n in wrote if n.startswith(NEVER_IN_A_TURN)}
