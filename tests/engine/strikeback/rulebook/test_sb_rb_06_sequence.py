"""Strikeback rulebook chapter 6, Game Sequence: the new Refresh-phase steps (6.1) and the
Event-phase note on who counts as an agent (6.3).

Mark and Poison are staged on the expansion's per-figure record in the dump (learnt from a
Xeno-Delta's Wrist Gun placing "mark-2"); one quiet round (an Aliens turn that activates no
one) brings the next Refresh.
"""

from __future__ import annotations

from sb_probe import (
    act,
    advance,
    body,
    dump,
    edit,
    fig,
    hexes,
    on_top,
    put_signal,
    quiet_round,
    set_body,
    settle,
    stage,
    waiting,
    wounds,
)

HV_OFF = {"human-view": "off"}


def test_refresh_flips_mark_2_to_mark_1_then_removes_it() -> None:
    """6.1 / 8.3: each Refresh flips a Mark 2 to Mark 1 and removes a Mark 1."""
    state = set_body(stage("os6", agents={"marine": "E7"}, options=HV_OFF), "marine", mark=2)
    once = quiet_round(state)
    assert body(once, "marine")["mark"] == 1
    marine = fig(once, "marine")
    assert marine is not None and "mark-1" in marine.conditions
    twice = quiet_round(settle(once))
    assert body(twice, "marine")["mark"] == 0


def test_refresh_poison_2_wounds_and_flips() -> None:
    """6.1 / 9.3.2: in the Refresh a Poison 2 target suffers 1 wound and the token flips to 1."""
    state = set_body(stage("os6", agents={"marine": "E7"}, options=HV_OFF), "marine", poison=2)
    before = wounds(state, "marine")
    once = quiet_round(state)
    assert wounds(once, "marine") == before + 1
    assert body(once, "marine")["poison"] == 1


def test_refresh_poison_1_wounds_and_goes() -> None:
    """6.1 / 9.3.2: a Poison 1 target suffers 1 wound and the token is removed."""
    state = set_body(stage("os6", agents={"marine": "E7"}, options=HV_OFF), "marine", poison=1)
    before = wounds(state, "marine")
    once = quiet_round(state)
    assert wounds(once, "marine") == before + 1
    assert body(once, "marine")["poison"] == 0
    again = quiet_round(settle(once))
    assert wounds(again, "marine") == before + 1  # no token, no more wounds


# --- 6.3 Event phase balancers --------------------------------------------------------------
# Learnt black-box: the expansion's Event cards "os-g1" and "os-s1" teleport (agents - aliens)
# Signals, "os-h1" (agents - aliens - Signals); os4 and os5 draw their Event cards normally.


def teleports(
    card: str,
    scenario: str = "os5",
    seats: tuple[str, ...] = ("marine", "biotech", "infiltrator"),
    aliens: list[tuple[str, str, str]] | None = None,
    signal_at: str | None = None,
    npcs: bool = False,
) -> int:
    """Signals teleported in one round whose Event card is `card`."""
    state = stage(
        scenario,
        seats,
        agents=dict(zip(seats, ("E7", "D7", "D8"), strict=False)),
        aliens=aliens or [],
        options=HV_OFF,
        npcs=npcs,
    )
    if signal_at is not None:
        spot = hexes(state)[signal_at]
        state = edit(state, lambda d: put_signal(d, "s1", "alien-9", spot))
    state = on_top(state, "event_deck", card)
    start = dump(state)["round"]
    lines: list[str] = []
    for _ in range(20):
        prompt = waiting(state)
        if prompt.seats and (dump(state)["round"] > start or prompt.kind != "turn"):
            break
        if prompt.kind == "turn":
            who = prompt.seats[0]
            step = act(state, "end-turn", [1] * 30, seat=who, unit=who)
        else:
            step = advance(on_top(state, "ce_deck", "ce22"), [6] * 80, [0] * 80)
        state = step.state
        lines += [e.text for e in step.events]
    return sum(1 for x in lines if "teleports in" in x)


FOUR_ALIENS = [
    ("a1", "xeno-delta-green", "J5"),
    ("a2", "xeno-delta-green", "J6"),
    ("a3", "xeno-gamma-green", "I5"),
    ("a4", "sentinels-green", "I6"),
]


def test_balancer_agents_minus_aliens() -> None:
    """6.3: teleport (agents in play - aliens in play) Signals: 3 agents, no alien, 3; one
    alien, 2; a Signal on the map does not count."""
    assert teleports("os-g1") == 3
    assert teleports("os-g1", aliens=[("a1", "xeno-delta-green", "J5")]) == 2
    assert teleports("os-g1", signal_at="J5") == 3


def test_balancer_agents_minus_aliens_and_signals() -> None:
    """6.3: teleport (agents - aliens - Signals): a Signal on the map counts."""
    assert teleports("os-h1") == 3
    assert teleports("os-h1", signal_at="J5") == 2


def test_balancer_never_below_zero() -> None:
    """6.3: minimum 0 (four aliens against three agents)."""
    assert teleports("os-g1", aliens=FOUR_ALIENS) == 0


def test_balancer_counts_real_agents_not_npcs() -> None:
    """6.3 note / 10: Event cards count only operative agents, never NPCs (os4's Knight)."""
    pair = ("marine", "biotech")
    assert teleports("os-g1", "os4", pair) == 2
    assert teleports("os-g1", "os4", pair, npcs=True) == 2
