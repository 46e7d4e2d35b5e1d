"""The plugins and the MCP server with the real tools, offline, in temporary HOMEs.

Not a test and never in CI: it needs the tools from npm (docs/agents.md pins the versions run), e.g.

    npm install --prefix /tmp/cc @anthropic-ai/claude-code@2.1.197 skills@1.5.18
    python bench/plugins.py --bin /tmp/cc/node_modules/.bin plugin skills mcp

`plugin`: `claude plugin validate --strict` on the plugin and on the marketplace, then `claude plugin marketplace
add` of this checkout and `claude plugin install multidebate@multidebate` in a fresh HOME; the plugin's details
must list the skill and the MCP server, and the installed SKILL.md must be the source's bytes.
`skills`: `skills add` (what `npx skills add` runs) of the skill's folder in the repository, for Claude Code and
Codex, in a fresh HOME: one SKILL.md each, the source's bytes.
`mcp`: `claude -p` with `multidebate mcp` as its MCP server and a scripted model on 127.0.0.1 that answers with
tool calls (debate_next, then debate_write): two such sessions write turn 1 and turn 2 of a debate, and
`multidebate status` reads it converged.

Every tool runs under `unshare -n` where that works (root on Linux): it can reach only the loopback of its own
network namespace, so `plugin` and `skills` run with no network at all; `mcp` needs the scripted server, so it
runs the tools in the machine's namespace with telemetry off and only ANTHROPIC_BASE_URL=http://127.0.0.1:PORT.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from real_agents import Handler, clean_env, multidebate, serve

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "multidebate" / "skill" / "SKILL.md"
PLUGIN = ROOT / "plugins" / "multidebate"
LINES = {"opus": "Use TOML for the config file", "sonnet": "Use YAML for the config file"}


def offline() -> list[str]:
    unshare = shutil.which("unshare")
    if unshare and subprocess.run([unshare, "-n", "true"], capture_output=True).returncode == 0:
        return [unshare, "-n", "--"]
    return []


def run(argv: list[str], env: dict[str, str], cwd: str, net: bool = False, timeout: float = 300) -> str:
    done = subprocess.run([*([] if net else offline()), *argv], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=timeout, stdin=subprocess.DEVNULL)
    print(f"$ {' '.join(argv)}  (exit {done.returncode})")
    if done.returncode != 0:
        raise SystemExit(f"failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def check_plugin(bin_dir: str) -> None:
    with tempfile.TemporaryDirectory() as home:
        env = clean_env(home, bin_dir)
        claude = os.path.join(bin_dir, "claude")
        print(run([claude, "--version"], env, home).strip())
        for target in (PLUGIN, ROOT):
            assert "Validation passed" in run([claude, "plugin", "validate", "--strict", str(target)], env, home)
        run([claude, "plugin", "marketplace", "add", str(ROOT)], env, home)
        run([claude, "plugin", "install", "multidebate@multidebate"], env, home)
        details = run([claude, "plugin", "details", "multidebate@multidebate"], env, home)
        assert "Skills (1)  multidebate" in details and "MCP servers (1)  multidebate" in details, details
        installed = json.loads((Path(home) / ".claude/plugins/installed_plugins.json").read_text())
        where = Path(installed["plugins"]["multidebate@multidebate"][0]["installPath"])
        assert (where / "skills/multidebate/SKILL.md").read_bytes() == SOURCE.read_bytes()
        print("plugin: validated (plugin and marketplace, --strict), installed; the skill and the MCP server listed")


def check_skills(bin_dir: str) -> None:
    with tempfile.TemporaryDirectory() as home:
        env = {**clean_env(home, bin_dir), "DO_NOT_TRACK": "1"}
        out = run([os.path.join(bin_dir, "skills"), "add", str(PLUGIN / "skills" / "multidebate"), "-g",
                   "-a", "claude-code", "-a", "codex", "-y"], env, home)
        copies = [Path(home) / ".agents/skills/multidebate", Path(home) / ".claude/skills/multidebate"]
        for copy in copies:  # `skills` links Claude Code's folder to the shared one
            assert sorted(os.listdir(copy)) == ["SKILL.md"], (copy, out)
            assert (copy / "SKILL.md").read_bytes() == SOURCE.read_bytes()
        print("skills: installed for Claude Code and Codex, one SKILL.md each, the source's bytes")


TOOLS_SEEN: set[str] = set()


class ToolHandler(Handler):
    """The Messages API answering with tool calls: debate_next, then debate_write with the turn, then a word."""

    def _anthropic(self, body: dict[str, Any]) -> None:
        tools = {t.get("name") for t in body.get("tools") or []}
        TOOLS_SEEN.update(str(t) for t in tools)
        nxt, write = "mcp__multidebate__debate_next", "mcp__multidebate__debate_write"
        messages = body.get("messages") or []
        last = messages[-1] if messages else {}
        results = [b for b in last.get("content", []) if isinstance(b, dict) and b.get("type") == "tool_result"] \
            if isinstance(last.get("content"), list) else []
        said = json.dumps(results[-1:])  # the client may merge results into one message: the last one counts
        if os.environ.get("BENCH_TRACE"):
            with open(os.environ["BENCH_TRACE"], "a") as trace:
                trace.write(json.dumps({"n": len(messages), "tools": len(tools), "last": last})[:1500] + "\n")
        asked = "\n".join(json.dumps(m) for m in messages)
        if (nxt not in tools or write not in tools) and "WaitForMcpServers" in tools and "FOLDER=" in asked \
                and "toolu_wait" not in asked:
            # what a model does when the servers are still connecting (the client offers it the tool to wait)
            return self._stream([{"type": "tool_use", "id": "toolu_wait", "name": "WaitForMcpServers", "input": {}}])
        if nxt not in tools or write not in tools:
            return self._stream([{"type": "text", "text": "ok"}])
        folder, slug = re.search(r"FOLDER=(\S+) SLUG=([a-z0-9-]+)", asked).groups()  # type: ignore[union-attr]
        if not results:
            return self._stream([{"type": "tool_use", "id": "toolu_next", "name": nxt,
                                  "input": {"folder": folder, "slug": slug, "wait": True, "timeout": 120}}])
        if "toolu_next" in said:
            turn = int(re.search(r"You are `[a-z0-9-]+`: turn (\d+)", said).group(1))  # type: ignore[union-attr]
            line = LINES["opus"] if turn > 1 else LINES[slug]  # turn 2: both take the first line
            peer = "sonnet" if slug == "opus" else "opus"
            sections = f"## Reasoning\nScripted, turn {turn}.\n\n## Answer\n**{line}**\n\n"
            if turn > 1:
                sections += f"## Agreements\n- With {peer}: {line}.\n\n## Disagreements\n- None.\n\n"
            sections += f"## Confidence\n80\n\n## Converged\n{'yes' if turn > 1 else 'no'}\n"
            return self._stream([{"type": "tool_use", "id": "toolu_write", "name": write,
                                  "input": {"folder": folder, "slug": slug, "sections": sections}}])
        return self._stream([{"type": "text", "text": "Wrote my turn."}])

    def _stream(self, blocks: list[dict[str, Any]]) -> None:
        events: list[tuple[str, dict[str, Any]]] = [("message_start", {"type": "message_start", "message": {
            "id": "msg_scripted", "type": "message", "role": "assistant", "model": "claude-scripted", "content": [],
            "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 1000, "output_tokens": 1}}})]
        for index, block in enumerate(blocks):
            if block["type"] == "text":
                events += [("content_block_start", {"type": "content_block_start", "index": index,
                                                    "content_block": {"type": "text", "text": ""}}),
                           ("content_block_delta", {"type": "content_block_delta", "index": index,
                                                    "delta": {"type": "text_delta", "text": block["text"]}})]
            else:
                events += [("content_block_start", {"type": "content_block_start", "index": index, "content_block":
                                                    {**block, "input": {}}}),
                           ("content_block_delta", {"type": "content_block_delta", "index": index, "delta": {
                               "type": "input_json_delta", "partial_json": json.dumps(block["input"])}})]
            events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
        stop = "tool_use" if blocks[-1]["type"] == "tool_use" else "end_turn"
        events += [("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                                      "usage": {"output_tokens": 20}}), ("message_stop", {"type": "message_stop"})]
        self._events(events)


def check_mcp(bin_dir: str) -> None:
    Handler.seen.clear()
    server, port = serve()
    server.RequestHandlerClass = ToolHandler
    with tempfile.TemporaryDirectory() as home:
        folder = os.path.join(home, "debate")
        env = {**clean_env(home, bin_dir), "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{port}",
               "ANTHROPIC_API_KEY": "scripted", "MULTIDEBATE_MCP_KEYS": os.path.join(home, "keys"),
               "MCP_CONNECTION_NONBLOCKING": "0", "MCP_TIMEOUT": "60000"}
        subprocess.run([multidebate(), "init", folder, "--task", "Pick a config format.", "--participants",
                        "opus,sonnet"], check=True, env=env, capture_output=True)
        config = os.path.join(home, "mcp.json")
        # alwaysLoad: -p waits for this server before it asks the model (2.1.197 connects servers in the background
        # otherwise, and the first request went out without the tools on a busy machine)
        Path(config).write_text(json.dumps({"mcpServers": {"multidebate": {"command": multidebate(), "args": ["mcp"],
                                                                           "alwaysLoad": True}}}))
        claude = os.path.join(bin_dir, "claude")
        argv = [claude, "-p", "--output-format", "json", "--mcp-config", config, "--strict-mcp-config",
                "--allowedTools", "mcp__multidebate__debate_next,mcp__multidebate__debate_write", "--model",
                "claude-sonnet-4-5"]
        for turn in (1, 2):
            sessions = [subprocess.Popen([*argv, f"Take your turn. FOLDER={folder} SLUG={slug}"], env=env, cwd=home,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                         stdin=subprocess.DEVNULL) for slug in ("opus", "sonnet")]
            for session in sessions:
                out, err = session.communicate(timeout=300)
                try:
                    said = json.loads(out)
                    out = f"{said.get('num_turns')} model calls, result {said.get('result')!r}"
                except ValueError:
                    pass
                print(f"turn {turn}: claude -p exit {session.returncode}: {out.strip()[:300]} {err.strip()[:300]}")
        status = json.loads(subprocess.run([multidebate(), "status", folder, "--json"], env=env,
                                           capture_output=True, text=True).stdout)
        print("files:", sorted(p for p in os.listdir(folder) if p.startswith("turn-")))
        print("verdict:", status["verdict"]["state"], "-", status["verdict"].get("detail", ""))
        print("requests:", ", ".join(sorted(set(Handler.seen))))
        print("tools offered:", ", ".join(sorted(TOOLS_SEEN)))
        assert status["verdict"]["state"] == "converged", status["verdict"]
    server.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", required=True, help="the folder holding `claude` and `skills`")
    parser.add_argument("checks", nargs="+", choices=["plugin", "skills", "mcp"])
    args = parser.parse_args()
    for check in args.checks:
        {"plugin": check_plugin, "skills": check_skills, "mcp": check_mcp}[check](args.bin)


if __name__ == "__main__":
    main()
