"""The server's pool of computer players starts warm."""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = """
import json
from bistrot.omi.bots.trump_table import chooser_tricks, load_counts
from bistrot.server.botrunner import warm
before = [chooser_tricks.cache_info().currsize, load_counts.cache_info().currsize]
warm()
print(json.dumps([before, [chooser_tricks.cache_info().currsize, load_counts.cache_info().currsize]]))
"""


def test_a_new_worker_makes_each_computer_player_before_the_first_move() -> None:
    # A fresh process, as a pool worker: hard Omi's trump table and spread of tricks are loaded
    # by the warm-up, not inside the first move's time budget.
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == [[0, 0], [1, 1]]
