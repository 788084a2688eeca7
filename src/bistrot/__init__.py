"""bistrot: a card room for Omi and Oti, and a library for people who study card players.

The engines (:mod:`bistrot.omi`, :mod:`bistrot.cards`, ...) are pure Python with no
third-party imports, so they also run in the browser under Pyodide.
"""

__version__ = "0.1.0"
