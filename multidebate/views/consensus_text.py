"""A consensus as the report shows it: the agreed line, the text every participant read, and what none read.

One Markdown rendering, used by the Markdown report and (through its Markdown
renderer) by the HTML report, so the two never say different things.
"""

from __future__ import annotations

from ..analysis.final import FinalAnswer, LastTurnText
from ..protocol.oneline import one_line
from ..protocol.terms import LIST_ITEM_RE

__all__ = ["ADDED_SHOWN", "consensus_markdown"]

ADDED_SHOWN = 8  # last-turn lines shown per session; the JSON has them all



def _names(slugs: tuple[str, ...]) -> str:
    return ", ".join(slugs)


def consensus_markdown(final: FinalAnswer) -> list[str]:
    """The consensus part of the report's "Final answer" section, as Markdown lines."""
    end = "" if final.recommendation.endswith((".", "!", "?")) else "."
    if final.independent:
        return _unanimous_markdown(final, end)
    out = [f"Consensus at turn {final.turn}: {_names(final.supporters)} wrote one bold line, word for word, and "
           f"said yes: **{final.recommendation}**{end}", ""]
    if final.line_only:
        out += [f"No Answer carried this line at turn {final.turn - 1}, so no text was read by every participant: "
                "the agreed line alone is the final answer. Each session's turn-"
                f"{final.turn} Answer below is its own, unread by its peers.", ""]
    else:
        read = [final.representative or ""] + list(final.read_by)
        # d76: "the first to carry this line" read as pointing at the wrong turn when the line was older
        first = (f"; {final.representative} first wrote this line at turn {final.line_since}"
                 if final.line_since and final.line_since < final.answer_turn else "")
        out.append(f"The agreed text is {final.representative}'s Answer of turn {final.answer_turn}, the text every "
                   f"yes at turn {final.turn} was shown{first}. Read and accepted by {_names(tuple(read))}: "
                   + ("each yes at the last turn was given after `next` served this text, as its file's "
                      "`peers_read` hash shows." if final.read_by else "its writer."))
        if final.unrecorded:
            one = len(final.unrecorded) == 1
            out.append(f"{_names(final.unrecorded)} wrote by hand and keep{'s' if one else ''} no record of what "
                       f"{'it' if one else 'they'} read: {'it' if one else 'they'} said yes to the same line.")
        if final.not_read_by:
            out.append(f"Not read by {_names(final.not_read_by)}: their files record no reading of it (they said "
                       "yes to the same line without being served this text).")
        out += ["", final.answer.strip(), ""]
    added = [a for a in final.added if a.lines]
    if added:
        # d83: sessions took reworded lines for new content: say the comparison is word for word
        out += [f"**Added at the last turn, not read by peers** (turn {final.turn}): each line that is not word for "
                "word in the agreed text or the session's own previous Answer, rewordings included" if not final.line_only else
                f"**Each session's turn-{final.turn} Answer, not read by peers**", ""]
        out += _per_session(added)
    return out


def _per_session(texts: list[LastTurnText]) -> list[str]:
    """Each session's lines, at most ADDED_SHOWN of them shown, then a blank line."""
    out = []
    for item in texts:
        out.append(f"- {item.slug}:")
        # an Answer's own list items keep their text, not their marker (d81: "- - Q1: 4")
        out += [f"  - {one_line(LIST_ITEM_RE.sub('', line.strip()), 240)}" for line in item.lines[:ADDED_SHOWN]]
        more = len(item.lines) - ADDED_SHOWN
        if more > 0:
            out.append(f"  - … and {more} more line{'s' if more > 1 else ''} (`report --format json` has them all)")
    return out + [""]


def _unanimous_markdown(final: FinalAnswer, end: str) -> list[str]:
    """All wrote one line at turn 1, none having read a peer: the first slug's text, then each other's own."""
    out = [f"Unanimous at turn 1: {_names(final.supporters)} wrote one bold line, word for word, each without "
           f"reading a peer: **{final.recommendation}**{end}", "",
           f"The text shown is {final.representative}'s turn-1 Answer (the first slug's). Nobody read a peer's "
           "answer, so nobody accepted another's text: each session's turn-1 Answer is its own.", "",
           final.answer.strip(), ""]
    if final.added:
        out += ["**The other sessions' turn-1 Answers, each its own**", ""] + _per_session(list(final.added))
    return out
