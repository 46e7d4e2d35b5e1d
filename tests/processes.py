"""Run `python -m multidebate ...` as a real process and wait on its output lines, never on the clock."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import IO, Any

WAIT = 60.0  # generous: a loaded 2-core machine must not fail a test by being slow


def _pump(stream: IO[str], sink: queue.Queue[str | None]) -> None:
    for line in stream:
        sink.put(line.rstrip("\n"))
    sink.put(None)


class Running:
    """A multidebate process whose stdout and stderr lines are read as they come."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "multidebate", *args], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
        assert self.proc.stdout is not None
        assert self.proc.stderr is not None
        self.out: queue.Queue[str | None] = queue.Queue()
        self.err: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        self.errors: list[str] = []
        self._readers = [threading.Thread(target=_pump, args=(self.proc.stdout, self.out), daemon=True),
                         threading.Thread(target=_pump, args=(self.proc.stderr, self.err), daemon=True)]
        for reader in self._readers:
            reader.start()
        self._out_done = self._err_done = False

    def _next(self, sink: queue.Queue[str | None], deadline: float, what: str) -> str | None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError(f"no {what} in time; stdout so far: {self.seen[-20:]}; stderr: {self.errors}")
        try:
            return sink.get(timeout=remaining)
        except queue.Empty:
            raise AssertionError(f"no {what} in time; stdout so far: {self.seen[-20:]}; stderr: {self.errors}")

    def expect(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = WAIT) -> dict[str, Any]:
        """The next JSON line on stdout that matches `predicate` (every line read is kept in `seen`)."""
        deadline = time.monotonic() + timeout
        while True:
            line = None if self._out_done else self._next(self.out, deadline, "matching line")
            if line is None:
                self._out_done = True
                self._drain_err()
                raise AssertionError(f"the process ended (exit {self.proc.wait(timeout)}) before a matching line; "
                                     f"stdout: {self.seen[-20:]}; stderr: {self.errors}")
            self.seen.append(line)
            data: dict[str, Any] = json.loads(line)
            if predicate(data):
                return data

    def expect_type(self, kind: str, timeout: float = WAIT, **fields: Any) -> dict[str, Any]:
        return self.expect(lambda d: d["type"] == kind and all(d.get(k) == v for k, v in fields.items()), timeout)

    def expect_stdout(self, text: str, timeout: float = WAIT) -> str:
        """The next stdout line containing `text` (plain text output; kept in `seen`)."""
        return self._expect_line("stdout", text, timeout)

    def expect_stderr(self, text: str, timeout: float = WAIT) -> str:
        """The next stderr line containing `text` (kept in `errors`)."""
        return self._expect_line("stderr", text, timeout)

    def _expect_line(self, stream: str, text: str, timeout: float) -> str:
        sink, kept = (self.out, self.seen) if stream == "stdout" else (self.err, self.errors)
        deadline = time.monotonic() + timeout
        while True:
            done = self._out_done if stream == "stdout" else self._err_done
            line = None if done else self._next(sink, deadline, f"{stream} line with {text!r}")
            if line is None:
                if stream == "stdout":
                    self._out_done = True
                else:
                    self._err_done = True
                raise AssertionError(f"{stream} ended without {text!r}: {kept[-20:]}")
            kept.append(line)
            if text in line:
                return line

    def _drain_err(self) -> None:
        while not self._err_done:
            line = self.err.get(timeout=WAIT)
            if line is None:
                self._err_done = True
            else:
                self.errors.append(line)

    def finish(self, timeout: float = WAIT) -> int:
        """Wait for the exit; read every remaining line into `seen` and `errors`; the exit status."""
        code = self.proc.wait(timeout)
        while not self._out_done:
            line = self.out.get(timeout=timeout)
            if line is None:
                self._out_done = True
            else:
                self.seen.append(line)
        self._drain_err()
        return code

    def stdout_objects(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.seen]

    def close(self) -> None:
        """Kill the process if it still runs and join the reader threads."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(WAIT)
        for reader in self._readers:
            reader.join(WAIT)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()
