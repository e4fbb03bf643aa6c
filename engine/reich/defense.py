"""Defense Tests, rolled automatically during the Enemies' Turn.

Play-by-post cannot stop the Enemies' Turn for every roll, so each Hero's standing orders
decide in advance: a Special Result buys one more die (the only spend a Defense Test offers:
Drop Loot needs a kill, Cancel Overload a red die), except that Hans's Heavy Infantry takes its
+2 Successes on the first one unless his player ordered `heavy:dice`; Defense Modifier cards
are played while the Test would fail (orders `defend:cards`), and a Guardian in the Area
supports with one card when that would save the Hero (unless ordered `support:never`).
"""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.events import Note, Rolled
from engine.core.words import counted
from engine.reich import rules
from engine.reich.content import load_content
from engine.reich.dice import roll_die, show, total
from engine.reich.rules import Events
from engine.reich.state import Die, HeroState, ReichState
from engine.reich.words import card_name, modifier_words


def _mod(card: str) -> str:
    return load_content().cards[card.rsplit("-", 1)[0]].modifier or ""


def _spend_stars(pool: list[Die], hero: HeroState, state: dict[str, int], dice: Dice) -> None:
    skill = load_content().heroes[hero.key].skill
    while any(d.face == "star" and d.spent is None for d in pool):
        star = next(d for d in pool if d.face == "star" and d.spent is None)
        wants = hero.orders.get("heavy", "successes") == "successes"
        if skill == "heavy_infantry" and wants and not state.get("heavy"):
            star.spent = "heavy"
            state["heavy"] = 1
            state["bonus"] = state.get("bonus", 0) + 2
            continue
        star.spent = "extra"
        pool.append(roll_die(dice, "green"))


def defend(
    state: ReichState, hero: HeroState, attack: int, dice: Dice, ev: Events, who: str
) -> tuple[bool, int]:
    """Roll a Defense Test against `attack`; return (success, Successes)."""
    content = load_content()
    count = 2
    count += sum(1 for loot in hero.loot if content.loot[loot].effect == "defdice:1")
    count -= sum(1 for w in hero.wounds if content.wounds[w].permanent == "defence_minus1")
    count = max(1, count)
    extra: dict[str, int] = {"bonus": 0}
    if content.heroes[hero.key].skill == "steel_skin":
        extra["bonus"] += 1
    pool = [roll_die(dice, "green") for _ in range(count)]
    _spend_stars(pool, hero, extra, dice)
    ev.append(
        Rolled(
            figure=hero.key,
            purpose="defense",
            faces=show(pool),
            text=f"{hero.name} defends against {who} ({attack}): {', '.join(show(pool))}.",
        )
    )
    helpers: list[HeroState] = []
    if hero.orders.get("defend", "cards") == "cards" and rules.can_play_cards(hero):
        helpers.append(hero)
    for other in rules.heroes_in(state, hero.area or ""):
        if (
            other.key != hero.key
            and content.heroes[other.key].skill == "guardian"
            and rules.can_play_cards(other)
            and other.orders.get("support") != "never"
        ):
            helpers.append(other)
    for helper in helpers:
        cards = [c for c in helper.hand if _mod(c).split(":")[0] in ("defdice", "defsucc")]
        while cards and total(pool, extra["bonus"]) < attack:
            card = cards.pop(0)
            rules.discard_card(helper, card)
            kind, _, arg = _mod(card).partition(":")
            if kind == "defsucc":
                extra["bonus"] += int(arg)
            else:
                new = [roll_die(dice, "green") for _ in range(int(arg))]
                pool.extend(new)
                _spend_stars(pool, hero, extra, dice)
            ev.append(
                Note(
                    text=f"{helper.name} plays {card_name(card)} ({modifier_words(_mod(card))}): "
                    f"{total(pool, extra['bonus'])} Successes now."
                )
            )
            if helper.key != hero.key:
                break
    score = total(pool, extra["bonus"])
    ok = score >= attack
    ev.append(
        Note(
            text=f"{hero.name}: {counted(score, 'Success')} against {attack}: "
            f"{'defended' if ok else 'hit'}."
        )
    )
    return ok, score
