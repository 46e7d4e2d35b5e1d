"""`run`: drive a debate to its end, starting each participant's agent every turn and writing its turn.

Each round, every agent whose turn is due (its peers have written the turn it reads, and the debate has not
ended) is briefed as `next` briefs a session, then all of them run in parallel; each reply goes through
`write_turn`, the code of `write`, with the key `run` holds for that participant.  A reply `write` refuses goes
back to the agent with the refusal, up to RETRIES more times; then the participant has failed the turn and
`run` stops (RunFailed) once the others have finished theirs.  A participant without an agent is a person's
session: `run` waits for its turn as `next --wait` does.  Running again resumes where the files stand.
"""

from __future__ import annotations

import os
import queue
import shlex
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone

from ..analysis.integrity import file_problems
from ..analysis.verdict import Verdict, judge
from ..protocol.errors import (
    AgentSpecError,
    FolderError,
    IdentityError,
    InvalidTurn,
    MultidebateError,
    RunFailed,
    TaskError,
)
from ..state.debate import Debate, load_debate
from ..state.layout import sealed_dir
from ..state.private import agents_record, record_agents
from ..state.runs import (
    append_run_record,
    foreign_turns,
    held_key,
    hold_key,
    record_written,
)
from ..state.task import TASK_FILE, require_readable
from ..turns.briefing import Briefing, BriefingPlan, brief, plan_briefing
from ..turns.write import WriteResult, write_turn
from .agents import Agent, missing_tool, parse_spec, same_models
from .events import RunEvent, TurnCost
from .lock import run_lock
from .prompt import agent_prompt, retry_prompt, sections_of
from .supervise import Supervisor
from .tools import tool_version

__all__ = ["RETRIES", "Confirm", "RunFailed", "RunOptions", "RunOutcome", "agent_environment", "agents_for",
           "run_debate", "unrecorded"]

RETRIES = 2  # more tries after `write` refused a reply
WAIT_STEP = 1.0  # seconds: how often the live lines are redrawn while a person's session is awaited


@dataclass(frozen=True)
class RunOptions:
    """Bounds on each agent process, and how long to wait for a person's session."""

    turn_timeout: float = 600.0
    idle_timeout: float | None = 300.0
    max_output: int = 4 * 1024 * 1024
    wait_timeout: float = 3600.0
    retries: int = RETRIES
    cwd: str | None = None  # where agents run: the current folder (the user's code)


@dataclass(frozen=True)
class RunOutcome:
    """How the debate ended and what it cost."""

    folder: str
    verdict: Verdict
    seconds: float
    turns: int  # agent turns written by this run
    cost: TurnCost


Emit = Callable[[RunEvent], None]
# told the agents TASK.md names that the person never recorded, as (slug, full command line): start them?
Confirm = Callable[[list[tuple[str, str]]], bool]


def agents_for(debate: Debate, given: list[Agent]) -> list[Agent]:
    """The agents of this debate: those given on the command line, and only those (#33: TASK.md is a shared
    file, so a slug the person meant to play must not gain an agent from it); else TASK.md's `agents:`."""
    if given:
        return list(given)
    recorded = debate.task.agents if debate.task is not None else ()
    agents = []
    for slug, spec in recorded:
        try:
            agents.append(parse_spec(slug, spec))
        except AgentSpecError as exc:
            raise RunFailed(f"{TASK_FILE}: {exc}") from exc
    return agents


def unrecorded(folder: str, agents: list[Agent]) -> list[Agent]:
    """Of TASK.md's agents, those the person's own `init` (or an earlier confirmation) did not record for this
    folder, in the record only this user can write (state/private.py): any other writer of the folder may have
    put them there."""
    record = agents_record(folder) or {}
    return [agent for agent in agents if record.get(agent.slug) != agent.spec]


def _confirm_agents(folder: str, agents: list[Agent], confirm: Confirm | None) -> None:
    """Nothing TASK.md says starts a program the person has not seen and confirmed: RunFailed unless `confirm`
    says yes to every unrecorded agent's full command line (which is then recorded)."""
    strangers = unrecorded(folder, agents)
    if not strangers:
        return
    lines = [(agent.slug, agent.command_line()) for agent in strangers]
    if confirm is None or not confirm(lines):
        shown = "".join(f"\n  {slug}: {line}" for slug, line in lines)
        raise RunFailed(f"{TASK_FILE} names agents that your own `multidebate init` did not record for this folder "
                        f"({TASK_FILE} is shared: anyone writing in the folder can change it). `run` would start:"
                        f"{shown}\nNothing was started. If these are the commands you mean, run again with --yes (it "
                        "starts them and records them as yours), or name each agent with --agent SLUG=AGENT")
    try:
        record_agents(folder, {agent.slug: agent.spec for agent in strangers})
    except OSError:
        pass  # confirmed for this run; the next one asks again


def _check_tools(agents: list[Agent]) -> None:
    """Every agent's program is on PATH before any starts (else the first turn fails half-way)."""
    missing = [why for why in (missing_tool(agent) for agent in agents) if why]
    if missing:
        raise RunFailed("; ".join(missing))


def _check_foreign(debate: Debate, agents: list[Agent]) -> None:
    """A turn written as a participant `run` drives, by anyone but `run` (with the key it holds), is found."""
    for agent in agents:
        files = {turn: found.path for turn, found in debate.scan.by_slug.get(agent.slug, {}).items()}
        foreign = foreign_turns(debate.folder, agent.slug, files)
        if foreign:
            raise RunFailed(f"{', '.join(foreign)} {'was' if len(foreign) == 1 else 'were'} written as `{agent.slug}` "
                            f"but not by `run`, which drives `{agent.slug}` and holds its key: someone wrote as its "
                            "agent. Read the file; delete it for the agent to write that turn, or give "
                            f"`{agent.slug}` no agent")


def _check_roster(debate: Debate, agents: list[Agent]) -> None:
    task = debate.task
    if not agents:
        raise RunFailed("no participant has an agent: give --agent SLUG=PRESET[:MODEL] (e.g. --agent opus=claude:"
                        "opus), or record them with `multidebate init --agent`")
    debaters = set(task.participants if task is not None and task.participants else
                   {a.slug for a in agents} | set(debate.participants)) - {task.judge if task is not None else None}
    if len(debaters) < 2:
        raise RunFailed("a debate needs two participants: give a second --agent, or a roster (`init "
                        "--participants`) naming the sessions people run")
    if task is None or not task.participants:
        return
    allowed = set(task.participants) | ({task.judge} if task.judge else set())
    strangers = [a.slug for a in agents if a.slug not in allowed]
    if strangers:
        raise RunFailed(f"{', '.join(strangers)} {'is' if len(strangers) == 1 else 'are'} not on the roster "
                        f"({', '.join(task.participants)}): an agent drives a participant")


class _Round:
    """One round of agent turns running in parallel threads, reporting to the main thread through a queue."""

    def __init__(self, folder: str, options: RunOptions, supervisor: Supervisor, started: float,
                 versions: dict[str, str]) -> None:
        self.folder = folder
        self.options = options
        self.supervisor = supervisor
        self.started = started
        self.versions = versions
        self.events: queue.Queue[RunEvent] = queue.Queue()
        self.failures: list[str] = []
        self.cost = TurnCost()
        self.written = 0
        self.lock = threading.Lock()

    def event(self, kind: str, message: str, slug: str = "", turn: int = 0, **data: object) -> None:
        self.events.put(RunEvent(kind, message, slug, turn, time.monotonic() - self.started, dict(data)))

    def play(self, agent: Agent, briefing: Briefing) -> None:
        """One agent's turn: prompt, run, write (retrying a refused reply); never raises."""
        try:
            self._play(agent, briefing)
        except Exception as exc:  # a worker thread must report, never die silently
            self._fail(agent, briefing.turn, f"{type(exc).__name__}: {exc}", TurnCost(), 0)

    def _play(self, agent: Agent, briefing: Briefing) -> None:
        turn = briefing.turn
        prompt = agent_prompt(briefing)
        asked = prompt
        spent = TurnCost()
        env = agent_environment(os.environ)
        for attempt in range(1, self.options.retries + 2):
            self.event("thinking", f"thinking (try {attempt})" if attempt > 1 else "thinking", agent.slug, turn,
                       attempt=attempt)
            try:
                invocation = agent.invocation(asked)
            except AgentSpecError as exc:
                return self._fail(agent, turn, str(exc), spent, attempt)
            try:
                done = self.supervisor.run(invocation.argv, invocation.stdin, env={**env, **dict(invocation.env)},
                                           cwd=self.options.cwd, turn_timeout=self.options.turn_timeout,
                                           # a tool silent until its one JSON answer is bounded by the turn
                                           idle_timeout=self.options.idle_timeout if agent.streams else None,
                                           max_output=self.options.max_output)
            except OSError as exc:
                return self._fail(agent, turn, f"cannot start {agent.program}: {exc.strerror or exc}", spent, attempt)
            if done.stopped == "interrupted" or self.supervisor.interrupted.is_set():
                return  # Ctrl-C: nothing is written
            reply = agent.read_reply(done.stdout, done.exit_code, done.stderr)
            spent = spent + TurnCost(done.duration, reply.tokens_in, reply.tokens_out, reply.cost_usd)
            if done.stopped:
                # what the tool itself said, never the exit status of the SIGTERM `run` sent it
                said = agent.last_words(done.stdout, done.stderr)
                return self._fail(agent, turn, f"{agent.name}: stopped: {done.stopped}"
                                  + (f"; it last said: {said}" if said else ""), spent, attempt)
            if reply.error:
                return self._fail(agent, turn, reply.error, spent, attempt)
            sections = sections_of(reply.text)
            try:
                # the key kept before the file exists: a `run` killed between the two leaves no slug claimed
                # with its key nowhere; the briefed turn, so a second writer's turn is never answered twice
                result = write_turn(self.folder, agent.slug, sections.encode("utf-8"), briefing.key,
                                    on_key=lambda claimed: hold_key(self.folder, agent.slug, claimed.key or "",
                                                                    claimed.turn),
                                    expect_turn=turn)
            except InvalidTurn as exc:
                why = f"{exc}" + (f": {exc.problems[0]}" if exc.problems else "")
                if attempt > self.options.retries:
                    return self._fail(agent, turn, f"`write` refused its reply {attempt} times; last: {why}", spent,
                                      attempt)
                self.event("retrying", f"retrying: {why}", agent.slug, turn, attempt=attempt)
                asked = retry_prompt(prompt, reply.text, str(exc), exc.problems)
                continue
            except MultidebateError as exc:
                return self._fail(agent, turn, str(exc), spent, attempt)
            if result.key and held_key(self.folder, agent.slug) != result.key:
                try:  # a judgment claims its slug without on_key: its key is kept once it is written
                    hold_key(self.folder, agent.slug, result.key, result.turn)
                except OSError as exc:
                    return self._fail(agent, turn, f"wrote {os.path.basename(result.path)} but cannot keep its key "
                                      f"({exc.strerror or exc}); run `multidebate handover {shlex.quote(self.folder)} "
                                      f"{agent.slug}` and give the participant no agent", spent, attempt)
            self._keep_written(result)
            self._record(agent, turn, spent, attempt, "written", "")
            with self.lock:
                self.cost = self.cost + spent
                self.written += 1
            self.event("written", f"wrote {os.path.basename(result.path)} ({spent.describe()})", agent.slug, turn,
                       file=os.path.basename(result.path), cost=spent.as_dict(), attempts=attempt)
            return None
        return None

    def _keep_written(self, result: WriteResult) -> None:
        name = os.path.basename(result.path)
        where = os.path.join(sealed_dir(self.folder), name) if result.sealed and not os.path.exists(result.path) \
            else result.path
        try:
            record_written(self.folder, name, where)
        except OSError:
            pass  # the turn is written; the next `run` will say it cannot tell who wrote it

    def _fail(self, agent: Agent, turn: int, reason: str, spent: TurnCost, attempts: int) -> None:
        with self.lock:
            self.failures.append(f"{agent.slug} failed turn {turn}: {reason}")
            self.cost = self.cost + spent
        self._record(agent, turn, spent, attempts, "failed", reason)
        self.event("failed", f"failed: {reason}", agent.slug, turn, reason=reason, cost=spent.as_dict())

    def _record(self, agent: Agent, turn: int, spent: TurnCost, attempts: int, outcome: str, reason: str) -> None:
        version = self.versions.get(agent.program, "")
        try:
            append_run_record(self.folder, {
                "turn": turn, "slug": agent.slug, "agent": agent.label,
                "preset": agent.preset.name if agent.preset else "cmd", "model": agent.model,
                "tool": agent.program if agent.preset else agent.command_name,
                "tool_version": version, "attempts": attempts, "outcome": outcome, "reason": reason or None,
                "at": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), **spent.as_dict()})
        except OSError:
            pass  # the turn itself is written; the record is an account of it


# a person's session key in the environment (`next`/`write` read it): no agent may write as that person
_PRIVATE = ("MULTIDEBATE_KEY",)


def agent_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """What an agent's process inherits: the user's environment (its tool's credentials included), without
    multidebate's own secrets."""
    return {name: value for name, value in environ.items() if name not in _PRIVATE}


def _plans(debate: Debate, agents: list[Agent]) -> dict[str, BriefingPlan]:
    plans = {}
    for agent in agents:
        try:
            plans[agent.slug] = plan_briefing(debate, agent.slug, key=held_key(debate.folder, agent.slug))
        except IdentityError as exc:
            raise RunFailed(f"`{agent.slug}` belongs to a session whose key `run` does not hold ({exc}). Give that "
                            "participant no agent, or delete its .multidebate/keys file to let `run` claim it") from exc
        except TaskError as exc:
            raise RunFailed(str(exc)) from exc
    return plans


def _due(briefing: Briefing) -> bool:
    """The agent's turn can run now: the debate goes on for it and every peer wrote what it reads."""
    if briefing.debate_over or briefing.waiting:
        return False
    return not (briefing.max_turns is not None and briefing.turn > briefing.max_turns)


def run_debate(folder: str, given: list[Agent], options: RunOptions, emit: Emit,
               tick: Callable[[], None] | None = None, supervisor: Supervisor | None = None,
               confirm: Confirm | None = None) -> RunOutcome:
    """Drive the debate in `folder` to its end (see the module doc); `emit` is told every event, `tick` is
    called about once a second while agents think; `confirm` is asked before TASK.md's agents the person never
    recorded start (None: they do not).  RunFailed when a participant fails, or another `run` drives the
    folder; KeyboardInterrupt (after every agent's process group is killed, nothing half-written) when
    interrupted."""
    if not os.path.isdir(folder):
        raise FolderError(f"no such folder: {folder}")
    with run_lock(folder):
        return _run(folder, given, options, emit, tick, supervisor or Supervisor(), confirm)


def _run(folder: str, given: list[Agent], options: RunOptions, emit: Emit, tick: Callable[[], None] | None,
         supervisor: Supervisor, confirm: Confirm | None) -> RunOutcome:
    started = time.monotonic()
    debate = load_debate(folder)
    if debate.task is None:
        raise FolderError(f"{folder} has no {TASK_FILE}: create it with `multidebate init {folder} --task ...`")
    require_readable(debate.task)
    agents = agents_for(debate, given)
    _check_roster(debate, agents)
    if not given:
        _confirm_agents(folder, agents, confirm)
    versions = {agent.program: tool_version(agent.program) for agent in agents if agent.preset is not None}
    persons = [s for s in debate.participants if s not in {a.slug for a in agents}]
    # a custom agent by its whole command line: the person sees what runs
    who = ", ".join(f"{a.slug} = {a.label if a.preset else a.command_line()}" for a in agents)
    emit(RunEvent("started", f"{folder}: agents {who}" + (f"; sessions people run: {', '.join(persons)}"
                                                          if persons else ""), at=0.0,
                  data={"agents": {a.slug: a.label for a in agents}, "people": persons,
                        "commands": {a.slug: a.command_line() for a in agents}}))
    for group in same_models(agents):
        emit(RunEvent("warning", f"{', '.join(group)} run the same model: the same priors agree without "
                      "debating", at=time.monotonic() - started, data={"slugs": list(group)}))
    _check_tools(agents)  # before any agent starts: a tool missing half-way would leave a turn half-played
    total, written = TurnCost(), 0
    shown: tuple[str, int] | None = None
    while True:
        debate = load_debate(folder)
        _check_foreign(debate, agents)
        verdict = judge(debate, file_problems(debate))
        if (verdict.state, verdict.turn) != shown:
            shown = (verdict.state, verdict.turn)
            emit(RunEvent("verdict", f"{verdict.state} at turn {verdict.turn}: {verdict.detail}",
                          turn=verdict.turn, at=time.monotonic() - started, data={"state": verdict.state}))
        plans = _plans(debate, agents)
        due = [a for a in agents if _due(plans[a.slug].briefing)]
        if due:
            round_ = _Round(folder, options, supervisor, started, versions)
            _play_round(round_, due, emit, tick)
            total, written = total + round_.cost, written + round_.written
            if round_.failures:
                raise RunFailed(round_.failures[0] + (f" (and {len(round_.failures) - 1} more)"
                                                      if len(round_.failures) > 1 else ""))
            continue
        if verdict.final:
            break
        _await_people(folder, agents, plans, options, emit, started, tick)
    seconds = time.monotonic() - started
    emit(RunEvent("done", f"the debate ended: {verdict.state} at turn {verdict.turn}", turn=verdict.turn, at=seconds,
                  data={"state": verdict.state, "cost": TurnCost(seconds, total.tokens_in, total.tokens_out,
                                                                  total.cost_usd).as_dict(), "turns_written": written,
                        "report": f"multidebate report {shlex.quote(folder)}"}))
    return RunOutcome(folder, verdict, seconds, written, total)


def _play_round(round_: _Round, due: list[Agent], emit: Emit, tick: Callable[[], None] | None) -> None:
    """Brief every due agent (as `next` would, recording what it served), then run them all at once."""
    threads = []
    for agent in due:
        briefing = brief(round_.folder, agent.slug, key=held_key(round_.folder, agent.slug))
        thread = threading.Thread(target=round_.play, args=(agent, briefing), name=f"run-{agent.slug}")
        threads.append(thread)
    for thread in threads:
        thread.start()
    try:
        while any(t.is_alive() for t in threads) or not round_.events.empty():
            try:
                emit(round_.events.get(timeout=1.0))
            except queue.Empty:
                if tick is not None:
                    tick()
    except KeyboardInterrupt:
        round_.supervisor.kill_all()
        for thread in threads:
            thread.join()
        raise


def _await_people(folder: str, agents: list[Agent], plans: dict[str, BriefingPlan], options: RunOptions,
                  emit: Emit, started: float, tick: Callable[[], None] | None) -> None:
    """No agent can go on: wait, as `next --wait` does, for the people's sessions that owe a turn."""
    from ..turns.waiting import brief_when_ready

    agent_slugs = {a.slug for a in agents}
    waiting = [(plans[a.slug].briefing, a) for a in agents if plans[a.slug].briefing.waiting
               and not plans[a.slug].briefing.debate_over]
    owed = sorted({s for b, _a in waiting for s in b.waiting} - agent_slugs)
    if not owed:
        states = "; ".join(f"{a.slug}: turn {plans[a.slug].briefing.turn}" for a in agents)
        raise RunFailed(f"no agent can take a turn and no person's session owes one ({states}); the debate has "
                        "not ended: see `multidebate status`")
    briefing, agent = min(waiting, key=lambda pair: pair[0].turn)
    emit(RunEvent("waiting", f"waiting for {', '.join(owed)} (sessions people run) to write turn {briefing.reads}",
                  turn=briefing.reads, at=time.monotonic() - started, data={"waiting_for": owed}))
    deadline = time.monotonic() + options.wait_timeout
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            again = plan_briefing(load_debate(folder), agent.slug, key=held_key(folder, agent.slug)).briefing
            still = sorted(set(again.waiting) - agent_slugs)
            if not still:
                return
            raise RunFailed(f"waited {options.wait_timeout:g} s for {', '.join(still)} to write turn {again.reads}; "
                            "run again to keep waiting")
        # a second at a time, so the live lines keep counting; `next --wait` decides when a file is written
        step = min(remaining, WAIT_STEP)
        began = time.monotonic()
        brief_when_ready(folder, agent.slug, key=held_key(folder, agent.slug), timeout=step)
        if time.monotonic() - began < step:
            return  # it answered before its timeout: the peers it waited for have written
        if tick is not None:
            tick()
