"""Teleport Points, Signal movement and revealing (also in the middle of an agent's move)."""

from __future__ import annotations

from galaxy_helpers import at, blank, put_agent, put_alien

from engine.core.dice import ScriptedDice
from engine.core.events import Event, Moved, Revealed
from engine.core.game import Action
from engine.galaxy import GAME
from engine.galaxy.signals import move_signals, seen_by_agent, teleport_signal
from engine.galaxy.state import SignalState
from engine.galaxy.world import area_of, hex_distance, hx, sees


def test_teleport_to_the_rolled_point() -> None:
    state = blank(["sniper"])
    put_agent(state, "sniper", "G5")
    state.signal_reserve = ["alien-1"]
    teleport_signal(state, ScriptedDice([5]), [])  # Shield+Bolt face: the Shield Point
    assert [s.hex for s in state.signals] == [at("J9")]


def test_hit_takes_precedence_over_shield() -> None:
    state = blank(["sniper"])
    put_agent(state, "sniper", "G5")
    state.signal_reserve = ["human-1"]
    teleport_signal(state, ScriptedDice([6]), [])  # Hit+Shield face: the Hit Point (B3)
    assert [s.hex for s in state.signals] == [at("B3")]


def test_occupied_point_uses_the_closest_hex() -> None:
    state = blank(["sniper"])
    put_agent(state, "sniper", "G5")
    put_alien(state, "xeno-beta-green-1", "J9")
    state.signal_reserve = ["alien-1"]
    teleport_signal(state, ScriptedDice([5]), [])
    assert len(state.signals) == 1
    assert hex_distance(state.signals[0].hex, at("J9")) == 1


def test_roll_again_until_a_point_on_the_map_matches() -> None:
    state = blank(["sniper"])
    put_agent(state, "sniper", "G5")
    state.destroyed_tps = ["shield"]
    state.signal_reserve = ["alien-1"]
    dice = ScriptedDice([5, 5, 1])  # Shield twice (gone), then Alien: C9
    teleport_signal(state, dice, [])
    assert dice.remaining == 0
    assert [s.hex for s in state.signals] == [at("C9")]


def test_signal_teleported_in_sight_is_revealed_at_once() -> None:
    state = blank(["sniper"])
    put_agent(state, "sniper", "D4")
    state.signal_reserve = ["alien-1"]
    state.alien_deck.draw_pile = ["aracnos-green-1"]
    events: list[Event] = []
    teleport_signal(state, ScriptedDice([2]), events)
    assert not state.signals
    assert [(a.card, a.hex) for a in state.aliens] == [("aracnos-green-1", at("B3"))]
    assert any(isinstance(e, Revealed) for e in events)
    assert state.signal_discard == ["alien-1"]


def test_human_signal_is_removed() -> None:
    state = blank(["sniper"])
    put_agent(state, "sniper", "D4")
    state.signal_reserve = ["human-1"]
    teleport_signal(state, ScriptedDice([2]), [])
    assert not state.signals and not state.aliens


def test_signal_moves_one_area_toward_agent_and_reveals_when_seen() -> None:
    state = blank(["sniper"])
    put_agent(state, "sniper", "D4")
    state.signals = [SignalState(id="s1", token="alien-1", hex=at("C9"))]
    state.alien_deck.draw_pile = ["spine-critter-green-1"]
    events: list[Event] = []
    move_signals(state, "toward-agent", 1, ScriptedDice([]), events)
    moved = [e for e in events if isinstance(e, Moved)]
    assert len(moved) == 1
    if state.signals:  # not revealed: then no agent sees where it stands
        assert not seen_by_agent(state, hx(state.signals[0].hex))
        assert area_of(state, state.signals[0].hex) in ("e", "g")
    else:
        assert state.aliens and area_of(state, state.aliens[0].hex) in ("e", "g")


def test_signal_prefers_the_move_that_reveals_it() -> None:
    state = blank(["sniper"])
    # From J9 the Areas f and h are equally short toward G6; the sniper at the hatch sees
    # h's centre G8 but not f's centre I6, so the Signal must step into h and be revealed.
    put_agent(state, "sniper", "G6")
    assert sees(state, at("G6"), at("G8")) and not sees(state, at("G6"), at("I6"))
    state.signals = [SignalState(id="s1", token="human-1", hex=at("J9"))]
    events: list[Event] = []
    move_signals(state, "toward-agent", 1, ScriptedDice([]), events)
    assert not state.signals  # revealed (a human: removed)
    revealed = [e for e in events if isinstance(e, Revealed)]
    assert revealed and revealed[0].at == "G8"


def test_agent_reveals_mid_move_and_carries_on() -> None:
    state = blank(["infiltrator"])
    put_agent(state, "infiltrator", "G5")
    state.signals = [SignalState(id="s1", token="alien-1", hex=at("B3"))]
    state.alien_deck.draw_pile = ["xeno-beta-green-1"]
    assert not sees(state, at("G5"), at("B3"))
    step = GAME.apply(
        state,
        "infiltrator",
        Action(verb="move", args={"unit": "infiltrator", "to": "D6"}),
        ScriptedDice([]),
    )
    revealed = [e for e in step.events if isinstance(e, Revealed)]
    assert len(revealed) == 1
    assert step.state.agents["infiltrator"].hex == at("D6")  # movement resumed
    assert step.state.aliens[0].hex == at("B3")
    assert step.state.agents["infiltrator"].mp_left == 2
