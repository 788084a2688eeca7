"""Analysis of a game's record, decision by decision, as chess sites analyse games.

The record's actions are replayed through the engine and every decision with a choice is
judged from what the deciding seat could see at that moment, by the analysis module the game's
registry entry names (:attr:`bistrot.games.GameEntry.analysis`, an
:class:`~bistrot.games.Analyser`):

* **Omi** (:mod:`.omi`): each trump choice (from the chooser's four cards) and each card played
  with a choice, by the hard player's sampling of the unseen cards and double-dummy solving, in
  **tokens**; each card also with every hand open (``dd_loss``, tricks);
* **Oti** (:mod:`.oti`): each move of the play phase with a choice, by the hard player's Monte
  Carlo search, in **win chance**.

A game whose entry names no analysis is refused with a ``ValueError`` that says so.  Each
decision gets a mark (inaccuracy, mistake, blunder) and each player an accuracy
(:mod:`.marks`).  Pure Python and the existing solvers: it runs wherever the engines run.
``progress(done, total)`` is called after each decision judged.  See docs/analysis.md.

>>> from bistrot.oti import OtiGame, OtiRules
>>> game = OtiGame.from_position(OtiRules(players=2), ["5D QD", ""], ["", "KC"], ["", ""],
...     pile="2C")
>>> game.apply("play 5D"); game.apply("play QD")
>>> seen = []
>>> found = analyze_record(game.record(), samples=4, progress=lambda done, total: seen.append(done))
>>> found.game, [m.index for m in found.moves], found.players[0].accuracy, seen
('oti', [0], 100.0, [1])
"""

from __future__ import annotations

from bistrot import games
from bistrot.analysis.load import read_game
from bistrot.analysis.marks import MARKS, OMI, OTI, Thresholds
from bistrot.analysis.result import Analysis, Decision, PlayerSummary, Progress

__all__ = [
    "DEFAULT_SEED", "MARKS", "OMI", "OTI", "Analysis", "Decision", "PlayerSummary", "Progress", "Thresholds",
    "analyze", "analyze_record", "default_samples", "read_game",
]


def default_samples(game: str, solver: str = "auto", browser: bool = False) -> int:
    """The layouts (Omi: fewer with the built-in solver) or deals (Oti) judged per decision
    unless told otherwise; ``browser``: in the browser's worker, where the analysis of a game of
    the device runs (the built-in solver under Pyodide).

    >>> from bistrot.analysis import omi
    >>> default_samples("omi", "dds"), default_samples("omi", "python"), default_samples("oti")
    (64, 32, 200)
    >>> default_samples("omi", browser=True) == omi.BROWSER_SAMPLES
    True
    """
    return games.get(game).analyser().default_samples(solver, browser)


#: The seed of an analysis unless told: the card room's (server and device) and the command
#: line's alike, so the same record gets the same figures everywhere.
DEFAULT_SEED = 0


def analyze(game: object, samples: int | None = None, seed: int = DEFAULT_SEED,
            progress: Progress | None = None, solver: str = "auto") -> Analysis:
    """Analyse a game (finished or not: the actions so far) with its registry entry's analysis;
    ``samples`` per decision (None: :func:`default_samples`), ``seed`` for the random draws,
    ``solver`` for Omi's double-dummy solver.  ``ValueError`` for a game without analysis."""
    return games.entry_of(game).analyser().analyze(game, samples, seed, progress, solver)


def analyze_record(text: object, samples: int | None = None, seed: int = DEFAULT_SEED,
                   progress: Progress | None = None, solver: str = "auto") -> Analysis:
    """:func:`analyze` the game of a record's text; ``ValueError`` for a bad record."""
    return analyze(read_game(text), samples, seed, progress, solver)
