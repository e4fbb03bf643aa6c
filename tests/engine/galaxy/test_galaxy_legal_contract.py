"""The `legal_actions` contract: `apply` accepts a candidate if and only if it is listed.

Hypothesis picks a self-play state (random or advisor play, any mission, 1 to 5 agents) and
the test then tries far more than the legal list: every verb with every figure, hex and option
the state names (every hex of the board for a move, every figure as a target with every weapon,
every Action key with every target and every hex near the agent, every order), plus answers to
a pending choice and actions by seats that are not asked. Each candidate must be accepted
exactly when `legal_actions` lists it; a refusal must be a `RuleError` (never a crash).

Deliberate exceptions (documented in docs/games/galaxy.md, "The legal-actions contract"):
- apply ignores arguments an action does not take (`/act what:search target:x1` is a search),
  so an accepted candidate that is a listed action plus unused arguments is fine;
- an omitted argument takes its default (a healing card or ability heals the agent himself,
  a weapon argument means his first weapon, unjam uses the Combat), so an accepted candidate
  that becomes a listed action once the defaults are filled in is fine.
"""

from __future__ import annotations

from galaxy_contract import check_contract, reach_state
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.galaxy.content import content


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(1, 5),
    scenario=st.sampled_from(sorted(content().missions)),
    steps=st.integers(0, 160),
    advisor=st.booleans(),
    options=st.fixed_dictionaries(
        {
            "human-view": st.sampled_from(["on", "off"]),
            "friendly-fire": st.sampled_from(["off", "on"]),
            "close-fight": st.sampled_from(["off", "on"]),
            # Operation Strikeback's optional rules (they switch the expansion layer on)
            "high-impact": st.sampled_from(["off", "on"]),
            "fighting-poses": st.sampled_from(["off", "on"]),
            "npc-signals": st.sampled_from(["off", "on"]),
        }
    ),
)
def test_apply_accepts_exactly_the_legal_actions(
    seed: int, players: int, scenario: str, steps: int, advisor: bool, options: dict[str, str]
) -> None:
    check_contract(reach_state(scenario, seed, players, steps, advisor, options))
