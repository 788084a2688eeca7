"""What a new player meets first: a shared ``/play/...`` link opens exactly one table."""

from __future__ import annotations

import re
import sqlite3

import pytest

from .browser_kit import Server


def tables_in(server: Server) -> int:
    with sqlite3.connect(f"file:{server.db}?mode=ro", uri=True) as db:
        return int(db.execute("SELECT count(*) FROM tables").fetchone()[0])


@pytest.mark.parametrize("locale", ["en-GB", "si-LK"])  # the page's first language load routed it again
def test_a_play_link_opens_exactly_one_table(server, pages, locale):
    before = tables_in(server)
    page = pages.new(locale=locale)
    page.goto(server.base + "/play/omi?level=easy&target=1")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    page.wait_for_selector(".felt.omi")
    page.wait_for_load_state("networkidle")  # a second creation would be on the wire by now
    assert tables_in(server) == before + 1
