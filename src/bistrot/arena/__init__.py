"""Tournaments between computer players: one module per game, shared statistics in :mod:`.stats`."""
