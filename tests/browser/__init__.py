"""Real-browser tests of the page (see docs/web.md)."""
