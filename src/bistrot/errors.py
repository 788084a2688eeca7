"""Errors shared by the game engines."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules refuse; the game is left exactly as it was.

    ``code`` names the kind of refusal for programs (``not_your_turn``, ``wrong_phase``,
    ``not_held``, ``revoke``, ``game_over``, ``unknown_action``, ...); the message says it for
    people.

    >>> IllegalAction("revoke", "you must follow hearts").code
    'revoke'
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
