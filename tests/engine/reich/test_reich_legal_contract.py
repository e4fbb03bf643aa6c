"""The contract: `apply` accepts an action exactly when `legal_actions` lists it.

Hypothesis picks a mission, a seed, the number of players, a policy and how far to self-play;
at that state every seat is offered candidates built from every name the game shows: each
verb x Hero x Area x door x Enemy x ground item x card x Loot x weapon x option. A listed action
must be accepted; anything else must be refused with a `RuleError` (never another exception)
and change nothing (apply works on a copy, so the state passed in is compared afterwards).

Deliberate exceptions (documented in docs/games/reich.md):
- `apply` folds case and accepts `to:exit` for `EXIT`; candidates use the listed spelling.
- Dual Wielding pairs are listed for the first four targets only; candidates with `target2`
  are the listed pairs and a few unlisted ones, which must be refused.
"""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reich_helpers import play_to

from engine.core.dice import SeededDice, derive_seed
from engine.core.errors import RuleError
from engine.core.game import Action
from engine.reich import rules
from engine.reich.attack import weapons_of
from engine.reich.content import load_content
from engine.reich.game import ORDER_CHOICES, ReichGame
from engine.reich.state import ReichState

GAME = ReichGame()
WHATS = (
    "draw", "open", "pickup", "give", "take", "drop", "unjam", "vril", "sabotage", "play",
    "loot", "smoke", "suppress", "grenade", "heal", "discard", "remove", "react", "recover",
    "skip",
)  # fmt: skip
OPTIONS = (
    "roll", "done", "extra", "cancel", "loot", "quick_attack", "double_impact", "crowd_control",
    "rage", "accept", "decline", "hold",
)  # fmt: skip
SAMPLE = 160  # unlisted candidates tried per seat and state (all listed ones are tried)


def _key(action: Action) -> tuple[str, tuple[tuple[str, str], ...]]:
    return action.verb, tuple(sorted((k, v.lower()) for k, v in action.args.items()))


def candidates(state: ReichState, seat: str) -> list[Action]:
    """Every action a player could type, from the names the game shows."""
    board = rules.board(state)
    areas = [*board.areas, "EXIT"]
    doors = list(board.doors)
    enemies = [e.id for e in state.enemies] + ["nobody"]
    ground = [g.id for g in state.ground]
    heroes = list(state.hero_order)
    loot = sorted({c for h in state.heroes.values() for c in h.loot} | {"stick_grenade"})
    tokens = sorted({t for h in state.heroes.values() for t in h.carried} | {"keys"})
    hand = sorted({c for h in state.heroes.values() if h.seat == seat for c in h.hand})
    wounds = sorted({w for h in state.heroes.values() for w in h.wounds})
    out: list[Action] = [Action(verb="end-turn"), Action(verb="dance")]
    for option in OPTIONS:
        out.append(Action(verb="choose", args={"option": option}))
    for card in hand:
        out.append(Action(verb="choose", args={"option": f"card:{card}"}))
    for item in loot:
        out.append(Action(verb="choose", args={"option": f"loot:{item}"}))
    for enemy in enemies:
        out.append(Action(verb="choose", args={"option": f"burst:{enemy}"}))
        out.append(Action(verb="choose", args={"option": f"fire:{enemy}"}))
    for unit in heroes:
        hero = state.heroes[unit]
        weapons = [w.id for w in weapons_of(hero)]
        for topic, choices in ORDER_CHOICES.items():
            for choice in choices:
                out.append(Action(verb="orders", args={"unit": unit, "order": f"{topic}:{choice}"}))
        for to in areas:
            out.append(Action(verb="move", args={"unit": unit, "to": to}))
        for target, weapon in itertools.product(enemies, weapons):
            out.append(
                Action(verb="attack", args={"unit": unit, "target": target, "weapon": weapon})
            )
        for a, b in itertools.combinations(enemies[:-1], 2):
            args = {"unit": unit, "target": a, "target2": b, "weapon": weapons[0]}
            out.append(Action(verb="attack", args=args))
        targets: dict[str, list[dict[str, str]]] = {
            "draw": [{}],
            "skip": [{}],
            "open": [{"target": d} for d in doors],
            "pickup": [{"target": g} for g in ground]
            + [{"target": g, "drop": c} for g in ground for c in hero.loot],
            "give": [{"target": t, "to": o} for t in [*loot, *tokens] for o in heroes],
            "take": [{"target": t, "to": o} for t in [*loot, *tokens] for o in heroes],
            "drop": [{"target": c} for c in loot],
            "loot": [{"target": c} for c in loot],
            "unjam": [{"target": w} for w in weapons],
            "vril": [{"target": w} for w in weapons],
            "sabotage": [{"target": g} for g in ground],
            "play": [{"target": c} for c in hand],
            "discard": [{"target": c} for c in hand],
            "remove": [{"target": c} for c in hand],
            "react": [
                {"target": c, "to": e, "weapon": w} for c in hand for e in enemies for w in weapons
            ],
            "recover": [{"target": w} for w in wounds]
            + [{"target": f"{a}+{b}"} for a, b in itertools.combinations(wounds, 2)],
            "smoke": [{"to": a} for a in areas],
            "suppress": [{"to": a} for a in areas],
            "grenade": [{"to": a} for a in areas],
            "heal": [{"target": h} for h in heroes],
        }
        for what in WHATS:
            for more in targets[what]:
                out.append(Action(verb="act", args={"unit": unit, "what": what, **more}))
    return out


def check_contract(state: ReichState, seat: str, seed: int) -> int:
    legal = GAME.legal_actions(state, seat)
    listed = {_key(a) for a in legal}
    before = GAME.dump(state)
    unlisted = [c for c in candidates(state, seat) if _key(c) not in listed]
    picker = SeededDice(derive_seed(seed, "contract", seat))
    sample = [unlisted[picker.randrange(len(unlisted))] for _ in range(min(SAMPLE, len(unlisted)))]
    for action in legal:
        GAME.apply(state, seat, action, SeededDice(derive_seed(seed, action.command())))
    for action in sample:
        try:
            GAME.apply(state, seat, action, SeededDice(derive_seed(seed, action.command())))
        except RuleError:
            continue
        raise AssertionError(f"{seat}: apply accepted the unlisted {action.command()}")
    assert GAME.dump(state) == before
    return len(legal) + len(sample)


def reach(mission: str, seed: int, players: int, steps: int, advised: bool) -> ReichState:
    state = play_to(mission, seed, players, steps, advised)
    return GAME.advance(state, SeededDice(derive_seed(seed, "last"))).state


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mission=st.sampled_from(sorted(load_content().missions)),
    seed=st.integers(0, 10_000),
    players=st.integers(1, 4),
    steps=st.integers(0, 160),
    advised=st.booleans(),
)
def test_apply_accepts_exactly_the_listed_actions(
    mission: str, seed: int, players: int, steps: int, advised: bool
) -> None:
    state = reach(mission, seed, players, steps, advised)
    checked = sum(check_contract(state, seat, seed) for seat in state.seats)
    assert checked > 0 or state.phase == "ended"


def test_candidates_cover_a_fresh_mission() -> None:
    """The candidate builder names every listed action of a fresh mission (no blind spots)."""
    state = reach("radio-silence", 3, 2, 0, False)
    for seat in state.seats:
        names = {_key(c) for c in candidates(state, seat)}
        missing = [a.command() for a in GAME.legal_actions(state, seat) if _key(a) not in names]
        assert not missing
