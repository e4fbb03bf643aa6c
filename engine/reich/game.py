"""Reichbusters Reloaded as a Sortie game: setup, the round loop, and the protocol methods."""

from __future__ import annotations

from typing import Any

from engine.core.deck import Deck
from engine.core.dice import Dice, shuffle
from engine.core.errors import RuleError
from engine.core.events import Event, Note
from engine.core.game import Action, OptionInfo, Prompt, ScenarioInfo, Step
from engine.core.view import View
from engine.core.words import counted
from engine.reich import advisor, consent, reactions, rules, upkeep
from engine.reich import attack as atk
from engine.reich import heroes as hero_rules
from engine.reich.commando import commando, roles
from engine.reich.content import load_content
from engine.reich.dice import total
from engine.reich.enemies import enemy_turn
from engine.reich.state import (
    EnemyState,
    EnemyToken,
    GroundItem,
    HeroState,
    ReichState,
    WeaponState,
)
from engine.reich.view import build_view
from engine.reich.words import order_words

ORDER_CHOICES = {
    "support": ("never", "if-it-succeeds", "always"),
    "defend": ("cards", "no-cards"),
    "elusive": ("on", "off"),
    "react": ("fire", "ask", "hold"),
    "decoy": ("on", "off"),
    "implants": ("spare-wounds", "spare-hand"),
    "heavy": ("successes", "dice"),
}
# Orders that only a Hero with the named skill is given, and their value when never set.
SKILL_ORDERS = {"implants": "mech_implants", "heavy": "heavy_infantry"}
ORDER_DEFAULTS = {"implants": "spare-wounds", "heavy": "successes"}


def takes_order(hero: HeroState, topic: str) -> bool:
    """Skill-bound orders (Mech Implants' Wound choice) are offered to that skill's Hero only."""
    skill = SKILL_ORDERS.get(topic)
    return skill is None or load_content().heroes[hero.key].skill == skill


def fresh_copy(state: ReichState) -> ReichState:
    """An independent copy of the state: a dump and re-validation, about five times faster than
    `model_copy(deep=True)` (the state is plain data, so the two are equal)."""
    return ReichState.model_validate(state.model_dump())


class ReichGame:
    key = "reichbusters"
    title = "Reichbusters Reloaded"

    def scenarios(self) -> list[ScenarioInfo]:
        out = []
        for mission in sorted(load_content().missions.values(), key=lambda m: m.number):
            out.append(
                ScenarioInfo(
                    key=mission.key,
                    title=f"Mission {mission.number}: {mission.title}",
                    summary=mission.summary,
                    roles=roles(mission),
                    min_seats=1,
                    max_seats=4,
                    options=[
                        OptionInfo(
                            key="difficulty",
                            description="Objective the commando plays for",
                            choices=["cadet", "veteran", "legend"],
                            default="cadet",
                        )
                    ],
                )
            )
        return out

    # ------------------------------------------------------------------ setup

    def new(
        self, scenario: str, seats: list[str], options: dict[str, str], dice: Dice
    ) -> ReichState:
        content = load_content()
        if scenario not in content.missions:
            raise ValueError(f"Unknown mission '{scenario}'.")
        mission = content.missions[scenario]
        seats = [s.lower() for s in seats]
        heroes: dict[str, HeroState] = {}
        order = []
        for key, seat in commando(seats, mission):
            hdef = content.heroes[key]
            cards = [f"{tpl}-{key}{i}" for i, tpl in enumerate(hdef.deck, 1)]
            feats = [f"{tpl}-{key}" for tpl in hdef.feats]
            hero = HeroState(
                key=key,
                seat=seat,
                area=mission.start,
                deck=Deck.shuffled(f"{key} actions", cards, dice),
                weapons={w.id: WeaponState() for w in hdef.weapons},
                hand=feats,
            )
            hero.hand.extend(hero.deck.draw_many(2, dice))
            heroes[key] = hero
            order.append(key)
        pools = {str(k): shuffle(dice, v) for k, v in content.enemy_tokens.items()}
        tokens = []
        for index, place in enumerate(mission.tokens, 1):
            pool = pools[str(place.level)]
            tokens.append(
                EnemyToken(id=f"T{index}", area=place.area, level=place.level, letters=pool.pop())
            )
        loot = [lid for lid, ld in content.loot.items() if ld.basic for _ in range(ld.copies)]
        loot += mission.extra_loot
        state = ReichState(
            scenario=scenario,
            options=options,
            seats=seats,
            heroes=heroes,
            hero_order=order,
            enemy_tokens=tokens,
            token_reserve=pools,
            loot_deck=Deck.shuffled("loot", loot, dice),
            wound_deck=Deck.shuffled(
                "wounds", [w.id for w in content.wounds.values() for _ in range(w.copies)], dice
            ),
            reinforcement_deck=Deck.shuffled(
                "reinforcements", [c.id for c in content.reinforcements], dice
            ),
            tracker=1,
            discretion=mission.tracker.discretion,
            endgame=mission.tracker.endgame,
        )
        for index, extra in enumerate(mission.setup_enemies, 1):
            state.enemies.append(
                EnemyState(
                    id=f"{extra.enemy}{index + 90}",
                    type=extra.enemy,
                    area=extra.area,
                    active=False,
                    number=rules.next_number(state, extra.enemy),
                )
            )
        for index, tok in enumerate(mission.mission_tokens, 1):
            state.ground.append(GroundItem(id=f"M{index}", area=tok.area, kind=tok.kind))
        for area, card in sorted(mission.placed_loot.items()):
            rules.drop_loot(state, area, card, [])
        for area in mission.loot_face_up:
            rules.drop_loot(state, area, state.loot_deck.draw(dice), [])
        backs: dict[str, list[str]] = {}
        for acc in content.accessories.values():
            backs.setdefault(acc.back, []).append(acc.id)
        decks = {b: shuffle(dice, ids) for b, ids in backs.items()}
        for area, back in sorted(mission.accessories.items()):
            if decks.get(back):
                state.accessories[area] = decks[back].pop()
        rules.wake(state, dice, [])
        return state

    # ------------------------------------------------------------------ protocol

    def waiting_on(self, state: ReichState) -> Prompt:
        if state.phase == "ended":
            return Prompt(
                seats=[],
                kind="none",
                finished=True,
                outcome=state.outcome,
                text=f"Mission over: {state.outcome}.",
            )
        if state.request is not None:
            return consent.prompt(state)
        if state.reaction is not None:
            return reactions.prompt(state)
        if state.pending is not None:
            test = state.pending
            seat = state.heroes[test.hero].seat
            if test.stage == "build":
                text = f"{state.heroes[test.hero].name}: add Modifier dice, then roll."
            else:
                now = total(test.dice, test.bonus)
                text = (
                    f"{state.heroes[test.hero].name}: {counted(now, 'Success')} against "
                    f"{test.threshold}; "
                    "spend Special Results, play Modifiers, then finish."
                )
            return Prompt(seats=[seat], kind="choice", text=text)
        if state.phase == "upkeep":
            return upkeep.prompt(state)
        if state.phase != "heroes":
            return Prompt(seats=[], kind="none", text="The Enemies are moving.")
        # A seat whose Heroes have all left through the Exit has nothing left to do: it is not
        # waited on from the moment the last one leaves (advance then ends its turn).
        seats = [
            s for s in state.seats if s not in state.ended_seats and not self._seat_gone(state, s)
        ]
        if not seats:
            return Prompt(seats=[], kind="none", text="The Heroes' Turn is over.")
        return Prompt(seats=seats, kind="turn", text="Heroes' Turn: act in any order, then end.")

    def legal_actions(self, state: ReichState, seat: str) -> list[Action]:
        prompt = self.waiting_on(state)
        if seat not in prompt.seats:
            return []
        if state.request is not None:
            return consent.actions(state)
        if state.reaction is not None:
            return reactions.actions(state)
        asked = upkeep.asked(state)
        if asked is not None:
            return upkeep.choices(state, asked)
        if state.pending is not None:
            return [
                Action(verb="choose", args={"option": key}, label=label)
                for key, label in atk.options(state)
            ]
        out: list[Action] = []
        for key in state.hero_order:
            hero = state.heroes[key]
            if hero.seat == seat:
                out.extend(hero_rules.hero_actions(state, hero))
                if hero.area is not None:
                    for topic, choices in ORDER_CHOICES.items():
                        if not takes_order(hero, topic):
                            continue
                        now = hero.orders.get(topic, ORDER_DEFAULTS.get(topic))
                        for choice in choices:
                            if choice != now:
                                out.append(
                                    Action(
                                        verb="orders",
                                        args={"unit": key, "order": f"{topic}:{choice}"},
                                        label=f"{state.heroes[key].name}: standing order "
                                        f"{order_words(topic, choice)}",
                                    )
                                )
        if not any(
            state.heroes[k].grants for k in state.hero_order if state.heroes[k].seat == seat
        ):
            out.append(Action(verb="end-turn", label="End your Heroes' Turn"))
        return out

    def apply(self, state: ReichState, seat: str, action: Action, dice: Dice) -> Step[ReichState]:
        if state.phase == "ended":
            raise RuleError("The mission is over.")
        new = fresh_copy(state)
        seat = seat.lower()
        ev: list[Event] = []
        prompt = self.waiting_on(new)
        if seat not in prompt.seats:
            if new.request is not None or new.reaction is not None:
                raise RuleError(f"Waiting for {', '.join(prompt.seats)}: {prompt.text}")
            raise RuleError(f"It is not {seat}'s moment to act.")
        if new.request is not None:
            if action.verb != "choose":
                raise RuleError(f"First answer the request: {prompt.text}")
            consent.answer(new, action.args.get("option", ""), ev)
        elif new.reaction is not None:
            if action.verb != "choose":
                raise RuleError(f"First answer the Reaction: {prompt.text}")
            reactions.answer(new, action.args.get("option", ""), dice, ev)
        elif new.phase == "upkeep":
            if action.verb != "choose":
                raise RuleError(f"First answer the Upkeep question: {prompt.text}")
            upkeep.answer(new, action.args.get("option", ""), ev)
        elif new.pending is not None:
            if action.verb != "choose":
                raise RuleError("An Attack Test is waiting: use /choose to continue it.")
            hero = new.heroes[new.pending.hero]
            before = hero_rules.aware_pairs(new)
            existing = {e.id for e in new.enemies}
            inactive = {e.id for e in new.enemies if not e.active}
            used = list(new.awareness_used)
            atk.choose(new, action.args.get("option", ""), dice, ev)
            if new.pending is None:
                hero_rules.after_grant(new, hero, dice, ev)
                hero_rules.awareness(new, before, existing, dice, ev)
            seen = hero_rules.spotted_now(new, existing, inactive, used)
            new.spotted += [e for e in seen if e not in new.spotted]
        elif action.verb == "end-turn":
            mine = [new.heroes[k] for k in new.hero_order if new.heroes[k].seat == seat]
            if any(h.grants for h in mine):
                raise RuleError("Use or skip your pending card effects before ending the turn.")
            new.ended_seats.append(seat)
            who = new.heroes[seat].name if seat in new.heroes else seat
            ev.append(Note(text=f"{who} ends the Heroes' Turn."))
        elif action.verb == "orders":
            ordered = new.heroes.get(action.args.get("unit", "").lower())
            if ordered is None or ordered.seat != seat:
                raise RuleError("Give orders to one of your own Heroes.")
            topic, _, choice = action.args.get("order", "").strip().lower().partition(":")
            if choice not in ORDER_CHOICES.get(topic, ()):
                raise RuleError(
                    "Orders are support:never|if-it-succeeds|always, defend:cards|no-cards, "
                    "elusive:on|off, react:fire|ask|hold, decoy:on|off, "
                    "implants:spare-wounds|spare-hand (Bochka), heavy:successes|dice (Hans)."
                )
            if not takes_order(ordered, topic):
                raise RuleError(f"{ordered.name} has no skill that this order steers.")
            if ordered.area is None:
                raise RuleError(f"{ordered.name} has left the board: no orders to give.")
            if ordered.orders.get(topic, ORDER_DEFAULTS.get(topic)) == choice:
                raise RuleError(
                    f"{ordered.name}'s standing order is already {order_words(topic, choice)}."
                )
            ordered.orders[topic] = choice
            ev.append(
                Note(
                    text=f"{ordered.name}'s standing order: {order_words(topic, choice)}.",
                    visible_to=[seat],
                )
            )
        elif action.verb in ("move", "attack", "act"):
            hero_rules.apply_hero(new, seat, action, dice, ev)
        else:
            raise RuleError(f"Unknown command /{action.verb}.")
        rules.check_end(new, ev)
        return Step(state=new, events=ev)

    def advance(self, state: ReichState, dice: Dice) -> Step[ReichState]:
        if state.phase == "ended" or state.pending is not None or state.request is not None:
            return Step(state=state, events=[])
        if state.reaction is not None:
            return Step(state=state, events=[])
        if state.phase == "heroes" and not self._turn_may_end(state):
            return Step(state=state, events=[])  # the common case: no copy needed
        new = fresh_copy(state)
        ev: list[Event] = []
        changed = False
        for _ in range(200):
            if new.phase == "upkeep":
                if upkeep.asked(new) is not None:
                    break  # a player chooses a free Pick Up
                changed = True
                upkeep.finish(new, dice, ev)
                if new.phase == "ended":
                    break
            for seat in new.seats:
                mine = [new.heroes[k] for k in new.hero_order if new.heroes[k].seat == seat]
                if seat not in new.ended_seats and all(h.area is None for h in mine):
                    new.ended_seats.append(seat)
                    changed = True
            if new.phase == "heroes" and all(s in new.ended_seats for s in new.seats):
                new.phase = "enemies"
            if new.phase != "enemies":
                break
            changed = True
            enemy_turn(new, dice, ev)
            rules.check_end(new, ev)  # a Reaction may have met an objective
            if new.reaction is not None and new.phase != "ended":
                break  # a player decides whether to fire a Reaction
            if new.phase != "ended":
                upkeep.begin(new, dice, ev)
        if not changed:
            return Step(state=state, events=[])
        return Step(state=new, events=ev)

    @staticmethod
    def _seat_gone(state: ReichState, seat: str) -> bool:
        """Whether every Hero of `seat` is off the board (left through the Exit)."""
        return all(
            state.heroes[k].area is None for k in state.hero_order if state.heroes[k].seat == seat
        )

    @classmethod
    def _turn_may_end(cls, state: ReichState) -> bool:
        """Whether `advance` has anything to do in the Heroes' Turn: a seat whose Heroes are all
        off the board is ended for it, and the turn ends once every seat has ended it."""
        return all(seat in state.ended_seats or cls._seat_gone(state, seat) for seat in state.seats)

    def advise(self, state: ReichState, seat: str, actions: list[Action]) -> Action | None:
        """Purposeful play for self-play's `--policy advisor` (see `advisor.py`)."""
        return advisor.advise(state, seat, actions)

    def view(self, state: ReichState, seat: str | None) -> View:
        return build_view(state, seat, self.waiting_on(state).seats)

    def dump(self, state: ReichState) -> dict[str, Any]:
        return state.model_dump(mode="json")

    def load(self, data: dict[str, Any]) -> ReichState:
        return ReichState.model_validate(data)
