"""What a new player meets first: a shared ``/play/...`` link opens exactly one table; a wrong
link, level or address gets the page's own words, in its language."""

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


def test_a_link_to_a_table_that_does_not_exist_says_so(server, pages):
    page = pages.new()
    page.goto(server.base + "/t/no-such-table")
    page.wait_for_selector(".error-page")
    assert page.locator(".error-page p").inner_text() == "This table does not exist (any more)."


def test_an_unknown_address_gets_the_pages_own_not_found(server, pages):
    page = pages.new(locale="fr-FR")
    answer = page.goto(server.base + "/no/such/page")
    assert answer is not None and answer.status == 404
    page.wait_for_selector(".error-page")
    assert page.locator(".error-page h1").inner_text() == "Page introuvable"
    assert page.locator(".error-page a.btn").count() == 1  # a way home


def test_a_play_link_with_an_unknown_level_explains_itself(server, pages):
    before = tables_in(server)
    page = pages.new()
    page.goto(server.base + "/play/omi?level=nonsense")
    page.wait_for_selector(".error-page")
    said = page.locator(".error-page p").inner_text()
    assert said == "There is no computer player of that level for this game."
    assert tables_in(server) == before


def test_a_redraw_of_the_home_page_keeps_the_field_being_typed_in(server, pages):
    # The home page draws itself again when the network comes or goes, or offline play becomes
    # ready (which CI caught halfway through a name being typed: the rest of it was lost).
    page = pages.new(width=360, height=640)
    page.goto(server.base + "/")
    page.click("label.segment:has([data-testid=mode-hotseat])")
    field = "[data-testid=hotseat-name-1]"
    page.click(field)
    page.keyboard.type("Anushka")
    page.evaluate("() => window.dispatchEvent(new Event('online'))")  # what a network change does
    page.keyboard.type(" Silva")
    assert page.input_value(field) == "Anushka Silva"
    assert page.evaluate("() => document.activeElement.dataset.testid") == "hotseat-name-1"
