"""Operation Strikeback mission 5 (`os5`, Moonrakers): Virus Injectors handed out by the Alpha
Agent, Insert Virus, injectors dropped and picked up, the face-down Waypoints 3-5 and the
Telepathic Link (hidden information), Special Events A and C with scripted dice, the Xeno-Grey
and the Blue Nexus removed from play, the Power Suits at Headquarters and the Objectives."""

from __future__ import annotations

import pytest

from engine.core.dice import ScriptedDice, SeededDice
from engine.core.errors import RuleError
from engine.core.events import Event
from engine.core.game import Action
from engine.galaxy import GAME, combat, objectives, phases
from engine.galaxy.agent import start_turn
from engine.galaxy.lifecycle import kill_alien, place_alien
from engine.galaxy.state import AgentState, GalaxyState
from engine.galaxy.strikeback import play
from engine.galaxy.strikeback.mission_rules import os5
from engine.galaxy.strikeback.status import sb_state, sb_state_or_none
from engine.galaxy.world import co, hex_arg, hx
from renders import alt_text, text_board


def mission(seats: list[str], seed: int = 1, options: dict[str, str] | None = None) -> GalaxyState:
    chosen = {"human-view": "off", **(options or {})}
    return GAME.new("os5", seats, chosen, SeededDice(seed))


def run_event(state: GalaxyState, card_id: str, dice: object = None) -> list[Event]:
    state.event_deck.draw_pile.append(card_id)
    events: list[Event] = []
    phases.event_phase(state, dice or SeededDice(5), events)  # type: ignore[arg-type]
    return events


def my_turn(state: GalaxyState, seat: str, at: str) -> AgentState:
    state.phase, state.turn_order, state.turn_index = "agent", [seat], 0
    state.pending, state.signals, state.aliens = None, [], []
    assert state.expansion is not None
    sb_state(state).asks = []  # the setup's device picks are not this test's business
    agent = state.agents[seat]
    agent.hex = co(hex_arg(at))
    start_turn(state, agent)
    return agent


def first_strategy(state: GalaxyState, answers: dict[str, str]) -> tuple[GalaxyState, list[str]]:
    """Advance to the mission's Reinforcements; answer the Alpha's prompts from `answers`
    (question -> agent, the first option when absent); the questions asked, in order."""
    dice, asked = SeededDice(7), []
    for _ in range(30):
        state = GAME.advance(state, dice).state
        pending = state.pending
        if pending is None or (state.phase == "agent" and pending.kind != "sb-mission"):
            break
        if pending.kind == "sb-mission":
            question = str(pending.data["question"])
            asked.append(question)
            option = answers.get(question, pending.options[0])
            if option not in pending.options:
                option = pending.options[0]
        else:
            option = pending.options[0]
        state = GAME.apply(
            state, pending.seat, Action(verb="choose", args={"option": option}), dice
        ).state
    return state, asked


INJECT = "Which agent carries a Virus Injector (at most one each)?"


def test_setup_a_mark_one_suit_at_headquarters_the_hive_shut_and_no_archon_in_the_deck() -> None:
    assert "os5" in [s.key for s in GAME.scenarios()]
    state = mission(["marine", "biotech"])
    layer = sb_state_or_none(state)
    assert layer is not None
    assert [(s.mark, s.batteries) for s in layer.headquarters] == [(1, 5)]
    assert sorted(layer.npc_deck) == ["knight-1", "knight-2"]
    shut = [sorted(hx(c) for c in pair) for pair in state.locked]
    for a, b in os5.HIVE_SIDES:
        assert sorted([hex_arg(a), hex_arg(b)]) in shut
    top = list(reversed(state.event_deck.draw_pile))
    assert top[0] == "os5-b" and top[-1] == "os5-e" and "os5-a" not in top


def test_the_alpha_hands_out_two_injectors_one_each() -> None:
    state, asked = first_strategy(mission(["marine", "biotech", "sniper"], seed=3), {})
    assert asked == [INJECT, INJECT]
    assert state.expansion is not None
    assert len(set(os5.mine(state).injectors)) == 2


def test_a_lone_agent_takes_one_and_the_other_lies_on_a_start_hex() -> None:
    state, asked = first_strategy(mission(["marine"], seed=2), {})
    assert asked == [INJECT]
    assert state.expansion is not None
    assert os5.mine(state).injectors == ["marine"]
    assert len(os5.mine(state).dropped) == 1


def test_after_an_accomplished_mission_the_alpha_also_gives_an_archon() -> None:
    state = mission(["marine", "biotech"], seed=5)
    assert state.expansion is not None
    sb_state(state).previous = "accomplished"
    state, asked = first_strategy(state, {"Which agent receives the Archon NPC?": "biotech"})
    assert asked == [INJECT, INJECT, "Which agent receives the Archon NPC?"]
    assert state.expansion is not None
    assert sb_state(state).npcs["archon-1"].controller == "biotech"


def test_insert_virus_next_to_a_waypoint_with_the_action() -> None:
    state = mission(["marine"])
    assert state.expansion is not None
    os5.mine(state).injectors = ["marine"]
    my_turn(state, "marine", "I5")  # next to Waypoint 1 (I6)
    insert = [
        a for a in GAME.legal_actions(state, "marine") if a.args.get("what") == "insert-virus"
    ]
    assert [a.args["target"] for a in insert] == ["wp1"]
    state = GAME.apply(state, "marine", insert[0], SeededDice(1)).state
    tokens = os5.mine(state) if state.expansion else None
    assert tokens is not None and tokens.viruses == [1] and tokens.injectors == []
    with pytest.raises(RuleError):
        GAME.apply(state, "marine", insert[0], SeededDice(1))


def test_an_engaged_carrier_cannot_insert() -> None:
    state = mission(["marine"])
    assert state.expansion is not None
    os5.mine(state).injectors = ["marine"]
    my_turn(state, "marine", "I5")
    place_alien(state, "xeno-beta-green-1", hex_arg("J5"), [], "lands")
    assert not [
        a for a in GAME.legal_actions(state, "marine") if a.args.get("what") == "insert-virus"
    ]


def test_a_dead_carrier_drops_the_injector_and_another_picks_it_up_by_moving_over() -> None:
    state = mission(["marine", "biotech"])
    assert state.expansion is not None
    tokens = os5.mine(state)
    tokens.injectors = ["marine"]
    marine = state.agents["marine"]
    marine.hex, marine.bleeding = co(hex_arg("D4")), True
    combat.wound_agent(state, marine, 1, [], "a test")
    assert marine.dead and tokens.dropped == [co(hex_arg("D4"))] and tokens.injectors == []
    my_turn(state, "biotech", "D6")
    walk = next(
        a for a in GAME.legal_actions(state, "biotech") if a.verb == "move" and a.args["to"] == "D4"
    )
    state = GAME.apply(state, "biotech", walk, SeededDice(1)).state
    assert state.expansion is not None
    assert os5.mine(state).injectors == ["biotech"] and os5.mine(state).dropped == []


def reveal_setup(seed_picks: list[int]) -> tuple[GalaxyState, list[Event]]:
    state = mission(["marine", "biotech"])
    state.signals, state.alpha = [], "marine"
    events = run_event(state, "os5-b", ScriptedDice([3] * 30, picks=seed_picks + [0] * 30))
    return state, events


def test_special_event_b_lays_waypoints_face_down_and_waypoint_four_brings_event_a() -> None:
    state, _ = reveal_setup([0, 0])
    assert state.expansion is not None
    hidden = os5.mine(state).facedown
    assert sorted(hidden) == ["m3", "m4", "m5"] and sorted(hidden.values()) == [3, 4, 5]
    link = next(m for m, wp in hidden.items() if wp == 4)
    other = next(m for m, wp in hidden.items() if wp != 4)
    events: list[Event] = []
    marine = state.agents["marine"]
    play.rules(state).entered(state, marine, play.mark_hex(state, other), SeededDice(1), events)
    assert other not in os5.mine(state).facedown
    assert other not in os5.mine(state).shown  # 3 and 5 are discarded
    assert state.event_deck.draw_pile[-1] != "os5-a"
    play.rules(state).entered(state, marine, play.mark_hex(state, link), SeededDice(1), events)
    assert os5.mine(state).shown == {link: 4}
    assert state.event_deck.draw_pile[-1] == "os5-a"


def test_hidden_waypoints_and_the_telepathic_link_stay_secret_from_the_public() -> None:
    for picks in ([0, 0], [1, 0], [2, 1]):
        state, events = reveal_setup(picks)
        assert state.expansion is not None
        where = {m: wp for m, wp in os5.mine(state).facedown.items()}
        link_hex = str(play.mark_hex(state, next(m for m, wp in where.items() if wp == 4)))
        secret = next(e for e in events if "Telepathic Link" in e.text)
        assert secret.visible_to == ["marine"]
        assert not secret.visible_for(None) and not secret.visible_for("biotech")
        public_texts = [e.text for e in events if e.visible_for(None)]
        assert not any("Aneres" in t or "Telepathic" in t for t in public_texts)
        for seat in (None, "biotech", "marine"):
            view = GAME.view(state, seat)
            kinds = {t.kind: t.label for t in view.tokens if t.kind.startswith("waypoint")}
            assert kinds == {"waypoint-face-down": "W?"}  # all three alike
            dumped = view.model_dump_json()
            assert "W4" not in dumped and "Aneres" not in dumped and "Telepathic" not in dumped
            for text in (text_board(view), alt_text(view, events)):
                assert "W4" not in text and "Aneres" not in text
        assert link_hex  # the secret exists in the state only


def test_special_event_a_opens_the_hive_and_the_link_becomes_public() -> None:
    state, _ = reveal_setup([0, 0])
    assert state.expansion is not None
    events = run_event(state, "os5-a", SeededDice(11))
    assert "overlay" not in sb_state(state).blocks
    grey = next(a for a in state.aliens if a.card == "xeno-grey-blue-1")
    assert grey.hex == co(play.mark_hex(state, "m7")) and grey.controller == "marine"
    assert {a.card for a in state.aliens} >= {"nexus-green-1", "xeno-beast-red-1"}
    assert state.ce_deck.draw_pile[-1] == "os-31"
    assert [(s.mark, s.batteries) for s in sb_state(state).headquarters] == [(1, 5), (2, 5)]
    public = [e.text for e in events if e.visible_for(None)]
    assert any("Telepathic Link" in t for t in public)


def test_the_pose_roll_keeps_on_a_shield_else_a_wound_and_prone() -> None:
    state = mission(["marine", "biotech"], options={"fighting-poses": "on"})
    state.signals = []
    state.agents["marine"].hex = co(hex_arg("B5"))
    state.agents["biotech"].hex = co(hex_arg("C5"))
    assert state.expansion is not None
    sb_state(state).poses["marine"] = "crouching"
    # BLUE faces: 5 (Shield, Bolt) keeps the marine's pose; 1 (Alien) throws the biotech down.
    run_event(state, "os5-c", ScriptedDice([5, 1]))
    assert sb_state(state).poses == {"marine": "crouching", "biotech": "prone"}
    assert state.agents["marine"].wounds == 0 and state.agents["biotech"].wounds == 1


def test_the_xeno_grey_and_the_blue_nexus_leave_play_when_they_die() -> None:
    state = mission(["marine"])
    events: list[Event] = []
    for card in ("xeno-grey-blue-1", "nexus-blue-1", "nexus-green-1"):
        kill_alien(state, place_alien(state, card, hex_arg("T6"), events, "lands"), events)
    assert state.expansion is not None
    assert os5.mine(state).warehouse == ["xeno-grey-blue-1", "nexus-blue-1"]
    assert "nexus-green-1" in state.alien_deck.discard_pile


@pytest.mark.parametrize(
    ("dead", "viruses", "grey_dead", "e_drawn", "outcome"),
    [
        (0, [1, 2], True, True, "accomplished"),
        (0, [1, 2], False, True, "partial"),
        (2, [1, 2], True, True, "accomplished"),
        (3, [1, 2], True, True, "partial"),
        (4, [1, 2], True, True, "failed"),
        (0, [1], True, True, "failed"),
        (0, [1], True, False, None),
        (4, [], False, False, "failed"),
    ],
)
def test_objectives_table(
    dead: int, viruses: list[int], grey_dead: bool, e_drawn: bool, outcome: str | None
) -> None:
    state = mission(["marine", "biotech", "sniper", "hulk", "infiltrator"])
    assert state.expansion is not None
    for seat in state.seats[:dead]:
        state.agents[seat].dead = True
    os5.mine(state).viruses = viruses
    os5.mine(state).warehouse = ["xeno-grey-blue-1"] if grey_dead else []
    if e_drawn:
        state.event_deck.discard_pile.append("os5-e")
    objectives.mission_status(state, [])
    assert state.outcome == outcome
