from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import tempfile
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any, NamedTuple

import pytest
from click.testing import CliRunner
from helpers import Debate, Turns

from multidebate.cli import cli as cli_group

# `status` keeps an HMAC key in the user's cache folder (state/snapshot.py): never the real one in tests, for
# this process and every command it starts
_CACHE_HOME = tempfile.mkdtemp(prefix="multidebate-test-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE_HOME
atexit.register(shutil.rmtree, _CACHE_HOME, True)
# A shell without job control starts a background job (`pytest ... &`) with SIGINT ignored, every process it
# starts inherits that, and Python then leaves SIGINT ignored: the tests that press Ctrl-C on a child (`next
# --wait`, `watch`, `run`) waited out their timeouts (seen once under load, reproduced with `bash -c 'pytest &
# wait'`).  A handler here resets to the default in every child at exec, so each child's Python handles it.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
# `run` keeps its keys and the agents `init` recorded in the user's private state folder (state/private.py)
_STATE_HOME = tempfile.mkdtemp(prefix="multidebate-test-state-")
os.environ["XDG_STATE_HOME"] = _STATE_HOME
atexit.register(shutil.rmtree, _STATE_HOME, True)


@pytest.fixture(autouse=True)
def no_thread_leak() -> Iterator[None]:
    """Fail a test that leaves a thread running (an observer not stopped and joined)."""
    before = set(threading.enumerate())
    yield
    leaked = [t for t in threading.enumerate() if t not in before and t.is_alive()]
    assert not leaked, f"threads left running: {[t.name for t in leaked]}"


class Outcome(NamedTuple):
    """What a command did: its exit code, stdout and stderr (a tuple, so `code, out, err = cli(...)`)."""

    code: int
    out: str
    err: str

    def json(self) -> Any:
        """stdout read as JSON (what a program reading `--json` gets)."""
        return json.loads(self.out)


class Cli:
    """`multidebate` in this process through click's CliRunner.

    A command that ends in a traceback fails the test here: every error must be a clear message and an exit code
    (SystemExit is how click ends a command with a code)."""

    def __call__(self, *args: str, input: str | bytes | IO[Any] | None = None,
                 env: Mapping[str, str | None] | None = None, color: str | None = None, terminal: bool = False,
                 mixed: bool = False, prog_name: str | None = None, width: int | None = None) -> Outcome:
        """Run `multidebate ARGS`; `color="never"` puts `--color never` before the command.

        `terminal`: stdout is a terminal that shows color, so `--color auto` colors as a person sees it (else
        styles are stripped, as for a pipe). `mixed`: `out` is stdout and stderr interleaved as a terminal shows
        them, for a test that reads what a person sees wherever each line went (`err` is stderr alone).
        `prog_name`: the name the command is called by (shell completion reads its variable from it). `width`: the
        terminal's width, which click's help wraps to (its own default otherwise). `input`: stdin, as text, bytes or
        a file."""
        head = ["--color", color] if color else []
        named: dict[str, Any] = {"prog_name": prog_name} if prog_name else {}  # click's own default otherwise
        if width is not None:
            named["terminal_width"] = width
        result = CliRunner().invoke(cli_group, [*head, *args], input=input, env=env, color=terminal, **named)
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        return Outcome(result.exit_code, result.output if mixed else result.stdout, result.stderr)

    def json(self, *args: str, code: int = 0, **options: Any) -> Any:
        """Run `multidebate ARGS --json`, check it ended with `code`, and return its output read as JSON."""
        outcome = self(*args, "--json", **options)
        assert outcome.code == code, outcome
        return outcome.json()


@pytest.fixture
def cli() -> Cli:
    """Run a command: `code, out, err = cli("status", folder)`; `cli.json("status", folder)` for `--json`."""
    return Cli()


class DebateFactory:
    """Debate folders under one test's tmp_path, each built as sessions build it (`next`, then `write`)."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._made = 0

    def __call__(self, turns: Turns | None = None, task: str = "Pick a config format.",
                 participants: tuple[str, ...] | None = None, max_turns: int | None = None,
                 min_turns: int | None = None, sealed: bool = False, name: str | None = None) -> Debate:
        self._made += 1
        folder = str(self._root / (name or f"debate-{self._made}"))
        return Debate(folder).create(task, participants, max_turns, min_turns, sealed).play(turns or [])


@pytest.fixture
def debate(tmp_path: Path) -> DebateFactory:
    """Make a debate: `d = debate([{"a": "Use TOML.", "b": "Use YAML."}])`; `d.write(slug, body)` writes its
    next turn with the slug's key, `d.key(slug)` is that key and `d.folder` the path."""
    return DebateFactory(tmp_path)
