"""The one refusal a table's host can raise: a code for programs, a message for people.

>>> err = TableError("bad_token", "this token holds no seat at this table", 403)
>>> err.code, err.status, str(err)
('bad_token', 403, 'this token holds no seat at this table')
"""

from __future__ import annotations


class TableError(Exception):
    """A refused request; ``status`` is the HTTP status a server answers it with."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
