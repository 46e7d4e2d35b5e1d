"""`doctor`: which agent tools are here and their versions, where the skill is installed, and (probing) whether
each agent answers a tiny prompt, with the reason when it does not."""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from ..skill.install import survey
from .agents import PRESETS, Agent, parse_spec, same_models
from .environment import agent_environment
from .supervise import Supervisor
from .tools import tool_version, which

__all__ = ["NOTHING_TO_PROBE", "PROBE_PROMPT", "Probe", "Tool", "check_tools", "doctor", "probe"]

PROBE_PROMPT = "This is a connection check. Reply with the single word: ok\n"
# --probe found nothing to run: a probe that checked nothing must not pass for one that succeeded (exit 1)
NOTHING_TO_PROBE = ("nothing to probe: no agent tool is on PATH and no --agent was given. Install a tool (the list "
                    "above says where from), or probe a custom agent: --agent SLUG='cmd:COMMAND LINE'")


@dataclass(frozen=True)
class Tool:
    """One preset's program: where it is on PATH (None: not found) and the version it reports."""

    preset: str
    title: str
    program: str
    path: str | None
    version: str
    package: str
    permissions: str

    def as_dict(self) -> dict[str, object]:
        return {"preset": self.preset, "title": self.title, "program": self.program, "path": self.path,
                "version": self.version or None, "package": self.package, "permissions": self.permissions}


@dataclass(frozen=True)
class Probe:
    """Whether an agent answered the tiny prompt, how fast, and why not."""

    slug: str
    agent: str
    ok: bool
    seconds: float
    reason: str = ""
    answer: str = ""

    def as_dict(self) -> dict[str, object]:
        return {"slug": self.slug, "agent": self.agent, "ok": self.ok, "seconds": round(self.seconds, 2),
                "reason": self.reason or None, "answer": self.answer or None}


def check_tools() -> list[Tool]:
    """Every preset's program, looked up on PATH, its version asked for in parallel (each with a timeout)."""
    found = {name: which(p.program) for name, p in PRESETS.items()}
    with ThreadPoolExecutor(max_workers=4) as pool:
        versions = dict(zip(PRESETS, pool.map(lambda n: tool_version(PRESETS[n].program) if found[n] else "",
                                              PRESETS)))
    return [Tool(name, p.title, p.program, found[name], versions[name], p.package, p.permissions)
            for name, p in PRESETS.items()]


def probe(agent: Agent, timeout: float) -> Probe:
    """Run `agent` on PROBE_PROMPT for at most `timeout` seconds."""
    started = time.monotonic()
    try:
        invocation = agent.invocation(PROBE_PROMPT)
        done = Supervisor().run(invocation.argv, invocation.stdin,
                                env={**agent_environment(os.environ), **dict(invocation.env)},
                                turn_timeout=timeout, idle_timeout=None, max_output=1024 * 1024)
    except OSError as exc:
        return Probe(agent.slug, agent.label, False, time.monotonic() - started,
                     f"cannot start {agent.program}: {exc.strerror or exc}")
    reply = agent.read_reply(done.stdout, done.exit_code, done.stderr)
    if done.stopped:
        last = agent.last_words(done.stdout, done.stderr)  # never the status of the signal that stopped it
        said = f"; it last said: {last}" if last else ""
        return Probe(agent.slug, agent.label, False, done.duration, f"{agent.name}: stopped: {done.stopped}{said}")
    if reply.error:
        return Probe(agent.slug, agent.label, False, done.duration, reply.error)
    return Probe(agent.slug, agent.label, True, done.duration, answer=" ".join(reply.text.split())[:80])


@dataclass(frozen=True)
class DoctorReport:
    tools: list[Tool]
    skills: list[dict[str, object]]
    probes: list[Probe]
    warnings: list[str]

    def as_dict(self) -> dict[str, object]:
        return {"tools": [t.as_dict() for t in self.tools], "skills": self.skills,
                "probes": [p.as_dict() for p in self.probes], "warnings": self.warnings}


def doctor(agents: list[Agent], probing: bool, timeout: float) -> DoctorReport:
    """The whole check; with `probing`, each agent (every preset found on PATH when none is given) is probed."""
    tools = check_tools()
    skills = [copy.as_dict() for copy in survey()]
    if probing and not agents:
        agents = [parse_spec(t.preset, t.preset) for t in tools if t.path is not None]
    probes: list[Probe] = []
    if probing and agents:
        with ThreadPoolExecutor(max_workers=min(8, len(agents))) as pool:
            probes = list(pool.map(lambda a: probe(a, timeout), agents))
    warnings = [f"{', '.join(group)} run the same model: the same priors agree without debating"
                for group in same_models(agents)]
    if probing and not probes:
        warnings.append(NOTHING_TO_PROBE)
    return DoctorReport(tools, skills, probes, warnings)
