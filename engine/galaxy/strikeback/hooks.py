"""Operation Strikeback's answers to the core's expansion hooks (engine/galaxy/expansion.py).

Each member binds one hook to the expansion function that answers it; engine/galaxy/__init__.py
installs `STRIKEBACK` when it composes the shipped game.
"""

from __future__ import annotations

from engine.galaxy.strikeback import (
    activation,
    advisor_tools,
    alientech,
    arsenal,
    badges,
    bodies,
    burrowing,
    campaign,
    cards,
    combat,
    decks,
    devices,
    difficulty,
    events,
    free,
    headquarters,
    layer,
    lookups,
    masters,
    missions,
    npc,
    objects,
    play,
    poses,
    powers,
    status,
    suits,
    swarm,
    wings,
)
from engine.galaxy.strikeback.mission_rules import shipped  # noqa: F401  (registers every mission)


class StrikebackHooks:
    """The expansion, as the core sees it."""

    ACTIONS = masters.ACTIONS
    AGREE = suits.AGREE
    BLUE_DICE = arsenal.BLUE_DICE
    CUSTOM = difficulty.CUSTOM
    EXPANSION = layer.EXPANSION
    OPTION = difficulty.OPTION
    PRESETS = difficulty.PRESETS
    PSIONIC = wings.PSIONIC
    RANK = activation.RANK
    SHORT = alientech.SHORT
    activate_now = staticmethod(npc.activate_now)
    activation_problem = staticmethod(npc.activation_problem)
    active = staticmethod(headquarters.active)
    advice = staticmethod(advisor_tools.advise)
    after_event = staticmethod(play.after_event)
    agent_died = staticmethod(play.agent_died)
    alien_attack = staticmethod(combat.alien_attack)
    alien_defends = staticmethod(combat.alien_defends)
    alien_dice = staticmethod(powers.alien_dice)
    alien_killed = staticmethod(play.alien_killed)
    apply_effect = staticmethod(play.apply_effect)
    apply_preset = staticmethod(difficulty.apply_preset)
    area_heal_targets = staticmethod(arsenal.area_heal_targets)
    arrived = staticmethod(masters.arrived)
    attack = staticmethod(objects.attack)
    attack_roll = staticmethod(arsenal.attack_roll)
    balanced_teleports = staticmethod(events.balanced_teleports)
    becomes_free = staticmethod(free.becomes_free)
    begin_mission = staticmethod(play.begin_mission)
    blocked = staticmethod(objects.blocked)
    blue_choice_open = staticmethod(arsenal.blue_choice_open)
    body_tokens = staticmethod(badges.body_tokens)
    bolt_effects = staticmethod(arsenal.bolt_effects)
    bolts_blocked = staticmethod(combat.bolts_blocked)
    build_deck = staticmethod(events.build_deck)
    catalogue = staticmethod(devices.catalogue)
    close_encounters = staticmethod(missions.close_encounters)
    closest = staticmethod(swarm.closest)
    combat_refresh = staticmethod(combat.refresh)
    condition = staticmethod(play.condition)
    objective_counts = staticmethod(play.objective_counts)
    controller_for = staticmethod(masters.controller_for)
    debrief = staticmethod(campaign.debrief)
    decoys = staticmethod(play.decoys)
    closing_advice = staticmethod(advisor_tools.closing)
    default_armory = staticmethod(campaign.default_armory)
    default_choice = staticmethod(play.default_choice)
    defence_dice = staticmethod(poses.defence_dice)
    deliver_armory = staticmethod(alientech.deliver_armory)
    device_names = staticmethod(powers.device_names)
    do = staticmethod(free.do)
    do_action = staticmethod(masters.do_action)
    do_order = staticmethod(npc.do_order)
    do_pose = staticmethod(poses.do_pose)
    drone_profile = staticmethod(devices.drone_profile)
    drone_weapon = staticmethod(devices.drone_weapon)
    drop = staticmethod(powers.drop)
    effect_of = staticmethod(devices.effect_of)
    end_of_turn = staticmethod(npc.end_of_turn)
    end_turn = staticmethod(suits.end_turn)
    entered = staticmethod(play.entered)
    enters_play = staticmethod(combat.enters_play)
    event_effects = staticmethod(play.event_effects)
    event_phase = staticmethod(play.event_phase)
    events = staticmethod(decks.events)
    expansion_alien = staticmethod(cards.expansion_alien)
    expansion_badges = staticmethod(badges.expansion_badges)
    expansion_weapon = staticmethod(arsenal.expansion_weapon)
    explosion_targets = staticmethod(arsenal.explosion_targets)
    exposed = staticmethod(burrowing.exposed)
    falls = staticmethod(swarm.falls)
    figures = staticmethod(swarm.figures)
    finish_choice = staticmethod(activation.finish_choice)
    finish_recall = staticmethod(suits.finish_recall)
    fits = staticmethod(bodies.fits)
    fits_card = staticmethod(activation.fits_card)
    flies = staticmethod(suits.flies)
    follow = staticmethod(swarm.follow)
    friendly_defends = staticmethod(combat.friendly_defends)
    gain_text = staticmethod(wings.gain_text)
    generic_in_warehouse = staticmethod(devices.generic_in_warehouse)
    grant_psionic = staticmethod(powers.grant_psionic)
    hand = staticmethod(devices.hand)
    handles = staticmethod(play.handles)
    hunted = staticmethod(masters.hunted)
    immune = staticmethod(combat.immune)
    is_burrower = staticmethod(burrowing.is_burrower)
    is_device = staticmethod(devices.is_device)
    is_free = staticmethod(free.is_free)
    is_order = staticmethod(npc.is_order)
    is_psionic = staticmethod(powers.is_psionic)
    is_suit_weapon = staticmethod(arsenal.is_suit_weapon)
    keep_at_headquarters = staticmethod(headquarters.keep_at_headquarters)
    knows_alien_tech = staticmethod(powers.knows_alien_tech)
    left_play = staticmethod(masters.left_play)
    legal = staticmethod(free.legal)
    legal_actions = staticmethod(masters.legal_actions)
    legal_attacks = staticmethod(objects.legal_attacks)
    lift = staticmethod(bodies.lift)
    lit_marks = staticmethod(play.lit_marks)
    may_replace = staticmethod(arsenal.may_replace)
    next_mission = staticmethod(play.next_mission)
    mine = staticmethod(npc.mine)
    missions = staticmethod(missions.missions)
    move_bonus = staticmethod(suits.move_bonus)
    multi = staticmethod(bodies.multi)
    name_of = staticmethod(devices.name_of)
    needed = staticmethod(wings.needed)
    new_campaign = staticmethod(campaign.new_campaign)
    npc_arrive = staticmethod(npc.arrive)
    npc_orders = staticmethod(npc.npc_orders)
    npc_profile = staticmethod(npc.npc_profile)
    offer_armory = staticmethod(campaign.offer_armory)
    on_death = staticmethod(suits.on_death)
    options = staticmethod(powers.options)
    orders = staticmethod(poses.orders)
    panel_lines = staticmethod(powers.panel_lines)
    part = staticmethod(status.sb_state)
    penalty = staticmethod(lookups.penalty)
    play_advice = staticmethod(play.advice)
    play_do_action = staticmethod(play.do_action)
    play_finish_choice = staticmethod(play.finish_choice)
    play_legal_actions = staticmethod(play.legal_actions)
    powers_flies = staticmethod(powers.flies)
    powers_legal_actions = staticmethod(powers.legal_actions)
    powers_refresh = staticmethod(powers.refresh)
    progress_lines = staticmethod(campaign.progress_lines)
    promotion_kind = staticmethod(wings.promotion_kind)
    prompt_advice = staticmethod(advisor_tools.prompt_advice)
    psionics = staticmethod(powers.psionics)
    quiet_signals = staticmethod(play.quiet_signals)
    rank_name = staticmethod(wings.rank_name)
    reached = staticmethod(alientech.reached)
    reinforcements = staticmethod(play.reinforcements)
    require = staticmethod(layer.require)
    rerolls_alien = staticmethod(powers.rerolls_alien)
    rules = staticmethod(play.rules)
    select = staticmethod(activation.select)
    settle = staticmethod(bodies.settle)
    skills = staticmethod(powers.skills)
    species = staticmethod(cards.species)
    stand = staticmethod(poses.stand)
    standalone_rank = staticmethod(wings.standalone_rank)
    start = staticmethod(campaign.start)
    tie_broken = staticmethod(status.tie_broken)
    start_turn = staticmethod(suits.start_turn)
    step_cost = staticmethod(poses.step_cost)
    strike_decoy = staticmethod(play.strike_decoy)
    suit_header = staticmethod(suits.suit_header)
    suit_lines = staticmethod(suits.suit_lines)
    suit_tokens = staticmethod(suits.suit_tokens)
    suits_ACTIONS = suits.ACTIONS
    suits_advice = staticmethod(suits.advice)
    suits_do_action = staticmethod(suits.do_action)
    suits_legal_actions = staticmethod(suits.legal_actions)
    suits_refresh = staticmethod(suits.refresh)
    suits_settle = staticmethod(suits.settle)
    switch_on = staticmethod(play.switch_on)
    swarm_arrive = staticmethod(swarm.arrive)
    tokens = staticmethod(alientech.tokens)
    top_rank = staticmethod(wings.top_rank)
    turn_over = staticmethod(play.turn_over)
    units = staticmethod(swarm.units)
    use = staticmethod(powers.use)
    uses_table = staticmethod(wings.uses_table)
    warehouse = staticmethod(arsenal.warehouse)
    weapon_pool = staticmethod(headquarters.weapon_pool)
    worn = staticmethod(lookups.worn)
    wounded_by = staticmethod(combat.wounded_by)


STRIKEBACK = StrikebackHooks()
