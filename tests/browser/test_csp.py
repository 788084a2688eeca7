"""The page under the server's Content-Security-Policy (docs/server.md, "Limits and headers").

Every browser test fails on a CSP violation the page reports (the ``pages`` fixture, see
``browser_kit.Pages``); this one checks that the watch really sees one, so that its silence
elsewhere means something.
"""

from __future__ import annotations

import urllib.request


def test_the_policy_is_served_and_a_violation_would_be_caught(server, pages):
    with urllib.request.urlopen(server.base + "/", timeout=10) as answer:
        policy = answer.headers["Content-Security-Policy"]
    assert "script-src 'self' 'wasm-unsafe-eval'" in policy and "frame-ancestors 'none'" in policy
    page = pages.new()
    page.goto(server.base + "/")
    page.wait_for_selector(".choice-card")
    assert pages.csp == []
    # An inline script: refused by the policy, and reported.
    page.evaluate("""() => {
      const script = document.createElement("script");
      script.textContent = "window.__ran = true";
      document.head.append(script);
    }""")
    page.wait_for_function("() => window.__cspReported >= 1")
    assert page.evaluate("() => window.__ran") is None
    page.context.close()  # no more events from this page: what it reported is all in pages.csp
    caught = list(pages.csp)
    pages.csp.clear()  # expected here: the fixture's own check must not fail this test
    assert any("script-src" in c for c in caught), caught
