"""A purposeful, deterministic advisor for Reichbusters (self-play `--policy advisor`).

It plays for the objectives of the campaign's difficulty, one Hero of the seat at a time, and
only ever returns one of the legal actions it is given:

- answers questions first: accept a team-mate's take, fire a Reaction, spend Special Results
  (cancel an Overload, then more dice), play a Success Modifier that turns a Fail into a
  Success, then resolve;
- a Down Hero Recovers; a wounded Hero with both tokens and no Enemy around Recovers;
- completes an objective or picks up a needed mission token where it stands;
- attacks when the expected Successes reach the threshold (about one per die), preferring the
  Enemy the objectives want dead, then Enemies in its own Area; before the alarm it only
  attacks Active Enemies and picks the quietest weapon that will do;
- otherwise walks (opening doors on the way) to the nearest Area that serves the objectives:
  an undone objective token, a needed token (or the key or code that opens the way to it), the
  Enemy to kill, and the exit once every other objective is met; it plays a card's Move when
  its Basic Move is spent;
- ends the turn when none of its Heroes has anything useful left.
"""

from __future__ import annotations

from engine.core.game import Action
from engine.reich import attack as atk
from engine.reich import rules, upkeep
from engine.reich.content import Weapon, load_content
from engine.reich.dice import total
from engine.reich.heroes import ATTACK_GRANTS, attack_actions
from engine.reich.state import EnemyState, HeroState, ReichState

LEVELS = ("cadet", "veteran", "legend")
MEAN = {"black": 1.0, "red": 7 / 6}  # expected Successes per die (star = 2, spent for a die)
SPEND = ("cancel", "extra", "double_impact", "quick_attack", "rage", "loot")


def advise(state: ReichState, seat: str, actions: list[Action]) -> Action | None:
    if not actions:
        return None
    if state.request is not None:
        return _option(actions, "accept")
    if state.reaction is not None:
        return next((a for a in actions if a.args.get("option", "").startswith("fire:")), None)
    if state.pending is not None:
        return _test_choice(state, actions)
    asked = upkeep.asked(state)
    if asked is not None:
        return upkeep.default(state, asked)  # free Pick Up: a mission token, else free Loot
    for key in state.hero_order:
        hero = state.heroes[key]
        if hero.seat != seat or hero.area is None:
            continue
        mine = [a for a in actions if a.args.get("unit") == key and a.verb != "orders"]
        pick = _hero_choice(state, hero, mine)
        if pick is not None:
            return pick
    return next((a for a in actions if a.verb == "end-turn"), None)


def _option(actions: list[Action], option: str) -> Action | None:
    return next((a for a in actions if a.args.get("option") == option), None)


def _test_choice(state: ReichState, actions: list[Action]) -> Action | None:
    test = state.pending
    assert test is not None
    if test.stage == "build":
        return _option(actions, "roll")
    if _option(actions, "cancel") is None and total(test.dice, test.bonus) >= test.threshold:
        effect = _spend_on_effect(state, actions)
        if effect is not None:
            return effect  # the Test already succeeds: a Special Result buys an effect
    for option in SPEND:
        found = _option(actions, option)
        if found is not None:
            return found
    now = total(test.dice, test.bonus)
    if now < test.threshold:
        cards = load_content().cards
        for action in actions:
            option = action.args.get("option", "")
            if option.startswith("card:"):
                mod = cards[option[5:].rsplit("-", 1)[0]].modifier or ""
                if mod.startswith("succ:") and now + int(mod[5:]) >= test.threshold:
                    return action
    return _option(actions, "done") or actions[0]


def _spend_on_effect(state: ReichState, actions: list[Action]) -> Action | None:
    """Burst at a second Enemy it can hurt (a wanted one first), else Double Impact."""
    test = state.pending
    assert test is not None
    wanted = _kill_wanted(state)
    bursts = []
    for action in actions:
        option = action.args.get("option", "")
        enemy = rules.find_enemy(state, option[6:]) if option.startswith("burst:") else None
        if enemy is not None and atk.wounds_dealt(enemy, test.keywords, test.red > 0, []):
            bursts.append((enemy.type not in wanted, option, action))
    if bursts:
        return min(bursts, key=lambda b: (b[0], b[1]))[2]
    targets = [rules.find_enemy(state, t) for t in test.targets]
    if any(t is not None and rules.life(t) - t.wounds > 1 for t in targets):
        return _option(actions, "double_impact")
    return None


# ------------------------------------------------------------------ one Hero


def _hero_choice(state: ReichState, hero: HeroState, actions: list[Action]) -> Action | None:
    if not actions:
        return None
    if hero.down:
        return next((a for a in actions if a.args.get("what") in ("remove", "recover")), None)
    if hero.grants:
        return _grant_choice(state, hero, actions)
    area = hero.area or ""
    threatened = bool(rules.enemies_in(state, area, True))
    by_what: dict[str, list[Action]] = {}
    for action in actions:
        by_what.setdefault(action.args.get("what", action.verb), []).append(action)
    if len(hero.wounds) >= 2 and not threatened and by_what.get("recover"):
        return by_what["recover"][0]
    if by_what.get("sabotage") and _wants(state, "sabotage"):
        return by_what["sabotage"][0]
    for action in by_what.get("pickup", []):
        item = next((g for g in state.ground if g.id == action.args.get("target")), None)
        if item and "drop" not in action.args and (item.kind in _tokens_wanted(state) or item.card):
            return action
    if by_what.get("vril") and not threatened:
        return _best_vril(state, hero, by_what["vril"])
    loot = _loot_choice(state, hero, by_what.get("loot", []), threatened)
    if loot is not None:
        return loot
    if by_what.get("react") and (state.alarm or _kill_wanted(state)):
        return by_what["react"][0]  # a free shot at an Enemy that just showed up
    shot = _best_attack(state, hero, by_what.get("attack", []))
    if shot is not None:
        return shot
    step = _step_towards_goal(state, hero, actions)
    if step is not None:
        return step
    if hero.used_move or hero.tokens == 0:
        card = _card_with(hero, by_what.get("play", []), ("move",))
        if card is not None and _goal_distance(state, hero) not in (None, 0):
            return card
    for play in by_what.get("play", []):
        effects = load_content().cards[play.args.get("target", "").rsplit("-", 1)[0]].effects
        attack = effects and effects[0].split(":")[0] in ("ranged", "melee", "attack")
        if attack and _good_target_with(state, hero, effects[0]):
            return play
    if hero.tokens and len(hero.hand) <= 2 and not threatened and by_what.get("draw"):
        return by_what["draw"][0]
    return None


def _grant_choice(state: ReichState, hero: HeroState, actions: list[Action]) -> Action | None:
    head = hero.grants[0].split(":")[0]
    skip = next((a for a in actions if a.args.get("what") == "skip"), None)
    if head == "move":
        return _step_towards_goal(state, hero, actions) or skip
    if head in ATTACK_GRANTS:
        attacks = [a for a in actions if a.verb == "attack"]
        return _best_attack(state, hero, attacks, keen=True) or skip
    if head == "grenade":
        for action in actions:
            to = action.args.get("to", "")
            hits = rules.enemies_in(state, to) and not rules.heroes_in(state, to)
            if action.args.get("what") == "grenade" and hits:
                return action
        return skip
    if head == "suppress":
        best = max(
            (a for a in actions if a.args.get("what") == "suppress"),
            key=lambda a: len(rules.enemies_in(state, a.args.get("to", ""), True)),
            default=None,
        )
        return best or skip
    useful = [a for a in actions if a.args.get("what") != "skip"]
    return useful[0] if useful else skip


def _best_vril(state: ReichState, hero: HeroState, vrils: list[Action]) -> Action:
    """Vril first the weapon that then pierces an Armored Enemy the mission wants dead."""
    if _needs_piercing(state, hero):
        weapons = {w.id: w for w in atk.weapons_of(hero)}
        for action in vrils:
            weapon = weapons.get(action.args.get("target", ""))
            if weapon is not None and "ap" in weapon.vril.keywords:
                return action
    return vrils[0]


def _needs_piercing(state: ReichState, hero: HeroState) -> bool:
    """A wanted Enemy is Armored and none of this Hero's weapons pierces it now."""
    armored = any(
        e.type in _kill_wanted(state) and {"armored", "armor"} & set(rules.keywords(e))
        for e in state.enemies
    )
    return armored and not any(
        "ap" in atk.weapon_stats(hero, w)[2] for w in atk.weapons_of(hero) if w.id != "hands"
    )


def _loot_choice(
    state: ReichState, hero: HeroState, uses: list[Action], threatened: bool
) -> Action | None:
    """Use a Loot card when it plainly helps: an attack at a good target, a heal, an unjam."""
    content = load_content()
    for action in uses:
        ldef = content.loot[action.args.get("target", "")]
        head = ldef.effect.split(":")[0]
        if head in ATTACK_GRANTS and _good_target_with(state, hero, ldef.effect):
            return action
        if head == "heal" and hero.wounds and not threatened:
            return action
        if head == "unjam" and any(w.jammed for w in hero.weapons.values()):
            return action
        if head == "draw" and len(hero.hand) <= 2:
            return action
    return None


def _card_with(hero: HeroState, plays: list[Action], heads: tuple[str, ...]) -> Action | None:
    cards = load_content().cards
    for action in plays:
        effects = cards[action.args.get("target", "").rsplit("-", 1)[0]].effects
        if effects and effects[0].split(":")[0] in heads:
            return action
    return None


# ------------------------------------------------------------------ attacks


def _expected(hero: HeroState, weapon: Weapon, bonus: int) -> float:
    black, red, kws = atk.weapon_stats(hero, weapon)
    extra = 1 if "precise" in kws else 0
    return (black + bonus) * MEAN["black"] + red * MEAN["red"] + extra


def _attack_score(
    state: ReichState, hero: HeroState, action: Action, keen: bool, grant: str | None = None
) -> tuple[int, int, int, str] | None:
    weapon = next(w for w in atk.weapons_of(hero) if w.id == action.args.get("weapon"))
    enemy = rules.find_enemy(state, action.args.get("target", ""))
    if enemy is None or "target2" in action.args:
        return None
    grant = grant or (hero.grants[0] if hero.grants else None)
    bonus, extra = 0, []
    if grant and not grant.startswith("quick"):
        bonus, extra = int(grant.split(":")[1]), grant.split(":")[2:]
    if "armored" in rules.keywords(enemy) and "ap" not in [
        *atk.weapon_stats(hero, weapon)[2],
        *extra,
    ]:
        return None  # only Armor-Piercing hurts it
    threshold = rules.defense_in(state, enemy)
    margin = _expected(hero, weapon, bonus) - threshold
    wanted = enemy.type in _kill_wanted(state)
    close = enemy.area == hero.area
    if margin < (-1.0 if keen else -0.5) and not close and not wanted:
        return None  # in its own Area a Hero fights its way out, whatever the odds
    if not state.alarm and weapon.noise and not close and not wanted:
        return None  # stay quiet: a far-off shot is not worth the Noise before the alarm
    return (0 if wanted else 1, 0 if close else 1, weapon.noise if not state.alarm else 0, enemy.id)


def _best_attack(
    state: ReichState, hero: HeroState, attacks: list[Action], keen: bool = False
) -> Action | None:
    scored = []
    for index, action in enumerate(attacks):
        score = _attack_score(state, hero, action, keen)
        if score is not None:
            scored.append((score, index, action))
    return min(scored, key=lambda s: (s[0], s[1]))[2] if scored else None


def _good_target_with(state: ReichState, hero: HeroState, grant: str) -> bool:
    """Whether the attack a card grants would find a target worth it (wanted ones first)."""
    wanted = _kill_wanted(state)
    scored = [
        (a, _attack_score(state, hero, a, True, grant))
        for a in attack_actions(state, hero, grant)
        if a.verb == "attack"
    ]
    good = [a for a, score in scored if score is not None]
    if not state.alarm:
        return any(rules.find_enemy(state, a.args["target"]).type in wanted for a in good)  # type: ignore[union-attr]
    return bool(good)


# ------------------------------------------------------------------ objectives


def _open_levels(state: ReichState) -> list[str]:
    want = state.options.get("difficulty", "cadet")
    levels = list(LEVELS[: LEVELS.index(want) + 1]) if want in LEVELS else ["cadet"]
    return [lvl for lvl in levels if not rules.conditions_met(state, lvl)]


def _conditions(state: ReichState) -> list[tuple[str, str | None]]:
    """(kind, token or enemy) of every condition still unmet, lowest level first."""
    out: list[tuple[str, str | None]] = []
    objectives = rules.mission(state).objectives
    for level in _open_levels(state):
        for cond in objectives.get(level, []):
            out.append((cond.kind, cond.token or cond.enemy))
    return out


def _wants(state: ReichState, kind: str) -> bool:
    return any(k == kind for k, _ in _conditions(state))


def _tokens_wanted(state: ReichState) -> set[str]:
    tokens = {t or "" for k, t in _conditions(state) if k == "collect"}
    return tokens | {"keys", "code"}


def _kill_wanted(state: ReichState) -> set[str]:
    return {t or "" for k, t in _conditions(state) if k == "kill"}


def _passable(state: ReichState, hero: HeroState) -> list[str]:
    carried = {t for h in rules.heroes_on_board(state) for t in h.carried}
    out = []
    for door in rules.board(state).doors.values():
        if door.lock is None or door.id in state.unlocked or door.lock in _lock_token(carried):
            out.append(door.id)
    return out


def _lock_token(carried: set[str]) -> set[str]:
    return {"key" if t == "keys" else t for t in carried}


def _goal_areas(state: ReichState, hero: HeroState) -> list[str]:
    conds = _conditions(state)
    goals: list[str] = []
    for kind, what in conds:
        if kind == "sabotage":
            goals += [g.area for g in state.ground if g.kind == "objective" and not g.done]
        elif kind == "collect":
            goals += [g.area for g in state.ground if g.kind == what]
        elif kind == "kill":
            if _needs_piercing(state, hero):
                goals += _piercing_sources(state, hero)
                if goals:
                    break
            for enemy in [e for e in state.enemies if e.type == what]:
                goals.append(enemy.area)
                if _shoots_at(hero, enemy):  # a shooter stays next door, out of melee
                    goals += rules.adjacent(state, enemy.area)
        if goals:
            break
    if conds and all(k == "exit" for k, _ in conds):
        goals = list(rules.mission(state).exits)
    graph = rules.board(state).graph(_passable(state, hero))
    reach = graph.distances(hero.area or "")
    if not any(g in reach for g in goals):
        goals = [g.area for g in state.ground if g.kind in ("keys", "code")]  # unlock the way
    return goals


def _piercing_sources(state: ReichState, hero: HeroState) -> list[str]:
    """Areas where this Hero could gain Armor-Piercing: a Vril bench, or such a Loot card."""
    content = load_content()
    out = []
    if len(hero.loot) < 3:
        out += [
            g.area
            for g in state.ground
            if g.card and ":ap" in content.loot[g.card].effect and g.face_up
        ]
    if any(
        "ap" in w.vril.keywords and not hero.weapons[w.id].vril
        for w in content.heroes[hero.key].weapons
    ):
        out += [a for a, c in state.accessories_up.items() if c == "blueprints"]
        out += [
            a
            for a, back in rules.mission(state).accessories.items()
            if a in state.accessories and back == "lab"
        ]
    if any(":ap" in content.loot[c].effect for c in hero.loot):
        return []  # already carries it
    return out


def _shoots_at(hero: HeroState, enemy: EnemyState) -> bool:
    """Whether the Hero has a working ranged weapon that can hurt this Enemy."""
    armored = "armored" in rules.keywords(enemy)
    for weapon in atk.weapons_of(hero):
        if weapon.range == 0 or weapon.id == "hands" or hero.weapons[weapon.id].jammed:
            continue
        if not armored or "ap" in atk.weapon_stats(hero, weapon)[2]:
            return True
    return False


def _distances(state: ReichState, hero: HeroState) -> dict[str, int]:
    """Borders from every Area to the nearest goal (closed and openable doors count)."""
    graph = rules.board(state).graph(_passable(state, hero))
    best: dict[str, int] = {}
    for goal in _goal_areas(state, hero):
        for area, dist in graph.distances(goal).items():
            if dist < best.get(area, 1 << 30):
                best[area] = dist
    return best


def _goal_distance(state: ReichState, hero: HeroState) -> int | None:
    return _distances(state, hero).get(hero.area or "")


def _step_towards_goal(state: ReichState, hero: HeroState, actions: list[Action]) -> Action | None:
    area = hero.area or ""
    conds = _conditions(state)
    if conds and all(k == "exit" for k, _ in conds) and area in rules.mission(state).exits:
        return next((a for a in actions if a.verb == "move" and a.args.get("to") == "EXIT"), None)
    dist = _distances(state, hero)
    here = dist.get(area)
    if here is None or here == 0:
        return None
    moves = {a.args.get("to"): a for a in actions if a.verb == "move"}
    for to in sorted(moves, key=lambda t: (dist.get(t or "", 1 << 30), t or "")):
        if to and to != "EXIT" and dist.get(to, 1 << 30) < here:
            return moves[to]
    board = rules.board(state)
    for action in actions:
        if action.args.get("what") == "open":
            door = board.doors[action.args.get("target", "")]
            other = door.areas[1] if door.areas[0] == area else door.areas[0]
            if dist.get(other, 1 << 30) < here:
                return action
    return None
