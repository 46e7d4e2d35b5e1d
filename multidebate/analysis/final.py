"""The debate's final answer: the consensus when converged, else the modal answer and its dissenters.

Not converged, as the jeevesagent seed does: the Answers of the last complete
turn are clustered (two Answers are in one cluster when they agree by the
verdict's comparison, linked transitively) and the largest cluster wins;
when asked, cluster weight is the sum of confidences instead of the head
count.  When the largest clusters tie, no answer is named "most held": the
final answer is `split` and lists every position.  The representative of
the winning cluster is the Answer most often shown the same as the others
(ties to the first slug by name, never to a file time its owner can set).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..state.debate import Debate
from .verdict import Verdict, debate_context

__all__ = ["CLUSTER_MAX", "Dissent", "FinalAnswer", "final_answer"]

CLUSTER_MAX = 200  # distinct answer lines compared pairwise at most


@dataclass(frozen=True)
class Dissent:
    slug: str
    recommendation: str
    reason: str


@dataclass(frozen=True)
class FinalAnswer:
    """The answer a person should take away, who backs it, and who does not."""

    kind: str  # "consensus", "modal", "split" (a tie: no answer is most held) or "none"
    turn: int
    representative: str | None
    recommendation: str
    answer: str
    supporters: tuple[str, ...]
    dissenters: tuple[Dissent, ...]
    minority_points: tuple[str, ...]
    weighted: bool = False

    def as_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind, "turn": self.turn, "representative": self.representative,
            "recommendation": self.recommendation, "answer": self.answer, "supporters": list(self.supporters),
            "dissenters": [{"slug": d.slug, "recommendation": d.recommendation, "reason": d.reason}
                           for d in self.dissenters],
            "minority_points": list(self.minority_points), "confidence_weighted": self.weighted,
        }


def _clusters(slugs: list[str], agree: dict[tuple[str, str], bool]) -> list[list[str]]:
    parent = {s: s for s in slugs}

    def root(s: str) -> str:
        while parent[s] != s:
            s = parent[s]
        return s

    for (a, b), ok in agree.items():
        if ok:
            parent[root(a)] = root(b)
    groups: dict[str, list[str]] = {}
    for s in slugs:
        groups.setdefault(root(s), []).append(s)
    return list(groups.values())


def final_answer(debate: Debate, verdict: Verdict, weighted: bool = False) -> FinalAnswer:
    """The final answer (see the module doc)."""
    turn = verdict.turn if verdict.state == "converged" else (debate.last_complete_turn or debate.current_turn)
    entries = {s: e for s in debate.participants if (e := debate.entry(turn, s)) is not None and e.readable}
    if not entries:
        return FinalAnswer("none", turn, None, "", "", (), (), ())
    context = debate_context(debate)
    # by slug, never by file time: a file's owner sets its mtime, and with it which Answer would be shown
    order = sorted(entries)
    # Answers with one line and the same items compare alike with everything: each group is compared
    # through its first member, so 2,000 agreeing participants cost one comparison, not two million
    firsts: dict[tuple[object, ...], str] = {}
    first_of: dict[str, str] = {}
    for slug in order:
        sig = debate.details(entries[slug]).sig
        first_of[slug] = firsts.setdefault((sig.line, sig.items) if sig.line else (slug,), slug)
    leaders = list(dict.fromkeys(first_of.values()))
    relation: dict[tuple[str, str], float] = {}
    agree: dict[tuple[str, str], bool] = {}
    # pairwise comparison is quadratic (1,000 distinct Answers took 52 s and 516 MB): past CLUSTER_MAX distinct
    # lines, Answers cluster by their folded line alone, or all together when the verdict found them agreeing
    compared = leaders if len(leaders) <= CLUSTER_MAX else []
    if not compared and verdict.state == "converged":
        agree.update({(other, leaders[0]): True for other in leaders[1:]})
    for i, a in enumerate(compared):
        for b in compared[i + 1:]:
            result = context.compare(debate.details(entries[a]).sig, debate.details(entries[b]).sig)
            # the representative is the member most often shown the same as the others
            relation[(a, b)] = relation[(b, a)] = {"same": 1.0, "unsure": 0.5}.get(result.relation, 0.0)
            agree[(a, b)] = result.agree

    def score(x: str, y: str) -> float:
        lx, ly = first_of[x], first_of[y]
        return 1.0 if lx == ly else relation.get((lx, ly), 0.0)

    def weight(group: list[str]) -> float:
        return sum(entries[s].confidence or 0 for s in group) if weighted else float(len(group))

    position = {s: i for i, s in enumerate(order)}
    size: dict[str, int] = {}
    for slug in order:
        size[first_of[slug]] = size.get(first_of[slug], 0) + 1
    clusters = [[s for s in order if first_of[s] in members]
                for members in (set(group) for group in _clusters(leaders, agree))]
    best = max(clusters, key=lambda g: (weight(g), -min(position[s] for s in g)))
    if verdict.state != "converged" and len(clusters) > 1 and \
            sum(1 for g in clusters if weight(g) == weight(best)) > 1:
        # a tie: naming one side "most held" would present it as the winner
        return FinalAnswer("split", turn, None, "", "", (), tuple(
            Dissent(s, debate.details(entries[s]).sig.recommendation, entries[s].converged_reason) for s in order), (), weighted)
    # the representative is the member closest to the others of its cluster
    best_leaders = [g for g in leaders if g in {first_of[s] for s in best}]
    closeness = {g: size[g] - 1 + sum(score(g, o) * size[o] for o in best_leaders if o != g) for g in best_leaders}
    representative = max(best_leaders, key=lambda g: (closeness[g], -position[g]))
    dissenters = []
    for slug in order:
        if slug in best:
            continue
        entry = entries[slug]
        reason = entry.converged_reason or next((m.text for m in debate.details(entry).mentions if m.section == "Disagreements"), "")
        dissenters.append(Dissent(slug, debate.details(entry).sig.recommendation, reason))
    minority = []
    for slug in best:
        for mention in debate.details(entries[slug]).mentions:
            if mention.section == "Disagreements" and (mention.slugs or mention.everyone) and mention.kind != "none":
                minority.append(f"{slug}: {mention.text}")
    kind = "consensus" if verdict.state == "converged" else "modal"
    chosen = entries[representative]
    return FinalAnswer(kind, turn, representative, debate.details(chosen).sig.recommendation, debate.details(chosen).answer,
                       tuple(s for s in order if s in best), tuple(dissenters), tuple(minority), weighted)
