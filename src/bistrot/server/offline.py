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
import os
import shutil
import subprocess
import tarfile
import tempfile
import threading
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import FileResponse, JSONResponse, Response

import bistrot
from bistrot import games

log = logging.getLogger("bistrot.server.offline")

PYODIDE_VERSION = "314.0.7"
#: The npm registry's ``dist.integrity`` of ``pyodide@314.0.7`` (the sha512 of its tarball).
PYODIDE_INTEGRITY = (
    "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A=="
)
#: The core files the page loads (the rest of the npm package is not needed).
PYODIDE_FILES = (
    "pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json",
)
#: Kept beside them for the record (Pyodide is MPL-2.0: its package.json says so); not served.
PYODIDE_EXTRAS = ("package.json", "README.md")
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


class OfflineUnavailable(Exception):
    """Pyodide could not be had; the message says why and what to do."""


# ---------------------------------------------------------------------- Pyodide files


def cache_root() -> Path:
    """Where fetched files are kept: ``$BISTROT_CACHE_DIR``, else ``$XDG_CACHE_HOME/bistrot``,
    else ``~/.cache/bistrot``."""
    explicit = os.environ.get("BISTROT_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "bistrot"


def pyodide_dir(root: Path | None = None) -> Path:
    """The folder of this version's Pyodide files."""
    return (root or cache_root()) / f"pyodide-{PYODIDE_VERSION}"


def pyodide_ready(root: Path | None = None) -> bool:
    """Whether every core file is in place (they are only ever put there after the check)."""
    folder = pyodide_dir(root)
    return all((folder / name).is_file() for name in PYODIDE_FILES)


def integrity_of(path: Path) -> str:
    """The npm-style ``sha512-<base64>`` integrity of a file."""
    digest = hashlib.sha512()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return "sha512-" + base64.b64encode(digest.digest()).decode()


def install_tarball(tarball: Path, root: Path | None = None) -> Path:
    """Check ``tarball`` against the pinned integrity and unpack the core files; their folder.

    The files appear all at once (unpacked beside, then renamed), so a reader never sees half
    of them.
    """
    found = integrity_of(tarball)
    if found != PYODIDE_INTEGRITY:
        raise OfflineUnavailable(
            f"{tarball.name} is not pyodide {PYODIDE_VERSION} as published: its sha512 is {found[:30]}..., "
            f"expected {PYODIDE_INTEGRITY[:30]}..."
        )
    target = pyodide_dir(root)
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".pyodide-", dir=target.parent))
    try:
        with tarfile.open(tarball, "r:gz") as tar:
            for name in PYODIDE_FILES + PYODIDE_EXTRAS:
                try:
                    member = tar.getmember(f"package/{name}")
                except KeyError:
                    if name in PYODIDE_EXTRAS:
                        continue
                    raise OfflineUnavailable(f"{tarball.name} has no {name}") from None
                source = tar.extractfile(member)
                if source is None:
                    raise OfflineUnavailable(f"{tarball.name}: {name} is not a file")
                with source, (work / name).open("wb") as out:
                    shutil.copyfileobj(source, out)
        work.chmod(0o755)  # mkdtemp made it private; the files are public knowledge
        if target.exists():
            if pyodide_ready(root):  # another process checked and placed the same files meanwhile
                return target
            shutil.rmtree(target)  # a broken folder left by hand
        try:
            work.rename(target)
        except OSError:
            if not pyodide_ready(root):
                raise
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)
    return target


def fetch_pyodide(root: Path | None = None, npm: str | None = None, timeout_s: float = 600.0) -> Path:
    """Get Pyodide with the npm client (``npm pack pyodide@VERSION``), check it, unpack it.

    Uses the machine's npm configuration (registry, proxy).  Raises :class:`OfflineUnavailable`
    with a message for people when npm is missing or cannot get it.
    """
    if pyodide_ready(root):
        return pyodide_dir(root)
    npm = npm or shutil.which("npm")
    if not npm:
        raise OfflineUnavailable(
            f"npm is not installed, so Pyodide {PYODIDE_VERSION} cannot be fetched. Install npm "
            f"(apt-get install npm), or on a machine with npm run 'npm pack pyodide@{PYODIDE_VERSION}' "
            f"and here 'bistrot offline fetch --from pyodide-{PYODIDE_VERSION}.tgz'"
        )
    with tempfile.TemporaryDirectory(prefix="bistrot-npm-") as tmp:
        try:
            done = subprocess.run(
                [npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", tmp, "--silent"],
                cwd=tmp,
                capture_output=True,
                text=True,
                timeout=timeout_s,
                check=False,
                env={**os.environ, "npm_config_update_notifier": "false", "npm_config_fund": "false"},
            )
        except (OSError, subprocess.TimeoutExpired) as err:
            raise OfflineUnavailable(f"npm could not fetch pyodide@{PYODIDE_VERSION}: {err}") from None
        tarball = Path(tmp) / f"pyodide-{PYODIDE_VERSION}.tgz"
        if done.returncode != 0 or not tarball.is_file():
            lines = [line for line in (done.stderr or done.stdout).splitlines() if line.strip()]
            reason = " / ".join(lines[-3:]) or f"exit status {done.returncode}"
            raise OfflineUnavailable(
                f"npm could not fetch pyodide@{PYODIDE_VERSION} (is the network down?): {reason}"
            )
        return install_tarball(tarball, root)


class PyodideFetcher:
    """The Pyodide files of one server: ``ready``, ``fetching``, ``missing`` or ``failed``.

    :meth:`start` fetches them in a background thread once; online play never waits for it.
    """

    def __init__(self, root: Path | None = None) -> None:
        self.root = root
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.error: str | None = None

    @property
    def folder(self) -> Path:
        """Where the files are (or will be)."""
        return pyodide_dir(self.root)

    @property
    def state(self) -> str:
        """``ready``, ``fetching``, ``failed`` or ``missing``."""
        if pyodide_ready(self.root):
            return "ready"
        if self._thread is not None and self._thread.is_alive():
            return "fetching"
        return "failed" if self.error else "missing"

    def start(self) -> None:
        """Fetch in the background unless the files are there or a fetch already ran."""
        with self._lock:
            if self._thread is not None or pyodide_ready(self.root):
                return
            if os.environ.get("BISTROT_OFFLINE_FETCH", "1").lower() in ("0", "no", "off", "false"):
                self.error = "fetching Pyodide is off (BISTROT_OFFLINE_FETCH=0): run 'bistrot offline fetch'"
                return
            self._thread = threading.Thread(target=self._run, name="bistrot-pyodide-fetch", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        log.info("offline play: fetching Pyodide %s with npm (once)", PYODIDE_VERSION)
        try:
            folder = fetch_pyodide(self.root)
        except OfflineUnavailable as err:
            self.error = str(err)
            log.warning(
                "offline play is not available: %s. Online play works as usual. "
                "Run 'bistrot offline fetch' when there is a network.",
                err,
            )
        except Exception as err:  # never take the server down for the offline extra
            self.error = f"{type(err).__name__}: {err}"
            log.exception("offline play: fetching Pyodide failed")
        else:
            log.info("offline play: Pyodide %s is in %s", PYODIDE_VERSION, folder)


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
