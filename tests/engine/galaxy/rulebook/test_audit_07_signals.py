"""Rulebook chapter "The Aliens" - Signals, Reveal Signals, Alien Assignment and the Teleport
System (Signals teleported by the Event phase and by Danger cards).

A Signal is staged behind the G6-G7 door of Mission 1's shuttle (at G8): from G5 the door
blocks L.O.S., from G6 (next to the door) the agent sees it. The Alien deck's next card is set
by a dump edit so the revealed alien is known.
"""

from __future__ import annotations

from typing import Any

import pytest
from galaxy_probe import (
    GAME,
    act,
    advance,
    aliens_turn,
    clear,
    dump,
    edit,
    fig,
    hexes,
    legal,
    new,
    on_top,
    put_alien,
    put_signal,
    stage,
    texts,
    view,
    waiting,
)

from engine.core.dice import SeededDice
from engine.core.errors import RuleError
from engine.core.game import Action

HV_OFF = {"human-view": "off"}


def tokens(state: Any) -> list[str]:
    return [t.coord for t in view(state).tokens if t.kind == "signal"]


def behind_door(token: str = "alien-1", seats: tuple[str, ...] = ("marine",), **kw: Any) -> Any:
    agents = {"marine": "G5"} | kw.pop("agents", {})
    return stage(seats=seats, agents=agents, signals=[("s9", token, "G8")], options=HV_OFF, **kw)


def test_signal_out_of_sight_stays_hidden() -> None:
    """Reveal Signals: a Signal out of every agent's L.O.S. stays an unknown token."""
    state = behind_door()
    assert tokens(state) == ["G8"]
    step = act(state, "move", unit="marine", to="F4")
    assert tokens(step.state) == ["G8"]


def test_signal_revealed_when_agent_gains_sight() -> None:
    """Reveal Signals: when an agent gets L.O.S. to a Signal it is revealed at once."""
    state = on_top(behind_door(), "alien_deck", "aracnos-green-1")
    step = act(state, "move", unit="marine", to="G6")
    assert tokens(step.state) == []
    x = next(f for f in view(step.state).figures if f.side == "enemy")
    assert x.coord == "G8" and x.kind == "aracnos" and x.rank == "green"


def test_reveal_interrupts_and_movement_resumes() -> None:
    """Reveal Signals example: the reveal pauses the agent's Movement, which then resumes."""
    state = behind_door()
    step = act(state, "move", unit="marine", to="G7")  # through G6, where the Signal is seen
    said = texts(step.events)
    assert said.index("G5 -> G6") < said.index("Signal s9") < said.index("G6 -> G7")
    marine = fig(step.state, "marine")
    assert marine is not None and marine.coord == "G7"


def test_human_signal_is_removed() -> None:
    """Reveal Signals: a Human shape is a false positive, removed from the map."""
    state = behind_door("human-1")
    step = act(state, "move", unit="marine", to="G6")
    assert tokens(step.state) == []
    assert not [f for f in view(step.state).figures if f.side == "enemy"]


def test_revealed_signal_goes_to_discard() -> None:
    """Signal: once revealed (alien or human) the token goes to the Signal discard pile."""
    for token in ("alien-1", "human-1"):
        step = act(behind_door(token), "move", unit="marine", to="G6")
        assert token in dump(step.state)["signal_discard"]


def test_reveal_ignores_human_view() -> None:
    """Human View note: a Signal in L.O.S. is revealed even behind the agent's back."""
    state = stage(agents={"marine": "I3"}, facing={"marine": 1}, options={"human-view": "on"})
    state = edit(state, lambda d: put_signal(d, "s9", "human-2", hexes(state)["I6"]))
    step = act(state, "move", unit="marine", to="I2")
    assert "Signal s9" in texts(step.events)
    assert tokens(step.state) == []


def test_revealed_alien_is_the_top_alien_card() -> None:
    """Reveal Signals: an Alien token becomes the top card of the Alien deck."""
    for card, kind in (
        ("spine-critter-green-1", "spine-critter"),
        ("xeno-beta-blue-1", "xeno-beta"),
    ):
        state = on_top(behind_door(), "alien_deck", card)
        step = act(state, "move", unit="marine", to="G6")
        x = next(f for f in view(step.state).figures if f.side == "enemy")
        assert x.kind == kind


def test_assignment_to_player_with_fewest_cards() -> None:
    """Alien Assignment: the card goes to the first player clockwise with fewest Alien cards."""
    state = behind_door(seats=("marine", "biotech"), agents={"biotech": "F4"})
    state = edit(
        state, lambda d: put_alien(d, "x5", "aracnos-green-2", hexes(state)["B3"], "marine")
    )
    state = on_top(state, "alien_deck", "spine-critter-green-1")
    step = act(state, "move", unit="marine", to="G6")
    new = next(f for f in view(step.state).figures if f.side == "enemy" and f.id != "x5")
    assert new.seat == "biotech"


def test_assignment_tie_goes_to_alpha() -> None:
    """Alien Assignment: on a tie the Alien card goes to the Alpha Agent."""
    state = behind_door(seats=("marine", "biotech"), agents={"biotech": "F4"})
    step = act(state, "move", unit="marine", to="G6")
    new = next(f for f in view(step.state).figures if f.side == "enemy")
    assert "alpha" in (fig(step.state, "marine").conditions)  # type: ignore[union-attr]
    assert new.seat == "marine"


def test_assignment_second_copy_to_same_controller() -> None:
    """Alien Assignment exception: a second copy (same species and rank) joins the first one's
    controller even when another player has fewer cards."""
    state = behind_door(seats=("marine", "biotech"), agents={"biotech": "F4"})
    state = edit(
        state, lambda d: put_alien(d, "x5", "xeno-beta-green-1", hexes(state)["B3"], "marine")
    )

    def drop_first_copy(data: dict[str, Any]) -> None:
        deck = data["alien_deck"]
        deck["draw_pile"] = [c for c in deck["draw_pile"] if c != "xeno-beta-green-1"]

    state = edit(state, drop_first_copy)
    state = on_top(state, "alien_deck", "xeno-beta-green-2")
    step = act(state, "move", unit="marine", to="G6")
    new = next(f for f in view(step.state).figures if f.side == "enemy" and f.id != "x5")
    assert new.kind == "xeno-beta" and new.rank == "green"
    assert new.seat == "marine"


def test_one_signal_or_alien_per_hex_on_teleport() -> None:
    """Teleport System: an occupied Teleport Point sends the new arrival to the closest free Hex
    (here the Alpha Agent's prompt is left to its default)."""
    state = stage(agents={"marine": "G5"}, aliens=[("x1", "aracnos-green-1", "B3")], options=HV_OFF)
    step = answer(aliens_turn(state, "ce02", [6] * 30).state)  # Danger: a Xeno-Beta
    said = texts(step.events)
    assert "teleports in (Danger" in said
    coords = [f.coord for f in view(step.state).figures] + tokens(step.state)
    assert len(coords) == len(set(coords))
    beta = next(f for f in view(step.state).figures if f.kind == "xeno-beta")
    assert ring(step.state, beta.coord, "B3") == 1


def ring(state: Any, a: str, b: str) -> int:
    """Hex distance between two labels, from the view's coordinates."""
    grid = hexes(state)
    (q1, r1), (q2, r2) = grid[a], grid[b]
    return max(abs(q1 - q2), abs(r1 - r2), abs(q1 + r1 - q2 - r2))


def answer(state: Any, option: str | None = None) -> Any:
    """Answer the pending prompt with `option`, else with the table's timeout default."""
    prompt = waiting(state)
    action = prompt.default if option is None else Action(verb="choose", args={"option": option})
    assert action is not None
    return GAME.apply(state, prompt.seats[0], action, SeededDice(3))


def test_alpha_agent_picks_among_equally_close_hexes() -> None:
    """Teleport System: when the rolled Point is occupied the newcomer goes to the closest Hex,
    and when several Hexes are equally close the Alpha Agent decides which: he is asked, the
    offer is exactly those Hexes, and the figure lands where he says."""
    state = stage(agents={"marine": "G5"}, aliens=[("x1", "aracnos-green-1", "B3")], options=HV_OFF)
    asked = aliens_turn(state, "ce02", [6] * 30).state  # Danger: a Xeno-Beta, Hit Point B3
    prompt = waiting(asked)
    assert prompt.seats == ["marine"] and prompt.kind == "choice"
    options = [a.args["option"] for a in legal(asked)]
    assert len(options) >= 2 and all(ring(asked, o, "B3") == 1 for o in options)
    assert prompt.default is not None and prompt.default.args["option"] in options
    assert not [f for f in view(asked).figures if f.kind == "xeno-beta"]  # not placed yet
    pick = options[-1]
    landed = answer(asked, pick).state
    beta = next(f for f in view(landed).figures if f.kind == "xeno-beta")
    assert beta.coord == pick
    assert waiting(landed).kind != "choice"  # the Aliens turn is over


def test_teleport_hex_refuses_a_hex_farther_away() -> None:
    """Teleport System: only the closest Hexes are suitable; another answer is refused and
    changes nothing."""
    state = stage(agents={"marine": "G5"}, aliens=[("x1", "aracnos-green-1", "B3")], options=HV_OFF)
    asked = aliens_turn(state, "ce02", [6] * 30).state
    before = dump(asked)
    with pytest.raises(RuleError):
        answer(asked, "G6")
    assert dump(asked) == before


def test_free_teleport_point_asks_nothing() -> None:
    """Teleport System: a free Teleport Point takes the newcomer itself, no choice to make."""
    state = stage(agents={"marine": "G5"}, options=HV_OFF)
    step = aliens_turn(state, "ce02", [6] * 30)
    assert waiting(step.state).kind != "choice"
    beta = next(f for f in view(step.state).figures if f.kind == "xeno-beta")
    assert beta.coord == "B3"


def test_teleport_roll_hit_beats_shield_on_same_face() -> None:
    """Teleport System note: a face with Hit and Shield counts as Hit (Mission 1: Hit TP B3,
    Shield TP J9)."""
    state = stage(agents={"marine": "G5"}, options=HV_OFF)
    hit = aliens_turn(state, "ce02", [6] + [6] * 30)  # hit+shield
    assert "Teleport roll: Hit - Teleport Point at B3" in texts(hit.events)
    shield = aliens_turn(state, "ce02", [5] + [6] * 30)  # shield+bolt: Shield over Bolt (ours)
    assert "Teleport roll: Shield - Teleport Point at J9" in texts(shield.events)


def dig_site() -> Any:
    """Operation Strikeback's os2 map holds all four Teleport Points (Hit B3, Shield I3, Alien
    J9, Bolt F13): its first Agent turn, set-up answered with the first option offered, the
    board then cleared of aliens and Signals."""
    state = new("os2", ("marine",), **HV_OFF)
    for _ in range(60):
        prompt = waiting(state)
        if prompt.kind == "turn":
            return edit(state, clear)
        if prompt.seats:
            seat = prompt.seats[0]
            state = GAME.apply(state, seat, legal(state, seat)[0], SeededDice(5)).state
        else:
            state = GAME.advance(state, SeededDice(5)).state
    raise AssertionError("no Agent turn reached")


def test_every_teleport_point_can_be_rolled() -> None:
    """Teleport System: the BLUE die picks the Point, so a Bolt Point is reachable too (our BLUE
    face 4 carries the Bolt without Hit or Shield): on a map with all four Points, face 4
    teleports the Danger card's alien to the Bolt Point."""
    step = aliens_turn(dig_site(), "ce02", [4] + [6] * 30)  # Danger: a Xeno-Beta teleports in
    assert "Teleport roll: Bolt - Teleport Point at F13" in texts(step.events)


def test_teleport_rolls_again_until_the_last_point_matches() -> None:
    """Teleport System: a symbol not on the map is rolled again until one matches; with only the
    Bolt Point left, Hit, Shield and Alien faces are re-rolled until the Bolt comes up."""
    state = edit(dig_site(), lambda d: d.update(destroyed_tps=["hit", "shield", "alien"]))
    step = aliens_turn(state, "ce02", [2, 5, 1, 6, 4] + [6] * 30)
    said = texts(step.events)
    assert "Teleport roll: Bolt - Teleport Point at F13" in said
    assert "teleports in (Danger on Flanking Fire) at F13" in said


def test_no_reveal_through_blocked_sight_on_move() -> None:
    """L.O.S. for reveals: a wall or far door still hides a Signal while the agent moves."""
    state = behind_door()
    step = act(state, "move", unit="marine", to="G4")
    assert tokens(step.state) == ["G8"]
    assert [a for a in legal(step.state) if a.verb == "move"]


def test_alien_deck_reshuffles_its_discard() -> None:
    """Alien deck: when it runs out, the discard pile is reshuffled into a new deck."""
    state = behind_door()
    state = edit(
        state, lambda d: d["alien_deck"].update(draw_pile=[], discard_pile=["aracnos-green-2"])
    )
    step = act(state, "move", unit="marine", to="G6")
    assert [f.kind for f in view(step.state).figures if f.side == "enemy"] == ["aracnos"]


def test_signal_teleported_into_sight_is_revealed_at_once() -> None:
    """Event Phase: a Signal teleported into an agent's L.O.S. is revealed before the next effect
    (Signal Spike's second Signal arrives only after the first is revealed)."""
    state = stage(
        agents={"marine": "B4"}, aliens=[("x1", "xeno-beta-green-1", "J9")], options=HV_OFF
    )
    ended = act(state, "end-turn", unit="marine").state
    step = advance(on_top(on_top(ended, "ce_deck", "ce07"), "event_deck", "ev11"), [6] * 40)
    said = texts(step.events)
    first_reveal = said.index("Signal s50 at B3 is")
    assert (
        said.index("Signal s50 teleports in") < first_reveal < said.index("Signal s51 teleports in")
    )


def test_opening_signals_wait_for_the_alpha_agent_then_set_up_goes_on() -> None:
    """Teleport System at set-up: the mission's opening Signals teleport like any other, so a
    second Signal rolled onto a taken Point waits for the Alpha Agent's hex; then the set-up
    carries on to the first Strategy phase."""
    state = advance(new("m1", ("marine", "biotech")), [6] * 40).state  # every roll: Hit Point B3
    prompt = waiting(state)
    assert prompt.kind == "choice" and prompt.seats == ["marine"]  # the Alpha Agent by ranking
    options = [a.args["option"] for a in legal(state)]
    assert "B3" not in options and len(options) >= 2
    state = answer(state, options[-1]).state
    arrived = options[-1] in tokens(state) or fig_at(state, options[-1])  # revealed if seen
    assert arrived
    for _ in range(6):
        if waiting(state).kind == "vote":
            break
        state = answer(state).state if waiting(state).kind == "choice" else advance(state).state
    assert waiting(state).kind == "vote"  # the Strategy phase's Alpha Agent vote


def fig_at(state: Any, coord: str) -> bool:
    return any(f.coord == coord for f in view(state).figures)
