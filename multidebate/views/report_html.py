"""The report as one self-contained HTML page: inline CSS and SVG, nothing fetched, prints well."""

from __future__ import annotations

from html import escape

from ..analysis.agent_costs import cost_words
from ..analysis.dropouts import dropout_line
from ..analysis.integrity import only_notes
from ..analysis.trajectory import MATRIX_MAX
from ..analysis.verdict import MEASURE
from .advice import verdict_words
from .consensus_text import consensus_markdown
from .report import Report, clip, no_flags, turn_rows
from .review_report import brief_markdown, judgment_markdown, summary_markdown

__all__ = ["render_html"]

_PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2")

_CSS = """
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1b1b1b;max-width:60rem;margin:2rem auto;
padding:0 1rem}
h1{font-size:1.5rem;margin-bottom:.2rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #ddd}
.verdict{display:inline-block;padding:.15rem .6rem;border-radius:1rem;font-weight:600;color:#fff;background:#616161}
.converged,.unanimous,.fully_resolved{background:#2e7d32}.hollow,.stalled{background:#c62828}
.latent,.unconfirmed{background:#b26a00}.max_turns,.max_rounds{background:#6a1b9a}
table{border-collapse:collapse;width:100%;margin:.5rem 0;font-size:.9rem}
th,td{border:1px solid #ddd;padding:.3rem .5rem;vertical-align:top;text-align:left}
th{background:#f5f5f5}td.num{text-align:center}.agree{background:#e8f5e9}.differ{background:#ffebee}.unsure{background:#fff8e1}
.answer{background:#fafafa;border-left:4px solid #2e7d32;padding:.1rem 1rem}.answer.modal{border-left:4px dashed #b26a00}
.brief{background:#f7f9fc;border-left:4px solid #1f77b4;padding:.1rem 1rem}.muted{color:#666}.flag{margin:.2rem 0}.legend span{margin-right:1rem}
code{overflow-wrap:anywhere}td{overflow-wrap:break-word}pre,.wide{overflow-x:auto}
@media print{body{margin:0;max-width:none}h2{break-after:avoid}table,svg{break-inside:avoid}}
"""


def _markdown(text: str) -> str:
    """A session's Markdown as HTML, with any raw HTML in it escaped (session text is never trusted).

    Images become text naming their address: an <img> would be fetched when the page opens, and the
    report promises that nothing is fetched.
    """
    import mistune

    class _NoFetch(mistune.HTMLRenderer):
        def image(self, text: str, url: str, title: str | None = None) -> str:
            return f"<span class='muted'>[image: {text} &lt;{escape(url)}&gt;]</span>"

    html = str(mistune.create_markdown(renderer=_NoFetch(escape=True), plugins=["table", "strikethrough"])(text))
    # a table scrolls in its own box: a review's finding table made a 380 px page 624 px wide (#27)
    return html.replace("<table>", "<div class='wide'><table>").replace("</table>", "</table></div>")


def _chart(report: Report) -> str:
    """Confidence over turns: one polyline per participant, inline SVG."""
    turns = [t.turn for t in report.analysis.turns]
    if not turns:
        return "<p class='muted'>No turns yet.</p>"
    width, height, pad = 560, 220, 36
    span = max(len(turns) - 1, 1)

    def x(turn: int) -> float:
        return pad + (turn - turns[0]) * (width - 2 * pad) / span

    def y(conf: int) -> float:
        return height - pad - conf * (height - 2 * pad) / 100

    # scales with the page (a fixed width was cut off on narrow screens), never wider than drawn
    parts = [f"<svg role='img' aria-label='confidence over turns' viewBox='0 0 {width} {height}' "
             f"style='width:100%;height:auto;max-width:{width}px' xmlns='http://www.w3.org/2000/svg'>"]
    for level in (0, 50, 100):
        parts.append(f"<line x1='{pad}' x2='{width - pad}' y1='{y(level)}' y2='{y(level)}' stroke='#ddd'/>"
                     f"<text x='4' y='{y(level) + 4}' font-size='11' fill='#666'>{level}</text>")
    for turn in turns:
        parts.append(f"<text x='{x(turn) - 4}' y='{height - 8}' font-size='11' fill='#666'>{turn}</text>")
    legend = []
    count = len(report.analysis.participants)
    for index, slug in enumerate(report.analysis.participants):
        color = _PALETTE[index % len(_PALETTE)]
        dash = _DASHES[index % len(_DASHES)]
        # participants with equal confidence would hide each other: each is shifted a little sideways
        # and drawn with its own dash pattern and marker
        shift = (index - (count - 1) / 2) * min(4.0, 24.0 / max(count, 1))
        points = [(x(t.turn) + shift, y(p.confidence), t.turn, p.confidence) for t in report.analysis.turns
                  if (p := t.positions.get(slug)) is not None and p.confidence is not None]
        if points:
            coords = " ".join(f"{px:.1f},{py:.1f}" for px, py, _t, _c in points)
            parts.append(f"<polyline fill='none' stroke='{color}' stroke-width='2' stroke-dasharray='{dash}' "
                         f"points='{coords}'/>")
            parts.extend(_marker(index, px, py, color, f"{slug}, turn {turn}: {conf}")
                         for px, py, turn, conf in points)
        legend.append(f"<span style='color:{color}'>{_LEGEND_MARKS[index % len(_LEGEND_MARKS)]} "
                      f"{escape(slug)}</span>")
    parts.append("</svg>")
    return "".join(parts) + f"<div class='legend'>{''.join(legend)}</div>"


_DASHES = ("none", "6 3", "2 3", "8 3 2 3")
_LEGEND_MARKS = ("&#9679;", "&#9632;", "&#9650;", "&#9670;")


def _marker(index: int, px: float, py: float, color: str, label: str) -> str:
    """A point with a shape of its own (circle, square, triangle, diamond) and its value on hover."""
    shape = index % 4
    tip = f"<title>{escape(label)}</title>"
    if shape == 0:
        return f"<circle cx='{px:.1f}' cy='{py:.1f}' r='3.5' fill='{color}'>{tip}</circle>"
    if shape == 1:
        return f"<rect x='{px - 3:.1f}' y='{py - 3:.1f}' width='6' height='6' fill='{color}'>{tip}</rect>"
    if shape == 2:
        return (f"<polygon points='{px:.1f},{py - 4:.1f} {px - 4:.1f},{py + 3:.1f} {px + 4:.1f},{py + 3:.1f}' "
                f"fill='{color}'>{tip}</polygon>")
    return (f"<polygon points='{px:.1f},{py - 4:.1f} {px + 4:.1f},{py:.1f} {px:.1f},{py + 4:.1f} "
            f"{px - 4:.1f},{py:.1f}' fill='{color}'>{tip}</polygon>")


def _turn_table(report: Report) -> str:
    names = report.analysis.participants
    rows = ["<div class='wide'><table><thead><tr><th>turn</th>" + "".join(f"<th>{escape(n)}</th>" for n in names)
            + "</tr></thead><tbody>"]
    for turn, complete, row_cells in turn_rows(report):
        cells = ["<td class='muted'>&ndash;</td>" if c is None else
                 f"<td>{escape(clip(c.recommendation, 160))}<br><b>{c.confidence}</b> &middot; {c.converged}"
                 + (f" <span class='muted'>({c.change})</span>" if c.change else "") + "</td>" for c in row_cells]
        rows.append(f"<tr><td class='num'>{turn}{'' if complete else '*'}</td>{''.join(cells)}</tr>")
    rows.append("</tbody></table></div>")
    return "".join(rows)


def _matrix(report: Report) -> str:
    if len(report.analysis.participants) > MATRIX_MAX:
        return (f"<p class='muted'>Not shown for {len(report.analysis.participants)} participants (at most "
                f"{MATRIX_MAX}); the verdict above compared them.</p>")
    if not report.analysis.turns or not report.analysis.turns[-1].matrix:
        return "<p class='muted'>Fewer than two answers at the last turn.</p>"
    last = report.analysis.turns[-1]
    names = report.analysis.participants
    rows = [f"<p class='muted'>Turn {last.turn}; {escape(MEASURE)}: &#10003; same, &#10007; different, ? unsure "
            "(hover a cell for the evidence).</p>",
            "<div class='wide'><table><thead><tr><th></th>" + "".join(f"<th>{escape(n)}</th>" for n in names) + "</tr></thead><tbody>"]
    for a in names:
        cells = []
        for b in names:
            result = last.matrix.get((a, b)) or last.matrix.get((b, a))
            if a == b or result is None:
                cells.append("<td class='num muted'>&ndash;</td>")
            else:
                css = {"same": "agree", "different": "differ", "unsure": "unsure"}[result.relation]
                mark = {"same": "&#10003;", "different": "&#10007;", "unsure": "?"}[result.relation]
                cells.append(f"<td class='num {css}' title='{escape(result.evidence)}'>{mark} "
                             f"{escape(result.relation)}</td>")
        rows.append(f"<tr><th>{escape(a)}</th>{''.join(cells)}</tr>")
    rows.append("</tbody></table></div>")
    return "".join(rows)


def render_html(report: Report) -> str:
    """The whole page."""
    verdict = report.analysis.verdict
    final = report.final
    review = verdict.review if report.summary is not None else None
    body = [f"<h1>{'Review' if review is not None else 'Debate'} report</h1><p class='muted'>"
            f"{escape(report.folder)}</p>"]
    if report.brief is not None:
        # built from the case; the fixes, tests and claims in it are session text, escaped by _markdown
        body.append("<div class='brief'>" + _markdown("\n".join(brief_markdown(report.brief))) + "</div>")
    if report.task:
        body.append(f"<h2>Task</h2><p>{escape(report.task.strip())}</p>")
    # the badge shows words; its class keeps the state's name (the colors key on it)
    body.append(f"<h2>Verdict</h2><p><span class='verdict {escape(verdict.state)}'>"
                f"{escape(verdict_words(verdict.state))}</span> "
                + (f"at turn {verdict.turn} " if verdict.turn else "") + f"&mdash; {escape(verdict.detail)}</p>")
    current = report.analysis.turns[-1].turn if report.analysis.turns else 0
    body.extend(f"<p>{escape(dropout_line(report.folder, d, current))}</p>" for d in report.dropouts)
    body.extend(f"<p><b>Run failed:</b> {escape(f.sentence())}</p>" for f in report.run_failures)
    if report.advice:
        body.append(f"<p><b>What to do:</b> {escape(report.advice)}</p>")
    if report.person_lines():
        body.append("<h2>Retired and handed over</h2><p>The verdict counts only the participants left; by the "
                    "person's commands:</p><ul>" + "".join(f"<li>{escape(line)}</li>" for line in report.person_lines())
                    + "</ul>")
    if report.agent_costs:
        body.append(f"<h2>What the agents cost</h2><p>By <code>multidebate run</code>: "
                    f"{escape(cost_words(report.agent_costs))}.</p>")
    if report.problems:
        heading = ("<h2>Notes</h2><p>Worth knowing; nothing to act on" if only_notes(report.problems)
                   else "<h2>Problems</h2><p>Act on these before trusting this report")
        body.append(heading + " (<code>multidebate validate</code> explains):</p><ul>"
                    + "".join(f"<li>{escape(line)}</li>" for line in report.problems) + "</ul>")
    if report.judgment is not None:
        body.append(_markdown("\n".join(judgment_markdown(report.judgment))))
    if report.summary is not None and review is not None:
        body.append(_markdown("\n".join(summary_markdown(report.summary, review))))
        return _page(body)
    # only a consensus looks like one: a most-held answer gets its own heading and a dashed amber border
    body.append("<h2>Final answer</h2>" if final.kind in ("consensus", "none")
                else "<h2>No consensus: the positions at the end</h2>")
    if final.kind == "none":
        body.append("<p class='muted'>No answer yet.</p>")
    elif final.kind == "split":
        body.append(f"<p>No answer is held by more participants than another at turn {final.turn}: the "
                    "participants are split evenly.</p><ul>" + "".join(
                        f"<li>{escape(d.slug)}: {escape(d.recommendation)}</li>" for d in final.dissenters) + "</ul>")
    elif final.kind == "consensus":
        body.append(_markdown("\n".join(consensus_markdown(final))))
    else:
        body.append(f"<p>Most-held answer (not a consensus) at turn {final.turn}, held by "
                    f"{escape(', '.join(final.supporters))} (one bold line, word for word): "
                    f"<b>{escape(final.recommendation)}</b>. Shown: <b>{escape(final.representative or '')}</b>'s "
                    f"Answer.</p><div class='answer modal'>{_markdown(final.answer.strip())}</div>")
    if final.kind in ("consensus", "modal"):
        if report.first_vote is not None:
            body.append(f"<p>{escape(report.first_vote.sentence())}</p>")
        if final.dissenters:
            body.append("<p><b>Dissent</b></p><ul>" + "".join(
                f"<li>{escape(d.slug)}: {escape(d.recommendation)}"
                + (f" <span class='muted'>({escape(d.reason)})</span>" if d.reason else "") + "</li>"
                for d in final.dissenters) + "</ul>")
    body.append("<h2>Confidence over turns</h2>" + _chart(report))
    body.append("<h2>Turns</h2>" + _turn_table(report))
    body.append("<h2>Agreement at the last turn</h2>" + _matrix(report))
    if report.cruxes:
        # whole items, sub-bullets included (session text: escaped by _markdown); `resolves if:` is in the text
        body.append("<h2>Cruxes</h2><p class='muted'>What keeps the debate open, most severe first.</p>" + _markdown(
            "\n".join(f"- **{'not rated' if c.severity == 'unrated' else c.severity}** {c.slug} vs "
                      f"{', '.join(c.peers) or 'all'}: {c.text}" for c in report.cruxes)))
    if report.unresolved:
        body.append("<h2>Remaining disagreements (minor ones included)</h2>" + _markdown(
            "\n".join(f"- **{s}**: {t}" for s, t in report.unresolved)))
    body.append("<h2>Flags</h2>")
    if report.analysis.flags:
        body.append("".join(f"<p class='flag'><b>{escape(f.kind)}</b> (turn {f.turn}): {escape(f.detail)}</p>"
                            for f in report.analysis.flags))
    else:
        body.append(f"<p class='muted'>{escape(no_flags(report))}</p>")
    return _page(body, f"Debate report: {report.folder}")


def _page(body: list[str], title_text: str = "Review report") -> str:
    title = escape(title_text)
    # the policy forbids every fetch, so a missed case in the renderer still fetches nothing
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; style-src 'unsafe-inline'\">"
            f"<title>{title}</title>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'><style>{_CSS}</style></head>"
            f"<body>{''.join(body)}</body></html>\n")
