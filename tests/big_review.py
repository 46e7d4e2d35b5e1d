"""A review of about 60 findings, built the way real sessions build one: through the CLI, `next` before every
`write`, each session with the key its first `write` printed (#27: the review whose `next` and report
outgrew a session's shell and a decider's screen had 62 findings).

Two critics (security, consistency), one defender, a judge (`--judge-when always`), three rounds:
round 1 raises 60 findings; the defender concedes, partly concedes, defers and rebuts them; in round 2 the
critics re-raise two, rescore one and raise a duplicate; the defender's round-3 fixes are the last (no critic
reviews them); the judge writes nested Contested points and a section of its own.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from conftest import Cli, Outcome
from helpers import Debate

CRITICS = ("crane-1", "egret-2")
DEFENDER = "heron-3"
JUDGE = "owl-4"
PER_CRITIC = 30
PROPOSAL_LINES = [
    "# Passwordless sign-in",
    "",
    "Users sign in with a magic link sent by email.",
    "The link carries a token made of the user id and the time, base64-encoded.",
    "Tokens stay valid for 24 hours and can be used more than once.",
    "We log every token in the access log for debugging.",
    "Rate limiting is left to the load balancer.",
    "Sessions last 30 days and are never revoked on password change.",
]
# Long enough that `next` serves it by hash after round 1 (PROPOSAL_INLINE_LINES)
PROPOSAL = "\n".join(PROPOSAL_LINES + [f"Operational note {i}: the service runs in region {i % 3}." for i in range(60)])
QUOTES = PROPOSAL_LINES[2:]
JUDGMENT = """## Decision
**Do not ship as written: build the revised design with the conceded fixes, then run the two agreed tests.**

The forgeable token decides it. Everything else follows from the conceded fixes.

- Ship gate: the token fix and the single-use rule.
- Second gate: the rate-limit test.

## Reasoning
The defender conceded crane-1/F1 at severity 10; no rebuttal weighs against it.

## What each side got right
- crane-1: the token is forgeable.
- heron-3: most operational findings were out of scope.

## Contested points
- **Rate limiting**: whether the load balancer's limit is enough.
  - Option A: keep the load balancer's limit and measure it.
  - Option B: add a per-account limit in the service.
- **Session length**: 30 days or 7 days.

## Conditions for shipping
1. The token is signed.
2. Links are single-use.
"""


def _done(outcome: Outcome) -> str:
    """What a command printed (stdout and stderr as a session's shell shows them), once it succeeded."""
    assert outcome.code == 0, outcome
    return outcome.out


def _finding(critic: int, n: int) -> str:
    severity = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1][(n + critic) % 10] if n > 1 else 10 - critic
    klass = "FATAL" if severity >= 8 else "MATERIAL" if severity >= 4 else "MINOR" if severity >= 2 else "NIT"
    quote = QUOTES[(n + critic) % len(QUOTES)]
    return (f"### F{n} \u2014 flaw {n} of critic {critic + 1} in the sign-in design, as the lens reads it\n"
            f"- severity: {severity}\n- class: {klass}\n"
            f"- claim: the design lets an attacker or an accident do harm number {n}; this sentence runs on to "
            "show what a real claim of a session looks like in length and in detail.\n"
            f"- evidence: \"{quote}\"\n"
            f"- failure mode: users lose their accounts in case {n}, and nobody notices until support calls.\n")


def _response(key: str, n: int, severity: int, last: bool = False) -> str:
    if n == 1:  # the deciding one: conceded at 10
        return f"### {key} \u2014 CONCEDE\n- severity: 10\n- fix: sign the token with a server key (HMAC-SHA256).\n"
    if n % 7 == 0:
        return (f"### {key} \u2014 PARTIAL\n- severity: 3\n- fix: shorten the lifetime to 15 minutes.\n"
                "- reason: single use is out of scope for this release.\n")
    if n % 5 == 0:
        return f"### {key} \u2014 DEFER\n- severity: {severity}\n- test: load-test {n} sign-ins a second; pass under 1% errors.\n"
    if n % 3 == 0:
        return f"### {key} \u2014 REBUT-SCOPE\n- severity: {min(severity, 2)}\n- reason: operations own case {n}, not this design.\n"
    fix = "redact tokens from the access log" if not last else "a last-round fix nobody reviewed"
    return f"### {key} \u2014 CONCEDE\n- severity: {severity}\n- fix: {fix} (case {n}).\n"


def severity_of(critic: int, n: int) -> int:
    return [10, 9, 8, 7, 6, 5, 4, 3, 2, 1][(n + critic) % 10] if n > 1 else 10 - critic


def _key(output: str) -> str:
    found = re.search(r"--key (\S+)", output)
    assert found, output
    return found.group(1)


def build(root: Path, until: str = "") -> str:
    """The review folder under `root`, complete with its judgment; `until` stops before a step:
    `round-2` (round 1 written), `defender-2` (the critics' round 2 written) or `judgment`."""
    proposal = root / "design.md"
    proposal.write_text(PROPOSAL + "\n")
    folder = str(root / "big-review")
    cli = Cli()  # a plain function, not a test: test_review_fit builds the review once for its module
    _done(cli("init", folder, "--mode", "review", "--proposal", str(proposal), "--task", "Review this sign-in design.",
              f"--role={CRITICS[0]}=critic:security", f"--role={CRITICS[1]}=critic:consistency",
              f"--role={DEFENDER}=defender", f"--role={JUDGE}=judge", "--judge-when", "always", "--max-rounds", "3"))
    debate = Debate(folder)  # each session's key, kept from its first `write` as the session keeps it

    def turn(slug: str, body: str) -> None:
        key = ["--key", debate.key(slug)] if slug in debate.keys else []
        _done(cli("next", folder, "--slug", slug, *key))
        out = _done(cli("write", folder, "--slug", slug, *key, input=body, mixed=True))
        if slug not in debate.keys:
            debate.keep(slug, _key(out))

    # round 1: 60 findings
    for c, critic in enumerate(CRITICS):
        turn(critic, "## Reasoning\nRead the design.\n\n## Findings\n"
             + "\n".join(_finding(c, n) for n in range(1, PER_CRITIC + 1)))
    turn(DEFENDER, "## Reasoning\nAnswering each finding.\n\n## Responses\n" + "\n".join(
        _response(f"{critic}/F{n}", n, severity_of(c, n)) for c, critic in enumerate(CRITICS)
        for n in range(1, PER_CRITIC + 1)))
    if until == "round-2":
        return folder
    # round 2: re-raise, rescore, a duplicate
    turn(CRITICS[0], "## Reasoning\nMost answers hold.\n\n## Findings\n"
         "### F3 \u2014 flaw 3\n- answer: re-raise\n- claim: the re-raised claim: logging tokens leaks them to every "
         "operator.\n- new evidence: the access log is shipped to a third-party vendor.\n\n"
         "### F31 \u2014 tokens in the log, again\n- severity: 6\n- class: MATERIAL\n"
         f"- claim: as egret-2/F4, the log holds live tokens.\n- evidence: \"{QUOTES[3]}\"\n"
         "- failure mode: a leaked log signs anyone in.\n")
    turn(CRITICS[1], "## Reasoning\nOne rescore.\n\n## Findings\n"
         "### F6 \u2014 flaw 6\n- answer: rescore\n- severity: 8\n- claim: the defender underrates it.\n")
    if until == "defender-2":
        return folder
    turn(DEFENDER, "## Reasoning\nThe re-raised ones.\n\n## Responses\n"
         + _response(f"{CRITICS[0]}/F3", 3, 6) + "\n"
         + f"### {CRITICS[0]}/F31 \u2014 CONCEDE\n- severity: 6\n- fix: as egret-2/F4: redact tokens.\n\n"
         + f"### {CRITICS[1]}/F6 \u2014 REBUT-DESIGN\n- severity: 4\n- reason: the fallback covers it.\n\n"
         + "".join(_response(f"{c}/F{n}", n, 3) + "\n" for c in CRITICS for n in range(7, 30, 7)))
    # round 3: the critics re-raise one; the defender's last fixes are reviewed by nobody
    turn(CRITICS[0], "## Reasoning\nStill one.\n\n## Findings\n"
         "### F2 \u2014 flaw 2\n- answer: re-raise\n- new evidence: the vendor keeps logs for a year.\n")
    turn(CRITICS[1], "## Reasoning\nNothing new.\n\n## Findings\nNone.\n")
    turn(DEFENDER, "## Reasoning\nLast round.\n\n## Responses\n"
         + f"### {CRITICS[0]}/F2 \u2014 CONCEDE\n- severity: 5\n- fix: a last-round fix nobody reviewed.\n\n"
         + "".join(_response(f"{c}/F{n}", n, 3) + "\n" for c in CRITICS for n in range(7, 30, 7)))
    if until == "judgment":
        return folder
    _done(cli("next", folder, "--slug", JUDGE))
    out = _done(cli("write", folder, "--slug", JUDGE, input=JUDGMENT, mixed=True))
    assert "judgment" in out.lower(), out
    assert os.path.exists(os.path.join(folder, f"judgment-{JUDGE}.md")), out
    return folder
