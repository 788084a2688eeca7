"""Offline play's routes: what ``bistrot serve`` hands the browser so that the page plays without it.

``/sw.js`` (at the root, so that the service worker's scope covers every page route),
``/manifest.webmanifest``, ``/offline/status``, ``/offline/config.json``,
``/offline/pyodide-<version>/<file>``, ``/offline/<wheel>`` (:func:`add_offline`), and the
background fetch of Pyodide on start (:func:`start_fetch`).  What they serve comes from elsewhere:

* **Pyodide** (the ``pyodide`` package of the npm registry): fetched, checked against its pinned
  sha512 and kept in the user's cache directory by :mod:`bistrot.pyodide`.  Without it, online
  play works as ever and the page simply does not offer to install itself.
* **The bistrot wheel**: built by :mod:`bistrot.server.offline_wheel`.
* **The service worker**, its precache list and version, and the status:
  :mod:`bistrot.server.offline_assets`.

docs/offline.md tells the whole.
"""

from __future__ import annotations

import contextlib
import logging
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import FileResponse, JSONResponse, Response

from bistrot.pyodide import PYODIDE_FILES, PYODIDE_VERSION, PyodideFetcher
from bistrot.server.offline_assets import OfflineAssets
from bistrot.server.settings import STATIC_DIR

log = logging.getLogger("bistrot.server.offline")

MEDIA_TYPES = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".json": "application/json",
}


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
