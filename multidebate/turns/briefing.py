"""`next`: everything a session needs for its turn, in one answer, planned here.

Only turn N-1 files of peers are ever served (the reading rule), framed so a
model cannot take a peer's text for instructions addressed to it.  The plan is
a few small steps, each returning its notes or its piece of the `Briefing`;
how much of each peer file is served is peer_files.py's, the text
briefing_text.py's (an open debate) and review_briefing.py's (a review, a judge).
"""

from __future__ import annotations

import os
import shlex
from datetime import date
from typing import NamedTuple

from ..analysis.ending import settle
from ..analysis.verdict import (
    Verdict,
    debate_context,
    line_of,
    one_line_at,
    proposed_line,
)
from ..protocol.bold_line import same_line
from ..protocol.errors import FolderError, TaskError
from ..protocol.findings import Finding
from ..protocol.naming import TurnName
from ..protocol.profile import PROFILE_V1
from ..protocol.roles import Role, reads
from ..protocol.textfile import read_text
from ..state.debate import Debate, Entry, load_debate, read_entry
from ..state.folder import TurnFile
from ..state.layout import sealed_dir, served_path, write_json_state
from ..state.session import check_identity, check_slug, next_turn_number
from ..state.task import (
    TASK_FILE,
    create_task,
    render_task,
    require_readable,
    same_task,
)
from .briefing_value import PEER_PREAMBLE, Briefing, PeerFile
from .fence import fence_id
from .notes import Note, note
from .peer_files import (
    LARGE_BRIEFING,
    MAX_SERVED_CHARS,
    reasoning_limits,
    serve,
    served_less,
)

__all__ = ["PeerFile", "Briefing", "BriefingPlan", "Served", "brief", "fence_id", "plan_briefing", "section_names",
           "PEER_PREAMBLE"]


class Served(NamedTuple):
    """The peer files `next` served a session for one turn (recorded so that `write` puts their hashes in the
    turn's metadata)."""

    turn: int  # 0: what the judge was served for its judgment
    files: tuple[tuple[str, str], ...]  # (file name, sha256), in the order served


class BriefingPlan(NamedTuple):
    """What `next` serves and what serving it must record: `plan_briefing` decides it, `brief` records it."""

    briefing: Briefing
    served: Served | None = None  # None: nothing served to record (a judge whose judgment is not due)
    task: str | None = None  # the task text to record as TASK.md: the folder has none and the session gave it
    notes: tuple[Note, ...] = ()  # what the briefing's notes say, as values (notes.py renders them)


def _served(turn: int, peers: tuple[PeerFile, ...]) -> Served:
    return Served(turn, tuple((p.file, p.sha256) for p in peers))


def _record_served(folder: str, slug: str, served: Served) -> None:
    """Remember what was served so `write` can put its hashes in the turn's metadata."""
    try:
        write_json_state(served_path(folder, slug, served.turn), dict(served.files))
    except OSError:
        pass  # a read-only folder still gets its briefing; write falls back to current hashes


def _record_task(folder: str, slug: str, text: str) -> bool:
    """Record the task a session gave as TASK.md, so that every session debates the same text (False when
    it cannot: another session recorded one a moment ago, or the folder is read-only)."""
    try:
        create_task(folder, render_task(text, recorded_by=slug))
    except (TaskError, OSError):
        return False
    return True


def _task_text(debate: Debate, slug: str, turn: int, given: str | None, notes: list[Note],
               recorded: bool) -> str | None:
    """The task the session debates: TASK.md's (it wins over a differing one given), else the one given."""
    task = debate.task
    if task is not None:
        if given and task.text and not same_task(given, task.text):
            notes.append(note("task-differs"))
        if recorded:
            notes.append(note("task-recorded"))
        return task.text or None
    if given:
        return given.strip()  # the plan says to record it (BriefingPlan.task)
    if turn == 1:
        raise TaskError(
            f"this debate has no {TASK_FILE} and no task was given. Rerun with the user's task: "
            f"multidebate next {shlex.quote(debate.folder)} --slug {slug} --task \"<the task, as the user gave it>\""
        )
    notes.append(note("task-missing"))
    return None


def _own_sealed(folder: str, slug: str, debate: Debate) -> tuple[int, str | None]:
    """In a sealed debate: how many of the slug's turns wait unpublished, and the latest one's Answer."""
    if not (debate.task and debate.task.sealed):
        return 0, None
    waiting_turns = sorted(t for t, slugs in debate.sealed_pending.items() if slug in slugs)
    if not waiting_turns:
        return 0, None
    latest = TurnName(waiting_turns[-1], slug)
    read = read_entry(TurnFile(latest, os.path.join(sealed_dir(folder), latest.filename), True, False))
    return len(waiting_turns), read.details.answer


def section_names(spec: str) -> tuple[str, ...]:
    """`answer,disagreements` -> the profile's names, in the profile's order; ValueError for an unknown one."""
    wanted = {part.strip().lower() for part in spec.split(",") if part.strip()}
    known = {name.lower(): name for name in PROFILE_V1.sections}
    unknown = sorted(wanted - set(known))
    if unknown or not wanted:
        raise ValueError(f"unknown section(s): {', '.join(unknown) or '(none given)'}; choose from "
                         f"{', '.join(n.lower() for n in PROFILE_V1.sections)}")
    return tuple(name for name in PROFILE_V1.sections if name.lower() in wanted)


def brief(folder: str, slug: str, task: str | None = None, create: bool = False,
          key: str | None = None, sections: tuple[str, ...] | None = None, full: bool = False) -> Briefing:
    """The briefing for `slug` (see the module doc and `plan_briefing`), and what serving it records.

    Creates FOLDER when `create` and a task are given and it is missing, records the task as TASK.md when the
    folder has none, and records under .multidebate/ which peer files it served (for `write`'s metadata).
    """
    _open_folder(folder, slug, task, create)
    plan = plan_briefing(load_debate(folder), slug, task, key, sections, full=full)
    if plan.task is not None:
        recorded = _record_task(folder, slug, plan.task)
        debate = load_debate(folder)
        if debate.task is not None:  # recorded now (or by another session a moment ago): brief from it
            plan = plan_briefing(debate, slug, task, key, sections, task_recorded=recorded, full=full)
    if plan.served is not None:
        _record_served(folder, slug, plan.served)
    return plan.briefing


def _open_folder(folder: str, slug: str, task: str | None, create: bool) -> None:
    """Create FOLDER when asked to and given a task (a debate's first `next`); FolderError when it is no folder."""
    if create and task and not os.path.exists(folder):
        try:
            os.makedirs(folder)
        except OSError as exc:
            raise FolderError(f"cannot create {folder}: {exc.strerror or exc}") from exc
    if not os.path.isdir(folder):
        hint = f"; to start a debate there, run `multidebate next {shlex.quote(folder)} --slug {slug} --task \"...\"`"
        raise FolderError(f"no such folder: {folder}" + ("" if os.path.exists(folder) else hint))


def plan_briefing(debate: Debate, slug: str, task: str | None = None, key: str | None = None,
                  sections: tuple[str, ...] | None = None, *, task_recorded: bool = False,
                  full: bool = False) -> BriefingPlan:
    """What `next` serves `slug` in `debate`, and what serving it must record; writes nothing.

    `task`: the task the session was given (recorded by `brief` when the folder has no TASK.md);
    `task_recorded`: `brief` has just recorded it (the briefing says so); `full`: every peer file whole (without
    it, reading.py's rules serve less).  Raises what `brief` raises
    for a slug that may not be used, a missing task on turn 1 or a gap in the slug's turns.

    In steps: the seat (which turn, which role, what it reads), the session's own last turn, advice for the
    turn to write, the peer files, the verdict and where the debate stands, what is served of the peers, and
    a review's role; each step gives its notes, which are rendered once, at the end.
    """
    require_readable(debate.task)
    check_slug(slug, debate.task)
    check_identity(debate.folder, debate.scan, debate.task, slug, key, "next")
    if debate.task is not None and debate.task.judge == slug:
        return _judge_plan(debate.folder, slug, debate, key)
    notes = _slug_notes(debate, slug)
    sealed_count, sealed_answer = _own_sealed(debate.folder, slug, debate)
    seat = _seat(debate, slug, next_turn_number(debate.scan, slug, sealed_count))
    task_text = _task_text(debate, slug, seat.turn, task, notes, task_recorded)
    own = _own_turn(seat, sealed_answer)
    advice = _advice(seat, own)
    if sealed_count:
        notes.append(note("sealed-turn", turn=seat.turn))
    gathered = _gather(seat, sections)
    verdict = settle(debate, own.problems).verdict  # a turn written by hand after the end does not reopen it
    ending, standing = _standing(seat, verdict, gathered)
    notes = ([ending] if ending else []) + notes + ([] if verdict.final else advice) + _names_you(seat, verdict) \
        + standing
    asked = verdict.proposed_line if verdict.turn == seat.turn - 1 and verdict.state in ("unconfirmed", "in_progress") \
        else ""
    if asked and not verdict.final:
        notes.append(note("all-yes-not-one-line", turn=seat.turn, line=asked))
    served = _served_peers(seat, gathered, own.line, asked, sections, full)
    # d82: after the end no peer file is shown, and a note on how they were cut for size only puzzled sessions
    notes += [] if verdict.final else served.notes
    review = _review_part(seat, verdict)
    briefing = Briefing(
        folder=debate.folder, slug=slug, turn=seat.turn, task=task_text, today=date.today().isoformat(),
        own_previous_answer=own.answer, peers=served.peers, absent=gathered.absent, waiting=gathered.waiting,
        sealed_written=gathered.sealed_written, verdict=verdict, key=key, max_turns=seat.limit,
        participants=tuple(dict.fromkeys(debate.participants + (slug,))),
        roster=bool(debate.task and debate.task.participants),
        task_source=TASK_FILE if task_text is not None else "", notes=tuple(n.text for n in notes + list(review.notes)),
        lines=served.lines, proposed_line=served.proposal, role=seat.role.kind if seat.role else "",
        instructions=review.instructions, read_turn=seat.read_turn, proposal=review.proposal,
        proposal_file=review.proposal_file, proposal_sha256=review.proposal_sha256, proposal_seen=review.seen,
        task_seen=seat.role is None and seat.turn > 1 and task_text is not None and _task_seen(debate, slug),
        settled=served.settled, full=full)
    return BriefingPlan(briefing, _served(seat.turn, briefing.peers),
                        task.strip() if debate.task is None and task else None, tuple(notes) + review.notes)


class _Seat(NamedTuple):
    """Where the session sits: the turn it writes, its role in a review, and whose turn it reads."""

    debate: Debate
    slug: str
    turn: int
    role: Role | None  # a review's critic or defender; None in an open debate
    read_turn: int  # the turn whose peer files are served
    readers: tuple[str, ...] | None  # whose files, in a review; None: every other participant
    limit: int | None  # max_turns


def _seat(debate: Debate, slug: str, turn: int) -> _Seat:
    task = debate.task
    role = task.role_map.get(slug) if task is not None and task.review else None
    read_turn, readers = reads(task.role_map, slug, turn) if task is not None and role else (turn - 1, None)
    return _Seat(debate, slug, turn, role, read_turn, readers, task.max_turns if task else None)


def _slug_notes(debate: Debate, slug: str) -> list[Note]:
    """A slug close to a participant's, in a debate without a roster: a typo would silently add a participant
    whose turns nobody writes."""
    if slug in debate.participants or (debate.task and debate.task.participants):
        return []
    import difflib

    close = difflib.get_close_matches(slug, debate.participants, n=1, cutoff=0.75)
    return [note("slug-typo", slug=slug, close=close[0])] if close else []


class _Own(NamedTuple):
    entry: Entry | None  # the session's turn N-1, unless the file under its slug is not its own
    line: str  # that turn's bold line ("" for none)
    answer: str | None  # its Answer as `next` quotes it back
    problems: dict[tuple[int, str], Finding]  # every file's integrity problems (the verdict takes them too)


def _own_turn(seat: _Seat, sealed_answer: str | None) -> _Own:
    from ..analysis.integrity import disowned, file_problems

    debate, turn = seat.debate, seat.turn
    problems = file_problems(debate)
    own = debate.entry(turn - 1, seat.slug)
    if own is not None and (turn - 1, seat.slug) in disowned(problems):
        own = None  # a hand-written or copied file under this slug (E085, E022) is no answer of this session
    answer = debate.details(own).answer if own else sealed_answer
    if debate.task is not None and debate.task.review:
        answer = None  # a review turn has no Answer: its findings or responses are in the ROLE block
    return _Own(own, line_of(debate, own) if own is not None else "", answer, problems)


def _advice(seat: _Seat, own: _Own) -> list[Note]:
    """Notes for the turn to write (dropped once the debate has ended): the session's line changed (and
    crossed a peer's), a stall ahead, the last turn ahead."""
    debate, slug, turn, limit = seat.debate, seat.slug, seat.turn, seat.limit
    advice: list[Note] = []
    older = debate.entry(turn - 2, slug) if turn > 2 else None
    if own.entry is not None and older is not None and own.line and not same_line(own.line, line_of(debate, older)):
        source = next((p for p in sorted(debate.participants) if p != slug
                       and (e := debate.entry(turn - 2, p)) is not None and same_line(line_of(debate, e), own.line)),
                      "")
        advice.append(note("line-changed", turn=turn, source=source))
        swapped = [p for p in debate.participants if p != slug and _swapped(debate, slug, p, turn - 1)]
        if swapped:
            advice.append(note("swapped-positions", turn=turn, slug=slug, peer=swapped[0]))
    reviewing = debate.task is not None and debate.task.review  # #27: critics and a defender write no bold line
    if turn >= 3 and not reviewing and (limit is None or turn < limit) and _unchanged(debate, turn - 1):
        advice.append(note("stall-warning", turn=turn))
    if limit and limit >= 2 and turn == limit - 1 and not one_line_at(debate, turn - 1):
        advice.append(note("next-is-last", limit=limit))
    return advice


class _Gathered(NamedTuple):
    entries: tuple[Entry, ...]  # the peers' turns served, in order
    peers: tuple[PeerFile, ...]  # as first served (before reading.py's rules and the large-briefing cut)
    absent: tuple[str, ...]
    waiting: tuple[str, ...]
    sealed_written: tuple[str, ...]


def _gather(seat: _Seat, sections: tuple[str, ...] | None) -> _Gathered:
    """The peer files of the turn the session reads, and who has not written it (absent, awaited, sealed)."""
    debate = seat.debate
    entries: list[Entry] = []
    peers: list[PeerFile] = []
    absent: list[str] = []
    waiting: list[str] = []
    sealed_written: list[str] = []
    if seat.read_turn >= 1:
        for peer in seat.readers if seat.readers is not None else debate.participants:
            if peer == seat.slug:
                continue
            entry = debate.entry(seat.read_turn, peer)
            if entry is None:
                (waiting if debate.scan.own_count(peer) >= seat.read_turn - 1 else absent).append(peer)
                if peer in debate.sealed_pending.get(seat.read_turn, ()):
                    sealed_written.append(peer)
                continue
            entries.append(entry)
            peers.append(serve(debate, entry, sections, None if seat.role is not None else MAX_SERVED_CHARS))
    return _Gathered(tuple(entries), tuple(peers), tuple(absent), tuple(waiting), tuple(sealed_written))


def _names_you(seat: _Seat, verdict: Verdict) -> list[Note]:
    """The verdict's notes on a recent file of this slug's that it left out."""
    own = tuple(f"turn-{t}-{seat.slug}.md is left out" for t in range(max(1, seat.turn - 2), seat.turn + 1))
    return [note("left-out-names-you", finding=finding) for finding in verdict.notes if finding.startswith(own)]


def _standing(seat: _Seat, verdict: Verdict, gathered: _Gathered) -> tuple[Note | None, list[Note]]:
    """Where the debate stands: the ending note (first of all notes), else whom the session waits for, and the
    turn limit."""
    debate, turn, limit, folder = seat.debate, seat.turn, seat.limit, seat.debate.folder
    wrote = turn > 1 or debate.scan.own_count(seat.slug) > 0
    waiting, sealed_written = gathered.waiting, gathered.sealed_written
    if verdict.review is not None and verdict.final:
        return note("review-ended", state=verdict.state, turn=verdict.turn, summary=verdict.review.summary()), []
    if verdict.state == "unanimous":
        return note("unanimous", wrote=wrote, folder=folder), []
    if verdict.state == "converged":
        return note("converged", turn=verdict.turn, wrote=wrote, folder=folder), []
    if verdict.final:
        return note("debate-ended", state=verdict.state, turn=verdict.turn, detail=verdict.detail, folder=folder), []
    standing: list[Note] = []
    if waiting and seat.role is not None and seat.role.kind == "defender":
        standing.append(note("defender-waiting", waiting=waiting, turn=seat.read_turn))
    elif waiting:
        standing.append(note("waiting-peers", turn=seat.read_turn,
                             unwritten=tuple(p for p in waiting if p not in sealed_written),
                             sealed_written=sealed_written))
    if limit and turn > limit:
        standing.append(note("beyond-turn-limit", limit=limit, turn=turn, folder=folder))
    elif limit and turn == limit:
        standing.append(note("last-turn", limit=limit))
    return None, standing


class _ServedPeers(NamedTuple):
    peers: tuple[PeerFile, ...]
    lines: tuple[tuple[str, str], ...]  # turn N-1's bold lines
    proposal: str  # a line for all to reuse
    settled: tuple[tuple[str, str], ...]
    notes: tuple[Note, ...]


def _served_peers(seat: _Seat, gathered: _Gathered, own_line: str, asked: str,
                  sections: tuple[str, ...] | None, full: bool) -> _ServedPeers:
    """What is served of the peer files: reading.py's rules (settled items, unchanged agreement), then, when
    they are still more than a shell shows, the long Reasonings cut to share the room (peer_files.py)."""
    debate, slug, turn, role = seat.debate, seat.slug, seat.turn, seat.role
    peers, entries = list(gathered.peers), list(gathered.entries)
    lines, proposal = _previous_lines(debate, slug, turn, tuple(p.slug for p in peers), asked) if role is None \
        else ((), "")
    settled: tuple[tuple[str, str], ...] = ()
    if role is None and sections is None and not full and turn >= 2 and peers:
        peers, settled = served_less(debate, slug, turn, entries, peers, own_line, proposal or asked)
    whole = sum(len(peer.text) for peer in peers)
    notes: tuple[Note, ...] = ()
    if sections is None and role is None and len(peers) > 1 and whole > LARGE_BRIEFING:
        limits = reasoning_limits(debate, entries, peers)
        peers = [peer if limit is None else serve(debate, entry, None, limit)
                 for entry, peer, limit in zip(entries, peers, limits)]
        cut = tuple(peer.slug for peer in peers if peer.cut_from)
        # d81: files served in part already (settled items, unchanged agreement) can be long in all with no
        # Reasoning cut here: the note then named nobody ("the Reasoning of  is cut")
        notes = (note("large-briefing", peers=len(peers), chars=whole, cut=cut),) if cut else ()
    return _ServedPeers(tuple(peers), lines, proposal, settled, notes)


class _ReviewPart(NamedTuple):
    instructions: str = ""
    proposal: str | None = None
    proposal_file: str = ""
    proposal_sha256: str = ""
    seen: bool = False
    notes: tuple[Note, ...] = ()


def _review_part(seat: _Seat, verdict: Verdict) -> _ReviewPart:
    """A review's critic or defender: its role's instructions, the proposal as it is now, and what changed in it."""
    task = seat.debate.task
    if seat.role is None or task is None:
        return _ReviewPart()
    from ..analysis.review_case import proposal_findings
    from .role_briefing import role_instructions

    folder = seat.debate.folder
    instructions = role_instructions(seat.role, seat.slug, seat.turn, task.rounds, verdict.review, task.role_map)
    proposal, proposal_sha = _proposal_now(folder, task.proposal)
    changed = proposal_findings(folder, task.proposal, task.proposal_sha256)
    # served whole on its turn 1: read once, and unchanged since (W101 says when not)
    return _ReviewPart(instructions, proposal, task.proposal or "", proposal_sha, seat.turn > 1 and not changed,
                       tuple(note("proposal-finding", proposal=task.proposal, message=f.message, finding=f.code)
                             for f in changed))


def _proposal_now(folder: str, name: str | None) -> tuple[str | None, str]:
    """A review's proposal as it is now: its text (None when it cannot be read) and the sha256 of its bytes."""
    import hashlib

    if not name:
        return None, ""
    read = read_text(os.path.join(folder, name))
    return read.text, hashlib.sha256(read.raw).hexdigest() if read.text is not None else ""


def _progress(debate: Debate, review: bool) -> str:
    """How far the debate has got, for a judge that waits: the round (or turn) being written, who wrote it and
    whom it waits for (#27: a judge waited for a whole review and nothing said how far it had got)."""
    participants = debate.participants
    current = max((t for (t, _s) in debate.entries), default=0)
    if not current:
        return "no turn has been written yet"
    wrote = [s for s in participants if debate.entry(current, s) is not None]
    waiting = [s for s in participants if s not in wrote]
    unit = "round" if review else "turn"
    limit = ""
    if debate.task is not None:
        high = debate.task.rounds[1] if review else debate.task.max_turns
        limit = f" of at most {high}" if high else ""
    return (f"{unit} {current}{limit}: written by {', '.join(wrote)}"
            + (f"; waiting for {', '.join(waiting)}" if waiting else ""))


def _judge_plan(folder: str, slug: str, debate: Debate, key: str | None) -> BriefingPlan:
    """The judge's briefing: wait while the debate runs; once a judgment is due, every final turn."""
    from ..analysis.verdict import judgment_due
    from ..protocol.judgment import judgment_name
    from .role_briefing import judge_instructions

    task = debate.task
    debate, _problems, verdict = settle(debate)
    unit = "round" if task is not None and task.review else "turn"
    notes: list[Note] = []
    peers: list[PeerFile] = []
    instructions = ""
    served: Served | None = None  # recorded only once the judgment is due
    from ..analysis.judgment_check import check_judgment

    judged = check_judgment(debate, verdict)
    if judged.judgment is not None:
        notes.append(note("judgment-written", name=judgment_name(slug)))
    elif judged.present:
        problem = next((f.message for f in judged.findings if f.code == "E111"), "")
        notes.append(note("judgment-not-yours", name=judgment_name(slug), problem=problem))
    if judged.judgment is not None:
        pass
    elif not verdict.final:
        notes.append(note("judge-waiting", progress=_progress(debate, unit == 'round')))
    elif not judgment_due(task, verdict):
        notes.append(note("no-judgment-needed", state=verdict.state))
    else:
        for peer in debate.participants:
            own = [t for (t, s) in debate.entries if s == peer]
            if own:
                entry = debate.entry(max(own), peer)
                if entry is not None:
                    peers.append(serve(debate, entry, None, None if task is not None and task.review
                                        else MAX_SERVED_CHARS))
        instructions = judge_instructions(verdict, bool(task and task.review))
        served = _served(0, tuple(peers))
    proposal_file = task.proposal or "" if task is not None else ""
    # the judge reads the proposal too (#27: it judged a review without reading it)
    proposal, proposal_sha = _proposal_now(folder, proposal_file)
    briefing = Briefing(folder=folder, slug=slug, turn=verdict.turn, task=task.text if task else None,
                        today=date.today().isoformat(), own_previous_answer=None, peers=tuple(peers), absent=(),
                        waiting=(), verdict=verdict, key=key, participants=debate.participants,
                        roster=bool(task and task.participants), task_source=TASK_FILE,
                        notes=tuple(n.text for n in notes),
                        role="judge", instructions=instructions, read_turn=verdict.turn, proposal_file=proposal_file,
                        proposal=proposal, proposal_sha256=proposal_sha)
    return BriefingPlan(briefing, served, notes=tuple(notes))


def _swapped(debate: Debate, a: str, b: str, turn: int) -> bool:
    """Did `a` and `b` each adopt the other's previous line at `turn`, word for word, and so still differ?"""
    a_now, b_now = debate.entry(turn, a), debate.entry(turn, b)
    a_before, b_before = debate.entry(turn - 1, a), debate.entry(turn - 1, b)
    if a_now is None or b_now is None or a_before is None or b_before is None:
        return False
    return (same_line(line_of(debate, a_now), line_of(debate, b_before))
            and same_line(line_of(debate, b_now), line_of(debate, a_before))
            and not same_line(line_of(debate, a_now), line_of(debate, b_now)))


def _unchanged(debate: Debate, turn: int) -> bool:
    """Every participant wrote `turn` with the bold line and Converged of its turn before (a stall's first half)."""
    for slug in debate.participants:
        now, before = debate.entry(turn, slug), debate.entry(turn - 1, slug)
        if now is None or before is None or now.converged != before.converged:
            return False
        if not same_line(line_of(debate, now), line_of(debate, before)):
            return False
    return bool(debate.participants)


def _task_seen(debate: Debate, slug: str) -> bool:
    """TASK.md has not changed since `slug` wrote its turn 1 (so `next` showed it this very text then).

    Told by change times, which no user-space call sets back: TASK.md's is older than the session's own turn-1
    file's and than the end of the second its ledger records for that write.  Any doubt (no ledger entry, a
    file gone) is a change: the task is then shown whole.
    """
    from datetime import datetime, timezone

    from ..state.ledger import read_ledger

    first = next((e for e in read_ledger(debate.folder, slug).entries if e.turn == 1), None)
    entry = debate.entry(1, slug)
    if first is None or entry is None:
        return False
    try:
        written = datetime.strptime(first.written_at, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc).timestamp()
        task_changed = os.stat(os.path.join(debate.folder, TASK_FILE)).st_ctime_ns
        own_written = os.lstat(entry.path).st_ctime_ns
    except (OSError, ValueError):
        return False
    # the ledger keeps whole seconds: it bounds the turn file's change time (which a chmod could move on)
    return task_changed < own_written and task_changed < (written + 1) * 1e9


def _previous_lines(debate: Debate, slug: str, turn: int, served: tuple[str, ...], asked: str
                    ) -> tuple[tuple[tuple[str, str], ...], str]:
    """Turn N-1's bold lines as written (the peers served, then the session's own), and a line to reuse.

    `asked`: the line the verdict asks every session to copy after an all-yes turn whose lines were not one
    line.  Otherwise a line is proposed when the lines are not one line but every two are shown to say the
    same thing: one recommendation in several wordings, and copying one line word for word ends the debate.
    Every session gets the same proposal (verdict.proposed_line).
    """
    if turn < 2:
        return (), ""
    lines = [(s, line) for s in served + (slug,)
             if (e := debate.entry(turn - 1, s)) is not None and (line := line_of(debate, e))]
    if len(lines) < 2 or all(same_line(lines[0][1], line) for _s, line in lines):
        return tuple(lines), ""
    if asked:
        return tuple(lines), asked
    context = debate_context(debate)
    entries = [e for s, _line in lines if (e := debate.entry(turn - 1, s)) is not None]
    # only lines shown to say the same thing: sessions read a proposal for lines that merely might
    # (DRF-or-ninja vs ninja, five status codes of which three differed) as advice to adopt a peer's answer
    if not all(context.compare(debate.details(a).sig, debate.details(b).sig).agree for i, a in enumerate(entries) for b in entries[i + 1:]):
        return tuple(lines), ""
    return tuple(lines), proposed_line(debate, turn - 1)


