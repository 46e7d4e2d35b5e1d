"""One agent's turn in `run`: prompt it, run it within its bounds, write its reply with the code of `write`,
and hand a refused reply back to it, up to `retries` more times.

The round (loop.py) schedules turns, one thread each; a turn reports as it goes (thinking, retrying) through
`tell`, and ends as the event that says how: Written, Failed, or None when `run` was interrupted.
"""

from __future__ import annotations

import os
import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone

from ..api import DebateFolder
from ..protocol.errors import AgentSpecError, InvalidTurn, MultidebateError
from ..state.layout import sealed_dir
from ..state.runs import append_run_record, held_key, hold_key, record_written
from ..turns.briefing import Briefing
from ..turns.write import WriteResult
from .agents import Agent
from .environment import agent_environment
from .events import Failed, Retrying, Thinking, TurnCost, Written
from .prompt import agent_prompt, retry_prompt, sections_of
from .supervise import Supervisor

__all__ = ["RETRIES", "RunOptions", "AgentTurn"]

RETRIES = 2  # more tries after `write` refused a reply


@dataclass(frozen=True)
class RunOptions:
    """Bounds on each agent process, and how long to wait for a person's session."""

    turn_timeout: float = 600.0
    idle_timeout: float | None = 300.0
    max_output: int = 4 * 1024 * 1024
    wait_timeout: float = 3600.0
    retries: int = RETRIES
    cwd: str | None = None  # where agents run: the current folder (the user's code)


class AgentTurn:
    """`agent`'s turn as `briefing` briefs it (see the module doc)."""

    def __init__(self, folder: str, agent: Agent, briefing: Briefing, options: RunOptions, supervisor: Supervisor,
                 tool_version: str, tell: Callable[[Thinking | Retrying], None], started: float) -> None:
        self.folder = folder
        self.agent = agent
        self.briefing = briefing
        self.options = options
        self.supervisor = supervisor
        self.tool_version = tool_version
        self.tell = tell
        self.started = started

    def _at(self) -> float:
        return time.monotonic() - self.started

    def play(self) -> Written | Failed | None:
        """Play the turn; never raises (an error fails the turn).  None: interrupted, nothing written."""
        try:
            return self._play()
        except Exception as exc:  # a worker thread must report, never die silently
            return self._fail(f"{type(exc).__name__}: {exc}", TurnCost(), 0)

    def _play(self) -> Written | Failed | None:
        agent, turn = self.agent, self.briefing.turn
        prompt = agent_prompt(self.briefing)
        asked = prompt
        spent = TurnCost()
        env = agent_environment(os.environ)
        for attempt in range(1, self.options.retries + 2):
            self.tell(Thinking(agent.slug, turn, attempt, self._at()))
            try:
                invocation = agent.invocation(asked)
            except AgentSpecError as exc:
                return self._fail(str(exc), spent, attempt)
            try:
                done = self.supervisor.run(invocation.argv, invocation.stdin, env={**env, **dict(invocation.env)},
                                           cwd=self.options.cwd, turn_timeout=self.options.turn_timeout,
                                           # a tool silent until its one JSON answer is bounded by the turn
                                           idle_timeout=self.options.idle_timeout if agent.streams else None,
                                           max_output=self.options.max_output)
            except OSError as exc:
                return self._fail(f"cannot start {agent.program}: {exc.strerror or exc}", spent, attempt)
            if done.stopped == "interrupted" or self.supervisor.interrupted.is_set():
                return None  # Ctrl-C: nothing is written
            reply = agent.read_reply(done.stdout, done.exit_code, done.stderr)
            spent = spent + TurnCost(done.duration, reply.tokens_in, reply.tokens_out, reply.cost_usd)
            if done.stopped:
                # what the tool itself said, never the exit status of the SIGTERM `run` sent it
                said = agent.last_words(done.stdout, done.stderr)
                return self._fail(f"{agent.name}: stopped: {done.stopped}" + (f"; it last said: {said}" if said else ""),
                                  spent, attempt)
            if reply.error:
                return self._fail(reply.error, spent, attempt)
            sections = sections_of(reply.text)
            try:
                # the key kept before the file exists: a `run` killed between the two leaves no slug claimed
                # with its key nowhere; the briefed turn, so a second writer's turn is never answered twice
                result = DebateFolder(self.folder).write(
                    agent.slug, sections, key=self.briefing.key, expect_turn=turn,
                    on_key=lambda claimed: hold_key(self.folder, agent.slug, claimed.key or "", claimed.turn))
            except InvalidTurn as exc:
                why = f"{exc}" + (f": {exc.problems[0]}" if exc.problems else "")
                if attempt > self.options.retries:
                    return self._fail(f"`write` refused its reply {attempt} times; last: {why}", spent, attempt)
                self.tell(Retrying(agent.slug, turn, attempt, why, self._at()))
                asked = retry_prompt(prompt, reply.text, str(exc), exc.problems)
                continue
            except MultidebateError as exc:
                return self._fail(str(exc), spent, attempt)
            return self._written(result, spent, attempt)
        return None

    def _written(self, result: WriteResult, spent: TurnCost, attempt: int) -> Written | Failed:
        agent = self.agent
        if result.key and held_key(self.folder, agent.slug) != result.key:
            try:  # a judgment claims its slug without on_key: its key is kept once it is written
                hold_key(self.folder, agent.slug, result.key, result.turn)
            except OSError as exc:
                return self._fail(f"wrote {os.path.basename(result.path)} but cannot keep its key "
                                  f"({exc.strerror or exc}); run `multidebate handover {shlex.quote(self.folder)} "
                                  f"{agent.slug}` and give the participant no agent", spent, attempt)
        self._keep_written(result)
        self._record(spent, attempt, "written", "")
        return Written(agent.slug, self.briefing.turn, os.path.basename(result.path), spent, attempt, self._at())

    def _keep_written(self, result: WriteResult) -> None:
        name = os.path.basename(result.path)
        where = os.path.join(sealed_dir(self.folder), name) if result.sealed and not os.path.exists(result.path) \
            else result.path
        try:
            record_written(self.folder, name, where)
        except OSError:
            pass  # the turn is written; the next `run` will say it cannot tell who wrote it

    def _fail(self, reason: str, spent: TurnCost, attempts: int) -> Failed:
        self._record(spent, attempts, "failed", reason)
        return Failed(self.agent.slug, self.briefing.turn, reason, spent, self._at())

    def _record(self, spent: TurnCost, attempts: int, outcome: str, reason: str) -> None:
        agent = self.agent
        try:
            append_run_record(self.folder, {
                "turn": self.briefing.turn, "slug": agent.slug, "agent": agent.label,
                "preset": agent.preset.name if agent.preset else "cmd", "model": agent.model,
                "tool": agent.program if agent.preset else agent.command_name,
                "tool_version": self.tool_version, "attempts": attempts, "outcome": outcome, "reason": reason or None,
                "at": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), **spent.as_dict()})
        except OSError:
            pass  # the turn itself is written; the record is an account of it
