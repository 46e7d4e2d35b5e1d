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
from collections.abc import Callable
from dataclasses import dataclass

from ..analysis.integrity import file_problems
from ..analysis.verdict import Verdict, judge
from ..protocol.errors import (
    AgentSpecError,
    FolderError,
    IdentityError,
    RunFailed,
    TaskError,
)
from ..state.debate import Debate, load_debate
from ..state.private import agents_record, record_agents
from ..state.runs import foreign_turns, held_key
from ..state.task import TASK_FILE, require_readable
from ..turns.briefing import Briefing, BriefingPlan, brief, plan_briefing
from .agents import Agent, missing_tool, parse_spec, same_models
from .events import (
    Done,
    RunEvent,
    SameModel,
    Started,
    TurnCost,
    VerdictChanged,
    Waiting,
    Written,
)
from .lock import run_lock
from .supervise import Supervisor
from .tools import tool_version
from .turn import RETRIES, AgentTurn, RunOptions

__all__ = ["RETRIES", "Confirm", "RunFailed", "RunOptions", "RunOutcome", "agents_for", "run_debate", "unrecorded"]

WAIT_STEP = 1.0  # seconds: how often the live lines are redrawn while a person's session is awaited


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
    """One round: every due agent's turn (turn.py) in its own thread, their events relayed to the main thread
    through a queue, and what the round cost, wrote and failed."""

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

    def play(self, agent: Agent, briefing: Briefing) -> None:
        """One agent's turn, in a worker thread: its events go to the queue, its end to the round's account."""
        ended = AgentTurn(self.folder, agent, briefing, self.options, self.supervisor,
                          self.versions.get(agent.program, ""), self.events.put, self.started).play()
        if ended is None:
            return  # interrupted: nothing written, nothing to say
        with self.lock:
            self.cost = self.cost + ended.cost
            if isinstance(ended, Written):
                self.written += 1
            else:
                self.failures.append(f"{agent.slug} failed turn {ended.turn}: {ended.reason}")
        self.events.put(ended)

    def run(self, due: list[Agent], emit: Emit, tick: Callable[[], None] | None) -> None:
        """Brief every due agent (as `next` would, recording what it served), then run them all at once."""
        threads = []
        for agent in due:
            briefing = brief(self.folder, agent.slug, key=held_key(self.folder, agent.slug))
            thread = threading.Thread(target=self.play, args=(agent, briefing), name=f"run-{agent.slug}")
            threads.append(thread)
        for thread in threads:
            thread.start()
        try:
            while any(t.is_alive() for t in threads) or not self.events.empty():
                try:
                    emit(self.events.get(timeout=1.0))
                except queue.Empty:
                    if tick is not None:
                        tick()
        except KeyboardInterrupt:
            self.supervisor.kill_all()
            for thread in threads:
                thread.join()
            raise


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
    described = tuple((a.slug, a.label if a.preset else a.command_line()) for a in agents)
    emit(Started(folder, tuple((a.slug, a.label) for a in agents), tuple((a.slug, a.command_line()) for a in agents),
                 described, tuple(persons), at=0.0))
    for group in same_models(agents):
        emit(SameModel(tuple(group), at=time.monotonic() - started))
    _check_tools(agents)  # before any agent starts: a tool missing half-way would leave a turn half-played
    total, written = TurnCost(), 0
    shown: tuple[str, int] | None = None
    while True:
        debate = load_debate(folder)
        _check_foreign(debate, agents)
        verdict = judge(debate, file_problems(debate))
        if (verdict.state, verdict.turn) != shown:
            shown = (verdict.state, verdict.turn)
            emit(VerdictChanged(verdict.state, verdict.turn, verdict.detail, at=time.monotonic() - started))
        plans = _plans(debate, agents)
        due = [a for a in agents if _due(plans[a.slug].briefing)]
        if due:
            round_ = _Round(folder, options, supervisor, started, versions)
            round_.run(due, emit, tick)
            total, written = total + round_.cost, written + round_.written
            if round_.failures:
                raise RunFailed(round_.failures[0] + (f" (and {len(round_.failures) - 1} more)"
                                                      if len(round_.failures) > 1 else ""))
            continue
        if verdict.final:
            break
        _await_people(folder, agents, plans, options, emit, started, tick)
    seconds = time.monotonic() - started
    emit(Done(verdict.state, verdict.turn, TurnCost(seconds, total.tokens_in, total.tokens_out, total.cost_usd),
              written, f"multidebate report {shlex.quote(folder)}", at=seconds))
    return RunOutcome(folder, verdict, seconds, written, total)


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
    emit(Waiting(briefing.reads, tuple(owed), at=time.monotonic() - started))
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
