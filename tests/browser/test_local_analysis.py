"""The analysis of a game of this device, in real headless Chromium (issue 14, docs/offline.md):
a finished Oti game played offline against the computer is analysed in a Web Worker of its own
(Pyodide, the built-in solver) through ``localAnalysis`` of js/offline.js, the call the replay
page makes, with progress along the way, while the device's play goes on; the answer is the one
CPython computes from the game's record, and it is kept on the device: asked again, even from a
reloaded page with new workers, it comes back with nothing computed, and
``localAnalysisStored`` reads it without any worker;
forgetting the game forgets it. The replay page shows the kept analysis, and computes it when
asked, with its progress.
"""

from __future__ import annotations

import json
import time

import pytest

from bistrot.analysis import DEFAULT_SEED, analyze_record, default_samples
from bistrot.dealcode import encode
from bistrot.local import ANALYSIS_SOLVER

from .oti_driver import play_until_over
from .test_offline import device_game, offline_ready  # noqa: F401 (a fixture)

# Asks the page's worker for the analysis, as the replay page does: every progress message and
# the answer, in the order they came.  With ``beside``, a new table is opened on the device while
# the analysis runs, and "table" is noted among them when its answer comes.
ANALYSE_JS = """async ([table, beside]) => {
  const { localAnalysis, localAnalysisStored, createLocalTable } = await import('/static/js/offline.js');
  const before = await localAnalysisStored(table);
  const seen = [];
  const analysing = localAnalysis(table, (p) => seen.push(p)).then((a) => { seen.push('answer'); return a; });
  if (beside) {
    await createLocalTable({game: 'oti', mode: 'hotseat', rules: {players: 2}});
    seen.push('table');
  }
  const analysis = await analysing;
  return {before, seen, analysis, stored: await localAnalysisStored(table)};
}"""
# The deal: a short game (the computer's moves follow from the seed, ours from oti_driver), so
# that the analysis, done twice in the worker and once here, takes seconds, not minutes: a random
# deal's game made this test take anything from 1 to 3 minutes.
SEED = 7
RECORD_JS = """async (table) => (await import('/static/js/offline.js')).localRecord(table)"""
FORGET_JS = """async (table) => {
  const { forgetGame, localAnalysisStored } = await import('/static/js/offline.js');
  await forgetGame(table);
  return localAnalysisStored(table);
}"""
DROP_JS = """async (table) => {
  const { openAnalysesDb, deleteAnalysis } = await import('/static/js/devicedb.js');
  const d = await openAnalysesDb();
  await deleteAnalysis(d, table);
  d.close();
}"""
REFUSED_JS = """async (table) => {
  const { localAnalysis } = await import('/static/js/offline.js');
  try {
    await localAnalysis(table);
    return null;
  } catch (error) {
    return error.code;
  }
}"""


@pytest.mark.usefixtures("offline_ready")
def test_a_device_game_is_analysed_in_the_worker_once_with_progress(server, pages):
    page = pages.new()
    table = device_game(page, server, f"/play/oti?level=easy&players=2&bot_delay_ms=0&seed={encode(SEED)}")
    page.wait_for_selector(".felt.oti [data-action=ready]:not([disabled])", timeout=60000)
    assert page.evaluate(REFUSED_JS, table) == "not_over"  # the cards still hidden stay hidden
    play_until_over(page)

    started = time.monotonic()
    first = page.evaluate(ANALYSE_JS, [table, True])
    # The recompute below does the same work: its deadline scales with what this one took, as
    # the machine's load may make it anything from seconds to minutes.
    recompute_ms = max(120_000, 3_000 * (time.monotonic() - started))
    analysis = first["analysis"]
    total = len(analysis["moves"])
    assert first["before"] is None and total > 0
    # It runs in a worker of its own: the device's play does not wait for it, a table opened
    # meanwhile is answered first.
    seen = first["seen"]
    assert "table" in seen and seen.index("table") < seen.index("answer"), seen
    # Progress after each decision, all of it before the answer, which settles the call once.
    progress = [step for step in seen if step != "table"]
    assert progress == [{"done": d, "total": total} for d in range(1, total + 1)] + ["answer"]
    assert first["stored"] == analysis
    # The very analysis CPython makes of the game's record, with the device's settings.
    record = page.evaluate(RECORD_JS, table)["record"]
    samples = default_samples("oti", ANALYSIS_SOLVER, browser=True)
    expected = analyze_record(record, samples, DEFAULT_SEED, solver=ANALYSIS_SOLVER).to_dict()
    assert analysis == json.loads(json.dumps(expected))
    assert set(analysis["players"]) == {"0", "1"} and analysis["over"]

    # Asked again: the stored answer, nothing computed.
    again = page.evaluate(ANALYSE_JS, [table, False])
    assert again["seen"] == ["answer"] and again["before"] == again["analysis"] == analysis
    # A new page (a new worker, nothing in its memory): still kept on the device.
    page.goto(server.base + "/")
    page.wait_for_selector("[data-testid=offline-note]")
    kept = page.evaluate(ANALYSE_JS, [table, False])
    assert kept["before"] == analysis and kept["seen"] == ["answer"] and kept["analysis"] == analysis
    # The replay page shows it at once, and marks the steps it marked.
    page.goto(f"{server.base}/replay/{table}")
    page.wait_for_selector("[data-testid=analysis][data-status=done] [data-testid=accuracy]", timeout=60000)
    marks_as_analysed(page, analysis)
    # Its copy dropped, the replay page computes it again when asked, with its progress: the same.
    page.evaluate(DROP_JS, table)
    page.reload()
    page.click("[data-action=analyse]", timeout=60000)
    page.wait_for_selector("[data-testid=analysis] progress")
    page.wait_for_selector("[data-testid=analysis][data-status=done]", timeout=recompute_ms)
    assert page.locator("[data-testid=accuracy] tbody tr").count() == 2
    assert page.evaluate(ANALYSE_JS, [table, False])["analysis"] == analysis
    marks_as_analysed(page, analysis)
    # Forgetting the game forgets its analysis.
    assert page.evaluate(FORGET_JS, table) is None


def marks_as_analysed(page, analysis: dict) -> None:
    """At each step of the replay open in ``page``, the mark the analysis gave that move, if any."""
    labels = {"inaccuracy": "Inaccuracy", "mistake": "Mistake", "blunder": "Blunder"}
    for move in analysis["moves"]:
        page.locator("[data-testid=replay-slider]").fill(str(move["index"] + 1))
        at = "n => Number(document.querySelector('[data-testid=replay-slider]').value) === n"
        page.wait_for_function(at, arg=move["index"] + 1)
        shown = page.locator("[data-testid=mark]").all_inner_texts()
        assert shown == ([labels[move["mark"]]] if move["mark"] else []), move
