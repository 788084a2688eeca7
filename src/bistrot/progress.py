"""How long runs (the arenas, ``bistrot analyze``) say how far they are, on standard error.

On a terminal: a rich progress bar, gone when the run ends.  Otherwise (standard error sent to a
file or a pipe, as for an arena run of an hour left in the background) one plain line each tenth
of the way if ``lines``, so that the log says where the run stands and when it should end;
nothing if not (a run of seconds, such as one game's analysis).  Standard output is never
touched: ``--json`` still prints one JSON object there and nothing else.

>>> import io
>>> log = io.StringIO()
>>> clock = iter(range(0, 100, 3)).__next__  # 3 s a deal
>>> with progress_bar("hard vs medium", 20, "deals", stream=log, clock=clock) as report:
...     for done in range(1, 21):
...         report(done)
>>> print(log.getvalue().splitlines()[0])
hard vs medium: 2/20 deals (10%), 0:00:03 elapsed, about 0:00:27 to go
>>> len(log.getvalue().splitlines())
10
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import TextIO

#: A line is written each time the run passes another of this many parts of the way.
PLAIN_STEPS = 10

Report = Callable[..., None]
"""``report(done)`` or ``report(done, total)``, where ``total`` is first known (or changes)."""


@contextmanager
def progress_bar(description: str, total: int | None, unit: str, stream: TextIO | None = None,
                 lines: bool = True, clock: Callable[[], float] = time.monotonic) -> Iterator[Report]:
    """Progress of ``total`` ``unit`` (games, deals, decisions) on ``stream`` (standard error);
    yields the callback a run reports to.  ``total`` may be None until the run reports it."""
    out = sys.stderr if stream is None else stream
    if out.isatty():
        with _bar(description, total, unit, out) as report:
            yield report
    elif lines:
        yield _PlainLines(description, total, unit, out, clock).report
    else:
        yield _quiet


@contextmanager
def _bar(description: str, total: int | None, unit: str, out: TextIO) -> Iterator[Report]:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn(unit), TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn())
    with Progress(*columns, transient=True, console=Console(file=out)) as bar:
        task = bar.add_task(description, total=total)

        def report(done: int, total: int | None = None) -> None:
            bar.update(task, completed=done, total=total)  # rich keeps the total when None

        yield report


def _quiet(done: int, total: int | None = None) -> None:
    """Progress nobody is shown."""


class _PlainLines:
    """A line per tenth of the way, with the time spent and the time left at the pace so far."""

    def __init__(self, description: str, total: int | None, unit: str, out: TextIO,
                 clock: Callable[[], float]) -> None:
        self.description, self.total, self.unit, self.out, self.clock = description, total, unit, out, clock
        self.start = clock()
        self.step = 0  # the last tenth written

    def report(self, done: int, total: int | None = None) -> None:
        if total is not None:
            self.total = total
        if not self.total:
            return
        step = done * PLAIN_STEPS // self.total
        if step <= self.step:
            return
        self.step = step
        spent = self.clock() - self.start
        left = spent * (self.total - done) / done if done else 0.0
        self.out.write(f"{self.description}: {done}/{self.total} {self.unit} ({100 * done // self.total}%), "
                       f"{_duration(spent)} elapsed, about {_duration(left)} to go\n")
        self.out.flush()


def _duration(seconds: float) -> str:
    return str(timedelta(seconds=round(seconds)))
