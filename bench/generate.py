"""Generate synthetic debate folders of realistic turn files (about 5 KB: lists, code fences, frontmatter).

Run: python bench/generate.py OUT_DIR PARTICIPANTS TURNS
The files are written directly (not through `write`): this is benchmark
data, labelled as synthetic, never presented as a real debate.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import sys

WORDS = ("config parser toml yaml schema latency cache index replica backup queue retry jitter timeout "
         "budget cost migration rollback failover throughput storage network thread process lock").split()


def paragraph(rng: random.Random, sentences: int) -> str:
    return " ".join(" ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 16))).capitalize() + "."
                    for _ in range(sentences))


def turn_text(rng: random.Random, slug: str, turn: int, peers: list[str], hashes: dict[str, str]) -> str:
    pick = rng.choice(("Use TOML for the config file", "Use YAML with a JSON schema", "Use SQLite in WAL mode"))
    front = ["---", "protocol: 1", f"turn: {turn}", f"slug: {slug}", "written_at: '2026-11-22T00:00:00Z'",
             "tool: multidebate bench", "peers_read:"]
    for peer in peers[:3]:
        name = f"turn-{turn - 1}-{peer}.md"
        front += [f"  - file: {name}", f"    sha256: {hashes.get(name, '')}"]
    if turn == 1 or not peers:
        front[-1] = "peers_read: []"
    body = [f"# Turn {turn} \u2014 {slug}", "", "## Reasoning", "", paragraph(rng, 6), "",
            "- " + paragraph(rng, 1), "- " + paragraph(rng, 1), "", "```python",
            "def choose(options):\n    return sorted(options)[0]", "```", "", paragraph(rng, 5), "",
            "## Answer", "", f"**{pick}.**", "", paragraph(rng, 8), "", "1. " + paragraph(rng, 1),
            "2. " + paragraph(rng, 1), "", "```toml", "[tool]\nname = 'x'", "```", "", paragraph(rng, 6), ""]
    if turn > 1:
        body += ["## Agreements", ""] + [f"- With {p}: {paragraph(rng, 1)}" for p in peers[:2]] + [""]
        body += ["## Disagreements", ""] + [f"- With {p}: they argued {paragraph(rng, 1)} I hold otherwise."
                                            for p in peers[2:4]] + ["- None" if len(peers) < 3 else "", ""]
    body += ["## Confidence", "", str(rng.randint(40, 95)), "", "## Converged", "", "no \u2014 still weighing", ""]
    return "\n".join(front + ["---"] + body)


def _ledger_line(name: str, data: bytes, slug: str, turn: int, prev: str) -> str:
    entry = {"file": name, "sha256": hashlib.sha256(data).hexdigest(), "size": len(data),
             "written_at": "2026-11-22T00:00:00Z", "slug": slug, "turn": turn, "prev": prev}
    return json.dumps(entry, sort_keys=True, separators=(",", ":"))


def generate(out: str, participants: int, turns: int, seed: int = 7) -> str:
    """A debate as `multidebate write` would leave it: real peer hashes in frontmatter, and ledgers."""
    rng = random.Random(seed)
    os.makedirs(os.path.join(out, ".multidebate", "ledger"), exist_ok=True)
    hashes: dict[str, str] = {}
    ledgers: dict[str, list[str]] = {}
    slugs = [f"model-{i:03d}" for i in range(participants)]
    with open(os.path.join(out, "TASK.md"), "w", encoding="utf-8") as handle:
        handle.write("---\nprotocol: 1\n---\n\nSynthetic benchmark debate: pick a config format.\n")
    for turn in range(1, turns + 1):
        for slug in slugs:
            peers = [s for s in slugs if s != slug]
            rng.shuffle(peers)
            name = f"turn-{turn}-{slug}.md"
            data = turn_text(rng, slug, turn, peers, hashes).encode("utf-8")
            with open(os.path.join(out, name), "wb") as handle:
                handle.write(data)
            hashes[name] = hashlib.sha256(data).hexdigest()
            lines = ledgers.setdefault(slug, [])
            prev = hashlib.sha256(lines[-1].encode()).hexdigest() if lines else "0" * 64
            lines.append(_ledger_line(name, data, slug, turn, prev))
    for slug, lines in ledgers.items():
        with open(os.path.join(out, ".multidebate", "ledger", f"{slug}.jsonl"), "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")
    # every slug claimed, as by its first `write`: sessions then call `next` with --key
    os.makedirs(os.path.join(out, ".multidebate", "keys"), exist_ok=True)
    for slug in slugs:
        record = {"slug": slug, "key_sha256": hashlib.sha256(key_for(slug).encode()).hexdigest(),
                  "claimed_at": "2026-11-22T00:00:00Z"}
        with open(os.path.join(out, ".multidebate", "keys", f"{slug}.json"), "w", encoding="utf-8") as handle:
            handle.write(json.dumps(record) + "\n")
    return out


def key_for(slug: str) -> str:
    """The key of `slug` in a generated debate (real keys are random; these are known to the benchmark)."""
    return hashlib.sha256(f"bench-{slug}".encode()).hexdigest()[:16]


if __name__ == "__main__":
    generate(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
