"""Compose a session's sections into a canonical turn file and create it atomically; say what was written."""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import cached_property
from typing import TYPE_CHECKING, Callable, NamedTuple

from ..protocol.errors import (
    DebateEnded,
    FolderError,
    IdentityError,
    InvalidTurn,
    TurnConflict,
)
from ..protocol.findings import CODES
from ..protocol.front_matter import render_frontmatter, strip_frontmatter
from ..protocol.naming import TurnName, turn_file_name
from ..protocol.notes import Note, note, render
from ..protocol.parse import ParsedTurn, parse_turn
from ..protocol.profile import PROTOCOL_VERSION, Profile, profile_for
from ..protocol.textfile import decode_turn_bytes, read_text
from ..state.atomic import create_exclusive, sweep_stale_temps
from ..state.debate import visible_scan
from ..state.folder import Scan
from ..state.jsonstate import loads_state
from ..state.keys import claim
from ..state.layout import key_path, read_state, sealed_dir, served_path
from ..state.ledger import append_entry
from ..state.sealed import publish_if_complete, seal, sealed_turns
from ..state.session import (
    check_identity,
    check_slug,
    interrupted_write,
    next_turn_number,
    other_slug,
)
from ..state.shared import files_lock
from ..state.task import Task, count_words, require_readable, word_limit
from ..version import __version__
from . import write_notes  # noqa: F401  (registers the notes `write` says)

if TYPE_CHECKING:
    from ..analysis.verdict import Verdict

__all__ = ["Standing", "WriteResult", "debate_standing", "write_turn", "compose"]

# `write` adds its own frontmatter: valid frontmatter in the input is refused as invalid frontmatter (E010) is
_NO_FRONTMATTER = CODES["E010"].fix


class Standing(NamedTuple):
    """Where the debate stands once a file is written: who has written its turn, and the verdict.

    How far the turn is, never what peers answered: a session must not learn its peers'
    current-turn positions before its next `next`.
    """

    written: tuple[str, ...]  # participants who have written the turn (sealed files included)
    waiting: tuple[str, ...]  # participants who have not
    roster: bool  # TASK.md lists the participants (else whoever writes takes part)
    participants: int
    verdict: Verdict
    max_turns: int | None = None  # the task's turn limit, if any


def debate_standing(folder: str, turn: int) -> Standing:
    """The debate in `folder` read again, as `status` reads it, for what `write` says after writing turn `turn`."""
    from ..analysis.ending import settle
    from ..state.debate import load_debate

    debate, _problems, verdict = settle(load_debate(folder))
    done = {slug for t, slug in debate.entries if t == turn} | set(debate.sealed_pending.get(turn, ()))
    return Standing(tuple(s for s in debate.participants if s in done),
                    tuple(s for s in debate.participants if s not in done),
                    bool(debate.task and debate.task.participants), len(debate.participants), verdict,
                    debate.task.max_turns if debate.task else None)


@dataclass(frozen=True)
class WriteResult:
    """What `write` created, and what it says about it (`as_dict` for --json, `render` for people).

    `key` is set when this write claimed the slug; `sealed` when it waits unpublished.
    """

    folder: str
    path: str
    turn: int
    slug: str
    confidence: int | None  # None: a review turn (it has neither)
    converged: bool | None
    normalised: tuple[str, ...]
    peers_read: tuple[tuple[str, str], ...]
    key: str | None = None
    sealed: bool = False
    published: bool = False
    warnings: tuple[str, ...] = ()
    judgment: bool = False  # a judge's judgment-<slug>.md, not a turn

    @cached_property
    def standing(self) -> Standing:
        """Where the debate stands now: read on first use, after the key is shown (slow on a big debate)."""
        return debate_standing(self.folder, self.turn)

    def key_notice(self) -> str | None:
        """The line that hands out the key this write claimed, to show at once (None when it claimed none)."""
        if not self.key:
            return None
        return render(note("judge-key-claimed" if self.judgment else "key-claimed", slug=self.slug, key=self.key))

    def as_dict(self) -> dict[str, object]:
        """`write --json` (schemas/write.schema.json), the key included."""
        verdict = self.standing.verdict
        written, waiting = (0, []) if self.judgment else (len(self.standing.written), list(self.standing.waiting))
        return {"ok": True, "path": self.path, "turn": self.turn, "slug": self.slug, "confidence": self.confidence,
                "converged": self.converged, "normalised": list(self.normalised), "warnings": list(self.warnings),
                "peers_read": [{"file": f, "sha256": h} for f, h in self.peers_read],
                "progress": {"written": written, "waiting": waiting}, "key": self.key, "sealed": self.sealed,
                "published": self.published, "debate": {"state": verdict.state, "turn": verdict.turn}}

    def render(self, key_option: str = "", next_step: str | None = None) -> str:
        """What `write` tells a session after the key notice; `key_option`: how it gave its key (` --key K`,
        ` --key-file PATH`, "" for $MULTIDEBATE_KEY), repeated in the next command; `next_step`: what to do
        next instead of the `next` command (the MCP server names its tool)."""
        return "\n".join(self.lines(key_option, next_step))

    def lines(self, key_option: str = "", next_step: str | None = None) -> list[str]:
        """`render`'s lines, one a note."""
        return [render(n) for n in self.notes(key_option, next_step)]

    def notes(self, key_option: str = "", next_step: str | None = None) -> list[Note]:
        """What was written, what was repaired or warned of, how far the turn is, where the debate stands, what
        next: one note a line (write_notes.py words them)."""
        verdict = self.standing.verdict
        if self.judgment:
            return [note("wrote-judgment", path=self.path, state=verdict.state, folder=self.folder)]
        if self.confidence is None:  # a review turn
            said = [note("wrote-round", path=self.path, turn=self.turn)]
        else:
            said = [note("wrote-turn", path=self.path, turn=self.turn, confidence=self.confidence,
                         converged=bool(self.converged))]
        said += [note("normalised", what=what) for what in self.normalised]
        said += [note("warning", warning=warning) for warning in self.warnings]
        review_ended = verdict.review is not None and verdict.final
        if self.sealed and self.published:
            said.append(note("turn-published", turn=self.turn))
        else:
            if self.sealed:
                said.append(note("turn-sealed", turn=self.turn))
            if not review_ended:
                said.append(self._progress())  # a review that ended waits for no one
        ending = self._ending(verdict)
        if ending is not None:
            said.append(ending)
        if not verdict.final:
            key_option = f" --key {self.key}" if self.key else key_option  # a key claimed now was printed already
            last = self.standing.max_turns is not None and self.turn >= self.standing.max_turns
            said.append(note("next-command", folder=self.folder, slug=self.slug, key_option=key_option, last=last)
                        if next_step is None else note("next-tool", step=next_step, last=last))
        return said

    def _ending(self, verdict: Verdict) -> Note | None:
        """Where the debate stands, when there is more to say than the progress line."""
        if verdict.state == "converged":
            return note("write-converged", turn=verdict.turn)
        if verdict.state == "unanimous":
            return note("write-unanimous")
        if verdict.state == "unconfirmed" and verdict.proposed_line and verdict.turn == self.turn:
            return note("write-all-yes-not-one-line", turn=self.turn, line=verdict.proposed_line)
        if verdict.review is not None and verdict.final:
            return note("write-review-ended", state=verdict.state, turn=verdict.turn, summary=verdict.review.summary())
        if verdict.final:
            return note("write-debate-ended", state=verdict.state, turn=verdict.turn, detail=verdict.detail)
        return None

    def _progress(self) -> Note:
        """How far the turn is: who has written it and who not, never what they answered."""
        standing = self.standing
        if standing.roster:
            return note("turn-progress", turn=self.turn, written=len(standing.written),
                        participants=standing.participants, waiting=standing.waiting, final=standing.verdict.final)
        return note("turn-progress-open", turn=self.turn, written=standing.written, waiting=standing.waiting)


def _peers_read(folder: str, scan: Scan, slug: str, turn: int) -> tuple[tuple[str, str], ...]:
    """The peer files `next` served for this turn, as `next` recorded them (none when it never ran)."""
    record = served_path(folder, slug, turn)
    try:
        served = loads_state(read_state(record, 1024 * 1024))
        if isinstance(served, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in served.items()):
            return tuple(sorted(served.items()))
    except (OSError, ValueError):
        pass
    return ()  # `next` served nothing for this turn: the session read no peer file, and says so


def _problems(parsed: ParsedTurn, participants: tuple[str, ...], slug: str) -> tuple[list[str], list[str]]:
    problems: list[str] = []
    normalised: list[str] = []
    for item in parsed.findings:
        rule = CODES[item.code]  # how write treats each code is its rule's to say (findings.py)
        if rule.on_write == "refuse":
            problems.append(f"line {item.line}: {item.message}" + (f": {rule.fix}" if rule.fix else ""))
        elif rule.on_write == "refuse_with_fix":
            problems.append(rule.fix)
        elif rule.on_write == "normalise":
            normalised.append(item.message)
    for name in ("Confidence", "Converged"):
        section = parsed.sections.get(name)
        extra = [ln.strip() for ln in section.body.strip().splitlines()[1:] if ln.strip()] if section else []
        if extra:
            # one line each: what follows would be dropped from the file, so nothing is written
            holds = "an integer 0-100" if name == "Confidence" else "`yes` or `no — <reason>`"
            more = ", ..." if len(extra) > 1 else ""
            problems.append(f"`## {name}` holds one line ({holds}); move the other lines ({extra[0][:60]!r}{more}) "
                            "to `## Reasoning`")
    everyone = set(participants) | {slug}
    for mention in parsed.mentions:
        for named in mention.slugs:
            if named not in everyone:
                known = ", ".join(sorted(everyone - {slug})) or "none"
                problems.append(f"line {mention.line}: `With {named}:` names no participant of this debate "
                                f"(participants: {known})")
    return problems, normalised


def _frontmatter(slug: str, turn: int, peers: tuple[tuple[str, str], ...], written_at: str,
                 judged: str | None = None) -> str:
    """A turn's frontmatter (a judgment's when `judged` names the verdict it judges)."""
    head: dict[str, object] = {"protocol": PROTOCOL_VERSION}
    if judged is not None:
        head.update(role="judge", verdict=judged)
    return render_frontmatter({**head, "turn": turn, "slug": slug, "written_at": written_at,
                               "tool": f"multidebate {__version__}",
                               "peers_read": [{"file": name, "sha256": digest} for name, digest in peers]})


def compose(parsed: ParsedTurn, slug: str, turn: int, peers: tuple[tuple[str, str], ...], written_at: str) -> str:
    """The canonical text of a turn: frontmatter, title, the sections in order, canonical values."""
    parts = [_frontmatter(slug, turn, peers, written_at), f"# Turn {turn} \u2014 {slug}\n"]
    for name in parsed.profile.required(turn):
        if name == "Confidence":
            body = str(parsed.confidence)
        elif name == "Converged":
            word = "yes" if parsed.converged else "no"
            body = f"{word} \u2014 {parsed.converged_reason}" if parsed.converged_reason else word
        else:
            body = parsed.sections[name].body.strip("\n").rstrip()
        parts.append(f"\n## {name}\n\n{body}\n")
    return "".join(parts)


MAX_ANSWER_CHARS = 12_000  # well inside what `next` serves of a peer file (MAX_SERVED_CHARS, 24,000)


def _check_input(content: bytes, participants: tuple[str, ...], slug: str, turn: int, profile: Profile,
                 more: Callable[[ParsedTurn], list[str]] | None = None) -> tuple[ParsedTurn, list[str]]:
    decoded = decode_turn_bytes(content, "<input>")
    if decoded.text is None:
        raise InvalidTurn("nothing written: the input is not turn text", [f.message for f in decoded.findings])
    parsed = parse_turn(decoded.text, "<input>", TurnName(turn, slug), profile)
    problems, normalised = _problems(parsed, participants, slug)
    answer = parsed.sections.get("Answer")
    if answer is not None and len(answer.body.strip()) > MAX_ANSWER_CHARS:
        # `next` serves at most MAX_SERVED_CHARS of a file: a longer Answer would reach peers cut
        problems.append(f"`## Answer` is {len(answer.body.strip()):,} characters; at most {MAX_ANSWER_CHARS:,}, so "
                        "that peers are served it whole: put the detail in `## Reasoning`")
    if parsed.metadata:
        problems.insert(0, _NO_FRONTMATTER)
    if more is not None and not problems:
        problems.extend(more(parsed))  # checked against the findings so far once the file itself is sound
    if problems:
        expected = ", ".join(f"## {s}" for s in profile.required(turn))
        raise InvalidTurn(
            f"nothing written: turn {turn} of `{slug}` needs the sections {expected}, in this order", problems)
    return parsed, normalised


def write_turn(folder: str, slug: str, content: bytes, key: str | None = None,
               on_key: Callable[[WriteResult], None] | None = None, expect_turn: int | None = None) -> WriteResult:
    """Validate `content` as `slug`'s next turn and create its file; see the CLI's `write`.

    Reads only names, TASK.md and the turn N-1 peer files (never the whole
    debate).  InvalidTurn lists every problem at once; TurnConflict when the
    file exists; IdentityError when the slug is another session's; FolderError
    when the file or its ledger entry cannot be written (the file is then
    removed again).  `on_key`: called with the key notice's result as soon as a
    first write claims the slug, before the file is created, so a write killed
    after creating it has shown the key.  `expect_turn`: the turn the writer was briefed for (`run`); a
    TurnConflict when it is no longer the slug's next, and a turn that repeats the previous one word for word is
    then a held position, not a retried command (which could not pass this check).
    """
    scan, task, _pending = visible_scan(folder)
    require_readable(task)
    check_slug(slug, task)
    unclaimed = check_identity(folder, scan, task, slug, key, "next")
    if task is not None and task.judge == slug:
        return _write_judgment(folder, slug, content, unclaimed)
    _refuse_after_end(folder)
    sealed_mode = bool(task and task.sealed)
    own_sealed = {t for t, slugs in sealed_turns(folder).items() if slug in slugs} if sealed_mode else set()
    own_published = set(scan.by_slug.get(slug, {}))
    turn = next_turn_number(scan, slug, len(own_sealed - own_published))
    if expect_turn is not None and turn != expect_turn:
        raise TurnConflict(f"nothing written: `{slug}` was briefed for turn {expect_turn}, but its next turn is now "
                           f"{turn} (another writer wrote as `{slug}` meanwhile)")
    participants = task.participants if task and task.participants else scan.slugs
    role = task.role_map.get(slug) if task is not None and task.review else None
    profile = profile_for(role.kind if role else None)
    review_warnings: list[str] = []
    check: Callable[[ParsedTurn], list[str]] | None = None
    if role is not None and task is not None:
        review_task = task

        def check(parsed: ParsedTurn) -> list[str]:
            errors, warnings = _review_problems(folder, review_task, slug, turn, parsed)
            review_warnings.extend(warnings)
            return errors

    parsed, normalised = _check_input(content, participants, slug, turn, profile, check)
    if profile.name == "debate-v1" and (parsed.confidence is None or parsed.converged is None):
        # _check_input refuses these; never write a guess
        raise InvalidTurn(f"nothing written: turn {turn} of `{slug}` has no readable Confidence or Converged", [])
    if expect_turn is None:
        _refuse_repeat(folder, parsed, slug, turn, sealed_mode)
    path = os.path.join(folder, turn_file_name(turn, slug))
    _clear_interrupted(scan, slug, turn, path)
    with files_lock(folder, exclusive=False):
        return _create_turn(folder, scan, task, slug, turn, path, parsed, normalised, participants,
                            sealed_mode, unclaimed, on_key, review_warnings)


def _create_turn(folder: str, scan: Scan, task: Task | None, slug: str, turn: int, path: str,
                 parsed: ParsedTurn, normalised: list[str], participants: tuple[str, ...], sealed_mode: bool,
                 unclaimed: bool, on_key: Callable[[WriteResult], None] | None,
                 review_warnings: list[str]) -> WriteResult:
    """Claim the slug if new, create the file, record it in the ledger, publish a completed sealed turn."""
    new_key = None
    try:
        new_key = claim(folder, slug) if unclaimed else None
        if unclaimed and new_key is None:
            raise IdentityError(f"`{slug}` was claimed by another session a moment ago; nothing was written. "
                                f"You are another session: {other_slug(folder, scan, task, slug, 'next')}.")
        if new_key is not None and on_key is not None:
            on_key(WriteResult(folder, path, turn, slug, None, None, (), (), new_key))
        written_at = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        peers = _peers_read(folder, scan, slug, turn)
        data = compose(parsed, slug, turn, peers, written_at).encode("utf-8")
        created = seal(folder, turn, slug, data) if sealed_mode else create_exclusive(path, data)
    except OSError as exc:
        _release(folder, slug, new_key)
        raise FolderError(f"cannot write {path}: {exc.strerror or exc}; nothing was written") from exc
    if not created:
        _release(folder, slug, new_key)
        raise TurnConflict(
            f"{path} exists already: another session wrote turn {turn} as `{slug}`. Nothing was written. "
            "If that was not you, pick another slug; if it was, run `multidebate next` again."
        )
    try:
        append_entry(folder, slug, os.path.basename(path), data, turn, written_at)
    except OSError as exc:
        _unrecorded(folder, slug, path, new_key, sealed_mode, exc)
    sweep_stale_temps(folder)  # what writers killed mid-write left behind
    published = False
    if sealed_mode and task is not None and task.participants:
        try:
            # also any earlier complete turn whose publisher died before its marker
            for pending in sorted(sealed_turns(folder)):
                done = publish_if_complete(folder, pending, task.participants)
                published = done if pending == turn else published
        except OSError:
            pass  # the turn stays sealed; the next write publishes it
    return WriteResult(folder, path, turn, slug, parsed.confidence, parsed.converged, tuple(normalised), peers,
                       new_key, sealed_mode, published,
                       _ahead_warnings(scan, participants, slug, turn, peers) + _limit_warnings(parsed, task)
                       + tuple(review_warnings) + _near_copy_warnings(scan, slug, turn, parsed))


def _refuse_after_end(folder: str) -> None:
    """DebateEnded once the verdict is final: `next` told the session to write no more, and a turn written
    anyway would only be left out of every view (analysis/ending.py); `run` stops on it as on any refusal."""
    from ..analysis.ending import settle
    from ..state.debate import load_debate

    verdict = settle(load_debate(folder)).verdict
    if not verdict.final:
        return
    if verdict.review is not None:
        how = f"the review ended ({verdict.state}) after round {verdict.turn}"
    elif verdict.state == "converged":
        how = f"the debate converged at turn {verdict.turn}"
    else:
        how = f"the debate ended {verdict.state} at turn {verdict.turn} ({verdict.detail})"
    raise DebateEnded(f"nothing written: {how}, and no turn is written after the end. Tell the user; "
                      f"`multidebate report {shlex.quote(os.path.abspath(folder))}` shows how it ended.")


def _clear_interrupted(scan: Scan, slug: str, turn: int, path: str) -> None:
    """Remove the empty, unrecorded file a killed write of this turn left (session.interrupted_write), so the
    retry writes this turn, not the next; a file that has content by now is left alone (and wins)."""
    stale = interrupted_write(scan, slug)
    if stale is None or stale.name.turn != turn:
        return
    try:
        if os.lstat(path).st_size == 0:
            os.unlink(path)
    except OSError:
        pass  # gone already, or not ours to remove: create_exclusive then says what is there


def _unrecorded(folder: str, slug: str, path: str, new_key: str | None, sealed_mode: bool, exc: OSError) -> None:
    """The ledger entry of a file just created could not be written: take the file back (a turn without its
    entry would count as hand-written, E085, and never complete), and say so.  Raises FolderError."""
    created = os.path.join(sealed_dir(folder), os.path.basename(path)) if sealed_mode else path
    reason = exc.strerror or str(exc)
    try:
        os.unlink(created)
    except OSError as undo:
        raise FolderError(
            f"wrote {path} but could not record it in the ledger ({reason}), nor remove it again "
            f"({undo.strerror or undo}): the turn is NOT complete; `multidebate validate` reports the file (E085 or "
            "W080). Ask the user to free space or fix the permissions of .multidebate/ledger and to remove the "
            "file, then write the turn again"
        ) from exc
    _release(folder, slug, new_key)
    raise FolderError(f"cannot record {path} in the ledger ({reason}); the file was removed again and nothing was "
                      "written: fix .multidebate/ledger (space, permissions) and write the turn again") from exc


def _body(text: str) -> str:
    """A turn's sections as `compose` writes them: no frontmatter, no title (they name the turn)."""
    body = strip_frontmatter(text)
    return body.split("\n", 1)[1].strip() if body.startswith("# Turn ") else body.strip()


def _refuse_repeat(folder: str, parsed: ParsedTurn, slug: str, turn: int, sealed_mode: bool) -> None:
    """A retried command must not write the same turn again as the next one (turns 2, 3 and 4 of one text)."""
    if turn < 2:
        return
    name = turn_file_name(turn - 1, slug)
    where = os.path.join(sealed_dir(folder), name) if sealed_mode and not os.path.exists(
        os.path.join(folder, name)) else os.path.join(folder, name)
    previous = read_text(where)
    if previous.text is None:
        return
    new = _body(compose(parsed, slug, turn, (), ""))
    if new == _body(previous.text):
        raise InvalidTurn(f"nothing written: this is word for word your turn {turn - 1} ({name}), which is already "
                          f"written. If a command was retried, your turn is safe; run `multidebate next` for turn "
                          f"{turn}", [])


def _write_judgment(folder: str, slug: str, content: bytes, unclaimed: bool) -> WriteResult:
    """The judge's one file, once its judgment is due (judgment.py); never over an existing one."""
    from ..analysis.verdict import judge, judgment_due
    from ..protocol.judgment import JUDGMENT_SECTIONS, judgment_name, parse_judgment
    from ..state.debate import load_debate

    debate = load_debate(folder)
    verdict = judge(debate)
    if not judgment_due(debate.task, verdict):
        why = (f"the debate has not ended (it is {verdict.state})" if not verdict.final else
               f"the debate ended {verdict.state}: the participants agree, so no judgment is needed")
        raise InvalidTurn(f"nothing written: {why}. Run `multidebate next --wait` as the judge", [])
    decoded = decode_turn_bytes(content, "<input>")
    if decoded.text is None:
        raise InvalidTurn("nothing written: the input is not text", [f.message for f in decoded.findings])
    sections, found = parse_judgment(decoded.text, "<input>")
    if found:
        raise InvalidTurn("nothing written: a judgment has the sections " + ", ".join(
            f"## {name}" for name in JUDGMENT_SECTIONS), [f.message for f in found])
    written_at = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    peers = _peers_read(folder, debate.scan, slug, 0)
    head = _frontmatter(slug, verdict.turn, peers, written_at, judged=verdict.state)
    # every section, in the judge's order: one of its own (`## Conditions for shipping`) is kept, not dropped
    data = (head + f"# Judgment \u2014 {slug}\n" + "".join(
        f"\n## {name}\n\n{text}\n" for name, text in sections.items())).encode("utf-8")
    path = os.path.join(folder, judgment_name(slug))
    with files_lock(folder, exclusive=False):
        return _create_judgment(folder, slug, path, data, unclaimed, verdict.turn, written_at, peers)


def _create_judgment(folder: str, slug: str, path: str, data: bytes, unclaimed: bool, turn: int, written_at: str,
                     peers: tuple[tuple[str, str], ...]) -> WriteResult:
    new_key = None
    try:
        new_key = claim(folder, slug) if unclaimed else None
        if unclaimed and new_key is None:
            raise IdentityError(f"`{slug}` was claimed by another session a moment ago; nothing was written.")
        created = create_exclusive(path, data)
    except OSError as exc:
        _release(folder, slug, new_key)
        raise FolderError(f"cannot write {path}: {exc.strerror or exc}; nothing was written") from exc
    if not created:
        _release(folder, slug, new_key)
        raise TurnConflict(f"{path} exists already: the judgment is written once. Nothing was written.")
    try:
        append_entry(folder, slug, os.path.basename(path), data, turn, written_at)
    except OSError:
        pass
    return WriteResult(folder, path, turn, slug, None, None, (), peers, new_key, judgment=True)


def _review_problems(folder: str, task: Task, slug: str, turn: int, parsed: ParsedTurn) -> tuple[list[str], list[str]]:
    """(refusals, warnings) for a review turn against the findings so far: an unknown or reused id, an open
    finding left unanswered, evidence the proposal lacks (the file's own problems are the parser's)."""
    from ..analysis.review_case import new_turn_problems, proposal_text
    from ..state.debate import load_debate

    debate = load_debate(folder)
    role = task.role_map.get(slug)
    if role is not None and role.kind == "defender":
        # #27: a defender's round written before its critics' was accepted, then carried E105 for ever
        waiting = [s for s, r in sorted(task.role_map.items()) if r.kind == "critic" and s in debate.participants
                   and debate.entry(turn, s) is None]
        if waiting:
            return [f"the critics have not all written round {turn} yet (waiting for {', '.join(waiting)}); the "
                    f"defender answers a round once it is complete: run `multidebate next "
                    f"{shlex.quote(folder)} --slug {slug} --wait`, then write"], []
    found = new_turn_problems(debate, task.role_map, task.rounds, proposal_text(folder, task.proposal),
                              slug, turn, list(parsed.review_items))
    errors = [f"line {f.line}: {f.message}" if f.line > 1 else f.message for f in found if f.severity == "error"]
    return errors, [f.message for f in found if f.severity != "error"]


def _ahead_warnings(scan: Scan, participants: tuple[str, ...], slug: str, turn: int,
                    peers: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    """Said, not refused: a turn written before any peer wrote the previous one, or without reading them."""
    if turn < 2:
        return ()
    others = [p for p in participants if p != slug]
    if others and not any(scan.entry(turn - 1, p) is not None for p in others):
        return (f"no peer has written turn {turn - 1} yet: you are ahead of every peer. Run `multidebate next "
                "--wait` before your next turn, so that it answers theirs.",)
    if not peers:
        return (f"`next` served you no peer file for turn {turn}: this turn lists none as read. Run `multidebate "
                "next` before each `write`.",)
    return ()


NEAR_COPY_CHARS = 3  # at most this many characters apart (folded) is "almost the same line"


def _near_copy_warnings(scan: Scan, slug: str, turn: int, parsed: ParsedTurn) -> tuple[str, ...]:
    """A yes with a bold line that differs from a peer's turn N-1 line in one or two items or a few characters:
    said, not refused (the difference may be meant).  c02, d03: a slip of one character in a 20-item line would
    keep the debate open, and nothing said so until a turn later.  Only with a yes: a no says the session holds
    the difference (in a quiz, one item apart is the usual disagreement, not a slip)."""
    if turn < 2 or not parsed.answer or parsed.converged is not True:
        return ()
    from ..protocol.bold_line import bold_line, same_line
    from ..state.entry import read_entry

    own = bold_line(parsed.answer)
    if not own:
        return ()
    lines = []
    for peer in sorted(scan.by_slug):
        found = scan.entry(turn - 1, peer)
        if peer != slug and found is not None:
            lines.append((peer, bold_line(read_entry(found).details.answer)))
    if any(same_line(line, own) for _peer, line in lines):
        # d79: a session that copied one peer's line word for word was told to copy another's, a slip apart from
        # it (quotes around a value): the line it took is what `next` asked for, and is one already
        return ()
    out = []
    for peer, line in lines:
        if not line:
            continue
        where = _small_difference(own, line)
        if where:
            out.append(f"your bold line differs from `{peer}`'s turn {turn - 1} line only in {where}. If you hold "
                       "its answer there, copy its line word for word next turn (identical lines decide); if the "
                       "difference is meant, ignore this.")
    return tuple(out[:2])


def _small_difference(own: str, theirs: str) -> str:
    """Where two lines differ, in words, when they differ little (one or two items, or a few characters)."""
    from ..protocol.answer import items_of
    from ..protocol.answer import normalise_line as fold

    mine, peer = dict(items_of(own)), dict(items_of(theirs))
    if len(mine) >= 2 and mine.keys() == peer.keys():
        keys = [k for k in mine if fold(mine[k]) != fold(peer[k])]
        if 1 <= len(keys) <= 2:
            return " and ".join(f"{k} (yours {mine[k]}, theirs {peer[k]})" for k in keys)
        return "" if keys else "wording (the same items)"
    import difflib

    a, b = fold(own), fold(theirs)
    changes = [op for op in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if op[0] != "equal"]
    if not changes or sum(max(i2 - i1, j2 - j1) for _t, i1, i2, j1, j2 in changes) > NEAR_COPY_CHARS:
        return ""
    _tag, i1, i2, j1, j2 = changes[0]
    return f"“{a[max(0, i1 - 12):i2 + 12]}” (theirs: “{b[max(0, j1 - 12):j2 + 12]}”)"


def _limit_warnings(parsed: ParsedTurn, task: Task | None) -> tuple[str, ...]:
    """What the turn breaks of the task's stated limits: said, not refused (the session may disagree)."""
    limit = word_limit(task.text) if task is not None else None
    if limit is None:
        return ()
    words = count_words(parsed.answer)
    if words <= limit:
        return ()
    return (f"your Answer has {words} words (the whole section, bold line included); the task asks for at most "
            f"{limit}. Keep it within the limit "
            "in your next turn: a converged debate's final answer is the one shown to the user.",)


def _release(folder: str, slug: str, new_key: str | None) -> None:
    """Undo a claim made by a write that then failed: the key was never shown to anyone."""
    if new_key is not None:
        try:
            os.unlink(key_path(folder, slug))
        except OSError:
            pass
