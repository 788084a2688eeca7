"""What the browser caches for offline play, and what the server says about it (docs/offline.md).

:class:`OfflineAssets` holds it all: the Pyodide files (fetched by :mod:`bistrot.pyodide`), the
wheel (:mod:`bistrot.server.offline_wheel`), ``/offline/config.json``, the status, and the
**service worker** (``/sw.js``) with the list of everything to precache and a version made from
their contents, so that any change to a file gives a new worker, a new cache, and the old cache
deleted.  :mod:`bistrot.server.offline` serves them; ``bistrot offline status`` reads the list.
"""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bistrot import games
from bistrot.pyodide import PYODIDE_FILES, PYODIDE_VERSION, PyodideFetcher
from bistrot.server.offline_wheel import build_wheel
from bistrot.server.settings import STATIC_DIR

SW_TEMPLATE = "js/sw.js"
#: Served but never cached: the worker itself, and what only the type checker reads (the page's
#: JSDoc types, type declarations): the page never loads them.
NOT_PRECACHED = ("js/sw.js", "js/protocol-types.js")
TYPES_ONLY = (".d.ts", ".d.mts")


@dataclass(frozen=True)
class Precache:
    """The files the service worker caches on first visit: URLs, total bytes, and a version."""

    version: str
    urls: tuple[str, ...]
    bytes: int


class OfflineAssets:
    """Everything offline play serves, computed lazily and recomputed when a file changes."""

    def __init__(self, static_dir: Path = STATIC_DIR, fetcher: PyodideFetcher | None = None) -> None:
        self.static_dir = static_dir
        self.fetcher = fetcher or PyodideFetcher()
        self._wheel: tuple[str, bytes] | None = None
        self._precache: tuple[tuple[Any, ...], Precache] | None = None
        self._lock = threading.Lock()

    @property
    def pyodide_url(self) -> str:
        """The folder URL the worker loads Pyodide from (versioned: its files never change)."""
        return f"/offline/pyodide-{PYODIDE_VERSION}/"

    def wheel(self) -> tuple[str, bytes]:
        """The wheel, built once per server process."""
        with self._lock:
            if self._wheel is None:
                self._wheel = build_wheel()
            return self._wheel

    def wheel_url(self) -> str:
        """Where the worker gets the wheel."""
        return f"/offline/{self.wheel()[0]}"

    def config(self) -> bytes:
        """``/offline/config.json``: where the worker finds Pyodide and the wheel."""
        return json.dumps({"pyodide": self.pyodide_url, "wheel": self.wheel_url()}).encode()

    def _static_files(self) -> list[Path]:
        return sorted(
            p for p in self.static_dir.rglob("*")
            if p.is_file() and p.relative_to(self.static_dir).as_posix() not in NOT_PRECACHED
            and not p.name.startswith(".") and not p.name.endswith(TYPES_ONLY)
        )

    def _entries(self) -> list[tuple[str, Path | None]]:
        """(URL, file) of everything to precache; ``None`` for what is made in memory."""
        entries: list[tuple[str, Path | None]] = [
            ("/", self.static_dir / "index.html"),
            ("/manifest.webmanifest", self.static_dir / "manifest.webmanifest"),
        ]
        for path in self._static_files():
            rel = path.relative_to(self.static_dir).as_posix()
            if rel != "manifest.webmanifest":
                entries.append((f"/static/{rel}", path))
        folder = self.fetcher.folder
        entries += [(self.pyodide_url + name, folder / name) for name in PYODIDE_FILES]
        entries.append((self.wheel_url(), None))
        entries.append(("/offline/config.json", None))
        entries.append(("/api/games", None))  # the page builds its choices from it, offline too
        return entries

    def _made_in_memory(self, url: str) -> bytes:
        if url == self.wheel_url():
            return self.wheel()[1]
        if url == "/api/games":
            return games_json()
        return self.config()

    def precache(self) -> Precache:
        """The precache list and its version (recomputed only when a file's size or time changed)."""
        entries = self._entries()
        stamp = tuple((url, p.stat().st_mtime_ns, p.stat().st_size) if p else (url,) for url, p in entries)
        cached = self._precache
        if cached is not None and cached[0] == stamp:
            return cached[1]
        total = hashlib.sha256()
        size = 0
        for url, path in entries:
            data_hash = hashlib.sha256()
            if path is None:
                data = self._made_in_memory(url)
                data_hash.update(data)
                size += len(data)
            else:
                with path.open("rb") as f:
                    while block := f.read(1 << 20):
                        data_hash.update(block)
                size += path.stat().st_size
            total.update(f"{url}\0{data_hash.hexdigest()}\n".encode())
        result = Precache(total.hexdigest()[:16], tuple(url for url, _ in entries), size)
        self._precache = (stamp, result)
        return result

    def status(self) -> dict[str, Any]:
        """``GET /offline/status``."""
        state = self.fetcher.state
        body: dict[str, Any] = {
            "ready": state == "ready",
            "state": state,
            "pyodide": PYODIDE_VERSION,
            "message": None,
            "version": None,
            "bytes": None,
        }
        if state == "ready":
            pre = self.precache()
            body.update(version=pre.version, bytes=pre.bytes, pyodide_url=self.pyodide_url,
                        wheel_url=self.wheel_url())
        elif state == "failed":
            body["message"] = self.fetcher.error
        elif state == "fetching":
            body["message"] = f"this server is fetching Pyodide {PYODIDE_VERSION}; offline play comes later"
        else:
            body["message"] = "this server has no Pyodide files: run 'bistrot offline fetch'"
        return body

    def service_worker(self) -> str:
        """``/sw.js``: the worker's code with its version and precache list written in."""
        pre = self.precache()
        # The first line names offline.py, the module that serves /sw.js; left as it was, since a
        # worker whose bytes change is a new worker in every browser.
        head = (
            "// Written by bistrot serve (bistrot/server/offline.py): the version changes with any file.\n"
            f"const VERSION = {json.dumps(pre.version)};\n"
            f"const PRECACHE = {json.dumps(list(pre.urls))};\n"
            f"const PRECACHE_BYTES = {pre.bytes};\n"
        )
        return head + (self.static_dir / SW_TEMPLATE).read_text(encoding="utf-8")


def games_json() -> bytes:
    """``GET /api/games``: every registered game, its rules options, levels and modes."""
    return json.dumps({"games": [entry.describe() for entry in games.all_games()]}).encode()
