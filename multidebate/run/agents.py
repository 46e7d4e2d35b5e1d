"""Agents: how to start each assistant's command-line tool headless on a prompt, and how to read its answer.

An agent is a preset (`claude`, `codex`, `gemini`, `qwen`, `copilot`, `opencode`, `cursor`) with an optional
model, or a custom command (`cmd:COMMAND LINE`) that reads the prompt on stdin and prints the turn's sections.
Every preset runs with no tools or read-only tools: the agent may read the user's code, never change it;
`run` does every write.  The flags were checked against each tool's `--help` at the versions in
docs/agents.md.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..protocol.errors import AgentSpecError
from ..protocol.naming import is_slug

__all__ = ["Agent", "AgentSpecError", "Invocation", "PRESETS", "Preset", "Reply", "missing_tool", "parse_agent",
           "parse_spec", "same_models"]

# programs that run the script named after them: a `cmd:` agent is known by its script, not by `python3`
_INTERPRETERS = re.compile(r"^(?:python|pypy|node|nodejs|deno|bun|ruby|perl|php|bash|sh|zsh|dash|uv|uvx|npx|pipx)"
                           r"[0-9.]*(?:\.exe)?$")

# a tool given its prompt as an argument: Linux refuses one argument over 128 KiB
MAX_ARG_PROMPT = 120_000


@dataclass(frozen=True)
class Invocation:
    """One start of an agent: its argv, what its stdin gets, and the variables added to its environment."""

    argv: tuple[str, ...]
    stdin: bytes
    env: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Reply:
    """What an agent answered: the text (the turn's sections), or the tool's own error in one line; and what
    the turn cost, where the tool says (None: not reported)."""

    text: str
    error: str = ""
    tokens_in: int | None = None
    tokens_out: int | None = None
    cost_usd: float | None = None
    unreadable: bool = False  # the output held no answer and no error of the tool's own


def _one_line(text: str, limit: int = 300) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[:limit - 1] + "\u2026"


def _json_objects(out: str) -> Iterator[dict[str, Any]]:
    """Every JSON object in `out`: one document, or JSON Lines; lines that are no JSON are skipped."""
    text = out.strip()
    try:
        whole = json.loads(text)
    except ValueError:
        whole = None
    if isinstance(whole, dict):
        yield whole
        return
    if isinstance(whole, list):
        yield from (item for item in whole if isinstance(item, dict))
        return
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                data = json.loads(line)
            except ValueError:
                continue
            if isinstance(data, dict):
                yield data


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _sum(*values: object) -> int | None:
    ints = [v for v in (_int(x) for x in values) if v is not None]
    return sum(ints) if ints else None


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _result_event(name: str, out: str) -> Reply:
    """Claude Code's (and Cursor Agent's) `--output-format json`: one `result` object.  `is_error` is the
    tool's own failure even when it exits 0 ("Not logged in · Please run /login")."""
    results = [d for d in _json_objects(out) if d.get("type") == "result" or "result" in d]
    if not results:
        return Reply("", f"{name}: no JSON result in its output" + (f": {_one_line(out, 120)}" if out.strip() else ""),
                     unreadable=True)
    data = results[-1]
    usage = _dict(data.get("usage"))
    text = str(data["result"]) if isinstance(data.get("result"), str) else ""
    error = ""
    if data.get("is_error") is True or str(data.get("subtype", "success")).startswith("error"):
        failure = _dict(data.get("error"))  # Qwen Code says it there
        error = f"{name}: {_one_line(text or str(failure.get('message') or data.get('subtype') or 'error'))}"
    return Reply(text, error, _sum(usage.get("input_tokens"), usage.get("cache_creation_input_tokens"),
                                   usage.get("cache_read_input_tokens")),
                 _int(usage.get("output_tokens")), _number(data.get("total_cost_usd")))


def _codex_events(name: str, out: str) -> Reply:
    """`codex exec --json`: JSON Lines; the last `agent_message` item is the answer, `turn.completed` has the
    usage, `turn.failed` and `error` events the tool's error."""
    text, error = "", ""
    tokens_in: int | None = None
    tokens_out: int | None = None
    for event in _json_objects(out):
        kind = event.get("type")
        item = _dict(event.get("item"))
        if kind == "item.completed" and item.get("type") in ("agent_message", "assistant_message"):
            text = str(item.get("text") or "")
        elif kind == "turn.completed" and isinstance(event.get("usage"), dict):
            usage = event["usage"]
            tokens_in = (tokens_in or 0) + (_int(usage.get("input_tokens")) or 0)
            tokens_out = (tokens_out or 0) + (_int(usage.get("output_tokens")) or 0)
        elif kind == "turn.failed":
            failure = _dict(event.get("error"))
            error = f"{name}: {_one_line(str(failure.get('message') or 'the turn failed'))}"
        elif kind == "error" and not error:
            error = f"{name}: {_one_line(str(event.get('message') or 'error'))}"
    if text and error.startswith(f"{name}: Reconnecting"):
        error = ""  # a retry that then succeeded
    if not text and not error:
        return Reply("", f"{name}: no agent message in its output", tokens_in, tokens_out, unreadable=True)
    return Reply(text, "" if text else error, tokens_in, tokens_out)


def _gemini_json(name: str, out: str) -> Reply:
    """Gemini CLI's (and Qwen Code's) `-o json`: `response`, `stats.models.*.tokens`, or `error`."""
    objects = list(_json_objects(out)) or list(_json_objects(out[out.find("{"):])) if "{" in out else []
    if not objects:
        return Reply("", f"{name}: no JSON in its output" + (f": {_one_line(out, 120)}" if out.strip() else ""),
                     unreadable=True)
    if any(d.get("type") == "result" for d in objects):  # Qwen Code prints Claude-style messages
        return _result_event(name, out)
    data = objects[-1]
    failure = _dict(data.get("error"))
    if failure.get("message"):
        return Reply("", f"{name}: {_one_line(str(failure['message']))}")
    tokens_in = tokens_out = None
    models = _dict(_dict(data.get("stats")).get("models"))
    if models:
        counts = [_dict(_dict(m).get("tokens")) for m in models.values()]
        tokens_in = _sum(*(c.get("prompt") for c in counts))
        tokens_out = _sum(*(c.get("candidates") for c in counts))
    text = data.get("response")
    if not isinstance(text, str):
        return Reply("", f"{name}: no `response` in its JSON output", tokens_in, tokens_out, unreadable=True)
    return Reply(text, "", tokens_in, tokens_out)


def _opencode_events(name: str, out: str) -> Reply:
    """`opencode run --format json`: JSON Lines of parts; the text parts are the answer, `step_finish` has
    tokens and cost, `error` the tool's error."""
    texts: list[str] = []
    error = ""
    tokens_in = tokens_out = None
    cost: float | None = None
    for event in _json_objects(out):
        part = _dict(event.get("part"))
        kind = event.get("type")
        if kind == "text" and isinstance(part.get("text"), str):
            texts.append(part["text"])
        elif kind == "step_finish":
            tokens = _dict(part.get("tokens"))
            tokens_in = _sum(tokens_in, tokens.get("input"))
            tokens_out = _sum(tokens_out, tokens.get("output"))
            step_cost = _number(part.get("cost"))
            cost = step_cost if cost is None else cost + (step_cost or 0.0)
        elif kind == "error":
            failure = _dict(event.get("error"))
            message = _dict(failure.get("data")).get("message") or failure.get("message") or failure.get("name")
            error = f"{name}: {_one_line(str(message or 'error'))}"
    text = "".join(texts)
    if not text and not error:
        return Reply("", f"{name}: no text in its output", tokens_in, tokens_out, cost, unreadable=True)
    return Reply(text, error if not text else "", tokens_in, tokens_out, cost)


def _copilot_events(name: str, out: str) -> Reply:
    """`copilot --output-format json`: JSON Lines of session events; the last assistant message's content."""
    text, error = "", ""
    for event in _json_objects(out):
        kind = str(event.get("type", ""))
        data = _dict(event.get("data")) or event
        if kind in ("assistant.message", "assistant_message") and isinstance(data.get("content"), str):
            text = data["content"]
        elif kind.endswith("error") or kind == "session.error":
            error = f"{name}: {_one_line(str(data.get('message') or kind))}"
    if not text and not error:
        return Reply("", f"{name}: no assistant message in its output", unreadable=True)
    return Reply(text, "" if text else error)


@dataclass(frozen=True)
class Preset:
    """How one assistant's tool runs headless: program, fixed arguments, the model flag, where the prompt
    goes (stdin, or an argument where the tool reads none), extra environment, and its output's reader."""

    name: str
    title: str
    package: str  # where the tool comes from (npm), for doctor and the docs
    program: str
    args: tuple[str, ...]
    model_flag: str
    parse: Callable[[str, str], Reply]
    permissions: str  # what the agent may do, in a few words (docs/agents.md, doctor)
    prompt_arg: tuple[str, ...] = ()  # the prompt is given as the argument after these; () -> on stdin
    trailing: tuple[str, ...] = ()  # after every other argument (codex's `-`: read the prompt on stdin)
    env: tuple[tuple[str, str], ...] = ()
    streams: bool = False  # prints as it works (JSON Lines); else silent until its one JSON answer at the end

    @property
    def args_variable(self) -> str:
        """The environment variable whose words are added to every call of this preset (e.g. a provider)."""
        return f"MULTIDEBATE_{self.name.upper()}_ARGS"


PRESETS: dict[str, Preset] = {p.name: p for p in (
    Preset("claude", "Claude Code", "@anthropic-ai/claude-code", "claude",
           ("-p", "--output-format", "json", "--no-session-persistence", "--tools", "Read,Grep,Glob",
            ), "--model", _result_event,
           "read-only tools (Read, Grep, Glob); no shell, no edits"),
    Preset("codex", "Codex CLI", "@openai/codex", "codex",
           ("exec", "--json", "-s", "read-only", "--skip-git-repo-check", "--ephemeral", "--color", "never"),
           "-m", _codex_events, "read-only sandbox: commands may read, never write", trailing=("-",), streams=True),
    Preset("gemini", "Gemini CLI", "@google/gemini-cli", "gemini",
           ("-o", "json", "--approval-mode", "plan", "--skip-trust"), "-m", _gemini_json,
           "plan approval mode (read-only)", prompt_arg=("-p",), env=(("GEMINI_CLI_TRUST_WORKSPACE", "true"),)),
    Preset("qwen", "Qwen Code", "@qwen-code/qwen-code", "qwen", ("-o", "json", "--approval-mode", "plan"),
           "-m", _gemini_json, "plan approval mode (read-only)", prompt_arg=("-p",)),
    Preset("copilot", "Copilot CLI", "@github/copilot", "copilot",
           ("-s", "--output-format", "json", "--no-ask-user", "--allow-all-tools", "--available-tools", "view",
            "glob", "grep"), "--model", _copilot_events,
           "only the view, glob and grep tools (read-only)", prompt_arg=("-p",), streams=True),
    Preset("opencode", "OpenCode", "opencode-ai", "opencode", ("run", "--format", "json", "--agent", "plan"),
           "-m", _opencode_events, "its `plan` agent (read-only; edits denied)", prompt_arg=("--",), streams=True),
    Preset("cursor", "Cursor Agent", "cursor-agent (curl https://cursor.com/install)", "cursor-agent",
           ("-p", "--output-format", "json", "--mode", "ask"), "--model", _result_event,
           "ask mode (read-only)", prompt_arg=("--",)),
)}


@dataclass(frozen=True)
class Agent:
    """A participant's agent: a preset and model, or a custom command; and extra arguments for its tool."""

    slug: str
    spec: str  # as given: `claude:opus`, `gemini`, `cmd:python3 my_agent.py`
    preset: Preset | None
    model: str | None = None
    command: tuple[str, ...] = ()  # a custom agent's argv
    extra_args: tuple[str, ...] = field(default=())

    @property
    def program(self) -> str:
        return self.preset.program if self.preset is not None else self.command[0]

    @property
    def command_name(self) -> str:
        """A custom agent's command by its name: the program's, or the script an interpreter runs
        (`python3 my_agent.py` -> `my_agent.py`, `python3 -m pkg` -> `pkg`); a preset's program."""
        if self.preset is not None:
            return self.preset.program
        program = os.path.basename(self.command[0])
        if _INTERPRETERS.match(program):
            words = iter(self.command[1:])
            for word in words:
                if word == "-m":
                    return next(words, program)
                if not word.startswith("-"):
                    return os.path.basename(word) or program
        return program

    @property
    def name(self) -> str:
        """What its errors start with: the preset, or the command's name."""
        return self.preset.name if self.preset is not None else self.command_name

    def command_line(self) -> str:
        """The whole command line `run` starts (a prompt given as an argument shown as <prompt>) and the
        program's path on PATH: what a person must see before a program named in a shared file runs."""
        argv = list(self.invocation("<prompt>").argv)
        found = shutil.which(argv[0])
        return shlex.join(argv) + (f" ({argv[0]} = {found})" if found and found != argv[0] else "")

    @property
    def streams(self) -> bool:
        """Its output comes as it works, so silence means it is stuck (a `cmd:` agent is taken to stream)."""
        return self.preset.streams if self.preset is not None else True

    @property
    def label(self) -> str:
        """`claude:opus`, `codex` (its default model), or `cmd:<program>`."""
        if self.preset is None:
            return "cmd:" + " ".join(os.path.basename(word) for word in self.command[:2])
        return f"{self.preset.name}:{self.model}" if self.model else self.preset.name

    @property
    def model_key(self) -> str:
        """Two agents with one key run one model: the same priors agree without debating."""
        if self.preset is None:
            return "cmd:" + shlex.join(self.command)
        return f"{self.preset.name}:{(self.model or '(default)').lower()}"

    def invocation(self, prompt: str, environ: dict[str, str] | None = None) -> Invocation:
        """The argv and stdin for one start on `prompt`; the preset's MULTIDEBATE_<PRESET>_ARGS words too."""
        data = prompt.encode("utf-8")
        if self.preset is None:
            return Invocation(self.command + self.extra_args, data)
        preset = self.preset
        words = (os.environ if environ is None else environ).get(preset.args_variable, "")
        argv = [preset.program, *preset.args]
        if self.model:
            argv += [preset.model_flag, self.model]
        argv += shlex.split(words) + list(self.extra_args)
        stdin = data
        if preset.prompt_arg:
            if len(data) > MAX_ARG_PROMPT:
                raise AgentSpecError(f"{preset.title} takes its prompt as an argument, and this prompt is "
                                     f"{len(data):,} bytes (at most {MAX_ARG_PROMPT:,}); use a preset that reads "
                                     "stdin for this debate")
            argv += [*preset.prompt_arg, prompt]
            stdin = b""
        argv += preset.trailing
        return Invocation(tuple(argv), stdin, preset.env)

    def read_reply(self, stdout: bytes, exit_code: int, stderr: bytes = b"") -> Reply:
        """The agent's answer from its output; the tool's error in one line when it failed (exit status
        alone does not tell: claude reports "Not logged in" with `is_error` and exit status 0)."""
        name = self.name
        out, err = stdout.decode("utf-8", errors="replace"), stderr.decode("utf-8", errors="replace")
        if self.preset is None:
            reply = Reply(out)
        else:
            reply = self.preset.parse(name, out)
            if reply.unreadable and err.strip():
                said = self.preset.parse(name, err)  # gemini prints its JSON error on stderr
                reply = reply if said.unreadable else said
        if reply.error and not reply.unreadable:
            return reply
        if exit_code != 0 or reply.unreadable and err.strip():
            line = _telling_line(err)
            status = f"exit status {exit_code}" if exit_code != 0 else reply.error.split(": ", 1)[-1]
            return Reply(reply.text if exit_code == 0 else "", f"{name}: {status}" + (f": {line}" if line else ""),
                         reply.tokens_in, reply.tokens_out, reply.cost_usd, reply.unreadable)
        if not reply.error and not reply.text.strip():
            return Reply("", f"{name}: printed nothing", reply.tokens_in, reply.tokens_out, reply.cost_usd, True)
        return reply


    def last_words(self, stdout: bytes, stderr: bytes) -> str:
        """What a stopped tool had said of its own: an error in its output, or the telling line of its stderr;
        "" when nothing (never the exit status: a stopped process ends by the signal `run` sent it)."""
        if self.preset is not None:
            reply = self.preset.parse(self.name, stdout.decode("utf-8", errors="replace"))
            if reply.error and not reply.unreadable:
                return reply.error.split(": ", 1)[-1]
        return _telling_line(stderr.decode("utf-8", errors="replace"))


def missing_tool(agent: Agent) -> str:
    """Why `agent` cannot start: its program is not on PATH (with where to get it); "" when it can."""
    program = agent.program
    if shutil.which(program) is not None:
        return ""
    if agent.preset is None:
        return (f"{agent.slug}'s command `{program}` is not found (not on PATH, or no such file): fix the command "
                f"line of --agent {agent.slug}='cmd:...'")
    preset = agent.preset
    get = f"npm install -g {preset.package}" if " " not in preset.package else preset.package
    return (f"{preset.title} (`{program}`, for {agent.slug}) is not on PATH: install it ({get}) and check with "
            f"`multidebate doctor`, or give {agent.slug} a custom agent: --agent {agent.slug}='cmd:COMMAND LINE'")


def _telling_line(stderr: str) -> str:
    """The line of a tool's stderr that says what went wrong: the first naming an error, else the last."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    named = next((line for line in lines if "error" in line.lower() and not line.startswith("at ")), None)
    return _one_line(named or (lines[-1] if lines else ""))


def parse_spec(slug: str, spec: str, extra_args: tuple[str, ...] = ()) -> Agent:
    """`claude`, `claude:opus`, `codex:gpt-5.5` or `cmd:COMMAND LINE` (split as a shell would) for `slug`."""
    spec = spec.strip()
    if not is_slug(slug):
        raise AgentSpecError(f"`{slug}` is no slug (lowercase letters, digits and single hyphens)")
    name, _sep, rest = spec.partition(":")
    if name == "cmd":
        try:
            command = tuple(shlex.split(rest))
        except ValueError as exc:
            raise AgentSpecError(f"`{slug}={spec}`: the command line cannot be split: {exc}") from exc
        if not command:
            raise AgentSpecError(f"`{slug}=cmd:` names no command")
        return Agent(slug, spec, None, None, command, extra_args)
    preset = PRESETS.get(name)
    if preset is None:
        raise AgentSpecError(f"`{slug}={spec}`: no agent `{name}`; choose {', '.join(PRESETS)} (with `:MODEL`), "
                             "or cmd:COMMAND LINE")
    return Agent(slug, spec, preset, rest.strip() or None, (), extra_args)


def parse_agent(text: str) -> Agent:
    """`SLUG=PRESET[:MODEL]` or `SLUG=cmd:COMMAND LINE`, as `--agent` takes it."""
    slug, sep, spec = text.partition("=")
    if not sep or not spec.strip():
        raise AgentSpecError(f"`{text}` is not SLUG=PRESET[:MODEL] or SLUG=cmd:COMMAND (e.g. opus=claude:opus)")
    return parse_spec(slug.strip(), spec)


def same_models(agents: list[Agent]) -> list[tuple[str, ...]]:
    """Groups of slugs whose agents run one model (each group of two or more)."""
    groups: dict[str, list[str]] = {}
    for agent in agents:
        groups.setdefault(agent.model_key, []).append(agent.slug)
    return [tuple(slugs) for slugs in groups.values() if len(slugs) > 1]
