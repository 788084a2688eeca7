"""A game from a record's text, whichever game wrote it (the ``Game`` tag, by the registry).

>>> from bistrot.oti import OtiGame, OtiRules
>>> game = OtiGame.new(OtiRules(players=2), seed=3)
>>> read_game(game.record()) == game
True
>>> read_game("hello")
Traceback (most recent call last):
...
ValueError: not a game record: it has no [Game "..."] tag
>>> read_game('[Game "Chess"]')
Traceback (most recent call last):
...
ValueError: a record of 'Chess', a game this card room does not know (it knows Omi, Oti)
"""

from __future__ import annotations

from bistrot import games
from bistrot.engine import Game
from bistrot.records import shown, split_tags
from bistrot.ruleset import Ruleset


def game_entry(text: str) -> games.GameEntry:
    """The registry's entry for the game a record's ``Game`` tag names."""
    tags, _ = split_tags(text)
    name = tags.get("Game")
    if name is None:
        raise ValueError('not a game record: it has no [Game "..."] tag')
    for entry in games.all_games():
        if name.lower() in (entry.name, entry.title.lower()):
            return entry
    known = ", ".join(entry.title for entry in games.all_games())
    raise ValueError(f"a record of {shown(name)}, a game this card room does not know (it knows {known})")


def read_game(text: object) -> Game[Ruleset]:
    """The game a record describes, replayed through its engine; ``ValueError`` says what is
    wrong (not a text, not a record, an unknown game, a bad tag, an action the rules refuse)."""
    if not isinstance(text, str):
        raise ValueError(f"a record is a text, not {type(text).__name__}")
    return game_entry(text).game_class().from_record(text)
