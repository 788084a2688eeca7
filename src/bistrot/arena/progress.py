"""The arenas' progress bar on standard error (rich), gone when the run ends."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def progress_bar(description: str, total: int, unit: str) -> Iterator[Callable[[int], None]]:
    """A bar of ``total`` ``unit`` (games, deals); yields the callback a run reports to."""
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
    with Progress(*columns, transient=True, console=Console(file=sys.stderr)) as bar:
        task = bar.add_task(description, total=total)
        yield lambda done: bar.update(task, completed=done)
