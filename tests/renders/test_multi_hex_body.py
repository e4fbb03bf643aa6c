"""An Operation Strikeback multi-hex alien (11.8) is drawn over every hex of its base, and the
Menacing Agent carries the Menace badge."""

from __future__ import annotations

import io

from PIL import Image

from engine.core.dice import SeededDice
from engine.core.events import Event
from engine.galaxy import GAME, lifecycle
from engine.galaxy.board import label, parse_label
from engine.galaxy.strikeback.status import StrikebackState
from engine.galaxy.world import alien_hexes, hx
from renders import render_board, theme
from renders.figures import badges


def test_the_wormoon_covers_both_hexes_and_the_alpha_shows_the_menace_token() -> None:
    state = GAME.new("m1", ["marine"], {}, SeededDice(1))
    state.expansion = StrikebackState()
    state.signals = []
    spot = parse_label("D4")
    assert spot is not None
    events: list[Event] = []
    worm = lifecycle.place_alien(state, "wormoon-2", spot, events, "erupts")
    tail = alien_hexes(state, worm)[1]
    view = GAME.view(state, None)
    bodies = [t for t in view.tokens if t.kind == "body"]
    assert [(t.label, t.coord) for t in bodies] == [(worm.id, label(hx(tail)))]
    marine = next(f for f in view.figures if f.id == "marine")
    assert ("M1", theme.VERMILION) in badges(marine)
    drawn = render_board(view)
    without = view.model_copy(deep=True)
    without.tokens = [t for t in without.tokens if t.kind != "body"]
    assert Image.open(io.BytesIO(drawn.data)).format == "PNG"
    assert drawn.data != render_board(without).data
