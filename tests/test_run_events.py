"""`run`'s events as typed values (#38): one record per kind, each line of `run --json` byte for byte as before
the records existed, one dispatch in the display, and the parts of a run that stand on their own (one agent's
turn, the environment an agent inherits)."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

from conftest import Cli
from test_schemas import check

from multidebate.run.agents import parse_spec
from multidebate.run.display import PlainLines
from multidebate.run.events import (
    KINDS,
    Done,
    Failed,
    Interrupted,
    Retrying,
    RunEvent,
    SameModel,
    Started,
    Thinking,
    TurnCost,
    VerdictChanged,
    Waiting,
    Written,
)

COST = TurnCost(12.345, 1200, 340, 0.01234)
# (event, its line of `run --json` as the untyped RunEvent(kind, message, ..., data) of f507292 printed it)
GOLDEN: list[tuple[RunEvent, str]] = [
    (Started("/tmp/d", (("alpha", "claude:opus"), ("beta", "cmd:python agent.py")),
             (("alpha", "claude -p"), ("beta", "python agent.py 'x'")),
             (("alpha", "claude:opus"), ("beta", "python agent.py 'x'")), ("carol",), at=0.0),
     '{"event": "started", "slug": null, "turn": null, "at": 0.0, "message": "/tmp/d: agents alpha = claude:opus, '
     'beta = python agent.py \'x\'; sessions people run: carol", "agents": {"alpha": "claude:opus", "beta": '
     '"cmd:python agent.py"}, "people": ["carol"], "commands": {"alpha": "claude -p", "beta": "python agent.py '
     '\'x\'"}}'),
    (SameModel(("alpha", "beta"), at=0.004),
     '{"event": "warning", "slug": null, "turn": null, "at": 0.0, "message": "alpha, beta run the same model: the '
     'same priors agree without debating", "slugs": ["alpha", "beta"]}'),
    (VerdictChanged("empty", 0, "no turn files yet", at=0.011),
     '{"event": "verdict", "slug": null, "turn": null, "at": 0.01, "message": "empty at turn 0: no turn files yet", '
     '"state": "empty"}'),
    (Thinking("alpha", 1, 1, 0.02),
     '{"event": "thinking", "slug": "alpha", "turn": 1, "at": 0.02, "message": "thinking", "attempt": 1}'),
    (Thinking("alpha", 1, 2, 3.456),
     '{"event": "thinking", "slug": "alpha", "turn": 1, "at": 3.46, "message": "thinking (try 2)", "attempt": 2}'),
    (Retrying("alpha", 1, 1, "nothing written: no section", 3.4),
     '{"event": "retrying", "slug": "alpha", "turn": 1, "at": 3.4, "message": "retrying: nothing written: no '
     'section", "attempt": 1}'),
    (Written("alpha", 1, "turn-1-alpha.md", COST, 2, 15.0),
     '{"event": "written", "slug": "alpha", "turn": 1, "at": 15.0, "message": "wrote turn-1-alpha.md (12 s, 1,200 '
     'tokens in, 340 out, $0.0123)", "file": "turn-1-alpha.md", "cost": {"seconds": 12.35, "tokens_in": 1200, '
     '"tokens_out": 340, "cost_usd": 0.01234}, "attempts": 2}'),
    (Failed("beta", 1, "crash.py: exit status 3", TurnCost(1.0), 2.0),
     '{"event": "failed", "slug": "beta", "turn": 1, "at": 2.0, "message": "failed: crash.py: exit status 3", '
     '"reason": "crash.py: exit status 3", "cost": {"seconds": 1.0, "tokens_in": null, "tokens_out": null, '
     '"cost_usd": null}}'),
    (Waiting(1, ("carol",), at=20.0),
     '{"event": "waiting", "slug": null, "turn": 1, "at": 20.0, "message": "waiting for carol (sessions people '
     'run) to write turn 1", "waiting_for": ["carol"]}'),
    (Done("converged", 3, COST, 6, "multidebate report /tmp/d", at=99.999),
     '{"event": "done", "slug": null, "turn": 3, "at": 100.0, "message": "the debate ended: converged at turn 3", '
     '"state": "converged", "cost": {"seconds": 12.35, "tokens_in": 1200, "tokens_out": 340, "cost_usd": 0.01234}, '
     '"turns_written": 6, "report": "multidebate report /tmp/d"}'),
    (Interrupted(at=5.0),
     '{"event": "interrupted", "slug": null, "turn": null, "at": 5.0, "message": "Interrupted: every agent was '
     'stopped; no turn was half-written. Run again to resume."}'),
]


def test_each_kind_of_the_schema_is_one_event_record() -> None:
    schema = json.loads((Path(__file__).parent.parent / "multidebate" / "schemas" / "run-event.schema.json")
                        .read_text())
    assert list(KINDS) == schema["properties"]["event"]["enum"]
    assert sorted({type(event).__name__ for event, _line in GOLDEN}) == sorted(
        ["Started", "SameModel", "VerdictChanged", "Thinking", "Retrying", "Written", "Failed", "Waiting", "Done",
         "Interrupted"])


def test_each_event_prints_the_json_line_run_always_printed() -> None:
    out: list[str] = []
    from multidebate.run.display import JsonLines

    display = JsonLines(out.append)
    for event, _line in GOLDEN:
        display.show(event)
    assert out == [line + "\n" for _event, line in GOLDEN]
    for line in out:
        check("run-event", json.loads(line))


def test_a_person_reads_whose_turn_an_agents_event_is_about_and_the_debates_events_plainly() -> None:
    out: list[str] = []
    display = PlainLines(out.append)
    for event in (Thinking("alpha", 2, 2, 1.0), Failed("beta", 2, "tool said \x1b[31mred", TurnCost(), 43.0),
                  Waiting(2, ("carol", "dan"), at=50.0), VerdictChanged("converged", 3, "all agree", at=61.25)):
        display.show(event)
    assert out == ["[   1.0s] alpha turn 2: thinking (try 2)\n",
                   "[  43.0s] beta turn 2: failed: tool said \\x1b[31mred\n",
                   "[  50.0s] waiting for carol, dan (sessions people run) to write turn 2\n",
                   "[  61.2s] converged at turn 3: all agree\n"]


def test_doctor_takes_the_agents_environment_without_loading_the_run_loop() -> None:
    """`doctor` probes an agent with the environment a turn gets, from a module below the loop (it imported it
    from the orchestrator, and with it the briefing and everything `run` needs)."""
    code = ("import sys\nimport multidebate.run.doctor\n"
            "print(sorted(m for m in sys.modules if m in ('multidebate.run.loop', 'multidebate.turns.briefing')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def test_one_agents_turn_runs_on_its_own_and_retries_a_refused_reply(cli: Cli, tmp_path: Path) -> None:
    """A turn is a unit of its own (no round, thread or queue): it tells how it goes and ends as an event."""
    from multidebate.run.supervise import Supervisor
    from multidebate.run.turn import AgentTurn, RunOptions
    from multidebate.turns.briefing import brief

    folder = str(tmp_path / "d")
    result = cli("init", folder, "--task", "Pick a config format.", "--participants", "alpha,beta", mixed=True)
    assert result.code == 0, result.out
    agents = Path(__file__).resolve().parent / "agents"
    agent = parse_spec("beta", "cmd:" + shlex.join([sys.executable, str(agents / "garbage_then_valid.py"),
                                                    "Use TOML."]))
    told: list[Thinking | Retrying] = []
    ended = AgentTurn(folder, agent, brief(folder, "beta"), RunOptions(turn_timeout=60), Supervisor(), "",
                      told.append, time.monotonic()).play()
    assert [(type(e).__name__, e.attempt) for e in told] == [("Thinking", 1), ("Retrying", 1), ("Thinking", 2)]
    assert isinstance(ended, Written)
    assert (ended.slug, ended.turn, ended.file, ended.attempts) == ("beta", 1, "turn-1-beta.md", 2)
    assert (tmp_path / "d" / "turn-1-beta.md").exists()
