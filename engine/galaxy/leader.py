"""Alpha Agent Promotion: the players choose the round's leader together.

The rulebook has the players choose their leader among the Operative agents, and when they
cannot agree the class ranking (Marine, Biotech, Infiltrator, Sniper, Hulk) decides. We play
it as a proposal the table agrees to:

- Any Operative agent's player may propose an Operative agent (one `/choose` answer each).
- The others agree (answering with the same agent) or propose another; the proposer agrees
  with their own proposal. When every Operative agent's player agrees, the choice is made.
- An agent proposed and then passed over for another proposal is not proposed again, so the
  talk ends: with every agent proposed, what is left is to agree or to give up.
- "No agreement" is the rulebook's fallback, open to anyone at any time: the ranking names
  the Alpha Agent. It is also the question's default when its answer window closes.

The proposal lives in `Pending.data`: `proposed` (agents in the order proposed, the last one
standing) and `agreed` (the seats agreeing with it). An older save's vote has neither and
starts with no proposal.
"""

from __future__ import annotations

from engine.core.errors import RuleError
from engine.core.events import Event, Note
from engine.core.game import Action
from engine.galaxy.state import GalaxyState, Pending
from engine.galaxy.world import ALPHA_RANKING, agent_name, operative, seat_label

NO_AGREEMENT = "no-agreement"


def first_by_ranking(state: GalaxyState) -> str:
    """The rulebook's ranking order among the Operative agents (the fallback)."""
    alive = [a.id for a in operative(state)]
    ranked = [k for k in ALPHA_RANKING if k in alive]
    return ranked[0] if ranked else (alive[0] if alive else state.seats[0])


def open_vote(state: GalaxyState, options: list[str]) -> Pending:
    """The Strategy phase's question. `Pending.seat` names the first seat the vote waits on
    (kept up to date as players answer), for code that asks one seat."""
    ranked = sorted(options, key=_rank)
    first = next((a.id for a in operative(state)), state.seats[0])
    return Pending(kind="alpha", seat=first, options=ranked)


def _rank(agent: str) -> int:
    return ALPHA_RANKING.index(agent) if agent in ALPHA_RANKING else len(ALPHA_RANKING)


def _list(pending: Pending, key: str) -> list[str]:
    value = pending.data.get(key, [])
    return list(value) if isinstance(value, list) else []


def proposal(pending: Pending) -> str | None:
    """The agent proposed last (the one the table is asked to agree to), if any."""
    proposed = _list(pending, "proposed")
    return proposed[-1] if proposed else None


def agreed(pending: Pending) -> list[str]:
    return _list(pending, "agreed")


def voters(state: GalaxyState) -> list[str]:
    """The seats whose answer the vote waits on: every Operative agent's player who has not
    agreed to the standing proposal (all of them before the first proposal)."""
    pending = state.pending
    assert pending is not None
    done = set(agreed(pending))
    return [a.id for a in operative(state) if a.id not in done]


def ballot(state: GalaxyState, seat: str) -> list[Action]:
    """What a waiting seat may answer: agree to the proposal (first), propose an agent not
    proposed yet (by the ranking), or leave it to the ranking."""
    pending = state.pending
    assert pending is not None
    if seat not in voters(state):
        return []
    current = proposal(pending)
    proposed = set(_list(pending, "proposed"))
    actions: list[Action] = []
    if current is not None:
        actions.append(_answer(current, f"Agree: {seat_label(state, current)} leads"))
    for option in pending.options:
        if option not in proposed:
            actions.append(_answer(option, f"Propose {seat_label(state, option)}"))
    ranked = seat_label(state, first_by_ranking(state))
    actions.append(_answer(NO_AGREEMENT, f"No agreement: {ranked} by rank"))
    return actions


def _answer(option: str, label: str) -> Action:
    return Action(verb="choose", args={"option": option}, label=label)


def cast(state: GalaxyState, seat: str, option: str, events: list[Event]) -> None:
    """One player's answer: agreement, a new proposal, or no agreement (the ranking)."""
    pending = state.pending
    assert pending is not None
    wanted = option.lower()
    offered = {a.args["option"]: a for a in ballot(state, seat)}
    if wanted not in offered:
        names = ", ".join(a.label for a in offered.values())
        raise RuleError(f"That is not an answer to the Alpha Agent vote now. Answers: {names}.")
    who = seat_label(state, seat)
    if wanted == NO_AGREEMENT:
        _named(state, first_by_ranking(state))
        events.append(
            Note(
                text=f"{who} sees no agreement: by the class ranking, "
                f"{seat_label(state, state.alpha)} is the Alpha Agent."
            )
        )
        return
    if wanted == proposal(pending):
        pending.data["agreed"] = [*agreed(pending), seat]
        events.append(Note(text=f"{who} agrees: {seat_label(state, wanted)} to lead."))
    else:
        pending.data["proposed"] = [*_list(pending, "proposed"), wanted]
        pending.data["agreed"] = [seat]
        whom = "himself" if wanted == seat else seat_label(state, wanted)
        events.append(Note(text=f"{who} proposes {whom} as Alpha Agent."))
    waiting = voters(state)
    if waiting:
        pending.seat = waiting[0]
    else:
        _named(state, wanted)
        events.append(
            Note(text=f"Agreed by all: {agent_name(state.agents[wanted])} is the Alpha Agent.")
        )


def _named(state: GalaxyState, agent: str) -> None:
    state.pending = None
    state.alpha = agent


def vote_text(state: GalaxyState) -> str:
    """The question in words, with the standing proposal and who has agreed to it."""
    pending = state.pending
    assert pending is not None
    current = proposal(pending)
    if current is None:
        return (
            "Choose the Alpha Agent (acts first this round): any of you proposes an agent, "
            "the others agree."
        )
    yes = ", ".join(seat_label(state, s) for s in agreed(pending))
    return f"Alpha Agent: {seat_label(state, current)} is proposed (agreed: {yes})."
