"""Read a turn file into its sections and values: lenient, and says what it forgave.

The reader takes every value it can read without guessing (an H3 section, a
`**Confidence:** 85` label, `Yes.`) and records a warning finding for each
departure from the canonical form; what it cannot read is an error finding.
The validator adds the checks that need the folder (gaps, peers, roster).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from .blocks import Heading, Outline, outline
from .findings import Finding, finding
from .front_matter import split_frontmatter
from .mentions import SEVERITIES, Mention
from .naming import TurnName, is_slug
from .profile import PROFILE_CRITIC, PROFILE_DEFENDER, PROFILE_V1, Profile

__all__ = ["Section", "Mention", "ParsedTurn", "parse_turn", "read_confidence", "read_converged"]

# Linear on any line: no two runs of spaces can share the same spaces (`\s*(?!\s)`, `(.*\S)` instead of a lazy
# `(.+?)\s*$`, `[ \t]+(?![ \t])`); a pattern that can split one run of spaces several ways backtracks
# quadratically or worse on a long one.
_TITLE_RE = re.compile(r"^turn\s+([0-9]+)\s*([\u2014\u2013:|]|-{1,3})\s*(?!\s)(.*\S)\s*$", re.IGNORECASE)
_EMPHASIS = "*_`"
_LABEL_RE = re.compile(
    r"^[ \t]{0,3}(?:[-*+][ \t]+(?![ \t]))?(?P<open>[*_]{0,2})[ \t]*(?P<name>[A-Za-z]+)[ \t]*(?P<colon1>:?)[ \t]*"
    r"(?P<close>[*_]{0,2})[ \t]*(?P<colon2>:?)[ \t]*(?P<rest>.*)$"
)
_ITEM_RE = re.compile(r"^[ \t]{0,3}(?:[-*+]|\d{1,9}[.)])[ \t]+(?P<text>.*)$")
_MENTION_RE = re.compile(r"^with\s+(?P<who>[^:\n]{1,200}?)\s*(?::|\s[\u2014\u2013-]\s)", re.IGNORECASE)
_ALL_WORDS = {"all", "everyone", "everybody", "both", "all peers", "peers", "all participants"}


@dataclass(frozen=True)
class Section:
    """One section: its canonical name, where its heading is, and its raw body."""

    name: str
    line: int
    level: int
    heading: str
    body: str
    body_line: int

    @property
    def text(self) -> str:
        return self.body.strip()


@dataclass(frozen=True)
class ParsedTurn:
    """What a turn file says, as far as it can be read, and what differs from the format."""

    path: str
    name: TurnName | None
    metadata: dict[str, Any]
    title: str | None
    title_turn: int | None
    title_slug: str | None
    sections: dict[str, Section]
    confidence: int | None
    converged: bool | None
    converged_reason: str
    mentions: tuple[Mention, ...]
    findings: tuple[Finding, ...]
    profile: Profile = PROFILE_V1
    review_items: tuple[Any, ...] = ()  # a review turn's FindingItems or ResponseItems (review_items.py)

    @property
    def turn(self) -> int | None:
        return self.name.turn if self.name else self.title_turn

    @property
    def slug(self) -> str | None:
        return self.name.slug if self.name else self.title_slug

    @property
    def answer(self) -> str:
        section = self.sections.get("Answer")
        return section.text if section else ""

    @property
    def valid(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)

    @property
    def canonical(self) -> bool:
        return not self.findings


def _canon_name(text: str, profile: Profile) -> tuple[str | None, bool]:
    """The profile section a heading names, and whether it is named exactly."""
    cleaned = text.strip().strip(_EMPHASIS).strip()
    cleaned = re.sub(r"^\d+[.)]\s*", "", cleaned).rstrip(":").strip().strip(_EMPHASIS).strip()
    for name in profile.sections:
        if cleaned.lower() == name.lower():
            return name, text == name
    return None, False


def _strip_emphasis(text: str) -> str:
    return text.strip().strip(_EMPHASIS).strip()


def read_confidence(raw: str) -> tuple[int | None, str | None, str]:
    """(value, problem code, message) for a Confidence body.

    Code None: canonical.  W040: readable but not a bare integer.  E040/E041:
    not an integer or out of range, with the value None.
    """
    first = next((ln.strip() for ln in raw.strip().splitlines() if ln.strip()), "")
    if not first:
        return None, "E040", "Confidence is empty; write an integer 0-100, e.g. `75`"
    if re.fullmatch(r"[0-9]+", first):
        value = int(first)
        if value > 100:
            return None, "E041", f"Confidence {value} is out of range; write an integer 0-100"
        return value, None, ""
    plain = _strip_emphasis(unicodedata.normalize("NFKC", first))
    plain = re.sub(r"^confidence\s*\**\s*[:=]?\s*\**\s*", "", plain, flags=re.IGNORECASE).strip(_EMPHASIS + " ")
    if re.match(r"^[-\u2212]\s*[0-9]", plain):
        return None, "E041", f"Confidence `{first}` is negative; write an integer 0-100"
    if re.match(r"^[0-9]+[.,][0-9]", plain):
        return None, "E040", f"Confidence `{first}` is a fraction; write a whole number 0-100 (e.g. 0.85 -> 85)"
    match = re.match(r"^([0-9]+)\s*(%|/\s*100\b|percent\b)?(.*)$", plain, flags=re.IGNORECASE)
    if match is None:
        return None, "E040", f"Confidence `{first}` is not an integer; write an integer 0-100"
    rest = match.group(3)
    if re.search(r"[0-9]", rest) and not match.group(2):
        return None, "E040", f"Confidence `{first}` is ambiguous (more than one number); write one integer 0-100"
    value = int(match.group(1))
    if value > 100:
        return None, "E041", f"Confidence {value} is out of range; write an integer 0-100"
    return value, "W040", f"Confidence `{first}` is not a bare integer; write `{value}`"


def read_converged(raw: str) -> tuple[bool | None, str, str | None, str]:
    """(value, reason, problem code, message) for a Converged body."""
    first = next((ln.strip() for ln in raw.strip().splitlines() if ln.strip()), "")
    if not first:
        return None, "", "E050", "Converged is empty; write `yes` or `no — <reason>`"
    match = re.fullmatch(r"(yes|no)(?:\s*(?:\u2014|\u2013|-{1,2})\s*(.*))?", first)
    if match:
        return match.group(1) == "yes", (match.group(2) or "").strip(), None, ""
    plain = _strip_emphasis(first)
    plain = re.sub(r"^converged\s*\**\s*[:=]?\s*\**\s*", "", plain, flags=re.IGNORECASE).strip(_EMPHASIS + " ")
    word_match = re.match(r"([A-Za-z]+)(.*)$", plain)
    if word_match is None or word_match.group(1).lower() not in ("yes", "no"):
        return None, "", "E050", f"Converged `{first}` is not `yes` or `no`; write `yes` or `no — <reason>`"
    word = word_match.group(1).lower()
    reason = re.sub(r"^[\s.,;:!\u2014\u2013*_-]+", "", word_match.group(2)).strip()
    reason = reason.strip("()").strip()
    canonical = f"{word} \u2014 {reason}" if reason else word
    return word == "yes", reason, "W050", f"Converged `{first}` is not canonical; write `{canonical}`"


def _mention(section: str, text: str, line: int) -> Mention:
    plain = re.sub(r"[*_`]", "", text).strip()
    match = _MENTION_RE.match(plain)
    if match is None:
        return Mention(section, text, line, (), False, False)
    who = re.sub(r"\([^)]*\)|\[[^\]]*\]", "", match.group("who")).strip()
    rest = plain[match.end():].strip().lower()
    absent = rest.startswith("absent") or rest.startswith("(absent") or "absent" in who.lower()
    who = re.sub(r"\babsent\b", "", who, flags=re.IGNORECASE).strip(" ,")
    if who.lower() in _ALL_WORDS:
        return Mention(section, text, line, (), True, absent)
    parts = [p.strip().lstrip("@").lower() for p in re.split(r",|&|/|\band\b", who)]
    slugs = tuple(p for p in parts if p)
    # "With the idea that ...: ..." is free wording, not a mention.
    if not slugs or not all(is_slug(p) or re.fullmatch(r"[a-z0-9][\w.-]*", p) for p in slugs):
        return Mention(section, text, line, (), False, False)
    return Mention(section, text, line, slugs, False, absent)


def _items(section: Section) -> list[tuple[str, int]]:
    """Top-level list items of a section body, with their lines (code blocks skipped)."""
    items: list[tuple[str, int]] = []
    in_fence = ""
    for offset, line in enumerate(section.body.split("\n")):
        stripped = line.strip()
        fence = re.match(r"^[ \t]{0,3}(`{3,}|~{3,})", line)
        if in_fence:
            if fence and fence.group(1)[0] == in_fence[0] and len(fence.group(1)) >= len(in_fence):
                in_fence = ""
            continue
        if fence:
            in_fence = fence.group(1)
            continue
        match = _ITEM_RE.match(line)
        if match and stripped:
            items.append((match.group("text").strip(), section.body_line + offset))
    return items


class _Reader:
    """One parse: collects sections and findings for one text."""

    def __init__(self, text: str, path: str, name: TurnName | None, profile: Profile | None) -> None:
        self.path = path
        self.name = name
        self.infer = profile is None
        self.profile = profile or PROFILE_V1
        self.findings: list[Finding] = []
        # the frontmatter and the outline are pure functions of the text: read here, so every step has them
        self.split = split_frontmatter(text)
        self.metadata: dict[str, Any] = self.split.metadata
        self.line_offset = self.split.body_line - 1
        self.outline: Outline = outline(self.split.body)

    def add(self, line: int, code: str, message: str) -> None:
        self.findings.append(finding(self.path, line, code, message))

    def run(self) -> ParsedTurn:
        if self.split.error:
            self.add(self.split.error_line, "E010", self.split.error)
        self._check_metadata()
        if self.infer:
            self.profile = self._inferred_profile()
        title, t_turn, t_slug = self._title()
        sections = self._sections()
        self._labels(sections)
        self._check_order(sections)
        turn = self.name.turn if self.name else t_turn
        self._check_presence(sections, turn)
        confidence = self._confidence(sections.get("Confidence"))
        converged, reason = self._converged(sections.get("Converged"), turn)
        mentions = self._mentions(sections)
        review_items = self._review_items(sections)
        self.findings.sort()
        return ParsedTurn(
            path=self.path,
            name=self.name,
            metadata=self.metadata,
            title=title,
            title_turn=t_turn,
            title_slug=t_slug,
            sections=sections,
            confidence=confidence,
            converged=converged,
            converged_reason=reason,
            mentions=tuple(mentions),
            findings=tuple(self.findings),
            profile=self.profile,
            review_items=tuple(review_items),
        )

    def _inferred_profile(self) -> Profile:
        """A review turn (`## Findings` or `## Responses`) is read as one; anything else as an open debate's."""
        for heading in self.outline.headings:
            if heading.level > 2:
                continue
            for profile in (PROFILE_CRITIC, PROFILE_DEFENDER):
                if _canon_name(heading.text, profile)[0] in ("Findings", "Responses"):
                    return profile
        return PROFILE_V1

    def _check_metadata(self) -> None:
        """A copied file replayed under another name keeps the frontmatter `write` gave the original."""
        if self.name is None:
            return
        turn, slug = self.metadata.get("turn"), self.metadata.get("slug")
        # YAML reads a slug such as `0x10` as a number: only a value of the written type can contradict
        if (isinstance(turn, int) and turn != self.name.turn) or (isinstance(slug, str) and slug != self.name.slug):
            self.add(1, "E022", f"frontmatter says turn {turn} of `{slug}` but the file name is turn "
                     f"{self.name.turn} of `{self.name.slug}`: a copy of another turn file is no turn")

    def _line(self, heading_or_line: Heading | int) -> int:
        line = heading_or_line.line if isinstance(heading_or_line, Heading) else heading_or_line
        return line + self.line_offset

    def _title(self) -> tuple[str | None, int | None, str | None]:
        for heading in self.outline.headings:
            match = _TITLE_RE.match(_strip_emphasis(heading.text))
            if match is None:
                if _canon_name(heading.text, self.profile)[0] is not None:
                    break  # a section came first: there is no title
                continue
            turn, dash, slug = int(match.group(1)), match.group(2), match.group(3).strip(_EMPHASIS)
            line = self._line(heading)
            canonical = f"Turn {turn} \u2014 {slug}"
            if heading.level != 1 or heading.text != canonical:
                why = "use an em dash (\u2014)" if dash != "\u2014" else "write it exactly"
                self.add(line, "W020", f"title `{'#' * heading.level} {heading.text}`: {why}: `# {canonical}`")
            if self.name is not None and (turn != self.name.turn or slug != self.name.slug):
                self.add(
                    line,
                    "E021",
                    f"title says turn {turn} of `{slug}` but the file name is turn {self.name.turn} "
                    f"of `{self.name.slug}`",
                )
            return heading.text, turn, slug
        expected = f"# Turn {self.name.turn} \u2014 {self.name.slug}" if self.name else "# Turn <N> \u2014 <slug>"
        self.add(1 + self.line_offset, "E020", f"no title; the first heading must be `{expected}`")
        return None, None, None

    def _sections(self) -> dict[str, Section]:
        outline_ = self.outline
        # A heading opens a section when it names one (any level) or is a level-1/2
        # heading (an extra section); other headings are content of the section.
        openers: list[tuple[Heading, str | None]] = []
        for heading in outline_.headings:
            name, _exact = _canon_name(heading.text, self.profile)
            # only a heading before every section is the title: "### Turn 2: what changed" inside a
            # section is that section's text, never a title that swallows what follows it
            if _TITLE_RE.match(_strip_emphasis(heading.text)) and not any(n != "__title__" for _h, n in openers):
                openers.append((heading, "__title__"))
            elif name is not None or heading.level <= 2:
                openers.append((heading, name))
        sections: dict[str, Section] = {}
        for index, (heading, name) in enumerate(openers):
            if name == "__title__":
                continue
            end = openers[index + 1][0].start if index + 1 < len(openers) else len(outline_.text)
            body = outline_.text[heading.end:end]
            line = self._line(heading)
            if name is None:
                self.add(line, "W033", f"extra section `{heading.text}`; the format's sections are "
                         f"{', '.join(self.profile.sections)}")
                continue
            if name in sections:
                self.add(line, "E031", f"section `{name}` appears twice (first at line {sections[name].line}); "
                         "keep one")
                continue
            _name, exact = _canon_name(heading.text, self.profile)
            if heading.level != 2:
                self.add(line, "W030", f"`{'#' * heading.level} {heading.text}` should be a level-2 heading: "
                         f"`## {name}`")
            elif not exact:
                self.add(line, "W031", f"section heading `## {heading.text}` should be exactly `## {name}`")
            sections[name] = Section(name, line, heading.level, heading.text, body,
                                     outline_.line_of(heading.end) + self.line_offset)
        return sections

    def _labels(self, sections: dict[str, Section]) -> None:
        """Sections written as `**Confidence:** 85` lines, read when no heading has them."""
        missing = [n for n in self.profile.sections if n not in sections]
        if not missing:
            return
        text = self.outline.text
        pos = 0
        for number, line in enumerate(text.split("\n"), start=1):
            start = pos
            pos += len(line) + 1
            match = _LABEL_RE.match(line)
            if match is None or self.outline.in_code(start):
                continue
            name, _exact = _canon_name(match.group("name"), self.profile)
            if name is None or name not in missing:
                continue
            marked = match.group("colon1") or match.group("colon2") or (match.group("open") and match.group("close"))
            if not marked or (match.group("open") and not match.group("close")):
                continue
            rest = match.group("rest").strip()
            body = rest + "\n" if rest else ""
            if not body:
                # label on its own line: the body runs to the next blank-line-separated block
                following = text[pos:].split("\n\n", 1)[0]
                body = following + "\n"
            line_no = number + self.line_offset
            sections[name] = Section(name, line_no, 0, line.strip(), body, line_no)
            missing.remove(name)
            self.add(line_no, "W035", f"`{line.strip()[:60]}` is an inline label; write the section as "
                     f"`## {name}` with the value on the next line")

    def _check_order(self, sections: dict[str, Section]) -> None:
        present = [s for s in sorted(sections.values(), key=lambda s: s.line)]
        expected = [n for n in self.profile.sections if n in sections]
        if [s.name for s in present] != expected:
            first_wrong = next(s for s, n in zip(present, expected) if s.name != n)
            self.add(first_wrong.line, "W032", "sections out of order; the order is "
                     + ", ".join(self.profile.sections))

    def _check_presence(self, sections: dict[str, Section], turn: int | None) -> None:
        last_line = self.outline.line_of(len(self.outline.text) - 1) + self.line_offset
        for name in self.profile.sections:
            if name in self.profile.later_turns_only and turn == 1:
                if name in sections:
                    self.add(sections[name].line, "W034", f"`## {name}` is not part of turn 1 (there are no peers "
                             "to answer yet)")
                continue
            if name not in sections:
                self.add(last_line, "E030", f"section `## {name}` is missing")
            elif name in self.profile.free_text and not sections[name].text:
                self.add(sections[name].line, "E032", f"section `## {name}` is empty")

    def _confidence(self, section: Section | None) -> int | None:
        if section is None:
            return None
        value, code, message = read_confidence(section.body)
        if code:
            self.add(section.body_line if section.text else section.line, code, message)
        return value

    def _converged(self, section: Section | None, turn: int | None) -> tuple[bool | None, str]:
        if section is None:
            return None, ""
        value, reason, code, message = read_converged(section.body)
        if code:
            self.add(section.body_line if section.text else section.line, code, message)
        if value is True and turn == 1:
            self.add(section.line, "E051", "turn 1 must say `no`: nobody has seen a peer's answer yet")
        return value, reason

    def _review_items(self, sections: dict[str, Section]) -> list[Any]:
        """A review turn's findings or responses, as far as one file shows them (review_items.py)."""
        from .review_items import none_written, read_findings, read_responses

        name = "Findings" if self.profile is PROFILE_CRITIC else "Responses" if self.profile is PROFILE_DEFENDER else ""
        section = sections.get(name)
        if section is None or not section.text or none_written(section.body):
            return []
        read = read_findings if name == "Findings" else read_responses
        items, found = read(section.body, section.body_line, self.path)
        self.findings.extend(found)
        if not items:
            self.add(section.body_line, "E101", f"`## {name}` has no item: start each with a `### F1 \u2014 "
                     f"...` heading, or write `None.`")
        return list(items)

    def _mentions(self, sections: dict[str, Section]) -> list[Mention]:
        mentions: list[Mention] = []
        for name in ("Agreements", "Disagreements"):
            section = sections.get(name)
            if section is None:
                continue
            for text, line in _items(section):
                mention = _mention(name, text, line)
                mentions.append(mention)
                tag = mention.tag
                if tag is not None and tag not in SEVERITIES and name == "Disagreements":
                    self.add(line, "W036", f"`[{tag}]` is no severity; rate a disagreement [critical], [major] or "
                             "[minor]")
        return mentions


def parse_turn(text: str, path: str = "<turn>", name: TurnName | None = None,
               profile: Profile | None = None) -> ParsedTurn:
    """Parse turn text (LF endings, BOM removed; see textfile.read_text). Never raises.

    `profile` None: the profile the file's sections show (a review turn's `## Findings` or `## Responses`,
    else an open debate's); `write` passes the profile of the writer's role.
    """
    try:
        return _Reader(text, path, name, profile).run()
    except RecursionError:
        return ParsedTurn(path, name, {}, None, None, None, {}, None, None, "", (),
                          (finding(path, 1, "E008", "too deeply nested to read"),))
