"""Help written in our own words: how to play Sortie by post."""

from __future__ import annotations

TOPICS: dict[str, str] = {
    "start": (
        "**Starting a campaign**\n"
        "1. `/campaign create game:<game> scenario:<scenario>` sets a mission up in this channel.\n"
        "2. Everyone playing takes a seat: `/campaign join role:<seat>`.\n"
        "3. The owner starts it: `/campaign begin`.\n"
        "`/campaign status` shows the seats and whose turn it is; `/campaign list` shows the "
        "server's campaigns. `/campaign web` gives the campaign's web page for spectators: the "
        "board to zoom into and every step since the start."
    ),
    "play": (
        "**Playing**\n"
        "Act whenever it is your turn, at your own pace: `/move`, `/attack`, `/act` for special "
        "actions, `/orders` for standing orders, `/choose` to answer a question, `/end-turn` "
        "when you are done. Autocomplete offers only what is legal right now. On a phone, "
        "`/pick` (or the **Pick an action** button) opens menus just for you: figure, action, "
        "then target or square, with no typing. `/undo` takes "
        "back your last action if it revealed nothing new. The bot plays the enemies; each turn "
        "is one post, updated with the board as you act; `/board` and `/log` answer only you "
        "(add `share:yes` to post them for the table)."
    ),
    "secrets": (
        "**Hidden cards**\n"
        "Your hand and anything only your seat may know are shown to you alone: `/hand`. "
        "When the game asks you something about your cards, the table posts an **Answer in "
        "private** button that opens your answers just for you. `/choose`, `/act` and "
        "`/orders` are never shown to the others as you typed them; they see only what the "
        "rules make public. A seat is handed over by its player (or a server admin), never "
        "to someone playing the other side."
    ),
}


def render(topic: str | None = None) -> str:
    if topic and topic.lower() in TOPICS:
        return TOPICS[topic.lower()]
    return "**Sortie** — cooperative tactical games by post.\n\n" + "\n\n".join(TOPICS.values())
