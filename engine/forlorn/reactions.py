"""Reactions (10.0): the Xeno player answers a Marine action with a Mutation card.

She sets standing reaction rules in advance and changes them at any time (`orders` with an
order `react-...`; hidden information, like the hand): which held card to play at once after
which kind of Marine action, and after which kinds she wants to be asked. After a Marine move,
attack or act the engine first plays the cards her rules name for that kind (each reveals
itself, 1.5), then opens a window when her rules ask for that kind and the hand is not empty.

Issue 14: whether a window opens may not tell the Marines anything about the hidden hand. It
depends only on the kind of the public action, the hand's size (public) and her rules (her own
standing choice, never the cards), so two hands of one size open the same windows. The window's
public text is built from the action alone; the table waits on the `xeno` seat in private with
a default of `choose option:pass`. Only the seat's own legal actions name its cards. Playing a
card keeps the window open while the hand is not empty; passing closes it.

The table's `reactions` option starts her rules: `standing` (the default) asks after a Marine
attacks or moves into sight of a Xeno, where the Marine-phase cards fit; `on` asks after every
Marine action (the older tables, whose saves load with that rule); `off` never opens a window
and offers no rules.
"""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.errors import RuleError
from engine.core.events import Event, Note
from engine.core.game import Action
from engine.core.squaregrid import manhattan
from engine.forlorn.content import cards
from engine.forlorn.state import REACTION_KINDS, ForlornState, Reaction, ReactionRules, Unit
from engine.forlorn.world import has_los, sq
from engine.forlorn.xenoseat import card_actions, card_targets, fits, play_card, timing_text

PASS = Action(verb="choose", args={"option": "pass"}, label="Pass: let the Marines go on")
ATTACKS = ("spin", "grenade")
MARINE_ACTIONS = ("move", "attack", "act")  # orders and end-turn never open a window

# The kinds of Marine action a rule names, in words, and the card timings each one fits.
KINDS: dict[str, str] = {
    "sight": "a Marine moves into sight of a Xeno",
    "attack": "a Marine attacks",
    "move": "any other Marine move",
    "other": "any other Marine action",
}
KIND_MOMENTS: dict[str, tuple[str, ...]] = {
    "sight": ("marine-phase", "marine-sighted"),
    "attack": ("marine-phase", "marine-attack"),
    "move": ("marine-phase",),
    "other": ("marine-phase",),
}
ASK, DONT_ASK, PLAY, KEEP = "react-ask", "react-pass", "react-play-", "react-keep"
TARGET_WORDS = {
    "attack": " on the Xeno attacked (else the one nearest that Marine)",
    "sight": " on the nearest Xeno that just saw that Marine",
}
assert tuple(KINDS) == REACTION_KINDS


def rules_of(state: ForlornState) -> ReactionRules:
    """Her standing rules; a state with none set reads as asked after every Marine action
    (the older tables' windows). Only `set_rule` keeps them in the state."""
    return state.reaction_rules if state.reaction_rules is not None else ReactionRules()


def enabled(state: ForlornState) -> bool:
    """Reactions exist only against a human Xeno seat, and a table may switch them off."""
    return state.xeno_human and state.options.get("reactions", "on") != "off"


def in_sight_of(state: ForlornState, marine: Unit | None) -> set[str]:
    """The Xenos (not Eggs) that have the Marine in their line of sight."""
    if marine is None or marine.at is None or marine.status != "active":
        return set()
    here = sq(marine.at)
    return {
        x.id
        for x in state.active("xenos")
        if x.at is not None and x.kind != "egg" and has_los(state, sq(x.at), here, "xenos")
    }


def before(state: ForlornState, action: Action) -> set[str]:
    """What a move must be compared with: the Xenos that saw the moving Marine beforehand."""
    if action.verb != "move" or not enabled(state):
        return set()
    return in_sight_of(state, state.unit(action.args.get("unit", "")))


def moments_of(
    state: ForlornState, action: Action, seen: set[str]
) -> tuple[list[str], str, str, list[str]]:
    """What the Marine action just performed was: the card timings it fits, a public line
    saying it, its kind (KINDS) and the Xenos that newly saw the Marine (a move)."""
    uid = action.args.get("unit", "")
    marine = state.unit(uid)
    name = marine.name if marine else "The Marines"
    moments = ["marine-phase"]
    what = (action.args.get("what") or "").lower()
    new: list[str] = []
    if action.verb == "attack" or (action.verb == "act" and what in ATTACKS):
        moments.append("marine-attack")
        return moments, f"{name} attacked", "attack", new
    if action.verb == "move":
        new = sorted(in_sight_of(state, marine) - seen)
        where = marine.at if marine and marine.at else "?"
        text = f"{name} moved to {where}"
        if not new:
            return moments, text, "move", new
        moments.append("marine-sighted")
        names = ", ".join(u.name for u in (state.unit(i) for i in new) if u)
        return moments, f"{text}, into sight of {names}", "sight", new
    did = action.label or action.args.get("what", action.verb).replace("-", " ")
    return moments, f"{name} acted ({did})", "other", new


def _auto_target(
    state: ForlornState, card: str, kind: str, action: Action, new: list[str]
) -> str | None:
    """The target her standing rule names, in words (TARGET_WORDS); None: no Xeno can take it
    now, and the card stays in her hand."""
    options = card_targets(state, card)
    if options == [""]:
        return ""
    marine = state.unit(action.args.get("unit", ""))
    attacked = (action.args.get("target") or "").lower()
    if kind == "attack" and attacked in options:
        return attacked
    pool = [t for t in options if t in new] if kind == "sight" else options
    units = [u for u in (state.unit(t) for t in pool or options) if u is not None and u.at]
    if not units:
        return None
    here = sq(marine.at) if marine is not None and marine.at else None
    return min(units, key=lambda u: (manhattan(sq(u.at), here) if here else 0, u.id)).id


def after_marine_action(
    state: ForlornState, seat: str, action: Action, seen: set[str], dice: Dice
) -> list[Event]:
    """Play the cards her rules name for this kind of action, then open a window when her
    rules ask for it and the hand is not empty (never by the cards it holds)."""
    if not enabled(state) or state.phase != "marine" or action.verb not in MARINE_ACTIONS:
        return []
    if not state.mutation.hand:
        return []
    moments, text, kind, new = moments_of(state, action, seen)
    rules = rules_of(state)
    events: list[Event] = []
    for card in list(state.mutation.hand):
        if rules.play.get(card) != kind or card not in state.mutation.hand:
            continue
        target = _auto_target(state, card, kind, action, new)
        if target is None or not fits(card, moments):
            continue
        del rules.play[card]
        events += play_card(state, card, target or None, dice, moments)
        if state.phase != "marine":
            return events
    if kind in rules.ask and state.mutation.hand:
        state.reaction = Reaction(moments=moments, text=text, seat=seat)
    return events


def legal(state: ForlornState) -> list[Action]:
    if state.reaction is None:
        return []
    return [*card_actions(state, state.reaction.moments), PASS]


def apply(state: ForlornState, action: Action, dice: Dice) -> list[Event]:
    window = state.reaction
    assert window is not None
    if action.verb == "choose" and action.args.get("option", "").strip().lower() == "pass":
        state.reaction = None
        return []  # the turn post shows the Marines' turn again: nothing to tell
    if action.verb == "act" and (action.args.get("what") or "").strip().lower() == "card":
        card = (action.args.get("card") or "").strip().lower()
        events = play_card(
            state, card, action.args.get("target"), dice, window.moments, action.args.get("discard")
        )
        if state.phase != "marine" or not state.mutation.hand:
            state.reaction = None
        return events
    raise RuleError(
        "The Marines wait on your reaction: play a Mutation card, or pass and let them go on."
    )


# --- standing rules ----------------------------------------------------------------------


def _kinds_for(card: str) -> list[str]:
    return [k for k in KINDS if fits(card, list(KIND_MOMENTS[k]))]


def _card_rule_words(card: str, kind: str) -> str:
    title = cards()[card].title
    needs = card_targets_need(card)
    return f"play {title} at once after {KINDS[kind]}{TARGET_WORDS.get(kind, '') if needs else ''}"


def card_targets_need(card: str) -> bool:
    """Whether the card is played on a Xeno (her rule then says which one)."""
    return cards()[card].effect in ("shield", "frenzy", "hatch")


def rule_orders(state: ForlornState) -> list[Action]:
    """Her standing reaction rules as she may change them now (private: they name her cards)."""
    if not enabled(state) or state.phase == "over" or not state.mutation.hand:
        return []
    rules = rules_of(state)
    out: list[Action] = []
    for kind, words in KINDS.items():
        if kind in rules.ask:
            label = f"Reactions: don't ask me after {words}"
            out.append(Action(verb="orders", args={"order": DONT_ASK, "target": kind}, label=label))
        else:
            label = f"Reactions: ask me in private after {words}"
            out.append(Action(verb="orders", args={"order": ASK, "target": kind}, label=label))
    for card in state.mutation.hand:
        for kind in _kinds_for(card):
            if rules.play.get(card) != kind:
                out.append(
                    Action(
                        verb="orders",
                        args={"order": f"{PLAY}{kind}", "target": card},
                        label=f"Reactions: {_card_rule_words(card, kind)}",
                    )
                )
        if card in rules.play:
            label = f"Reactions: keep {cards()[card].title} (no play at once)"
            out.append(Action(verb="orders", args={"order": KEEP, "target": card}, label=label))
    return out


def set_rule(state: ForlornState, action: Action) -> list[Event]:
    """Change one standing reaction rule. Only she is told (the rules are hidden)."""
    if not enabled(state):
        raise RuleError("Reactions are off at this table: there are no reaction rules to set.")
    if state.phase == "over":
        raise RuleError("The operation is over.")
    order = (action.args.get("order") or "").strip().lower()
    target = (action.args.get("target") or "").strip().lower()
    rules = state.reaction_rules = rules_of(state).model_copy(deep=True)
    if order in (ASK, DONT_ASK):
        if target not in KINDS:
            raise RuleError(
                "Name the kind of Marine action (target): "
                + "; ".join(f"{k} ({w})" for k, w in KINDS.items())
                + "."
            )
        if order == ASK and target not in rules.ask:
            rules.ask = [k for k in KINDS if k in rules.ask or k == target]
        if order == DONT_ASK and target in rules.ask:
            rules.ask = [k for k in rules.ask if k != target]
    elif order.startswith(PLAY) or order == KEEP:
        if target not in state.mutation.hand:
            raise RuleError(f"'{target}' is not a Mutation card in your hand (target).")
        title = cards()[target].title
        if order == KEEP:
            if target not in rules.play:
                raise RuleError(f"No standing rule plays {title}: it is kept already.")
            del rules.play[target]
        else:
            kind = order.removeprefix(PLAY)
            if kind not in KINDS:
                raise RuleError(f"After which Marine action? One of: {', '.join(KINDS)}.")
            if kind not in _kinds_for(target):
                raise RuleError(
                    f"{title} cannot be played after {KINDS[kind]}, only {timing_text(target)}."
                )
            rules.play[target] = kind
    else:
        raise RuleError(
            "That is not a reaction rule: ask or don't ask after a kind of Marine action, "
            "or play a card at once after one (see the list of options)."
        )
    return [Note(text="Your standing reactions now: " + rules_text(state), visible_to=["xeno"])]


def rules_text(state: ForlornState) -> str:
    """Her standing reactions in words (her private view and her own notes only)."""
    rules = rules_of(state)
    asked = [KINDS[k] for k in KINDS if k in rules.ask]
    ask = (
        f"you are asked in private after {'; after '.join(asked)}"
        if asked
        else "you are never asked during the Marine phase"
    )
    plays = [_card_rule_words(c, k) for c, k in rules.play.items() if c in state.mutation.hand]
    return ask + (f"; {'; '.join(plays)}" if plays else "; no card is played at once") + "."


def private_lines(state: ForlornState) -> list[str]:
    """The rules as her own view shows them (nothing when reactions are off)."""
    if not enabled(state) or state.phase == "over":
        return []
    return ["Standing reactions: " + rules_text(state)]
