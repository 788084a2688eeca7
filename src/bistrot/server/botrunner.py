"""Computer moves, computed away from the event loop.

Each move builds a fresh bot of the wanted level seeded for that very move (the table actor
derives the seed from the table's seed, the seat and the seq), so a replayed or recovered game
gets the same computer play.  The work runs in a process pool, so a slow (hard) bot holds no
lock the server needs; a thread pool is the lighter option for tests and small machines.

>>> from bistrot.omi import OmiGame, OmiRules
>>> game = OmiGame.new(OmiRules(), seed=1)
>>> choose("bistrot.omi.bots.easy:EasyOmiBot", 7, game.view(game.to_move)) in game.legal_actions()
True
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bistrot import games


def choose(bot: str, seed: int, view: dict[str, Any]) -> str:
    """The action a new bot of class ``bot`` (``"module:Class"``, from the game registry) seeded
    with ``seed`` takes from ``view``.  The class is named, not the game, so a worker process
    need not know every game registered in the server (a test's, say)."""
    action: str = games.load(bot)(seed=seed).act(view)
    return action


def warm() -> None:
    """In a new worker: load every game's engine, and make one of each of its computer players
    (which loads what a player loads when it is made: DDS's set-up, the Omi trump table), before
    the first move, so that no move spends its time budget on it."""
    for entry in games.all_games():
        entry.game_class()
        for level in entry.levels:
            entry.bot_class(level)(seed=0)


def watch_parent(parent: int, every_s: float = 1.0) -> None:
    """In a pool worker: exit as soon as the server that started it is gone (even killed with
    SIGKILL, which gives the pool no chance to stop its workers)."""

    def watch() -> None:
        while True:
            time.sleep(every_s)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="bistrot-parent-watch", daemon=True).start()


class BotRunner:
    """A pool of workers computing computer moves; ``kind`` is ``process`` or ``thread``."""

    def __init__(self, kind: str = "process", workers: int = 1) -> None:
        if kind not in ("process", "thread"):
            raise ValueError(f"bot executor must be 'process' or 'thread', not {kind!r}")
        self.kind = kind
        self.workers = workers
        self._executor: Executor | None = None

    def start(self) -> None:
        """Create the pool and start its workers."""
        if self.kind == "process":
            context = multiprocessing.get_context("spawn")  # safe beside the server's threads
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=context,
                initializer=watch_parent,
                initargs=(os.getpid(),),
            )
            for _ in range(self.workers):
                self._executor.submit(warm)
        else:
            self._executor = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="bistrot-bot")

    async def choose(self, game: str, level: str, seed: int, view: dict[str, Any]) -> str:
        """The bot's action, computed in the pool; a crashed pool is replaced once."""
        loop = asyncio.get_running_loop()
        if self._executor is None:
            raise RuntimeError("the bot runner is not started")
        entry = games.get(game)
        entry.bot_class(level)  # a clear error here for a level the game lacks
        bot = entry.bots[level]
        try:
            return await loop.run_in_executor(self._executor, choose, bot, seed, view)
        except BrokenProcessPool:
            self.close()
            self.start()
            assert self._executor is not None
            return await loop.run_in_executor(self._executor, choose, bot, seed, view)

    def close(self) -> None:
        """Stop the workers; moves in flight are dropped."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
