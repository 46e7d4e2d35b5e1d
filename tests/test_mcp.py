"""`multidebate mcp`, driven by the MCP SDK's own client over stdio: whole debates through the tools only, a
shell session beside them, every error, progress while `debate_next` waits."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import Cli

# the SDK is imported by the tests themselves (it takes seconds): collecting the suite does not pay for it
pytestmark = pytest.mark.skipif(importlib.util.find_spec("mcp") is None, reason="the mcp extra is not installed")

TOOLS = {"debate_next", "debate_write", "debate_status", "debate_report", "debate_init"}
LINE = "Use SQLite with WAL mode for the local cache"


def turn(n: int, line: str, converged: bool = False, peers: tuple[str, ...] = ()) -> str:
    body = f"## Reasoning\nWhy, at turn {n}.\n\n## Answer\n**{line}**\n\nDetail of the answer.\n\n"
    if n > 1:
        body += "## Agreements\n" + "".join(f"- With {p}: the same line.\n" for p in peers) + "\n"
        body += "## Disagreements\n- None.\n\n"
    return body + f"## Confidence\n80\n\n## Converged\n{'yes' if converged else 'no'}\n"


class Session:
    """One assistant session: its own server process, as each assistant starts its own."""

    def __init__(self, client: Any, slug: str, folder: str) -> None:
        self.client, self.slug, self.folder = client, slug, folder

    async def call(self, tool: str, progress: Callable[[float, float | None, str | None], Awaitable[None]] | None
                   = None, **arguments: Any) -> tuple[bool, str]:
        if tool in ("debate_next", "debate_write"):
            arguments.setdefault("slug", self.slug)
        arguments.setdefault("folder", self.folder)
        result = await self.client.call_tool(tool, arguments, read_timeout_seconds=60, progress_callback=progress)
        text = "".join(getattr(block, "text", "") for block in result.content)
        return bool(result.is_error), text

    async def ok(self, tool: str, **arguments: Any) -> str:
        error, text = await self.call(tool, **arguments)
        assert not error, text
        return text


@asynccontextmanager
async def sessions(tmp_path: Path, folder: str, *slugs: str) -> AsyncIterator[list[Session]]:
    """A server process per slug, started side by side (each takes seconds to import the SDK)."""
    import anyio
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    env = {"HOME": str(tmp_path / "home"), "PATH": os.environ.get("PATH", ""),
           "MULTIDEBATE_MCP_KEYS": str(tmp_path / "home" / "keys"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    params = StdioServerParameters(command=sys.executable, args=["-m", "multidebate", "mcp"], env=env,
                                   cwd=str(tmp_path))
    opened: dict[str, Session] = {}
    ready = {slug: anyio.Event() for slug in slugs}
    close = anyio.Event()

    async def hold(slug: str) -> None:
        # entered and left in this one task, as the SDK's task groups require
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            opened[slug] = Session(client, slug, folder)
            ready[slug].set()
            await close.wait()

    async with anyio.create_task_group() as group:
        for slug in slugs:
            group.start_soon(hold, slug)
        for event in ready.values():
            await event.wait()
        try:
            yield [opened[slug] for slug in slugs]
        finally:
            close.set()


async def bounded(main: Callable[[], Awaitable[Any]]) -> Any:
    """`main`, failed after two minutes rather than hung (a server that stops answering)."""
    import anyio

    with anyio.fail_after(120):
        return await main()


def cli_json(cli: Cli, *args: str, input: str | None = None) -> Any:
    result = cli(*args, "--json", input=input, mixed=True)
    return result.json()


def test_three_sessions_debate_to_converged_through_the_tools_alone(cli: Cli, tmp_path: Path) -> None:
    import anyio

    folder = str(tmp_path / "debate")

    async def main() -> None:
        async with sessions(tmp_path, folder, "opus", "gpt", "gemini") as (opus, gpt, gemini):
            assert {t.name for t in (await opus.client.list_tools()).tools} == TOOLS  # no retire, no handover
            created = await opus.ok("debate_init", task="Which store for the local cache?",
                                    participants=["opus", "gpt", "gemini"], max_turns=4)
            assert created.startswith(f"Created {folder}/TASK.md. Participants: opus, gpt, gemini.")
            first = {"opus": "Use SQLite with WAL mode for the local cache", "gpt": "Use LMDB for the local cache",
                     "gemini": "Use plain JSON files for the local cache"}
            briefing = await opus.ok("debate_next")
            assert "You are `opus`: turn 1 of at most 4" in briefing
            assert "--key" not in briefing
            assert "Call debate_write with folder" in briefing
            wrote = await opus.ok("debate_write", sections=turn(1, first["opus"]))
            assert "Wrote" in wrote
            assert "key" not in wrote.lower()  # the server kept the key: never shown
            assert "Next: call debate_next" in wrote

            # opus waits for its peers: progress comes while it waits, and the peers write then
            progressed = anyio.Event()
            notes: list[str] = []

            async def on_progress(done: float, total: float | None, message: str | None) -> None:
                notes.append(message or "")
                progressed.set()

            async def peers_write_after_progress() -> None:
                await progressed.wait()
                for session in (gpt, gemini):
                    await session.ok("debate_next")
                    await session.ok("debate_write", sections=turn(1, first[session.slug]))

            waited: list[tuple[bool, str]] = []

            async def wait_for_peers() -> None:
                waited.append(await opus.call("debate_next", progress=on_progress, wait=True, timeout=60))
                progressed.set()  # a call that returned without waiting: the peers go on, and the asserts say why

            async with anyio.create_task_group() as group:
                group.start_soon(wait_for_peers)
                group.start_soon(peers_write_after_progress)
            error, text = waited[0]
            assert not error
            assert "You are `opus`: turn 2" in text
            assert notes
            assert "Waiting" in notes[0]
            fence = re.search(r"<<<PEER gpt \[([0-9a-f]{8})\]", text)
            assert fence
            assert f">>>END [{fence.group(1)}]" in text
            assert "**Use LMDB for the local cache**" in text

            for session in (opus, gpt, gemini):
                if session is not opus:
                    await session.ok("debate_next")
                peers = tuple(s for s in ("opus", "gpt", "gemini") if s != session.slug)
                await session.ok("debate_write", sections=turn(2, LINE, converged=True, peers=peers))
            status = await gpt.ok("debate_status")
            fence = re.match(r"STATUS of .* the \[([0-9a-f]{8})\] tag", status)
            assert fence
            assert f"<<<STATUS [{fence.group(1)}]\n" in status
            assert "verdict: converged at turn 2" in status
            report = await gemini.ok("debate_report")
            assert "<<<REPORT [" in report
            assert LINE in report
            data = json.loads((await gemini.ok("debate_report", format="json")).split("\n", 2)[2].rsplit("\n", 1)[0])
            assert data["verdict"]["state"] == "converged"
            # a later debate_next says the debate is over, and offers nothing to write
            over = await gpt.ok("debate_next")
            assert "debate_write" not in over

    anyio.run(bounded, main)
    assert cli_json(cli, "status", folder)["verdict"]["state"] == "converged"
    keys = list((tmp_path / "home" / "keys").iterdir())
    assert len(keys) == 3
    assert all(oct(p.stat().st_mode & 0o777) == "0o600" for p in keys)


def test_every_error_is_a_clear_tool_error_and_the_server_keeps_serving(cli: Cli, tmp_path: Path) -> None:
    folder = str(tmp_path / "debate")
    refused_body = "## Reasoning\nR.\n\n## Answer\nA.\n\n## Confidence\n101\n\n## Converged\nmaybe\n"
    import anyio

    assert cli("init", folder, "--task", "Pick one.", "--participants", "opus,shell,gem").code == 0

    async def main() -> dict[str, tuple[bool, str]]:
        seen: dict[str, tuple[bool, str]] = {}
        async with sessions(tmp_path, folder, "opus") as (opus,):
            seen["missing"] = await opus.call("debate_status", folder=str(tmp_path / "nowhere"))
            seen["missing next"] = await opus.call("debate_next", folder=str(tmp_path / "nowhere"))
            seen["bad slug"] = await opus.call("debate_next", slug="Claude Opus")
            seen["off roster"] = await opus.call("debate_next", slug="gpt")
            await opus.ok("debate_next")
            seen["refused"] = await opus.call("debate_write", sections=refused_body)
            seen["good"] = await opus.call("debate_write", sections=turn(1, "Use TOML"))
            seen["timeout"] = await opus.call("debate_next", wait=True, timeout=0.2)
            seen["shell's slug"] = await opus.call("debate_write", slug="shell", sections=turn(1, "Use YAML"))
            seen["sections"] = await opus.call("debate_next", sections=["nonsense"])
            seen["setup"] = await opus.call("debate_init", folder=str(tmp_path / "d2"), task="T",
                                            participants=["solo"])
            seen["bad argument"] = await opus.call("debate_next", wait="often")
            seen["after all"] = await opus.call("debate_status")
        return seen

    # the shell session claims its slug first, as a shell session does
    shell = cli("next", folder, "--slug", "shell")
    assert shell.code == 0
    assert cli("write", folder, "--slug", "shell", input=turn(1, "Use YAML")).code == 0
    seen = anyio.run(bounded, main)
    for name, (error, _text) in seen.items():
        assert error == (name not in ("good", "after all")), (name, seen[name])
    assert json.loads(seen["missing"][1]) == {"ok": False, "error": f"no such folder: {tmp_path / 'nowhere'}",
                                              "problems": []}
    assert "no such folder" in json.loads(seen["missing next"][1])["error"]
    assert "slug" in json.loads(seen["bad slug"][1])["error"]
    assert "roster" in json.loads(seen["off roster"][1])["error"]
    # the same problems `write --json` gives for the same sections, and nothing written
    other = str(tmp_path / "other")
    assert cli("init", other, "--task", "Pick one.", "--participants", "opus,shell,gem").code == 0
    from_cli = cli_json(cli, "write", other, "--slug", "opus", input=refused_body)
    refused = json.loads(seen["refused"][1])
    assert refused == from_cli
    assert len(refused["problems"]) >= 2
    assert not os.path.exists(os.path.join(other, "turn-1-opus.md"))
    assert "turn-1-opus.md" in seen["good"][1]
    assert "You are `opus`: turn 2" in seen["timeout"][1]
    assert "Waited 0.2 s" in seen["timeout"][1]
    assert "gem did not write turn 1" in seen["timeout"][1]
    assert "holds no key" in json.loads(seen["shell's slug"][1])["error"]
    assert json.loads(seen["sections"][1])["error"].startswith("sections:")
    assert "names one participant" in json.loads(seen["setup"][1])["error"]
    assert "verdict" in seen["after all"][1]
    assert sorted(p for p in os.listdir(folder) if not p.startswith(".")) == ["TASK.md", "turn-1-opus.md",
                                                                              "turn-1-shell.md"]


def test_a_review_round_through_the_tools(cli: Cli, tmp_path: Path) -> None:
    import anyio

    folder = str(tmp_path / "review")
    proposal = tmp_path / "design.md"
    proposal.write_text("# Cache design\n\nWe key the parse cache on each file's size and mtime.\n")
    finding = ("## Reasoning\nLooked.\n\n## Findings\n### F1 \u2014 mtime is coarse\n- severity: 9\n- class: FATAL\n"
               "- claim: two writes in one tick look unchanged\n"
               "- evidence: \"We key the parse cache on each file's size and mtime\"\n- failure mode: stale data\n")
    answer = "## Reasoning\nTrue.\n\n## Responses\n### F1 \u2014 CONCEDE\n- severity: 9\n- fix: hash the content\n"

    async def main() -> None:
        async with sessions(tmp_path, folder, "ca", "de") as (ca, de):
            await ca.ok("debate_init", task="Review the cache design.", mode="review", proposal=str(proposal),
                        roles={"ca": "critic:consistency", "de": "defender"})
            briefing = await ca.ok("debate_next")
            assert "critic" in briefing
            assert "<<<PROPOSAL [" in briefing
            await ca.ok("debate_write", sections=finding)
            briefing = await de.ok("debate_next")
            assert re.search(r"<<<PEER ca turn 1 \[[0-9a-f]{8}\]", briefing)
            assert "mtime is coarse" in briefing
            await de.ok("debate_write", sections=answer)
            await ca.ok("debate_next")
            await ca.ok("debate_write", sections="## Reasoning\nThe fix holds.\n\n## Findings\nNone.\n")
            status = await de.ok("debate_status")
            assert "fully_resolved" in status
            assert "critique_wins" in status

    anyio.run(bounded, main)
    data = cli_json(cli, "status", folder)
    assert data["verdict"]["state"] == "fully_resolved"


def test_a_slug_held_by_another_running_server_is_refused_and_a_dead_ones_is_taken_over(cli: Cli,
                                                                                        tmp_path: Path) -> None:
    import subprocess

    from multidebate.mcp import tools
    from multidebate.mcp.keys import KeyStore

    folder = str(tmp_path / "debate")
    assert cli("init", folder, "--task", "T", "--participants", "a,b").code == 0
    keys = str(tmp_path / "keys")
    holder = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        first = KeyStore(keys, pid=holder.pid)  # a server that is still running
        assert not tools.debate_next(first, folder, "a").error
        assert not tools.debate_write(first, folder, "a", turn(1, "Use TOML")).error
        assert [p.stat().st_mode & 0o777 for p in Path(keys).iterdir()] == [0o600]
        assert Path(keys).stat().st_mode & 0o777 == 0o700
        second = KeyStore(keys, pid=os.getpid())
        refused = tools.debate_next(second, folder, "a")
        assert refused.error
        assert f"server process {holder.pid}, still running" in json.loads(refused.text)["error"]
    finally:
        holder.communicate(b"")
    # the holder has exited (its assistant was restarted): the next server carries the slug on
    second = KeyStore(keys, pid=os.getpid())
    assert "You are `a`: turn 2" in tools.debate_next(second, folder, "a").text
    assert json.loads(next(Path(keys).iterdir()).read_text())["pid"] == os.getpid()


def test_a_key_folder_that_cannot_be_written_refuses_the_write_and_claims_nothing(cli: Cli, tmp_path: Path) -> None:
    from multidebate.mcp import tools
    from multidebate.mcp.keys import KeyStore

    folder = str(tmp_path / "debate")
    assert cli("init", folder, "--task", "T", "--participants", "a,b").code == 0
    (tmp_path / "blocker").write_text("a file where the key folder would be")
    broken = KeyStore(str(tmp_path / "blocker" / "keys"))
    reply = tools.debate_write(broken, folder, "a", turn(1, "Use TOML"))
    assert reply.error
    assert json.loads(reply.text)["error"].endswith("nothing was written")
    assert not os.path.exists(os.path.join(folder, "turn-1-a.md"))
    # nothing claimed: a server that can keep the key writes the turn
    assert not tools.debate_write(KeyStore(str(tmp_path / "keys")), folder, "a", turn(1, "Use TOML")).error


def test_debate_next_full_serves_every_peer_file_whole_as_the_cli_does(cli: Cli, tmp_path: Path) -> None:
    """`full` reaches the briefing, not the rendering alone: a peer cut to the contested items (#36) is whole."""
    from multidebate.mcp import tools
    from multidebate.mcp.keys import KeyStore

    folder = str(tmp_path / "debate")
    assert cli("init", folder, "--task", "Answer Q1-Q2.", "--participants", "a,b").code == 0
    keys = KeyStore(str(tmp_path / "keys"))
    settled = "Q1: four, by counting on fingers." + " More of the same." * 60
    for slug, line in (("a", "Q1: 4, Q2: B"), ("b", "Q1: 4, Q2: A")):
        assert not tools.debate_next(keys, folder, slug).error
        body = turn(1, line).replace("Why, at turn 1.", settled + "\n\nQ2: my reading.")
        assert not tools.debate_write(keys, folder, slug, body).error
    cut = tools.debate_next(keys, folder, "a").text
    whole = tools.debate_next(keys, folder, "a", full=True).text
    assert "counting on fingers" not in cut
    assert "counting on fingers" in whole
