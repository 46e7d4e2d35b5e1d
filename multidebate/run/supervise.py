"""One agent process, supervised: its own process group, the prompt on stdin and stdin closed, its output read
in threads up to a byte bound, a turn timeout and an idle timeout, and the whole group killed (SIGTERM, then
SIGKILL) on a timeout, on too much output, or when `run` is interrupted.  No process outlives its turn.

A descendant may leave the group (`setsid`) and hold the pipes open: the prompt is written without blocking,
a bounded time, and every descendant seen while the turn runs (by parent pid, in /proc, with its start time so
a reused pid is never hit) is killed with the group.  A descendant that left the group and whose parent exited
before it was seen (less than a poll, POLL seconds) is not found.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Finished", "POLL", "Supervisor", "TERM_GRACE", "descendants"]

TERM_GRACE = 3.0  # seconds between SIGTERM and SIGKILL
POLL = 0.1  # seconds: how often a running agent's descendants are looked up
_CHUNK = 65536


def _process_table() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, start time) of every process (Linux /proc); {} where there is none."""
    table = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return {}
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 19:
            table[int(name)] = (int(fields[1]), fields[19].decode("ascii", "replace"))
    return table


def descendants(root: int, table: dict[int, tuple[int, str]] | None = None) -> dict[int, str]:
    """Every descendant of `root` now, whatever its process group: pid -> start time."""
    table = _process_table() if table is None else table
    children: dict[int, list[int]] = {}
    for pid, (parent, _start) in table.items():
        children.setdefault(parent, []).append(pid)
    found: dict[int, str] = {}
    todo = list(children.get(root, ()))
    while todo:
        pid = todo.pop()
        if pid in found or pid == root:
            continue
        found[pid] = table[pid][1]
        todo.extend(children.get(pid, ()))
    return found


@dataclass(frozen=True)
class Finished:
    """How a process ended: exit status (negative: killed by that signal), its output (at most the bound),
    and why it was stopped ("" when it ended by itself)."""

    exit_code: int
    stdout: bytes
    stderr: bytes
    duration: float
    stopped: str = ""  # "turn timeout", "idle timeout", "output over N bytes", "interrupted"
    pid: int = 0


class _Output:
    """What a process printed, kept up to `limit` bytes a stream; the time of its last byte."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.chunks: dict[str, list[bytes]] = {"stdout": [], "stderr": []}
        self.sizes = {"stdout": 0, "stderr": 0}
        self.last = time.monotonic()
        self.over = False
        self.changed = threading.Condition()

    def read(self, stream: str, fd: int, stop: threading.Event) -> None:
        """Read `fd` to its end, or until `stop` (a process that left the group may hold the pipe open)."""
        try:
            while not stop.is_set():
                ready, _w, _x = select.select([fd], [], [], 0.2)
                if not ready:
                    continue
                chunk = os.read(fd, _CHUNK)
                if not chunk:
                    break
                with self.changed:
                    self.last = time.monotonic()
                    room = self.limit - self.sizes[stream]
                    if room > 0:
                        self.chunks[stream].append(chunk[:room])
                    self.sizes[stream] += len(chunk)
                    if self.sizes[stream] > self.limit:
                        self.over = True
                    self.changed.notify_all()
        except (OSError, ValueError):
            pass
        finally:
            with self.changed:
                self.changed.notify_all()

    def bytes_of(self, stream: str) -> bytes:
        return b"".join(self.chunks[stream])


class Supervisor:
    """Starts agent processes and kills every one still running when told to (`kill_all`, on Ctrl-C)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: dict[int, subprocess.Popen[bytes]] = {}
        self._seen: dict[int, dict[int, str]] = {}  # leader pid -> its descendants seen so far
        self.interrupted = threading.Event()

    def run(self, argv: tuple[str, ...], stdin: bytes, *, env: dict[str, str] | None = None, cwd: str | None = None,
            turn_timeout: float, idle_timeout: float | None, max_output: int,
            on_start: Callable[[int], None] | None = None) -> Finished:
        """Run `argv` to its end or until stopped; OSError when it cannot start (e.g. no such program)."""
        if self.interrupted.is_set():
            return Finished(-signal.SIGINT, b"", b"", 0.0, "interrupted")
        started = time.monotonic()
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=env, cwd=cwd, start_new_session=True, close_fds=True)
        seen: dict[int, str] = {}  # every descendant seen during the turn: killed with the group
        with self._lock:
            self._running[proc.pid] = proc
            self._seen[proc.pid] = seen
        if on_start is not None:
            on_start(proc.pid)
        output = _Output(max_output)
        stop = threading.Event()
        pipes = [(name, pipe.fileno()) for name, pipe in (("stdout", proc.stdout), ("stderr", proc.stderr))
                 if pipe is not None]
        threads = [threading.Thread(target=_feed, args=(proc, stdin, stop), name=f"agent-{proc.pid}-stdin",
                                    daemon=True)]
        threads += [threading.Thread(target=output.read, args=(name, fd, stop), name=f"agent-{proc.pid}-{name}",
                                     daemon=True) for name, fd in pipes]
        for thread in threads:
            thread.start()
        stopped = ""
        try:
            stopped = self._watch(proc, output, started, turn_timeout, idle_timeout, max_output, seen)
        finally:
            # the leader has ended or is to be stopped: nothing of its group, nor any descendant that left it,
            # may outlive the turn
            stop.set()  # first: the prompt's writer may be waiting on a pipe no one reads
            seen.update(descendants(proc.pid))
            _kill_group(proc, graceful=bool(stopped), strays=seen)
            for thread in threads[1:]:
                thread.join(TERM_GRACE)  # the output still in the pipes
            stop.set()  # a process that escaped the group may hold a pipe open: stop reading it
            for thread in threads:
                thread.join()
            for pipe in (proc.stdout, proc.stderr):
                if pipe is not None:
                    pipe.close()
            with self._lock:
                self._running.pop(proc.pid, None)
                self._seen.pop(proc.pid, None)
        if self.interrupted.is_set() and not stopped:
            stopped = "interrupted"
        code = proc.returncode if proc.returncode is not None else -signal.SIGKILL
        return Finished(code, output.bytes_of("stdout"), output.bytes_of("stderr"), time.monotonic() - started,
                        stopped, proc.pid)

    def _watch(self, proc: subprocess.Popen[bytes], output: _Output, started: float, turn_timeout: float,
               idle_timeout: float | None, max_output: int, seen: dict[int, str]) -> str:
        """Wait for the process; the reason it must be stopped, or "" once it has exited.  Its descendants
        are noted in `seen` as it runs (one that leaves the group must still die with it)."""
        looked = 0.0
        while True:
            if time.monotonic() - looked >= POLL:
                seen.update(descendants(proc.pid))
                looked = time.monotonic()
            if proc.poll() is not None:
                return ""
            if self.interrupted.is_set():
                return "interrupted"
            now = time.monotonic()
            with output.changed:
                if output.over:
                    return f"output over {max_output:,} bytes"
                last = output.last
            if now - started >= turn_timeout:
                return f"turn timeout ({turn_timeout:g} s)"
            if idle_timeout is not None and now - max(last, started) >= idle_timeout:
                return f"idle timeout (no output for {idle_timeout:g} s)"
            deadline = started + turn_timeout
            if idle_timeout is not None:
                deadline = min(deadline, max(last, started) + idle_timeout)
            with output.changed:
                output.changed.wait(min(POLL, max(0.01, deadline - now)))

    def kill_all(self) -> None:
        """Ctrl-C: stop every agent still running, its whole process group."""
        self.interrupted.set()
        with self._lock:
            running = [(proc, self._seen.get(pid)) for pid, proc in self._running.items()]
        table = _process_table()
        for proc, seen in running:
            if seen is not None:
                # while the leader lives: once it is gone, a child that left its group is no longer its child
                seen.update(descendants(proc.pid, table))
            _signal_group(proc.pid, signal.SIGTERM)


def _feed(proc: subprocess.Popen[bytes], data: bytes, stop: threading.Event) -> None:
    """Write the prompt and close stdin (a tool that waits on an open stdin would never start).  Never blocks
    past `stop`: a process that holds stdin and never reads it (one that left the group) would otherwise hold
    this thread, and `run`, for ever once the prompt is over the pipe's 64 KiB."""
    if proc.stdin is None:
        return
    fd = proc.stdin.fileno()
    try:
        os.set_blocking(fd, False)
        view = memoryview(data)
        while view and not stop.is_set():
            _r, ready, _x = select.select([], [fd], [], POLL)
            if not ready:
                continue
            try:
                view = view[os.write(fd, view[:_CHUNK]):]
            except BlockingIOError:
                continue
    except (OSError, ValueError):
        pass  # it exited or closed its stdin without reading it all
    finally:
        try:
            proc.stdin.close()
        except OSError:
            pass


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _signal_strays(strays: dict[int, str], sig: int) -> None:
    """Signal each process of `strays` that is still the one seen (same pid and start time), and its own
    descendants (which may have been started since)."""
    table = _process_table()
    targets = {pid: start for pid, start in strays.items() if table.get(pid, (0, ""))[1] == start}
    for pid in list(targets):
        targets.update(descendants(pid, table))
    for pid in targets:
        try:
            os.kill(pid, sig)
        except (ProcessLookupError, PermissionError):
            pass


def _kill_group(proc: subprocess.Popen[bytes], graceful: bool, strays: dict[int, str] | None = None) -> None:
    """SIGTERM to the whole group and the descendants seen outside it, SIGKILL after TERM_GRACE for what is
    left; the leader reaped."""
    strays = strays or {}
    if graceful:
        _signal_group(proc.pid, signal.SIGTERM)
        _signal_strays(strays, signal.SIGTERM)
        try:
            proc.wait(TERM_GRACE)
        except subprocess.TimeoutExpired:
            pass
    # the group id is the leader's pid (start_new_session): what a finished leader left behind dies too
    _signal_group(proc.pid, signal.SIGKILL)
    _signal_strays(strays, signal.SIGKILL)
    try:
        proc.wait(TERM_GRACE)
    except subprocess.TimeoutExpired:
        pass
