"""Shared rule helpers: sight, range, occupancy, Noise and the Alarm, spawning, Wounds."""

from __future__ import annotations

from collections.abc import Callable

from engine.core.dice import Dice
from engine.core.events import Event, MissionEnded, Note, Revealed, Spawned, Wounded
from engine.core.words import counted
from engine.reich.board import Board, build_board
from engine.reich.content import Behavior, EnemyDef, Limb, MissionDef, load_content
from engine.reich.state import EnemyState, GroundItem, HeroState, ReichState
from engine.reich.words import wound_name

Events = list[Event]


def mission(state: ReichState) -> MissionDef:
    return load_content().missions[state.scenario]


def board(state: ReichState) -> Board:
    return build_board(state.scenario)


# ---------------------------------------------------------------- profiles


def profile(enemy: EnemyState) -> EnemyDef:
    return load_content().enemies[enemy.type]


def behavior(enemy: EnemyState) -> Behavior | None:
    base = profile(enemy)
    if base.behaviors:
        return base.behaviors[min(enemy.behavior, len(base.behaviors) - 1)]
    return None


def keywords(enemy: EnemyState) -> list[str]:
    b = behavior(enemy)
    return list(b.keywords) if b else list(profile(enemy).keywords)


def defense(enemy: EnemyState) -> int:
    b = behavior(enemy)
    return b.defense if b else profile(enemy).defense


HEAT_BONUS = 2  # Turn Up the Heat!: Attack Value added to an Experiment (our number)
REINFORCE_BONUS = 1  # Reinforce!: Defense Value added to a Techno Enemy (our number)
DOMINATION_BONUS = 2  # Domination!: Attack Value added to an Alien Enemy (our number)


def dominated(state: ReichState, enemy: EnemyState) -> bool:
    """An Alien is controlled while any Active Enemy with Domination! is on the board."""
    return "alien" in profile(enemy).subtitles and any(
        o.id != enemy.id and o.active and "domination" in keywords(o) for o in state.enemies
    )


def active_limbs(enemy: EnemyState) -> list[Limb]:
    """The limbs of a Berserk Enemy still Active: a limb goes Inactive at its `lost_at` Wound."""
    if "berserk" not in keywords(enemy):
        return []
    return [limb for limb in profile(enemy).limbs if enemy.wounds < limb.lost_at]


def helped_by(state: ReichState, enemy: EnemyState, keyword: str) -> bool:
    """Another Active Enemy with `keyword` shares the Area or has sight of this one."""
    return any(
        o.id != enemy.id
        and o.active
        and keyword in keywords(o)
        and (o.area == enemy.area or enemy_sight(state, o.area, enemy.area))
        for o in state.enemies
    )


def defense_in(state: ReichState, enemy: EnemyState) -> int:
    """Defense Value on the board: Techno Enemies gain Reinforce! from an Engineer in sight."""
    value = defense(enemy)
    if "techno" in profile(enemy).subtitles and helped_by(state, enemy, "reinforce"):
        value += REINFORCE_BONUS
    return value


def life(enemy: EnemyState) -> int:
    b = behavior(enemy)
    return b.life if b else profile(enemy).life


def move_value(enemy: EnemyState) -> int:
    b = behavior(enemy)
    return b.move if b else profile(enemy).move


def melee_profile(enemy: EnemyState) -> tuple[int, int] | None:
    b = behavior(enemy)
    return b.melee if b else profile(enemy).melee


def ranged_profile(enemy: EnemyState) -> tuple[int, int, int] | None:
    b = behavior(enemy)
    return b.ranged if b else profile(enemy).ranged


# ---------------------------------------------------------------- figures and areas


def heroes_on_board(state: ReichState) -> list[HeroState]:
    return [state.heroes[k] for k in state.hero_order if state.heroes[k].area is not None]


def heroes_in(state: ReichState, area: str) -> list[HeroState]:
    return [h for h in heroes_on_board(state) if h.area == area]


def enemies_in(state: ReichState, area: str, active_only: bool = False) -> list[EnemyState]:
    return [e for e in state.enemies if e.area == area and (e.active or not active_only)]


def find_enemy(state: ReichState, eid: str) -> EnemyState | None:
    return next((e for e in state.enemies if e.id == eid), None)


def occupancy(state: ReichState, area: str) -> int:
    return len(heroes_in(state, area)) + len(enemies_in(state, area))


def has_room(state: ReichState, area: str, extra: int = 1) -> bool:
    return occupancy(state, area) + extra <= board(state).capacity(area)


def graph_distances(state: ReichState, start: str) -> dict[str, int]:
    return dict(board(state).graph(state.open_doors).distances(start))


def adjacent(state: ReichState, area: str) -> list[str]:
    return board(state).graph(state.open_doors).adjacent(area)


def hero_sight(state: ReichState, a: str, b: str, accurate: bool = False) -> bool:
    """Line of Sight for a Hero: Areas holding Enemy miniatures block it (unless Accurate)."""
    if a in state.smoke or b in state.smoke:
        return False
    enemy_areas = {e.area for e in state.enemies}

    def blocked(x: str) -> bool:
        return x in state.smoke or (not accurate and x in enemy_areas)

    return board(state).sight(a, b, set(state.open_doors), blocked)


def enemy_sight(state: ReichState, a: str, b: str, through_smoke: bool = False) -> bool:
    """Line of Sight for an Enemy: Areas holding Hero miniatures block it.

    `through_smoke` is for Relentless Enemies, which ignore tokens.
    """
    smoke = set() if through_smoke else set(state.smoke)
    if a in smoke or b in smoke:
        return False
    hero_areas = {h.area for h in heroes_on_board(state)}

    def blocked(x: str) -> bool:
        return x in smoke or x in hero_areas

    return board(state).sight(a, b, set(state.open_doors), blocked)


def sight_range(
    state: ReichState,
    a: str,
    b: str,
    hero_side: bool,
    accurate: bool = False,
    through_smoke: bool = False,
) -> int:
    """Borders crossed along the shortest clear straight line (0 in the same Area)."""
    if a == b:
        return 0
    smoke = set() if through_smoke else set(state.smoke)
    side_block = (
        {e.area for e in state.enemies} if hero_side else {h.area for h in heroes_on_board(state)}
    )
    if hero_side and accurate:
        side_block = set()
    best = 99
    for line in board(state).lines.get((a, b), ()):
        if line.doors <= set(state.open_doors) and not any(
            x in smoke or x in side_block for x in line.between
        ):
            best = min(best, len(line.between) + 1)
    return best


# ---------------------------------------------------------------- Noise and the Alarm


def make_noise(state: ReichState, noise: int, explosion: bool, dice: Dice, ev: Events) -> None:
    """Move the Discretion token back, or trigger the alarm (Pre-Alarm phase only)."""
    if state.alarm:
        return
    if explosion:
        ev.append(Note(text="An explosion echoes through the base!"))
        trigger_alarm(state, dice, ev)
        return
    if noise <= 0:
        return
    state.discretion -= noise
    ev.append(Note(text=f"Noise: the Discretion token moves back {noise} to {state.discretion}."))
    if state.discretion <= state.tracker:
        trigger_alarm(state, dice, ev)


def trigger_alarm(state: ReichState, dice: Dice, ev: Events) -> None:
    if state.alarm:
        return
    state.alarm = True
    ev.append(Note(text="ALARM! The base is on alert; reinforcements will arrive every turn."))
    for token in sorted(state.enemy_tokens, key=lambda t: (closest_hero(state, t.area), t.id)):
        if token in state.enemy_tokens:
            spawn_token(state, token.id, dice, ev)
    for enemy in state.enemies:
        if not enemy.active:
            enemy.active = True
            ev.append(Revealed(figure=enemy.id, at=enemy.area, text=f"{enemy.name} is alerted."))


def closest_hero(state: ReichState, area: str) -> int:
    """Range to the nearest Hero: Area borders crossed, a door (open or not) counting as one.

    The Alarm turns tokens over closest first by Range, and Range counts borders, so a closed
    door is a border like any other here (it only blocks movement and sight)."""
    dist = dict(board(state).graph(list(board(state).doors)).distances(area))
    values = [dist[h.area] for h in heroes_on_board(state) if h.area in dist]
    return min(values, default=99)


# ---------------------------------------------------------------- spawning


def letter_type(state: ReichState, letter: str) -> str | None:
    for line in mission(state).card:
        if line.letter == letter:
            return line.enemy
    return None


def reserve_left(state: ReichState, etype: str) -> int:
    used = sum(1 for e in state.enemies if e.type == etype)
    return load_content().enemies[etype].count - used


def place_area(state: ReichState, area: str) -> str:
    """The Area a new miniature appears in: `area`, or the nearest one with room."""
    if has_room(state, area):
        return area
    every_door = list(board(state).doors)
    dist = dict(board(state).graph(every_door).distances(area))
    for there in sorted(dist, key=lambda a: (dist[a], a)):
        if has_room(state, there):
            return there
    return area


def next_number(state: ReichState, etype: str) -> int:
    """The number the next Enemy of `etype` is called by: one more than the last to appear."""
    state.appeared[etype] = state.appeared.get(etype, 0) + 1
    return state.appeared[etype]


def spawn_enemy(state: ReichState, etype: str, area: str, ev: Events, why: str) -> bool:
    if reserve_left(state, etype) <= 0:
        ev.append(
            Note(
                text=f"No {load_content().enemies[etype].name} left in the Enemy Reserve; "
                "the letter is ignored."
            )
        )
        return False
    at = place_area(state, area)
    eid = f"{etype}{state.next_id}"
    state.next_id += 1
    state.enemies.append(EnemyState(id=eid, type=etype, area=at, number=next_number(state, etype)))
    name = state.enemies[-1].name
    ev.append(Spawned(figure=eid, at=at, text=f"{name} appears in {at} ({why})."))
    if "augen_handler" in load_content().enemies[etype].keywords:
        spawn_enemy(state, "augen", at, ev, f"led by {name}")
    return True


def spawn_letters(state: ReichState, letters: str, area: str, ev: Events, why: str) -> None:
    for letter in letters:
        etype = letter_type(state, letter)
        if etype is None:
            ev.append(Note(text=f"Letter {letter} is not on the Mission card; ignored."))
            continue
        spawn_enemy(state, etype, area, ev, why)


def letters_named(state: ReichState, letters: str) -> str:
    """`CDE` -> `C Soldier, D Soldier, E Zombie`: each letter with the Mission card's type."""
    named = []
    for letter in letters:
        etype = letter_type(state, letter)
        named.append(f"{letter} {load_content().enemies[etype].name}" if etype else letter)
    return ", ".join(named) or "nothing"


def spawn_token(state: ReichState, token_id: str, dice: Dice, ev: Events) -> None:
    token = next(t for t in state.enemy_tokens if t.id == token_id)
    state.enemy_tokens.remove(token)
    ev.append(
        Revealed(
            figure=token.id,
            at=token.area,
            text=f"Enemy token {token.id} (level {token.level}) turns over: "
            f"{letters_named(state, token.letters)}.",
        )
    )
    spawn_letters(state, token.letters, token.area, ev, f"token {token.id}")


def wake(state: ReichState, dice: Dice, ev: Events) -> None:
    """Flip every Inactive Enemy that sees a Hero or an Active Enemy; repeat until stable.

    Also turns over face-down Area Accessory cards that a Hero can see.
    """
    changed = True
    while changed:
        changed = False
        hero_areas = {h.area for h in heroes_on_board(state) if h.area}
        active_areas = {e.area for e in state.enemies if e.active}
        for token in sorted(state.enemy_tokens, key=lambda t: (closest_hero(state, t.area), t.id)):
            if any(enemy_sight(state, token.area, a) for a in hero_areas | active_areas):
                spawn_token(state, token.id, dice, ev)
                changed = True
                break
        if changed:
            continue
        for enemy in state.enemies:
            if not enemy.active and any(
                enemy_sight(state, enemy.area, a) for a in hero_areas | (active_areas - {None})
            ):
                enemy.active = True
                ev.append(Revealed(figure=enemy.id, at=enemy.area, text=f"{enemy.name} wakes up."))
                changed = True
        for area in sorted(state.accessories):
            if any(hero_sight(state, h, area) for h in hero_areas):
                reveal_accessory(state, area, dice, ev)
                changed = True


def reveal_accessory(state: ReichState, area: str, dice: Dice, ev: Events) -> None:
    card_id = state.accessories.pop(area)
    card = load_content().accessories[card_id]
    ev.append(Revealed(figure=card_id, at=area, text=f"Area Accessory in {area}: {card.name}."))
    kind, _, arg = card.effect.partition(":")
    if kind == "loot":
        for _ in range(int(arg)):
            if state.loot_deck.draw_pile or state.loot_deck.discard_pile:
                drop_loot(state, area, state.loot_deck.draw(dice), ev)
    elif kind == "spawn":
        etype, _, count = arg.partition(":")
        biscuits = [h for h in heroes_on_board(state) if "dog_biscuits" in h.loot]
        if biscuits and etype == "dog":
            biscuits[0].loot.remove("dog_biscuits")
            state.loot_deck.discard("dog_biscuits")
            ev.append(Note(text=f"{biscuits[0].key} throws Dog Biscuits: the kennels stay quiet."))
        else:
            for _ in range(int(count)):
                spawn_enemy(state, etype, area, ev, card.name)
    if not card.consumable:
        state.accessories_up[area] = card_id


def drop_loot(state: ReichState, area: str, card: str, ev: Events) -> None:
    gid = f"L{state.next_id}"
    state.next_id += 1
    state.ground.append(GroundItem(id=gid, area=area, card=card, face_up=True))
    name = load_content().loot[card].name
    ev.append(Note(text=f"Loot card {name} ({gid}) lies face up in {area}."))


# ---------------------------------------------------------------- Hero wounds


def hand_limit(hero: HeroState) -> int | None:
    content = load_content()
    if any(content.wounds[w].permanent == "handlimit5" for w in hero.wounds):
        return 5
    return None


def can_play_cards(hero: HeroState) -> bool:
    """Down Heroes, a "no cards" Wound, and a hand still over its limit play no cards."""
    content = load_content()
    return (
        not hero.down
        and "discard" not in hero.grants
        and "lose" not in hero.grants
        and not any(content.wounds[w].permanent == "nocards" for w in hero.wounds)
    )


def discard_card(hero: HeroState, card: str) -> None:
    hero.hand.remove(card)
    hero.deck.discard(card)


def hand_note(ev: Events, hero: HeroState, public: str, private: str) -> None:
    """A line about a hand card: the card's name goes to its own seat only."""
    ev.append(Note(text=public))
    ev.append(Note(text=private, visible_to=[hero.seat]))


def enforce_hand_limit(state: ReichState, hero: HeroState, ev: Events) -> None:
    """A Wound's hand limit holds as long as the Wound is kept: check it after every draw.

    The player picks the cards to discard: each extra card queues a `discard` effect at the
    head of the Hero's effects (answered with `act what:discard target:<card>` in the Heroes'
    Turn); until then the Hero plays no cards (`can_play_cards`), so the extra cards give
    nothing in between, e.g. on a Defense Test in the Enemies' Turn.
    """
    limit = hand_limit(hero)
    if limit is None or hero.down:
        return
    excess = len(hero.hand) - limit - hero.grants.count("discard")
    if excess <= 0:
        return
    hero.grants[0:0] = ["discard"] * excess
    ev.append(
        Note(
            text=f"{hero.name} is over the five-card hand limit: "
            f"discard {counted(excess, 'card')} first."
        )
    )


def draw_actions(
    hero: HeroState, count: int, dice: Dice, ev: Events, state: ReichState | None = None
) -> None:
    """Draw Action cards; with `state`, a Wound's hand limit is checked afterwards."""
    drawn = []
    for _ in range(count):
        if not hero.deck.draw_pile and not hero.deck.discard_pile:
            break
        drawn.append(hero.deck.draw(dice))
    hero.hand.extend(drawn)
    if drawn:
        ev.append(
            Note(
                text=f"{hero.name} draws {counted(len(drawn), 'Action card')}.",
                visible_to=[hero.seat],
            )
        )
    if state is not None:
        enforce_hand_limit(state, hero, ev)


def wound_hero(
    state: ReichState,
    hero: HeroState,
    damage: int | None,
    dice: Dice,
    ev: Events,
    permanent: bool = False,
    immediate: bool = True,
) -> bool:
    """Draw a Wound card; return True when it became permanent.

    `damage` is the Damage Points of a failed Defense Test (compared with the card threshold);
    `permanent=True` (Overload, grenades) keeps the card and applies only its bottom effect.
    """
    content = load_content()
    if not state.wound_deck.draw_pile and not state.wound_deck.discard_pile:
        ev.append(Note(text=f"No Wound card is left to draw for {hero.name}."))
        if not hero.down and (permanent or damage is not None):
            go_down(state, hero, dice, ev)
        return False
    card_id = state.wound_deck.draw(dice)
    if (
        content.heroes[hero.key].skill == "mech_implants"
        and not hero.down
        and not permanent
        and damage is not None
        and (state.wound_deck.draw_pile or state.wound_deck.discard_pile)
    ):
        other = state.wound_deck.draw(dice)
        pair = sorted([card_id, other], key=_implants_preference(hero, damage))
        card_id = pair[0]
        state.wound_deck.discard(pair[1])
        ev.append(
            Note(
                text=f"{hero.name}'s Mech Implants: keeps {wound_name(card_id)}, "
                f"discards {wound_name(pair[1])}."
            )
        )
    card = content.wounds[card_id]
    if hero.down:
        hero.wounds.append(card_id)
        ev.append(
            Wounded(figure=hero.key, amount=1, text=f"{hero.name} is Down and keeps {card.name}.")
        )
        return True
    if immediate and not permanent:
        apply_immediate(state, hero, card.immediate, ev)
    keep = permanent or (damage is not None and damage >= card.threshold)
    if keep:
        hero.wounds.append(card_id)
        ev.append(
            Wounded(
                figure=hero.key,
                amount=1,
                remaining=max(0, 4 - len(hero.wounds)),
                text=f"{hero.name} takes a permanent Wound: {card.name}.",
            )
        )
        enforce_hand_limit(state, hero, ev)
        if len(hero.wounds) >= 4:
            go_down(state, hero, dice, ev)
    else:
        state.wound_deck.discard(card_id)
        ev.append(
            Wounded(
                figure=hero.key,
                amount=0,
                text=f"{hero.name} draws {card.name}; {damage} damage is under its threshold "
                f"{card.threshold}, so it is discarded.",
            )
        )
    return keep


def _implants_preference(hero: HeroState, damage: int) -> Callable[[str], tuple[bool, ...]]:
    """Mech Implants: the player's choice of Wound card, made in advance by standing order
    (the Defense Test rolls in the Enemies' Turn). `spare-wounds` (default) keeps the card that
    will not stay (threshold above the damage), then one with no lasting effect, then one with
    no immediate loss; `spare-hand` keeps a card that costs no Action card or token now first."""
    wounds = load_content().wounds

    def lasting(w: str) -> tuple[bool, bool]:
        return damage >= wounds[w].threshold, wounds[w].permanent != "none"

    if hero.orders.get("implants", "spare-wounds") == "spare-hand":
        return lambda w: (wounds[w].immediate != "none", *lasting(w))
    return lambda w: (*lasting(w), wounds[w].immediate != "none")


def apply_immediate(state: ReichState, hero: HeroState, kind: str, ev: Events) -> None:
    if kind == "discard":
        # "Discard a card OR drop a Loot card": the player picks which, as the next thing the
        # Hero does (`act what:discard|drop`); meanwhile the Hero plays no cards.
        if (hero.hand or hero.loot) and not hero.down:
            hero.grants.insert(0, "lose")
            ev.append(Note(text=f"{hero.name} must discard an Action card or drop a Loot card."))
    elif kind == "token":
        lose_token(state, hero, ev)
    elif kind == "later":
        hero.delayed += 1
        ev.append(Note(text=f"{hero.name} will feel this at the start of the next Heroes' Turn."))


def lose_token(state: ReichState, hero: HeroState, ev: Events) -> None:
    """Lose a Basic Action token: an unspent one now, else one fewer back at the next Upkeep.

    In the Enemies' Turn (or with both tokens spent) the tokens lie on the Dashboard's action
    slots; the one lost is simply not retrieved in the next Upkeep Turn.
    """
    if state.phase == "heroes" and hero.tokens > 0:
        hero.tokens -= 1
        ev.append(Note(text=f"{hero.name} loses a Basic Action token this round."))
    elif hero.token_debt < 2:
        hero.token_debt += 1
        ev.append(
            Note(text=f"{hero.name} loses a Basic Action token: one fewer at the next Upkeep.")
        )


def delayed_wounds(state: ReichState, dice: Dice, ev: Events) -> None:
    """Delayed Wound cards: draw one, apply only its top effect, then discard it."""
    content = load_content()
    for hero in heroes_on_board(state):
        while hero.delayed > 0:
            hero.delayed -= 1
            if hero.down or not (state.wound_deck.draw_pile or state.wound_deck.discard_pile):
                continue
            card = state.wound_deck.draw(dice)
            kind = content.wounds[card].immediate
            ev.append(Note(text=f"{hero.name} draws {content.wounds[card].name} (delayed Wound)."))
            if kind != "later":
                apply_immediate(state, hero, kind, ev)
            state.wound_deck.discard(card)


def go_down(state: ReichState, hero: HeroState, dice: Dice, ev: Events) -> None:
    """Four permanent Wounds: the Hero is Down (draw two, then remove two from the hand)."""
    hero.down = True
    hero.grants = []
    ev.append(Note(text=f"{hero.name} is Down!"))
    draw_actions(hero, 2, dice, ev)
    hero.grants = ["remove"] * min(2, len(hero.hand))
    if hero.grants:
        ev.append(Note(text=f"{hero.name} must remove two Action cards from the game."))


# ---------------------------------------------------------------- end of the mission


def conditions_met(state: ReichState, level: str) -> bool:
    conds = mission(state).objectives.get(level, [])
    for cond in conds:
        if cond.kind == "sabotage" and state.sabotaged < cond.count:
            return False
        if cond.kind == "kill" and state.kills.get(cond.enemy or "", 0) < cond.count:
            return False
        if cond.kind == "collect":
            held = sum(h.carried.count(cond.token or "") for h in state.heroes.values())
            if held < cond.count:
                return False
        if cond.kind == "exit":
            standing = [h for h in state.heroes.values() if not h.down]
            if not standing or any(not h.exited for h in standing):
                return False
    return True


def levels_met(state: ReichState) -> list[str]:
    out = []
    for level in ("cadet", "veteran", "legend"):
        if not conditions_met(state, level):
            break
        out.append(level)
    return out


def check_end(state: ReichState, ev: Events, upkeep: bool = False) -> None:
    if state.phase == "ended":
        return
    want = state.options.get("difficulty", "cadet")
    state.achieved = levels_met(state)
    outcome = None
    text = ""
    if all(h.down for h in state.heroes.values() if not h.exited) and not any(
        h.exited for h in state.heroes.values()
    ):
        outcome, text = "defeat", "Every Hero is Down: the mission fails."
    elif want in state.achieved and state.tracker <= state.endgame:
        outcome, text = "victory", f"Objectives complete ({', '.join(state.achieved)})."
    elif upkeep and state.tracker > state.endgame:
        if state.achieved:
            outcome = "partial"
            text = f"Time is up: only {', '.join(state.achieved)} achieved."
        else:
            outcome, text = "defeat", "Time is up and the objectives were not met."
    if outcome:
        state.phase = "ended"
        state.outcome = outcome
        state.pending = None
        ev.append(MissionEnded(outcome=outcome, text=text))
