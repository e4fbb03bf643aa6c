"""Rulebook chapters "Event Phase & Event Card", "Signal Movement" and "Teleport System".

Event cards are identified black-box by their narration (Mission 1 deck): ev01 "Motion Ping"
moves Signals one Area toward agents, ev07 "Closing In" two Areas, ev08 "Sand Storm" and ev10
"Clear Skies" are Weather Events, ev11 "Signal Spike" teleports Signals, ev16 "Scouting Party"
teleports an alien. The card is put on top of the Event deck by a dump edit and the round is
played to its end with a quiet Close Encounter card (ce07).
"""

from __future__ import annotations

from typing import Any

from galaxy_probe import (
    GAME,
    act,
    advance,
    area,
    dice,
    do,
    dump,
    edit,
    fig,
    find,
    header,
    hexes,
    marks,
    on_top,
    stage,
    texts,
    view,
    waiting,
)

from engine.core.game import Action

HV_OFF = {"human-view": "off"}


def event(state: Any, card: str, rolls: list[int] | None = None) -> tuple[Any, str]:
    """Play the round out with `card` as its Event card; a teleport onto a taken Point is
    answered with the Alpha Agent's default hex."""
    ended = act(state, "end-turn", unit="marine").state
    ended = on_top(on_top(ended, "ce_deck", "ce07"), "event_deck", card)
    step = advance(ended, rolls or [6] * 40)
    state, said = step.state, texts(step.events)
    while (prompt := waiting(state)).kind == "choice" and prompt.default is not None:
        step = GAME.apply(state, prompt.seats[0], prompt.default, dice(*(rolls or [6] * 40)))
        state, said = step.state, said + "\n" + texts(step.events)
    return state, said[said.index("Event phase") :]


def signal_at_b3(**kw: Any) -> Any:
    return stage(
        agents={"marine": "G5"},
        aliens=[("x1", "xeno-beta-green-1", "J9")],
        signals=[("s9", "alien-1", "B3")],
        options=HV_OFF,
        **kw,
    )


def signals(state: Any) -> dict[str, str]:
    return {t.label: t.coord for t in view(state).tokens if t.kind == "signal"}


def test_alpha_draws_the_event_card() -> None:
    """Event Phase: the Alpha Agent draws the top Event card."""
    _, said = event(signal_at_b3(), "ev01")
    assert said.startswith("Event phase: the Alpha Agent draws Motion Ping")


def test_signals_move_centre_to_centre() -> None:
    """Signal Movement: Signals move from the centre Hex of an Area to the next Area's centre."""
    state, said = event(signal_at_b3(), "ev01")
    assert "Signal s9 moves B3 -> D4" in said
    assert signals(state)["s9"] == "D4"
    assert "centre" in marks(state, "D4")


def test_signal_takes_another_hex_when_centre_is_taken() -> None:
    """Signal Movement: when the centre Hex is not free the Signal stops in another Hex of that
    Area (G5, the shuttle's centre, holds the Marine)."""
    state, said = event(signal_at_b3(), "ev07", [6] * 40)
    assert "Signal s9 moves D4 -> F4" in said
    assert area(state, "F4") == area(state, "G5")


def test_signal_revealed_on_entering_sight_and_stops() -> None:
    """Signal Movement: a Signal entering an agent's L.O.S. is revealed and its movement ends."""
    state, said = event(signal_at_b3(), "ev07", [6] * 40)
    assert "Signal s9 at F4 is alien!" in said
    assert "s9" not in signals(state)
    revealed = [f for f in view(state).figures if f.side == "enemy" and f.id != "x1"]
    assert revealed, said


def test_signal_reveal_checked_area_by_area() -> None:
    """Signal Movement: the reveal is checked after each single Area of movement (a Signal that
    stays out of sight after one Area keeps its token)."""
    state, said = event(signal_at_b3(), "ev01")
    assert "s9" in signals(state)
    assert "is alien" not in said


def test_signals_do_not_end_on_occupied_hex() -> None:
    """Signal Movement: one Signal or alien per Hex; figures are passed, never shared."""
    state, _ = event(signal_at_b3(), "ev07", [6] * 40)
    coords = [f.coord for f in view(state).figures] + list(signals(state).values())
    assert len(coords) == len(set(coords))


def test_weather_event_stays_until_replaced() -> None:
    """Weather Event: its effect stays in play until another Weather Event replaces it."""
    state, _ = event(signal_at_b3(), "ev08")
    assert header(state)["weather"] == "storm"
    state, _ = event(state, "ev01")
    assert header(state)["weather"] == "storm"
    state, _ = event(state, "ev10")
    assert header(state)["weather"] == "clear"


def test_teleported_signal_goes_to_closest_hex_when_point_taken() -> None:
    """Teleport System: with the rolled Teleport Point occupied, the Signal takes the closest
    Hex."""
    state, said = event(signal_at_b3(), "ev11", [6] * 40)
    assert "Teleport roll: Hit - Teleport Point at B3" in said
    new = [c for label, c in signals(state).items() if label != "s9"]
    assert new and "B3" not in new


def test_teleport_draws_from_signal_reserve() -> None:
    """Teleport System: each teleported Signal is drawn from the Signal Reserve."""
    state = signal_at_b3()
    before = len(dump(state)["signal_reserve"])
    after, said = event(state, "ev11", [6] * 40)
    arrived = said.count("teleports in")
    assert arrived >= 1
    assert len(dump(after)["signal_reserve"]) == before - arrived
    assert header(after)["signals in reserve"] == str(before - arrived)


def test_empty_reserve_is_refilled_from_discard() -> None:
    """Signal note: an empty Reserve is refilled by shuffling the Signal discard pile."""
    state = signal_at_b3()
    state = edit(
        state, lambda d: d.update(signal_reserve=[], signal_discard=["human-1", "human-2"])
    )
    after, said = event(state, "ev11", [6] * 40)
    assert "teleports in" in said
    assert len(dump(after)["signal_reserve"]) + len(signals(after)) - 1 == 2


def test_teleporting_aliens_event_uses_alien_deck() -> None:
    """Teleporting Aliens: an event may teleport an alien figure (from the Alien deck) instead."""
    state, said = event(signal_at_b3(), "ev16", [6] * 40)
    assert "teleports in (Scouting Party)" in said
    beta = [f for f in view(state).figures if f.kind == "xeno-beta" and f.id != "x1"]
    assert beta and beta[0].seat == "marine"
    assert fig(state, "x1") is not None


def test_battle_drones_do_not_draw_event_signals() -> None:
    """Sentry-Gun / GD-209: a drone does not count as an agent for Event cards, so a Signal an
    Event moves toward agents heads for the Biotech, not for his Sentry-Gun (the move is the
    same with or without the drone on the map)."""

    def kit(data: dict[str, Any]) -> None:
        data["agents"]["biotech"]["devices"].append("sentry-gun")

    def moved(with_drone: bool) -> str:
        state = stage(
            seats=("biotech",),
            agents={"biotech": "B3"},
            signals=[("s9", "alien-1", "G8")],
            options=HV_OFF,
            prep=kit,
        )
        if with_drone:
            deploy = next(a for a in find(state, "biotech", what="sentry-gun"))
            state = do(state, deploy, seat="biotech").state
            grid = hexes(state)
            state = edit(state, lambda d: d["agents"]["sentry-gun"].update(hex=list(grid["J9"])))
            assert fig(state, "sentry-gun").coord == "J9"  # type: ignore[union-attr]
        ended = act(state, "end-turn", seat="biotech", unit="biotech").state
        ended = on_top(on_top(ended, "ce_deck", "ce07"), "event_deck", "ev01")
        said = texts(advance(ended, [6] * 40).events)
        return next(line for line in said.splitlines() if line.startswith("Signal s9 moves"))

    assert moved(False) == "Signal s9 moves G8 -> E7 (toward the agents)."
    assert moved(True) == "Signal s9 moves G8 -> E7 (toward the agents)."


def test_alpha_agent_picks_the_hex_of_an_event_signal() -> None:
    """Teleport System: a Signal teleported by the Event card onto a taken Point goes to the
    closest Hex the Alpha Agent picks among the equally close ones; then the rest of the Event
    card resolves and the round ends."""
    ended = act(signal_at_b3(), "end-turn", unit="marine").state
    ended = on_top(on_top(ended, "ce_deck", "ce07"), "event_deck", "ev11")
    asked = advance(ended, [6] * 40).state
    prompt = waiting(asked)
    assert prompt.kind == "choice" and prompt.seats == ["marine"]
    options = [a.args["option"] for a in find(asked, seat="marine")]
    assert len(options) >= 2 and "B3" not in options
    grid = hexes(asked)
    (q0, r0) = grid["B3"]
    assert all(
        max(abs(q - q0), abs(r - r0), abs(q + r - q0 - r0)) == 1
        for q, r in (grid[o] for o in options)
    )
    pick = options[-1]
    step = do(asked, Action(verb="choose", args={"option": pick}), [6] * 40)
    assert pick in signals(step.state).values()
    said = texts(step.events)
    assert f"teleports in at {pick}" in said
    state = step.state
    while (again := waiting(state)).kind == "choice" and again.default is not None:
        assert pick not in [a.args["option"] for a in find(state, seat="marine")]  # taken now
        state = do(state, again.default, [6] * 40).state  # Signal Spike's next Signal
    assert "Refresh" in texts(advance(state, [6] * 40).events)  # the round went on
