"""Offline play: what ``bistrot serve`` hands the browser so that the page plays without it.

* **Pyodide** (the ``pyodide`` package of the npm registry, version :data:`PYODIDE_VERSION`):
  fetched once with the npm client (``npm pack``), checked against the pinned sha512
  :data:`PYODIDE_INTEGRITY`, and its five core files kept in the user's cache directory
  (:func:`cache_root`).  ``bistrot serve`` fetches it in the background on start when it is
  missing; ``bistrot offline fetch`` does it by hand (``--from`` a tarball brought over on a
  machine with no network).  Without it, online play works as ever and the page simply does not
  offer to install itself.
* **The bistrot wheel**: the pure-Python engines, bots, solver, :mod:`bistrot.wire` and
  :mod:`bistrot.local`, zipped from the installed package (:func:`build_wheel`).
* **The service worker** (``/sw.js``, at the root so that its scope covers every page route)
  with the list of everything to precache and a version made from their contents, so that any
  change to a file gives a new worker, a new cache, and the old cache deleted.

Routes: ``/sw.js``, ``/manifest.webmanifest``, ``/offline/status``,
``/offline/pyodide-<version>/<file>``, ``/offline/<wheel>``.  docs/offline.md tells the whole.

>>> name, data = build_wheel()
>>> name
'bistrot-0.1.0-py3-none-any.whl'
>>> import io, zipfile
>>> names = zipfile.ZipFile(io.BytesIO(data)).namelist()
>>> "bistrot/local.py" in names, "bistrot/omi/dd/python_solver.py" in names
(True, True)
>>> any(n.startswith(("bistrot/server", "bistrot/cli")) for n in names)
False
>>> build_wheel() == (name, data)  # the same files always give the same bytes
True
"""

from __future__ import annotations

import ast
import base64
import contextlib
import hashlib
import io
import json
import logging
import threading
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import FileResponse, JSONResponse, Response

import bistrot
from bistrot import games
from bistrot.pyodide import PYODIDE_FILES, PYODIDE_VERSION, PyodideFetcher

log = logging.getLogger("bistrot.server.offline")

MEDIA_TYPES = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".json": "application/json",
}

#: What the browser's wheel starts from: the local table, the registry, and each registered game's
#: packages whole (their engines and bots are imported by name from the registry, which no import
#: follows). Every bistrot module these import is added, followed import by import, so a new module
#: of the engines comes along by itself.
WHEEL_ROOTS = ("__init__.py", "py.typed", "local.py", "bots.py", "games.py", "wire.py")
WHEEL_DATA_SUFFIXES = (".py", ".json", ".typed")
#: Never in the browser: they need the server's or the terminal's third-party packages.
WHEEL_NEVER = ("server", "cli", "arena", "web", "__main__")
ZIP_TIME = (1980, 1, 1, 0, 0, 0)

STATIC_DIR = Path(__file__).resolve().parent.parent / "web" / "static"
SW_TEMPLATE = "js/sw.js"
NOT_PRECACHED = ("js/sw.js",)


# ---------------------------------------------------------------------- the bistrot wheel


def _imported_bistrot_modules(source: Path) -> set[str]:
    """The ``bistrot.x`` modules a file imports (``bistrot.omi.game`` gives ``omi``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "bistrot" and len(parts) > 1:
                found.add(parts[1])
    return found


def _wheel_sources(package: Path) -> list[tuple[str, Path]]:
    """(name in the wheel, file) of everything the browser needs, found by following imports."""
    chosen: dict[str, Path] = {}
    todo = [package / name for name in WHEEL_ROOTS]
    packages = [sub for entry in games.all_games() for sub in entry.packages]
    todo += [p for sub in packages for p in sorted((package / sub).rglob("*"))]
    while todo:
        path = todo.pop()
        if not path.is_file() or "__pycache__" in path.parts or path.suffix not in WHEEL_DATA_SUFFIXES:
            continue
        name = f"bistrot/{path.relative_to(package).as_posix()}"
        if name in chosen:
            continue
        chosen[name] = path
        if path.suffix != ".py":
            continue
        for top in _imported_bistrot_modules(path):
            if top in WHEEL_NEVER:
                raise RuntimeError(f"{name} imports bistrot.{top}, which cannot run in the browser")
            if (package / top).is_dir():
                todo += sorted((package / top).rglob("*"))
            elif (package / f"{top}.py").is_file():  # else a name of bistrot/__init__.py
                todo.append(package / f"{top}.py")
    return sorted(chosen.items())


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build_wheel(package: Path | None = None) -> tuple[str, bytes]:
    """``(file name, bytes)`` of a pure-Python wheel of the engines, the bots and the local table.

    Built from the installed package (``package`` defaults to it), with only the modules the
    browser needs, and reproducible: the same files give the same bytes.
    """
    package = package or Path(bistrot.__file__).resolve().parent
    version = bistrot.__version__
    info = f"bistrot-{version}.dist-info"
    entries = [(arc, path.read_bytes()) for arc, path in _wheel_sources(package)]
    entries.append((f"{info}/METADATA", (
        f"Metadata-Version: 2.1\nName: bistrot\nVersion: {version}\n"
        "Summary: bistrot's engines, computer players and local table, for the browser\n"
        "License: MIT\n"
    ).encode()))
    entries.append((f"{info}/WHEEL", (
        b"Wheel-Version: 1.0\nGenerator: bistrot.server.offline\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )))
    record = "".join(_record_line(name, data) + "\n" for name, data in entries) + f"{info}/RECORD,,\n"
    entries.append((f"{info}/RECORD", record.encode()))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in entries:
            item = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            item.compress_type = zipfile.ZIP_DEFLATED
            item.external_attr = 0o644 << 16
            wheel.writestr(item, data)
    return f"bistrot-{version}-py3-none-any.whl", buffer.getvalue()


# ---------------------------------------------------------------------- what the browser caches


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
            and not p.name.startswith(".")
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


def add_offline(
    app: FastAPI, static_dir: Path = STATIC_DIR, fetcher: PyodideFetcher | None = None
) -> OfflineAssets:
    """Add the offline routes to ``app``; ``app.state.offline`` is the :class:`OfflineAssets`."""
    assets = OfflineAssets(static_dir, fetcher)
    app.state.offline = assets

    def unavailable() -> JSONResponse:
        status = assets.status()
        return JSONResponse(
            {"code": "offline_unavailable", "message": status["message"] or "offline play is not ready"},
            status_code=503,
        )

    def not_found(name: str) -> JSONResponse:
        return JSONResponse({"code": "not_found", "message": f"no offline file {name!r}"}, status_code=404)

    # Plain functions: FastAPI runs them in its thread pool, so hashing the files (once per
    # change) never holds up the tables.
    @app.get("/offline/status", tags=["offline"])
    def offline_status() -> dict[str, Any]:
        """Whether this server can hand out offline play (Pyodide, the wheel, the service worker)."""
        assets.fetcher.start()
        return assets.status()

    @app.get("/sw.js", include_in_schema=False)
    def service_worker() -> Response:
        assets.fetcher.start()
        if assets.fetcher.state != "ready":
            return unavailable()
        return Response(
            assets.service_worker(),
            media_type="text/javascript",
            headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
        )

    @app.get("/manifest.webmanifest", include_in_schema=False)
    async def manifest() -> FileResponse:
        return FileResponse(static_dir / "manifest.webmanifest", media_type="application/manifest+json")

    @app.get("/offline/config.json", include_in_schema=False)
    def config() -> Response:
        return Response(assets.config(), media_type="application/json", headers={"Cache-Control": "no-cache"})

    @app.get(f"/offline/pyodide-{PYODIDE_VERSION}/{{name}}", include_in_schema=False)
    async def pyodide_file(name: str) -> Response:
        if name not in PYODIDE_FILES:
            return not_found(name)
        if assets.fetcher.state != "ready":
            return unavailable()
        return FileResponse(
            assets.fetcher.folder / name,
            media_type=MEDIA_TYPES[Path(name).suffix],
            headers={"Cache-Control": "public, max-age=31536000, immutable"},
        )

    @app.get("/offline/{name}", include_in_schema=False)
    def wheel(name: str) -> Response:
        wheel_name, data = assets.wheel()
        if name != wheel_name:
            return not_found(name)
        return Response(data, media_type="application/zip", headers={"Cache-Control": "no-cache"})

    return assets


def start_fetch(app: FastAPI) -> None:
    """Fetch Pyodide in the background if the app serves offline play and lacks it (``bistrot serve``)."""
    assets = getattr(app.state, "offline", None)
    if assets is not None:
        with contextlib.suppress(Exception):
            assets.fetcher.start()
