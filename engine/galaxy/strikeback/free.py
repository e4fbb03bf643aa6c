"""The Free Action activity (6.2.1.1): an Action that is not limited to once per turn.

A Free Action follows the rules of the Action it stands for (who may do it, what it needs)
but spends no activity: it leaves `action_used` alone and does not end the Movement (ours:
the text makes it "free" and the Seize example uses one in the middle of a Movement). An agent
may take any number of them in his turn, before or after his Action.

Two kinds of rules give Free Actions, both here:

1. **New Free Action verbs** (a Power Suit's abilities, picking things up): a `FreeAction`
   in the registry below, with its own `/act what:` word.
2. **Actions that become free** for an agent in some condition: a predicate in `RULES`
   (`register_rule`), asked through `becomes_free(state, agent, what)` by the core Action
   path (`actions.do_act`, `legal.legal_acts`). The first is 9.7.3: from the Earth
   GD-Wings rank, basic and improved Tactics are Free Actions (still flipped face down).

A rule that gives a new Free Action verb registers it once, at import, as a `FreeAction`:

    free.register(FreeAction(key="pick-up", offers=..., problem=..., apply=...))

- `key`: the `/act what:` word (no clash with another action word);
- `offers(state, agent)`: every concrete argument set open to him now, each with its label
  (`legal_actions` lists exactly these);
- `problem(state, agent, args)`: why these arguments are refused (None when accepted); it must
  agree with `offers` (the legal-actions contract test checks it);
- `apply(state, agent, args, dice, events)`: do it (the problem is checked first).

The providing modules register at import; the composition (`strikeback/hooks.py`) imports them
all, so the registry is complete before any game asks for it. `legal` and `do` are the engine's
two hooks (`legal.py`, `game.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.core.dice import Dice
from engine.core.errors import RuleError
from engine.core.events import Event
from engine.core.game import Action
from engine.galaxy.state import AgentState, GalaxyState
from engine.galaxy.strikeback import wings
from engine.galaxy.strikeback.status import sb_state_or_none
from engine.galaxy.world import agent_name

Args = dict[str, str]
Rule = Callable[[GalaxyState, AgentState, str], bool]
RULES: list[Rule] = []


@dataclass(frozen=True)
class FreeAction:
    key: str
    offers: Callable[[GalaxyState, AgentState], list[tuple[Args, str]]]
    problem: Callable[[GalaxyState, AgentState, Args], str | None]
    apply: Callable[[GalaxyState, AgentState, Args, Dice, list[Event]], None]


_REGISTRY: dict[str, FreeAction] = {}


def register(action: FreeAction) -> FreeAction:
    existing = _REGISTRY.get(action.key)
    if existing is not None and existing != action:
        raise ValueError(f"Free Action {action.key!r} is registered twice")
    _REGISTRY[action.key] = action
    return action


def providers() -> dict[str, FreeAction]:
    """Every registered Free Action: its module registers it when the game is composed
    (`strikeback/hooks.py` imports the suits and every mission)."""
    return _REGISTRY


def is_free(what: str) -> bool:
    return what in providers()


def legal(state: GalaxyState, agent: AgentState) -> list[Action]:
    """Every Free Action open to the agent now (none outside the layer or off the map)."""
    if sb_state_or_none(state) is None or agent.hex is None:
        return []
    out: list[Action] = []
    for key, action in sorted(providers().items()):
        for args, text in action.offers(state, agent):
            out.append(Action(verb="act", args={"unit": agent.id, "what": key, **args}, label=text))
    return out


def do(
    state: GalaxyState,
    agent: AgentState,
    what: str,
    args: Args,
    dice: Dice,
    events: list[Event],
) -> None:
    action = providers()[what]
    if sb_state_or_none(state) is None:
        raise RuleError(f"{what} is an Operation Strikeback Free Action.")
    problem = action.problem(state, agent, args)
    if problem:
        raise RuleError(f"{agent_name(agent)} {problem}.")
    action.apply(state, agent, args, dice, events)


# -- Actions that become Free Actions (kind 2) ---------------------------------------------------


def register_rule(rule: Rule) -> Rule:
    RULES.append(rule)
    return rule


def becomes_free(state: GalaxyState, agent: AgentState, what: str) -> bool:
    """Whether the Action `/act what:<what>` is a Free Action for this agent now."""
    if sb_state_or_none(state) is None:
        return False
    return any(rule(state, agent, what) for rule in RULES)


@register_rule
def tactics_from_earth(state: GalaxyState, agent: AgentState, what: str) -> bool:
    """9.7.3: from the Earth GD-Wings rank, basic and improved Tactics are Free Actions."""

    return what in agent.tactics and wings.uses_table(state) and agent.rank >= wings.EARTH
