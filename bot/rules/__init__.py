"""The `/rules` reference: short rules summaries per game, written in our own words.

Each game has a JSON file in this package (`<game-key>.json`), and `sortie.json` explains
play by post; both lists are served together for a game. The data is loaded and validated
once, on first use; bad data raises `RulesDataError` naming the file and the problem.

Behind the written topics `find` and `search` also answer generated ones (`bot.guide`): each
scenario's briefing (`/rules topic:radio-silence`) and every glossary term a player meets on
the board or in a reply (`/rules topic:clear-the-breech`). A written topic keeps its key.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

__all__ = [
    "GAME_KEYS",
    "MAX_RENDER",
    "MAX_RESULTS",
    "MAX_TEXT",
    "RulesDataError",
    "Topic",
    "find",
    "render",
    "search",
    "topics",
]

GAME_KEYS: tuple[str, ...] = ("galaxy-defenders", "forlorn-hope", "reichbusters")
SORTIE_FILE = "sortie"
MAX_TEXT = 900
MAX_TITLE = 80
MAX_RENDER = 1000
MAX_RESULTS = 25
MAX_GUIDE_TEXT = 1900
"""A generated briefing may use most of a Discord message."""

KEY_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
_WORD = re.compile(r"[a-z0-9]+")


class RulesDataError(ValueError):
    """A rules JSON file is missing, unreadable or does not match the Topic schema."""


class Topic(BaseModel):
    """One reference entry, as shown by `/rules topic:<key>`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str = Field(pattern=KEY_PATTERN, max_length=60)
    title: str = Field(min_length=1, max_length=MAX_TITLE)
    tags: tuple[str, ...] = ()
    text: str = Field(min_length=1, max_length=MAX_TEXT)
    featured: bool = False
    """Listed first when the query is empty."""

    @field_validator("tags")
    @classmethod
    def _tags_are_lowercase(cls, tags: tuple[str, ...]) -> tuple[str, ...]:
        for tag in tags:
            if not tag.strip() or tag != tag.strip().lower():
                raise ValueError(f"tag {tag!r} must be non-empty, trimmed and lower case")
        return tags

    @field_validator("title", "text")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be blank")
        return value


class GuideTopic(Topic):
    """A generated topic (a briefing or a glossary term): longer text is allowed."""

    text: str = Field(min_length=1, max_length=MAX_GUIDE_TEXT)


_TOPIC_LIST = TypeAdapter(list[Topic])


def _read(name: str) -> list[Topic]:
    """Load and validate one `<name>.json` file of this package."""
    path = resources.files(__name__).joinpath(f"{name}.json")
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as missing:
        raise RulesDataError(f"rules file {name}.json is missing") from missing
    except json.JSONDecodeError as bad:
        raise RulesDataError(f"rules file {name}.json is not valid JSON: {bad}") from bad
    try:
        entries = _TOPIC_LIST.validate_python(raw)
    except ValidationError as bad:
        raise RulesDataError(f"rules file {name}.json has bad data:\n{bad}") from bad
    seen: set[str] = set()
    for topic in entries:
        if topic.key in seen:
            raise RulesDataError(f"rules file {name}.json repeats the key {topic.key!r}")
        seen.add(topic.key)
    return entries


@cache
def _library() -> dict[str, tuple[Topic, ...]]:
    """Every game's topics followed by the Sortie topics; read once per process."""
    sortie = _read(SORTIE_FILE)
    out: dict[str, tuple[Topic, ...]] = {}
    for game in GAME_KEYS:
        own = _read(game)
        clash = {t.key for t in own} & {t.key for t in sortie}
        if clash:
            raise RulesDataError(
                f"rules file {game}.json reuses Sortie topic keys: {', '.join(sorted(clash))}"
            )
        out[game] = (*own, *sortie)
    return out


def _game(game_key: str) -> tuple[Topic, ...]:
    library = _library()
    if game_key not in library:
        raise ValueError(
            f"No rules reference for game {game_key!r}; known games: {', '.join(GAME_KEYS)}."
        )
    return library[game_key]


@cache
def _generated(game_key: str) -> tuple[Topic, ...]:
    """Briefings of every scenario, then glossary terms, minus keys a written topic holds."""
    from bot.guide import briefing, glossary
    from engine.registry import games

    game = games().get(game_key)
    if game is None:
        return ()
    taken = {t.key for t in _library().get(game_key, ())}
    out: list[Topic] = []
    for info in game.scenarios():
        if info.key in taken:
            continue
        taken.add(info.key)
        text = briefing(game, info.key).text()
        out.append(
            GuideTopic(
                key=info.key,
                title=f"Briefing: {info.title}"[:MAX_TITLE],
                tags=("briefing", "mission", "scenario"),
                text=text.split("\n", 1)[1],
            )
        )
    for term in glossary(game_key).values():
        if term.key in taken:
            continue
        taken.add(term.key)
        out.append(
            GuideTopic(key=term.key, title=term.name[:MAX_TITLE], tags=("term",), text=term.detail)
        )
    return tuple(out)


def _everything(game_key: str) -> tuple[Topic, ...]:
    return (*_game(game_key), *_generated(game_key))


def topics(game_key: str) -> list[Topic]:
    """The game's own topics, then the Sortie (play-by-post) topics.

    Raises ValueError for an unknown game key.
    """
    return list(_game(game_key))


def find(game_key: str, key: str) -> Topic | None:
    """The topic with exactly this key (case and surrounding spaces ignored), or None."""
    wanted = key.strip().lower()
    found = next((t for t in _game(game_key) if t.key == wanted), None)
    if found is None:
        wanted = re.sub(r"[^a-z0-9]+", "-", wanted).strip("-")
        found = next((t for t in _everything(game_key) if t.key == wanted), None)
    return found


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _rank(topic: Topic, query: str, query_key: str, query_words: list[str]) -> tuple[int, int]:
    """(tier, detail) for a match, lower is better; tier 99 means no match.

    Tiers: 0 exact key, 1 key prefix, 2 title words, 3 tags, 4 text contains.
    """
    if topic.key == query_key:
        return (0, 0)
    if topic.key.startswith(query_key):
        return (1, len(topic.key))
    title_words = _words(topic.title)
    if query_words and all(any(w.startswith(q) for w in title_words) for q in query_words):
        exact = all(q in title_words for q in query_words)
        return (2, 0 if exact else 1)
    tag_words = [w for tag in topic.tags for w in _words(tag)]
    if query in topic.tags:
        return (3, 0)
    if query_words and all(any(w.startswith(q) for w in tag_words) for q in query_words):
        return (3, 1)
    if query in topic.title.lower() or query in topic.text.lower():
        return (4, 0)
    return (99, 0)


def search(game_key: str, query: str, limit: int = MAX_RESULTS) -> list[Topic]:
    """Topics matching `query`, best first, at most `limit` (and never more than 25).

    Ranking (case-insensitive): exact key, key prefix, every query word starting a title
    word, tags, then the text contains the query. Ties keep the file order (game first,
    then Sortie). An empty query lists the featured topics first, then the rest.
    Raises ValueError for an unknown game key.
    """
    entries = _game(game_key)
    limit = max(0, min(limit, MAX_RESULTS))
    query = " ".join(query.lower().split())
    if not query:
        ordered = [t for t in entries if t.featured] + [t for t in entries if not t.featured]
        return ordered[:limit]
    query_key = re.sub(r"[\s_]+", "-", query)
    query_words = _words(query)
    scored: list[tuple[int, int, int, Topic]] = []
    for index, topic in enumerate((*entries, *_generated(game_key))):
        tier, detail = _rank(topic, query, query_key, query_words)
        if tier < 99:
            scored.append((tier, detail, index, topic))
    scored.sort(key=lambda item: item[:3])
    return [topic for *_, topic in scored[:limit]]


def render(topic: Topic) -> str:
    """The topic as Discord Markdown: bold title, then the text; at most 1000 characters."""
    out = f"**{topic.title}**\n{topic.text}"
    limit = MAX_GUIDE_TEXT + MAX_TITLE + 10 if isinstance(topic, GuideTopic) else MAX_RENDER
    if len(out) > limit:  # cannot happen with validated data; kept as a guard
        out = out[: limit - 1].rstrip() + "…"
    return out
