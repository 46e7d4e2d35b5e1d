"""The real agent tools, driven by `multidebate run` against a scripted model server on 127.0.0.1.

Not a test and never in CI: it needs the tools installed (docs/agents.md pins the versions), e.g.

    npm install --prefix /tmp/agents @anthropic-ai/claude-code@2.1.197 @openai/codex@0.171.0 ...
    python bench/real_agents.py --bin /tmp/agents/node_modules/.bin debate claude codex
    python bench/real_agents.py --bin /tmp/agents/node_modules/.bin probe

`debate TOOL...` runs one whole debate, one participant per tool, every request going to a local server that
answers like the Anthropic Messages API (`POST /v1/messages`, streamed) and the OpenAI Responses API
(`POST /v1/responses`, streamed), and Gemini's API: turn 1 each gives its own line, turn 2 each takes the first bold line it
is shown and says yes, so the debate converges at turn 2.  Gemini CLI's requests (`GOOGLE_GEMINI_BASE_URL`,
`POST /v1beta/models/M:streamGenerateContent?alt=sse`) are answered too.  `probe` runs `doctor --probe` over every preset with
no credentials and no server, in a fresh HOME: each tool's command line is accepted and it says why it cannot
answer.  Every request the tools make is printed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

LINES = {1: "Use TOML for the config file.", 2: "Use YAML for the config file."}
SLUGS = {"claude": "opus", "codex": "gpt", "gemini": "gem", "qwen": "qwen", "copilot": "copilot",
         "opencode": "oc"}
MODELS = {"claude": "claude-sonnet-4-5", "codex": "gpt-5.5", "gemini": "gemini-2.5-flash"}


def _texts(node: Any) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [t for v in node.values() for t in _texts(v)]
    if isinstance(node, list):
        return [t for v in node for t in _texts(v)]
    return []


GARBAGE_FIRST = threading.Event()  # `--garbage-first`: turn 1's first reply is prose, to show the retry


def scripted_turn(body: dict[str, Any]) -> str:
    """The turn the scripted model answers for the prompt inside `body` (or `ok` for any other request)."""
    text = "\n".join(_texts(body.get("messages") or body.get("input") or body))
    found = re.findall(r"You are `([a-z0-9-]+)`: turn (\d+)", text)
    if not found:
        return "ok"
    slug, turn = found[-1][0], int(found[-1][1])
    if GARBAGE_FIRST.is_set() and turn == 1 and "YOUR LAST REPLY WAS REFUSED" not in text:
        return "Sure! I would pick TOML, it is simple."
    prompt = text[text.rfind(f"You are `{slug}`: turn {turn}"):]
    lines = re.findall(r"^- ([a-z0-9-]+)(?: \([^)]*\))?: \*\*(.+?)\*\*", prompt.split("BOLD LINES OF TURN", 1)[-1], re.MULTILINE) \
        if "BOLD LINES OF TURN" in prompt else []
    peers = sorted({m for m in re.findall(r"^<<<PEER ([a-z0-9-]+)", prompt, re.MULTILINE) if m != slug})
    line = lines[0][1] if turn > 1 and lines else LINES[1 if slug == "opus" else 2]
    parts = [f"## Reasoning\nScripted reasoning of {slug} at turn {turn}.\n",
             f"## Answer\n**{line}**\n\nA scripted answer.\n"]
    if turn > 1:
        parts += ["## Agreements\n" + ("\n".join(f"- With {p}: same file format." for p in peers) or "- None") + "\n",
                  "## Disagreements\n- None\n"]
    parts += ["## Confidence\n80\n", "## Converged\n" + ("yes" if turn > 1 else "no") + "\n"]
    return "\n".join(parts)


class Handler(BaseHTTPRequestHandler):
    seen: list[str] = []
    lock = threading.Lock()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base class's name)
        pass

    def _note(self) -> None:
        with self.lock:
            self.seen.append(f"{self.command} {self.path}")

    def do_GET(self) -> None:  # noqa: N802
        self._note()
        self.send_error(404)

    def do_HEAD(self) -> None:  # noqa: N802
        self._note()
        self.send_error(404)

    def do_POST(self) -> None:  # noqa: N802
        self._note()
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b"{}"
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        if self.path.startswith("/v1/messages/count_tokens"):
            return self._json({"input_tokens": 100})
        if self.path.startswith("/v1/messages"):
            return self._anthropic(body)
        if self.path.startswith("/v1/responses"):
            return self._responses(body)
        if ":streamGenerateContent" in self.path or ":generateContent" in self.path:
            return self._gemini(body, stream=":stream" in self.path)
        if ":countTokens" in self.path:
            return self._json({"totalTokens": 100})
        self.send_error(404)

    def _gemini(self, body: dict[str, Any], stream: bool) -> None:
        text = scripted_turn(body)
        chunk = {"candidates": [{"content": {"parts": [{"text": text}], "role": "model"}, "finishReason": "STOP",
                                 "index": 0}],
                 "usageMetadata": {"promptTokenCount": 1300, "candidatesTokenCount": len(text.split()),
                                   "totalTokenCount": 1300 + len(text.split())}, "modelVersion": "scripted"}
        if not stream:
            return self._json(chunk)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(f"data: {json.dumps(chunk)}\r\n\r\n".encode())
        self.wfile.flush()
        self.close_connection = True

    def _json(self, data: dict[str, Any]) -> None:
        payload = json.dumps(data).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def _events(self, events: list[tuple[str, dict[str, Any]]]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        for name, data in events:
            self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
            self.wfile.flush()
        self.close_connection = True

    def _anthropic(self, body: dict[str, Any]) -> None:
        text = scripted_turn(body)
        model = str(body.get("model") or "claude-scripted")
        usage = {"input_tokens": 1200, "output_tokens": len(text.split())}
        if not body.get("stream"):
            return self._json({"id": "msg_scripted", "type": "message", "role": "assistant", "model": model,
                               "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
                               "stop_sequence": None, "usage": usage})
        half = len(text) // 2
        self._events([
            ("message_start", {"type": "message_start", "message": {
                "id": "msg_scripted", "type": "message", "role": "assistant", "model": model, "content": [],
                "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 1200, "output_tokens": 1}}}),
            ("content_block_start", {"type": "content_block_start", "index": 0,
                                     "content_block": {"type": "text", "text": ""}}),
            ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                     "delta": {"type": "text_delta", "text": text[:half]}}),
            ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                     "delta": {"type": "text_delta", "text": text[half:]}}),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            ("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                               "usage": {"output_tokens": usage["output_tokens"]}}),
            ("message_stop", {"type": "message_stop"}),
        ])

    def _responses(self, body: dict[str, Any]) -> None:
        text = scripted_turn(body)
        item = {"type": "message", "id": "msg_scripted", "role": "assistant", "status": "completed",
                "content": [{"type": "output_text", "text": text, "annotations": []}]}
        usage = {"input_tokens": 1500, "input_tokens_details": {"cached_tokens": 0},
                 "output_tokens": len(text.split()), "output_tokens_details": {"reasoning_tokens": 0},
                 "total_tokens": 1500 + len(text.split())}
        response = {"id": "resp_scripted", "object": "response", "status": "in_progress", "model":
                    body.get("model", "scripted"), "output": []}
        self._events([
            ("response.created", {"type": "response.created", "response": response}),
            ("response.output_item.added", {"type": "response.output_item.added", "output_index": 0,
                                            "item": {**item, "status": "in_progress", "content": []}}),
            ("response.output_text.delta", {"type": "response.output_text.delta", "item_id": "msg_scripted",
                                            "output_index": 0, "content_index": 0, "delta": text}),
            ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
            ("response.completed", {"type": "response.completed", "response": {
                **response, "status": "completed", "output": [item], "usage": usage}}),
        ])


def serve() -> tuple[ThreadingHTTPServer, int]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def clean_env(home: str, bin_dir: str) -> dict[str, str]:
    """A fresh HOME, the tools on PATH, no credential of the person running this, no telemetry."""
    keep = {k: v for k, v in os.environ.items() if k in ("LANG", "LC_ALL", "TERM", "TMPDIR", "USER")}
    return {**keep, "HOME": home, "PATH": f"{bin_dir}{os.pathsep}{os.path.dirname(sys.executable)}"
            f"{os.pathsep}/usr/local/bin{os.pathsep}/usr/bin{os.pathsep}/bin",
            "DISABLE_AUTOUPDATER": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_TELEMETRY": "1",
            "NO_COLOR": "1"}


def multidebate() -> str:
    return os.path.join(os.path.dirname(sys.executable), "multidebate")


def debate(tools: list[str], bin_dir: str, timeout: float) -> int:
    server, port = serve()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        home = os.path.join(tmp, "home")
        os.makedirs(home)
        env = clean_env(home, bin_dir)
        os.makedirs(os.path.join(home, ".gemini"))
        with open(os.path.join(home, ".gemini", "settings.json"), "w", encoding="utf-8") as handle:
            json.dump({"security": {"auth": {"selectedType": "gemini-api-key"}}}, handle)  # else: "Invalid auth"
        env.update(ANTHROPIC_BASE_URL=base, ANTHROPIC_API_KEY="scripted-not-a-key", SCRIPTED_KEY="scripted",
                   GOOGLE_GEMINI_BASE_URL=base, GEMINI_API_KEY="scripted-not-a-key")
        folder = os.path.join(tmp, "debate")
        slugs = [SLUGS[t] for t in tools]
        subprocess.run([multidebate(), "init", folder, "--task", "Which format for our tool's config file: TOML or "
                        "YAML? Answer in one line.", "--participants", ",".join(slugs), "--max-turns", "3"],
                       check=True, env=env)
        args = [multidebate(), "run", folder, "--turn-timeout", str(timeout), "--idle-timeout", str(timeout)]
        for tool, slug in zip(tools, slugs):
            args += ["--agent", f"{slug}={tool}" + (f":{MODELS[tool]}" if tool in MODELS else "")]
        if "codex" in tools:
            provider = (f'model_providers.scripted={{name="scripted",base_url="{base}/v1",env_key="SCRIPTED_KEY",'
                        'wire_api="responses"}')
            args += ["--agent-args", f"gpt=-c model_provider=scripted -c {shlex.quote(provider)}"]
        print("$", shlex.join(args), flush=True)
        done = subprocess.run(args, env=env, cwd=tmp)
        print(f"exit status {done.returncode}")
        subprocess.run([multidebate(), "status", folder], env=env)
        subprocess.run([multidebate(), "validate", folder], env=env)
        records = os.path.join(folder, ".multidebate", "run", "turns.jsonl")
        if os.path.exists(records):
            print(open(records, encoding="utf-8").read())
    server.shutdown()
    print("requests the tools made:", *sorted(set(Handler.seen)), sep="\n  ")
    return done.returncode


def probe(bin_dir: str, timeout: float) -> int:
    """`doctor --probe` over every preset: no credentials, no server."""
    with tempfile.TemporaryDirectory() as tmp:
        env = clean_env(os.path.join(tmp, "home"), bin_dir)
        os.makedirs(env["HOME"])
        args = [multidebate(), "doctor", "--probe", "--timeout", str(timeout)]
        print("$", shlex.join(args), flush=True)
        return subprocess.run(args, env=env, cwd=tmp).returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default="/tmp/agents/node_modules/.bin", help="where the agent tools are")
    parser.add_argument("--timeout", type=float, default=120, help="turn timeout (probe: per probe)")
    sub = parser.add_subparsers(dest="what", required=True)
    one = sub.add_parser("debate", help="one debate, a participant per tool")
    one.add_argument("tools", nargs="+", choices=sorted(MODELS))
    one.add_argument("--garbage-first", action="store_true",
                     help="answer each participant's first turn-1 request with prose, so `write` refuses it")
    sub.add_parser("probe", help="doctor --probe over every preset, without credentials")
    options = parser.parse_args()
    if options.what == "debate" and options.garbage_first:
        GARBAGE_FIRST.set()
    if options.what == "debate":
        sys.exit(debate(options.tools, options.bin, options.timeout))
    sys.exit(probe(options.bin, options.timeout))


if __name__ == "__main__":
    main()
