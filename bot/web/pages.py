"""The campaign page in HTML: written on the server, readable without JavaScript.

Everything on it comes from the public view after the step shown and from the public lines of
the steps up to it (`bot.web.timeline`); names and text are escaped. The small script
(`static/web.js`) only makes the slider preview steps and the zoom buttons work; links and a
plain form do the same without it.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from bot.web.timeline import Chapter, StepInfo
from engine.core.view import FigureView, View

BOLD = re.compile(r"\*\*(.+?)\*\*")
CODE = re.compile(r"`([^`]+)`")


def words(text: str) -> str:
    """One line of the table's text (light Markdown) as safe HTML."""
    shown = html.escape(text, quote=True)
    shown = BOLD.sub(r"<b>\1</b>", shown)
    return CODE.sub(r"<code>\1</code>", shown)


@dataclass(frozen=True)
class PageData:
    """What one page shows: the campaign, the step, and what is known up to it."""

    game_title: str
    status: str
    steps: list[StepInfo]  # every step (the page lists those up to `current`)
    chapters: list[Chapter]
    current: StepInfo | None
    view: View | None
    objectives: list[str]
    holders: dict[str, str]  # seat -> player name


def _health(figure: FigureView) -> str:
    if figure.health is None or figure.max_health is None:
        return ""
    return f"{figure.health}/{figure.max_health}"


def _conditions(figure: FigureView) -> str:
    shown = [c.split(":")[0] for c in figure.conditions if not c.startswith(("item:", "order:"))]
    return ", ".join(shown)


def roster(view: View, holders: dict[str, str]) -> str:
    rows = []
    for figure in sorted(view.figures, key=lambda f: (f.side != "player", f.seat or "", f.name)):
        seat = figure.seat or ("the enemy" if figure.side == "enemy" else figure.side)
        player = holders.get(figure.seat or "", "")
        rows.append(
            f'<tr class="{figure.side}"><td>{words(figure.name)}</td>'
            f"<td>{words(figure.coord)}</td><td>{words(_health(figure))}</td>"
            f"<td>{words(seat)}{' · ' + words(player) if player else ''}</td>"
            f"<td>{words(_conditions(figure))}</td></tr>"
        )
    if not rows:
        return "<p>No figures on the board.</p>"
    return (
        '<table class="roster"><thead><tr><th>Figure</th><th>At</th><th>Health</th>'
        "<th>Seat · player</th><th>State</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )


def _nav(data: PageData) -> str:
    steps, current = data.steps, data.current
    if current is None:
        return ""
    numbers = [s.n for s in steps]
    at = numbers.index(current.n)

    def link(label: str, target: int | None, rel: str) -> str:
        if target is None:
            return f'<span class="off" aria-disabled="true">{label}</span>'
        return f'<a href="?step={target}" rel="{rel}" class="facts">{label}</a>'

    prev = numbers[at - 1] if at > 0 else None
    nxt = numbers[at + 1] if at + 1 < len(numbers) else None
    return (
        '<nav class="steps" aria-label="Timeline">'
        + link("« First", numbers[0] if at > 0 else None, "first")
        + link("◀ Previous", prev, "prev")
        + f'<form method="get" class="slider"><label for="step">Step</label>'
        f'<input type="range" id="step" name="step" min="{numbers[0]}" max="{numbers[-1]}" '
        f'value="{current.n}" list="chapters">'
        f'<output id="stepno" for="step">{current.n}</output>'
        '<button type="submit">Go</button></form>'
        + link("Next ▶", nxt, "next")
        + link("Latest »", numbers[-1] if nxt is not None else None, "last")
        + "</nav>"
    )


def _chapters(data: PageData) -> str:
    """The missions so far (a later mission's title is for its own steps to reveal)."""
    upto = data.current.n if data.current is not None else 0
    chapters = [c for c in data.chapters if c.first <= upto]
    if not chapters:
        return ""
    items = []
    for i, chapter in enumerate(chapters):
        here = data.current is not None and data.current.chapter == i
        mark = ' aria-current="true"' if here else ""
        items.append(
            f'<li><a href="?step={chapter.first}"{mark}>{words(chapter.title)}</a> '
            f'<span class="muted">from step {chapter.first}</span></li>'
        )
    ticks = "".join(f'<option value="{c.first}"></option>' for c in chapters)
    return (
        '<section><h2>Missions</h2><ul class="chapters">'
        + "".join(items)
        + f'</ul><datalist id="chapters">{ticks}</datalist></section>'
    )


def _log(data: PageData) -> str:
    if data.current is None:
        return ""
    shown = [s for s in data.steps if s.n <= data.current.n]
    items = []
    for step in reversed(shown):
        here = ' class="here"' if step.n == data.current.n else ""
        text = " ".join(words(line) for line in step.lines)
        items.append(
            f'<li{here}><a href="?step={step.n}">#{step.n}</a> '
            f"<b>{words(step.headline)}</b> {text}</li>"
        )
    return (
        '<section class="facts"><h2>Log</h2><ol class="log" reversed>'
        + "".join(items)
        + "</ol></section>"
    )


def page(data: PageData, token: str) -> str:
    """The whole page for one step of one campaign."""
    view, current = data.view, data.current
    title = view.title if view is not None else data.game_title
    heading = f"{words(data.game_title)} · {words(title)}"
    if current is None:
        body = "<p>The mission has not begun yet: the timeline starts with its first step.</p>"
    else:
        assert view is not None
        step_text = "".join(f"<li>{words(line)}</li>" for line in current.lines)
        state = (
            f"Round {view.round}" + (f" · {words(view.phase)}" if view.phase else "")
            if view.round
            else words(view.phase)
        )
        if view.finished:
            state = f"Mission over: {words(view.outcome or 'ended')}"
        image = f"{token}/steps/{current.n}.png"
        objectives = "".join(f"<li>{words(line)}</li>" for line in data.objectives)
        body = (
            _nav(data) + f'<section class="now"><h2 id="headline">Step {current.n}: '
            f"{words(current.headline)}</h2>"
            f'<ul id="steptext">{step_text}</ul><p class="muted facts">{state}</p>'
            '<p class="preview-note" hidden>Previewing this step\'s board and words: let go '
            "of the slider (or press Go) for its objectives and roster.</p></section>"
            '<section class="board-box"><div class="zoom" hidden>'
            '<button type="button" data-zoom="-1" aria-label="Zoom out">&minus;</button>'
            '<button type="button" data-zoom="0">Fit</button>'
            '<button type="button" data-zoom="1" aria-label="Zoom in">+</button></div>'
            f'<div class="board" id="board"><a href="{image}">'
            f'<img id="boardimg" src="{image}" alt="The board after step {current.n}" '
            'decoding="async"></a></div></section>' + '<section class="facts"><h2>Objectives</h2>'
            f'<ul class="objectives">{objectives}</ul></section>'
            + f'<section class="facts"><h2>Roster</h2>{roster(view, data.holders)}</section>'
            + _chapters(data)
            + _log(data)
        )
    return (
        "<!doctype html>"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="robots" content="noindex">'
        f"<title>{html.escape(data.game_title)} · {html.escape(title)} · Sortie</title>"
        '<link rel="stylesheet" href="../web-static/web.css">'
        '<script src="../web-static/web.js" defer></script>'
        f'</head><body data-steps="{token}/steps.json" data-step="{current.n if current else 0}">'
        f"<header><h1>{heading}</h1>"
        f'<p class="muted">{words(data.status)} · read-only, public information only</p>'
        "</header><main>" + body + "</main></body></html>"
    )
