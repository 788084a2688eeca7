"""A child process's output, read as it comes by a thread of its own (an unread pipe fills, and
the process then blocks in its next write)."""

from __future__ import annotations

import threading
from typing import IO


def read_output(pipe: IO[str], into: list[str]) -> threading.Thread:
    """Start a daemon thread that appends each line of ``pipe`` to ``into`` until the process
    closes it, then closes it: the pipe is the thread's (closed under it by a ``stop()`` that gave
    up waiting on a loaded machine, it died reading).  Join it to have the whole output."""

    def read() -> None:
        with pipe:
            for line in pipe:
                into.append(line)

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread
