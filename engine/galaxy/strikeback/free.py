"""The Free Action activity (6.2.1.1): it works like the Action and follows its rules, but
an agent may perform any number of them in his turn, before or after his Action.

`is_free(state, agent, what)` says whether `/act what:<what>` is a Free Action for this agent
now. The rules that make something free register here (`RULES`); the first is 9.7.3: from
the Earth rank on, basic and improved Tactics are Free Actions (they are still flipped face
down when used, as always). Other sections (a power suit's abilities) add their own rule with
`register`.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.galaxy.state import AgentState, GalaxyState

Rule = Callable[[GalaxyState, AgentState, str], bool]
RULES: list[Rule] = []


def register(rule: Rule) -> Rule:
    RULES.append(rule)
    return rule


def is_free(state: GalaxyState, agent: AgentState, what: str) -> bool:
    if state.strikeback is None:
        return False
    return any(rule(state, agent, what) for rule in RULES)


@register
def tactics_from_earth(state: GalaxyState, agent: AgentState, what: str) -> bool:
    """9.7.3: from the Earth GD-Wings rank, basic and improved Tactics are Free Actions."""
    from engine.galaxy.strikeback import wings

    return what in agent.tactics and wings.uses_table(state) and agent.rank >= wings.EARTH
