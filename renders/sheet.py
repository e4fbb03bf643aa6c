"""Sheets for `/sheet`: a card image of one agent, hero, marine or alien/enemy."""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine.core.view import FigureView, View
from renders import paint, theme
from renders.board import RenderedImage, board_labels, encode
from renders.figures import (
    badges,
    conditions_of,
    draw_figure,
    rank_tag,
    species_tag,
)

WIDTH = theme.IMAGE_WIDTH
PAD = 16
TITLE = theme.MIN_TEXT + 7
HEAD = theme.MIN_TEXT + 2
LINE = theme.MIN_TEXT


def _lines(view: View, figure: FigureView) -> list[tuple[str, list[str]]]:
    blocks: list[tuple[str, list[str]]] = []
    facts = [f"Side: {figure.side}" + (f" · {figure.kind}" if figure.kind else "")]
    facts.append(
        f"Position: {figure.coord}" + (f" · facing {figure.facing}" if figure.facing else "")
    )
    if figure.rank:
        tag = rank_tag(figure.rank)
        facts.append(f"Rank: {figure.rank}" + (f" ({tag})" if tag != figure.rank else ""))
    if figure.health is not None and figure.max_health:
        facts.append(f"Health: {max(0, figure.health)} of {figure.max_health}")
    if figure.seat:
        facts.append(f"Seat: {figure.seat}")
    blocks.append(("Profile", facts))
    if figure.profile:
        blocks.append(("Card", list(figure.profile)))
    if figure.conditions:
        names = []
        for raw, key in zip(figure.conditions, conditions_of(figure), strict=True):
            badge = theme.CONDITION_BADGES.get(key)
            names.append(f"{badge[0]} · {raw}" if badge else raw)
        blocks.append(("Conditions", names))
    panel = next(
        (p for p in view.panels if p.seat == figure.seat and figure.side == "player"), None
    )
    if panel is not None:
        blocks.append((panel.title, list(panel.lines)))
    here = [t.label or t.kind for t in view.tokens if t.coord.upper() == figure.coord.upper()]
    if here:
        blocks.append(("Here", here))
    return blocks


def render_sheet(view: View, figure_id: str) -> RenderedImage:
    """A card: the figure drawn large with its badges, its profile and current state."""
    figure = next((f for f in view.figures if f.id.lower() == figure_id.lower()), None)
    if figure is None:
        raise KeyError(f"no figure {figure_id!r} on the board")
    label = board_labels(view)[figure.id]
    blocks = _lines(view, figure)
    text_w = WIDTH - 2 * PAD
    laid: list[tuple[str, list[str]]] = []
    for title, lines in blocks:
        wrapped: list[str] = []
        for line in lines:
            wrapped += paint.wrap(line, LINE, text_w - 10) or [""]
        laid.append((title, wrapped))
    top = 136
    height = top + paint.blocks_height(laid, HEAD, LINE, 5) + PAD
    image = Image.new("RGB", (WIDTH, height), theme.PANEL)
    draw = ImageDraw.Draw(image)
    accent = theme.SIDE_FILL.get(figure.side, theme.YELLOW)
    draw.rectangle((0, 0, WIDTH, 6), fill=accent)
    draw_figure(
        draw,
        figure,
        (PAD + 44, 62),
        34,
        label,
        caption=species_tag(figure, label),
        board=view.board,
    )
    # The name wraps onto a second line rather than being cut.
    names = paint.wrap(figure.name, TITLE, WIDTH - 130, True)[:2]
    for i, line in enumerate(names):
        paint.text(draw, (120, 14 + i * (TITLE + 4)), line, TITLE, theme.TEXT, True)
    sub = f"{label} · {view.title}"
    sub_y = 14 + len(names) * (TITLE + 4) + 4
    paint.text(draw, (120, sub_y), paint.ellipsize(sub, LINE, WIDTH - 130), LINE, theme.MUTED)
    x = 120
    for letters, colour in badges(figure):
        box = paint.pill(draw, (x, sub_y + LINE + 20), letters, LINE, colour, anchor="lm")
        x = int(box[2]) + 6
    paint.draw_blocks(draw, (PAD, top), laid, HEAD, LINE, 5)
    alt = f"Sheet of {figure.name} ({figure.side}) at {figure.coord}"
    if figure.health is not None and figure.max_health:
        alt += f", {max(0, figure.health)}/{figure.max_health} health"
    if figure.conditions:
        alt += ", " + ", ".join(figure.conditions)
    return RenderedImage(encode(image), alt[:1000], WIDTH, height, f"sheet-{figure.id}.png")
