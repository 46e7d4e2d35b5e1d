"""Racing writers in real processes: exactly one wins, nothing partial is ever left."""

from __future__ import annotations

import multiprocessing as mp
import os
from pathlib import Path
from typing import Any

from helpers import make_debate, turn_body

from multidebate.protocol.errors import IdentityError, TurnConflict
from multidebate.state.atomic import create_exclusive

CTX = mp.get_context("fork")
RACERS = 6


def _create(path: str, payload: bytes, barrier: Any, results: Any) -> None:
    barrier.wait(timeout=60)
    results.put(create_exclusive(path, payload))


def test_create_exclusive_one_winner(tmp_path: Path) -> None:
    path = str(tmp_path / "turn-1-a.md")
    barrier, results = CTX.Barrier(RACERS), CTX.Queue()
    payloads = [bytes([65 + i]) * 200_000 for i in range(RACERS)]
    procs = [CTX.Process(target=_create, args=(path, p, barrier, results)) for p in payloads]
    for proc in procs:
        proc.start()
    outcomes = [results.get(timeout=60) for _ in procs]
    for proc in procs:
        proc.join(timeout=60)
    assert outcomes.count(True) == 1
    assert Path(path).read_bytes() in payloads  # whole, from exactly one writer
    assert sorted(os.listdir(tmp_path)) == ["turn-1-a.md"]  # no temp file left


def _write_after_barrier(folder: str, barrier: Any, results: Any, index: int) -> None:
    import multidebate.turns.write as write_module

    original = write_module.next_turn_number

    def counted_then_wait(*args: Any) -> int:
        turn = original(*args)  # every racer has counted turn 1 before any creates
        barrier.wait(timeout=60)
        return int(turn)

    write_module.next_turn_number = counted_then_wait
    try:
        write_module.write_turn(folder, "a", turn_body(1, f"**Answer {index}**").encode())
        results.put("won")
    except (TurnConflict, IdentityError) as exc:
        # the slug's claim or the file's creation: either way the loser is told and writes nothing
        results.put("refused" if "claimed by another session" in str(exc) or "exists already" in str(exc)
                    else f"other: {exc}")


def test_two_sessions_same_slug_same_turn(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [])
    barrier, results = CTX.Barrier(RACERS), CTX.Queue()
    procs = [CTX.Process(target=_write_after_barrier, args=(folder, barrier, results, i)) for i in range(RACERS)]
    for proc in procs:
        proc.start()
    outcomes = sorted(results.get(timeout=60) for _ in procs)
    for proc in procs:
        proc.join(timeout=60)
    assert outcomes == ["refused"] * (RACERS - 1) + ["won"]
    names = sorted(n for n in os.listdir(folder) if not n.startswith("."))
    assert names == ["TASK.md", "turn-1-a.md"]
    assert "**Answer " in Path(folder, "turn-1-a.md").read_text()
