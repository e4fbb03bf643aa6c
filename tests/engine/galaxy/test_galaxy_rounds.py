"""Rulebook action examples, Close Encounter activation and the Event phase."""

from __future__ import annotations

from galaxy_helpers import at, blank, put_agent, put_alien

from engine.core.dice import ScriptedDice
from engine.core.events import CardDrawn, Event, Moved, Note
from engine.core.game import Action
from engine.galaxy import GAME
from engine.galaxy.leader import cast, open_vote
from engine.galaxy.phases import aliens_turn, event_phase
from engine.galaxy.state import GalaxyState
from engine.galaxy.world import area_of


def act(
    state: GalaxyState, seat: str, verb: str, rolls: list[int] | None = None, **args: str
) -> GalaxyState:
    action = Action(verb=verb, args={"unit": seat, **args})
    return GAME.apply(state, seat, action, ScriptedDice(rolls or [])).state


def test_mercury_moves_next_to_the_window_then_leaps_and_cannot_move_on() -> None:
    state = blank(["infiltrator"])
    put_agent(state, "infiltrator", "G5")
    state = act(state, "infiltrator", "move", to="H5")  # 1 hex, next to the window
    state = act(state, "infiltrator", "act", what="leap", to="I5")
    mercury = state.agents["infiltrator"]
    assert mercury.hex == at("I5") and mercury.movement == "closed"


def test_mercury_moves_two_hexes_then_searches_and_finds_a_first_aid_kit() -> None:
    state = blank(["infiltrator"])
    put_agent(state, "infiltrator", "F4", wounds=1)
    state = act(state, "infiltrator", "move", to="H5")  # two hexes inside the shuttle
    assert state.agents["infiltrator"].mp_left == 3
    state = act(state, "infiltrator", "act", [2], what="search")  # a Shield face
    state = act(state, "infiltrator", "choose", option="first-aid")
    mercury = state.agents["infiltrator"]
    assert mercury.wounds == 0 and mercury.movement == "closed"


def test_chromium_moves_four_then_redeploys_in_his_area_and_cannot_attack() -> None:
    state = blank(["marine"])
    put_agent(state, "marine", "C4")
    beta = put_alien(state, "xeno-beta-green-1", "J9")
    state = act(state, "marine", "move", to="E7")
    assert state.agents["marine"].mp_left == 1
    state = act(state, "marine", "move", to="F7")
    state = act(state, "marine", "act", what="redeploy", to="D7")
    marine = state.agents["marine"]
    assert area_of(state, marine.hex or (0, 0)) == "g" and marine.combat_used
    assert not [a for a in GAME.legal_actions(state, "marine") if a.verb == "attack"]
    assert beta.id


def test_close_encounter_activates_matching_aliens() -> None:
    state = blank(["marine", "sniper"])
    put_agent(state, "marine", "D4")
    put_agent(state, "sniper", "G5")
    aracnos = put_alien(state, "aracnos-green-1", "C9", controller="sniper")
    put_alien(state, "xeno-beta-green-1", "J9", controller="marine")
    state.agents["marine"].guard = False  # no Guard shot in this test
    state.ce_deck.draw_pile.append("ce05")  # Aracnos only
    events: list[Event] = []
    aliens_turn(state, ScriptedDice([1, 1]), events)
    assert any(isinstance(e, CardDrawn) and e.card == "ce05" for e in events)
    moved = {e.figure for e in events if isinstance(e, Moved)}
    assert moved == {aracnos.id}
    assert state.ce_deck.discard_pile[-1] == "ce05"


def test_danger_card_teleports_the_missing_alien() -> None:
    state = blank(["marine"])
    put_agent(state, "marine", "G5")
    state.ce_deck.draw_pile.append("ce06")  # Aracnos, Danger: a GREEN Aracnos
    aliens_turn(state, ScriptedDice([5]), [])  # Teleport Point: Shield (J9)
    assert [(a.card.startswith("aracnos-green"), a.hex) for a in state.aliens] == [(True, at("J9"))]


def test_event_signal_teleport_counts_living_agents_and_balance() -> None:
    state = blank(["marine", "sniper", "hulk"])
    put_agent(state, "marine", "G5")
    put_agent(state, "sniper", "G4")
    state.agents["hulk"].dead = True  # Inoperative players are not counted
    state.phase = "event"
    state.signal_reserve = ["human-1", "human-2", "human-3"]
    state.event_deck.draw_pile.append("ev02")  # table 1,1,2,2,3
    event_phase(state, ScriptedDice([5, 1]), [])
    # two living agents -> the table's second entry: one Signal (three would have made two)
    assert len(state.signal_reserve) == 2
    state.phase = "event"
    put_alien(state, "xeno-beta-green-1", "B3")
    put_alien(state, "xeno-beta-green-2", "C9")
    state.event_deck.draw_pile.append("ev05")  # only when aliens are fewer than agents
    events: list[Event] = []
    event_phase(state, ScriptedDice([]), events)
    assert any(isinstance(e, Note) and "no Signal arrives" in e.text for e in events)
    assert state.round == 3


def test_mission_special_event_is_in_its_deck_and_resolves() -> None:
    state = blank(["marine"], "m4")
    put_agent(state, "marine", "B6")
    assert {"m4-ev1", "m4-ev2"} <= set(state.event_deck.all_cards())
    state.event_deck.draw_pile.append("m4-ev1")
    state.phase = "event"
    state.signal_reserve = ["human-1"]
    events: list[Event] = []
    # the Brood Hatches: an alien (Hit Point), then a Signal (Shield Point: no hex to pick)
    event_phase(state, ScriptedDice([2, 5]), events)
    assert state.aliens[0].card.startswith("spine-critter-blue")
    assert any(isinstance(e, Note) and "Special Event" in e.text for e in events)


def test_strategy_choices_fall_back_to_the_class_ranking() -> None:
    from engine.core.dice import SeededDice
    from engine.registry import get_game

    game = get_game("galaxy-defenders")
    info = next(s for s in game.scenarios() if s.key == "m1")
    state = game.new("m1", ["sniper", "marine"], info.resolve_options({}), SeededDice(1))
    state = game.advance(state, SeededDice(2)).state
    prompt = game.waiting_on(state)
    while prompt.kind == "choice" and prompt.default is not None:  # an opening Signal's hex
        state = game.apply(state, prompt.seats[0], prompt.default, SeededDice(2)).state
        state = game.advance(state, SeededDice(2)).state
        prompt = game.waiting_on(state)
    assert prompt.kind == "vote" and prompt.default is not None
    # The default is the rulebook's class ranking, and it is a legal answer.
    from engine.galaxy.world import ALPHA_RANKING

    ranked = next(k for k in ALPHA_RANKING if k in ("sniper", "marine"))
    legal = game.legal_actions(state, prompt.seats[0])
    assert any(a.matches(prompt.default) for a in legal)
    chosen = game.apply(state, prompt.seats[0], prompt.default, SeededDice(3)).state
    assert chosen.alpha == ranked


def test_an_agent_proposing_himself_is_told_so() -> None:
    """'Chromium (Marine) proposes himself', not 'proposes Chromium (Marine)'."""
    state = blank(["marine", "sniper"])
    state.pending = open_vote(state, ["marine", "sniper"])
    events: list[Event] = []
    cast(state, "marine", "marine", events)
    assert [e.text for e in events] == ["Chromium (Marine) proposes himself as Alpha Agent."]
