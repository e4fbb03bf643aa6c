"""The contract: `apply` accepts an action if and only if `legal_actions` lists it.

States come from self-play (random choices, seeded); candidates go beyond the legal list:
every verb crossed with the figures, squares and options the seat's view and legal list name,
plus a sample of the whole board. Deliberate exceptions (documented in docs/games/forlorn.md,
`game.FREE_ARGS`): a move's optional `facing` and a standing order's parameters are not
enumerated by the list; case and surrounding spaces do not matter.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.dice import SeededDice, derive_seed
from engine.core.errors import NotSupportedYet, RuleError
from engine.core.game import Action
from engine.forlorn import GAME
from engine.forlorn.board import label
from engine.forlorn.game import listed
from engine.forlorn.state import ForlornState
from engine.forlorn.world import board_of
from engine.selfplay import choose_action

TABLES = [
    ("solo-a", ["marines"], {}),
    ("solo-b", ["marines", "marines-2"], {}),
    ("op-01", ["marines", "xeno"], {"xeno": "human"}),
    ("op-02", ["marines", "xeno"], {"xeno": "human", "difficulty": "veteran"}),
    ("op-03", ["marines", "xeno"], {"xeno": "human"}),
    ("op-04", ["marines", "xeno", "marines-2"], {"xeno": "human"}),
]
WHATS = [
    "spin",
    "grenade",
    "open",
    "close",
    "unseal",
    "pickup",
    "drop",
    "give",
    "refuel",
    "clear-jam",
    "exit",
    "bot",
    "activate",
    "reroll-ap",
    "card",
    "burst",
    "grow",
    "close",
]
OPTIONS = ["keep", "pass", "auto", "reroll", "blaster", "warrior", "swap:m01", "cut:zac"]


def played(table: int, seed: int, steps: int) -> tuple[ForlornState, str]:
    scenario, seats, options = TABLES[table]
    state = GAME.new(scenario, seats, {"difficulty": "standard", **options}, SeededDice(seed))
    policy = SeededDice(derive_seed(seed, "policy"))
    seat = seats[0]
    for n in range(steps):
        state = GAME.advance(state, SeededDice(derive_seed(seed, n))).state
        prompt = GAME.waiting_on(state)
        if prompt.finished:
            break
        seat = prompt.seats[0]
        actions = GAME.legal_actions(state, seat)
        action = choose_action(actions, policy, n % 7)
        state = GAME.apply(state, seat, action, SeededDice(derive_seed(seed, n, "go"))).state
    state = GAME.advance(state, SeededDice(derive_seed(seed, "last"))).state
    prompt = GAME.waiting_on(state)
    return state, (prompt.seats[0] if prompt.seats else seats[0])


def vocabulary(state: ForlornState, seat: str, legal: list[Action]) -> dict[str, list[str]]:
    """Names the seat can see: figure ids, squares, and every value the legal list uses."""
    view = GAME.view(state, seat)
    figures = sorted({f.id for f in view.figures})
    values: dict[str, set[str]] = {}
    for action in legal:
        for key, value in action.args.items():
            values.setdefault(key, set()).add(value)
    board = board_of(state)
    squares = sorted({label(s) for s in board.floor})
    return {
        "unit": sorted({*figures, *values.get("unit", set())}),
        "target": sorted({*figures, *values.get("target", set()), "medkit", "mcgfn", "m05"}),
        "to": sorted({*values.get("to", set()), *squares, "N", "E", "S", "W", "3"}),
        "what": sorted({*WHATS, *values.get("what", set())}),
        "option": sorted({*OPTIONS, *values.get("option", set())}),
        "card": sorted({*values.get("card", set()), "m01", "m10", "m20"}),
        "weapon": ["", "flame", "pistol", "claws", "grenade"],
        "surge": ["", "yes", "no"],
        "discard": ["", *sorted(values.get("discard", set())), "m02"],
    }


@st.composite
def candidate(draw: Any, words: dict[str, list[str]]) -> Action:
    verb = draw(st.sampled_from(["move", "attack", "act", "end-turn", "choose", "orders"]))
    keys = {
        "move": ["unit", "to", "surge"],
        "attack": ["unit", "target", "weapon", "surge"],
        "act": ["unit", "what", "to", "target", "card", "discard", "surge"],
        "end-turn": ["unit"],
        "choose": ["option"],
        "orders": ["unit"],
    }[verb]
    args: dict[str, str] = {}
    for key in keys:
        if draw(st.booleans()) or key in ("what", "option", "to", "target"):
            value = draw(st.sampled_from(words[key]))
            if value:
                args[key] = value
    if verb == "orders":
        args["order"] = draw(st.sampled_from(["interrupt", "cancel"]))
    return Action(verb=verb, args=args)


def accepted(state: ForlornState, seat: str, action: Action) -> bool:
    try:
        GAME.apply(state, seat, action, SeededDice(derive_seed(7, action.command())))
    except RuleError:
        return False
    except NotSupportedYet:
        return False
    return True


@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    table=st.integers(0, len(TABLES) - 1),
    seed=st.integers(1, 10_000),
    steps=st.integers(0, 45),
    data=st.data(),
)
def test_apply_accepts_exactly_what_is_listed(
    table: int, seed: int, steps: int, data: st.DataObject
) -> None:
    state, seat = played(table, seed, steps)
    if state.phase == "over":
        return
    seats = {seat, "xeno"} if state.xeno_human else {seat}
    for who in sorted(seats):
        legal = GAME.legal_actions(state, who)
        words = vocabulary(state, who, legal)
        tried = [*legal[:: max(1, len(legal) // 15)]]
        tried += data.draw(st.lists(candidate(words), min_size=25, max_size=25))
        for action in tried:
            assert accepted(state, who, action) == listed(action, legal), (
                f"{who}: {action.command()} listed={listed(action, legal)}"
            )


def test_the_free_arguments_are_the_documented_ones() -> None:
    from engine.forlorn.game import FREE_ARGS

    assert FREE_ARGS == {
        "move": ("facing",),
        "orders": ("aps", "range", "spin", "weapon", "surge", "refuel"),
    }
