"""Oti computer players, one module per level (see :mod:`bistrot.bots` for the interface)."""
