"""The picker's panels within Discord's limits: 25 entries a menu, four menus and one row of
buttons a message, 100 characters a label or description; long lists are paged."""

from __future__ import annotations

import pytest

from bot.guide import describe
from bot.replies import Menu, MenuEntry
from bot.table.picker import (
    MAX_TEXT,
    PER_MENU,
    PER_PAGE,
    PanelBuilder,
    default_describe,
    kind_name,
    kind_of,
    narrow,
    pick_command,
)
from engine.core.game import Action
from engine.core.view import FigureView, View

VIEW = View(
    game="test",
    scenario="test",
    title="Test",
    board="square",
    figures=[
        FigureView(id="lt", label="LT", name="Lt. Smith", side="player", coord="J6"),
        FigureView(id="fox", label="FOX", name="Sgt. Fox", side="player", coord="K7"),
    ],
)


def moves(unit: str, count: int) -> list[Action]:
    return [
        Action(verb="move", args={"unit": unit, "to": f"S{i}"}, label=f"to S{i} " + "x" * 120)
        for i in range(count)
    ]


ACTIONS = [
    *moves("lt", 230),
    *moves("fox", 3),
    Action(verb="act", args={"unit": "lt", "what": "open", "to": "I4"}, label="open I4"),
    Action(verb="act", args={"unit": "lt", "what": "open", "to": "J5"}, label="open J5"),
    Action(verb="orders", args={"unit": "fox", "order": "guard:on"}, label="guard"),
    Action(verb="end-turn", args={}, label="End the Marine phase"),
]


def entries(menus: list[Menu]) -> list[MenuEntry]:
    return [e for m in menus for e in m.entries]


def test_the_first_panel_offers_figures_and_what_needs_no_figure() -> None:
    panel = PanelBuilder("test", VIEW).build(ACTIONS, None, None, 1)
    shown = entries(panel.menus)
    assert [e.command for e in shown] == [pick_command("lt"), pick_command("fox"), "/end-turn"]
    assert shown[0].label == "Lt. Smith (J6) — 232 actions"
    assert panel.buttons == []


def test_a_figure_offers_its_kinds_and_a_single_action_directly() -> None:
    fox = narrow(ACTIONS, "FOX", None)
    assert fox.unit == "fox"
    panel = PanelBuilder("test", VIEW).build(fox.actions, fox.unit, None, 1)
    shown = entries(panel.menus)
    assert [e.command for e in shown] == [
        pick_command("fox", "move"),
        "/orders unit:fox order:guard:on",
    ]
    assert [b.command for b in panel.buttons] == ["/pick"]  # Back


def test_long_lists_are_paged_within_discord_limits() -> None:
    lt = narrow(ACTIONS, "lt", "move")
    builder = PanelBuilder("test", VIEW)
    first = builder.build(lt.actions, lt.unit, lt.kind, 1)
    assert len(first.menus) == 4 and all(len(m.entries) == PER_MENU for m in first.menus)
    assert all(
        len(e.label) <= MAX_TEXT and len(e.description) <= MAX_TEXT for e in entries(first.menus)
    )
    assert all(len(m.placeholder) <= 150 for m in first.menus)
    assert [b.label for b in first.buttons] == ["Back", "Next page"]
    last = builder.build(lt.actions, lt.unit, lt.kind, 3)
    assert len(entries(last.menus)) == 230 - 2 * PER_PAGE
    assert [b.label for b in last.buttons] == ["Back", "Previous page"]
    seen = [
        e.command
        for page in (1, 2, 3)
        for e in entries(builder.build(lt.actions, lt.unit, lt.kind, page).menus)
    ]
    assert seen == [a.command() for a in lt.actions]  # every move, once, in order


def test_a_wrong_figure_or_kind_names_the_possible_ones() -> None:
    with pytest.raises(ValueError, match="Possible unit: lt, fox"):
        narrow(ACTIONS, "zac", None)
    with pytest.raises(ValueError, match="Possible kind: move, orders:guard"):
        narrow(ACTIONS, "fox", "attack")
    assert kind_of(ACTIONS[-2]) == "orders:guard" and kind_of(ACTIONS[-3]) == "act:open"


def test_entries_are_described_in_the_glossary_s_words() -> None:
    guard = Action(verb="orders", args={"unit": "marine", "order": "guard-off"}, label="guard")
    words = describe("galaxy-defenders", "guard-off")
    assert words and default_describe("galaxy-defenders", guard) == words
    # A square is no term: the entry then says which command it runs.
    step = Action(verb="move", args={"unit": "marine", "to": "F4"})
    assert default_describe("galaxy-defenders", step) == ""  # never the command itself


def test_an_order_group_is_named_as_the_glossary_names_it() -> None:
    faces = [
        Action(verb="orders", args={"unit": "marine", "order": f"face-{d}"}, label=f"face {d}")
        for d in ("n", "ne")
    ]
    panel = PanelBuilder("galaxy-defenders", VIEW).build(faces, "marine", "orders:face", 1)
    assert panel.text.startswith("**marine > Turn to face**"), panel.text
    assert kind_name("orders:support", "reichbusters") == "Support order"
    assert kind_name("orders:nonsense", "reichbusters") == "Orders: nonsense"
