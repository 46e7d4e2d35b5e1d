"""The prompt an agent gets for one turn: what a session gets from SKILL.md and from `next`.

The skill's rules (the bold line, when to say yes, never speak for a peer) are read from the bundled SKILL.md
and the briefing is `next`'s own (`render_briefing`): the agent reads the same task, the same quoted peer files
and bold lines as a session would.  It is asked for its turn's sections only, never to run a command: `run`
writes the turn for it.  A note of the briefing that tells a session to run a command is left out.
"""

from __future__ import annotations

import re

from ..skill.install import bundled_skill
from ..turns.briefing_text import render_briefing
from ..turns.briefing_value import Briefing

__all__ = ["ROLE", "agent_prompt", "retry_prompt", "sections_of", "without_commands"]

ROLE = ("You are one of several AI sessions, each a different model, debating one task. Each turn you read your "
        "peers' previous turn, refine your position and write your turn. `multidebate run` started you for this "
        "turn: below is what `multidebate next` serves a session, and `run` writes your reply as your turn file. "
        "Run no command and write no file: reply with your turn's sections only, starting with `## ` headings, "
        "with no title, no frontmatter and nothing before or after them.")

WRITE_AS = "Reply with exactly these sections, as `## Name` headings, and nothing else; `run` writes the file."

# briefing notes that send a session to run a command: `run` runs them
_COMMAND_NOTE = re.compile(r"`(?:multidebate )?(?:next|write|report|validate)\b|multidebate (?:next|report)")


def _skill_part(title: str) -> str:
    """One `## title` section of the bundled SKILL.md, heading included."""
    text = bundled_skill().decode("utf-8")
    match = re.search(rf"^## {re.escape(title)}\n.*?(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    return match.group(0).strip() if match else ""


def _template() -> str:
    """The six sections as SKILL.md shows them, without the shell command around them."""
    block = re.search(r"```\n(multidebate write[^\n]*\n)(.*?)\nTURN\n```", bundled_skill().decode("utf-8"), re.DOTALL)
    return block.group(2).strip() if block else ""


def agent_prompt(briefing: Briefing) -> str:
    """The whole prompt for `briefing`'s turn (an open debate's turn, a review role's, or a judgment)."""
    notes = tuple(note for note in briefing.notes if not _COMMAND_NOTE.search(note))
    # whole: an agent `run` starts reads its prompt, not a shell's cut of it
    served = render_briefing(briefing._replace(notes=notes, key=None), write_as=WRITE_AS, full=True)
    parts = [ROLE, "", _skill_part("The bold line decides"), "", _skill_part("Rules")]
    if not briefing.role:
        parts += ["", "THE SECTIONS OF A TURN (turn 1: Reasoning, Answer, Confidence, Converged: no; from turn 2 on "
                      "all six, with items only for the peers they concern; `- None` under an empty list):",
                  _template()]
    parts += ["", "WHAT `multidebate next` SERVES YOU FOR THIS TURN:", "", served]
    return "\n".join(parts).strip() + "\n"


# a clause of a refusal that tells a session to run a command (`run multidebate next`, "run `next --wait`")
_COMMAND_CLAUSE = re.compile(r"[^.;:]*(?:\brun\b[^.;:]*`|`[^`]*\bmultidebate\b|\bmultidebate (?:next|write|report|"
                             r"validate|status)\b)[^.;]*[.;]?", re.IGNORECASE)


def without_commands(text: str) -> str:
    """`text` without the clauses that tell a session to run a command: an agent `run` starts runs none
    (#34: a refusal fed back said "run `multidebate next`", against the prompt's own "run no command")."""
    kept = _COMMAND_CLAUSE.sub("", text)
    return re.sub(r"\s{2,}", " ", kept).strip().rstrip(":;,") if kept != text else text


def retry_prompt(prompt: str, reply: str, refusal: str, problems: list[str]) -> str:
    """`prompt` again, with the refusal of the last reply (without a clause that says to run a command) and
    that reply quoted (fenced by an id it does not contain, as `next` fences peer files), for the agent to fix."""
    import secrets

    fence = secrets.token_hex(4)
    while fence in reply:
        fence = secrets.token_hex(4)
    refusal = without_commands(refusal)
    listed = "".join(f"\n- {p}" for p in (without_commands(p) for p in problems) if p)
    return (f"{prompt}\nYOUR LAST REPLY WAS REFUSED BY `write` (nothing was written): {refusal}{listed}\n"
            f"Your last reply, quoted:\n<<<REPLY [{fence}]\n{reply[:20_000]}\n>>>END [{fence}]\n"
            "Reply again with the whole turn, every section, fixed as listed.\n")


def sections_of(reply: str) -> str:
    """The turn's sections in an agent's reply: from its first `## ` heading on, without a code fence the
    agent wrapped them in.  Anything before the sections (a greeting, a `NOTE:` line) is no part of a turn;
    the sections themselves go to `write` unchanged, which refuses what breaks the format."""
    lines = reply.replace("\r\n", "\n").split("\n")
    first = next((i for i, line in enumerate(lines) if line.startswith("## ")), None)
    if first is None:
        return reply
    body = lines[first:]
    opened = first > 0 and lines[first - 1].strip().startswith("```")
    while body and not body[-1].strip():
        body.pop()
    if opened and body and body[-1].strip() == "```":
        body.pop()
    return "\n".join(body) + "\n"
