"""The end-of-mission summary image: the banner, then result, rounds, kills, losses and
objectives, from the View's `summary` (each game fills it once the mission is over)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine.core.view import View
from renders import chrome, paint, theme
from renders.board import Deadline, RenderedImage, encode
from renders.figures import conditions_of

PAD = 16
COLOURS = (theme.YELLOW, theme.TEXT)
HEAD = theme.MIN_TEXT + 3
LINE = theme.MIN_TEXT + 1


def summary_rows(view: View) -> list[tuple[str, list[str]]]:
    """The summary's titled blocks, from `view.summary` and the View's own facts."""
    s = view.summary
    rounds = str(s.rounds) if s and s.rounds is not None else ""
    rounds = rounds or view.header.get("round") or str(view.round)
    rows: list[tuple[str, list[str]]] = []
    result = s.result if s and s.result else f"Outcome: {view.outcome or 'ended'}."
    rows.append(("Result", [result]))
    rows.append(("Rounds played", [rounds]))
    kills = "not counted in this game" if s is None or s.kills is None else str(s.kills)
    rows.append(("Enemies killed", [kills]))
    losses = s.losses if s else []
    rows.append(("Losses", losses or ["none"]))
    out = {"down", "dead", "inoperative"}
    standing = [
        f.name
        for f in view.figures
        if f.side == "player" and f.name not in losses and not out & set(conditions_of(f))
    ]
    rows.append(("Still standing", standing or ["nobody"]))
    if s and s.objectives:
        rows.append(("Objectives", list(s.objectives)))
    return rows


def render_summary(view: View, deadline: Deadline = None) -> RenderedImage:
    """A phone-width card closing the mission; refuses a mission that is still running."""
    if not view.finished:
        raise ValueError("the mission is not over yet: no summary to draw")
    width = theme.IMAGE_WIDTH
    laid = [
        (title, [w for line in lines for w in paint.wrap(line, LINE, width - 2 * PAD - 10)])
        for title, lines in summary_rows(view)
    ]
    head = chrome.header_height(view, width, deadline)
    banner = chrome.banner_height(view)
    body = paint.blocks_height(laid, HEAD, LINE, 6)
    height = head + banner + PAD + body + PAD
    image = Image.new("RGB", (width, height), theme.PANEL)
    draw = ImageDraw.Draw(image)
    chrome.draw_header(draw, view, width, deadline)
    chrome.draw_banner(draw, view, width, head)
    paint.draw_blocks(draw, (PAD, head + banner + PAD), laid, HEAD, LINE, 6, COLOURS)
    word = chrome.banner(view)[0]
    alt = f"Mission summary: {word}. " + " ".join(
        f"{title}: {', '.join(lines)}." for title, lines in summary_rows(view)
    )
    return RenderedImage(encode(image), alt[:1000], width, height, "summary.png")
