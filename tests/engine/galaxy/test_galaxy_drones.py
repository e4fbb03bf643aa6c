"""The Biotech's Sentry-Gun and GD-209 battle drones."""

from __future__ import annotations

from galaxy_helpers import at, blank, put_agent, put_alien

from engine.core.dice import ScriptedDice
from engine.core.events import Attacked, Event
from engine.core.game import Action
from engine.galaxy import GAME
from engine.galaxy.agent import start_turn
from engine.galaxy.aliens import activate
from engine.galaxy.combat import wound_agent
from engine.galaxy.state import GalaxyState


def act(state: GalaxyState, verb: str, rolls: list[int] | None = None, **args: str) -> GalaxyState:
    action = Action(verb=verb, args={"unit": "biotech", **args})
    return GAME.apply(state, "biotech", action, ScriptedDice(rolls or [])).state


def test_sentry_gun_deploys_then_fires_from_the_next_turn() -> None:
    state = blank(["biotech"], "m2")
    put_agent(state, "biotech", "D4")
    assert state.agents["biotech"].devices == ["sentry-gun", "trauma-kit"]  # the mission's kit
    beta = put_alien(state, "xeno-beta-green-1", "B3")
    state = act(state, "act", what="sentry-gun", to="C4")
    sentry = state.agents["sentry-gun"]
    assert sentry.drone_of == "biotech" and sentry.hex == at("C4") and not sentry.ready
    assert "sentry-gun" not in state.agents["biotech"].devices
    assert not [
        a for a in GAME.legal_actions(state, "biotech") if a.args.get("what") == "drone-fire"
    ]
    start_turn(state, state.agents["biotech"])
    fire = [a for a in GAME.legal_actions(state, "biotech") if a.args.get("what") == "drone-fire"]
    assert [a.args["target"] for a in fire] == [beta.id]
    # BLUE 3 dice: bolt+ammo+jam, hit+hit+shield and an Alien: 2 Hits, a Bolt (Def -1: one
    # defence die) and a Jam, and a drone never jams
    state = act(state, "act", [4, 2, 1, 1], what="drone-fire", target=beta.id)
    assert not state.agents["sentry-gun"].weapons[0].jammed
    assert state.aliens[0].wounds == 2


def test_aliens_target_drones_and_destroy_them() -> None:
    state = blank(["biotech"], "m2")
    put_agent(state, "biotech", "B10")
    state = act(state, "act", what="sentry-gun", to="C10")
    sentry = state.agents["sentry-gun"]
    critter = put_alien(state, "spine-critter-green-1", "C9")
    events: list[Event] = []
    state.agents["biotech"].wounds = 0
    activate(state, critter, ScriptedDice([1, 1]), events)  # two misses
    attacked = [e for e in events if isinstance(e, Attacked)]
    assert attacked and attacked[0].target in ("biotech", "sentry-gun")
    wound_agent(state, sentry, 3, events, "test")
    assert "sentry-gun" not in state.agents


def test_gd209_deploys_once_then_moves_and_fires_on_activation() -> None:
    state = blank(["biotech"], "m1")
    put_agent(state, "biotech", "D4")
    state.agents["biotech"].skills = ["gd-209"]
    beta = put_alien(state, "xeno-beta-green-1", "B3")
    state = act(state, "act", what="gd-209", to="D5")
    assert state.agents["gd-209"].energy == 1
    assert state.agents["biotech"].spent_drones == ["gd-209"]
    start_turn(state, state.agents["biotech"])
    state = act(state, "act", what="gd-209")
    assert state.pending is not None and state.pending.kind == "drone-move"
    assert "C4" in state.pending.options
    state = GAME.apply(
        state, "biotech", Action(verb="choose", args={"option": "c4"}), ScriptedDice([])
    ).state
    assert state.agents["gd-209"].hex == at("C4")
    assert state.pending is not None and state.pending.kind == "drone-attack"
    state = GAME.apply(
        state, "biotech", Action(verb="choose", args={"option": beta.id}), ScriptedDice([1, 1])
    ).state
    assert state.pending is None
