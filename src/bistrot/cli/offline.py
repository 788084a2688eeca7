"""``bistrot offline``: the files that let the page play without a network (docs/offline.md).

``bistrot offline fetch`` gets Pyodide with npm and checks it against the pinned sha512 (``bistrot
serve`` does the same in the background when it is missing); ``--from FILE`` takes a tarball made
elsewhere with ``npm pack pyodide@VERSION``.  ``bistrot offline status`` says what is there.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``offline``."""
    from bistrot.pyodide import PYODIDE_VERSION

    offline = subparsers.add_parser(
        "offline",
        help="get or check the files for offline play (Pyodide, from the npm registry)",
        description=f"Offline play runs the engines in the browser under Pyodide {PYODIDE_VERSION}, which "
        "bistrot serve hands to the page. Files are kept in $BISTROT_CACHE_DIR, else ~/.cache/bistrot.",
    )
    actions = offline.add_subparsers(dest="offline_command", required=True, metavar="ACTION")
    fetch = actions.add_parser("fetch", help=f"get Pyodide {PYODIDE_VERSION} with npm (or --from a tarball)")
    fetch.add_argument(
        "--from", dest="tarball", type=Path, default=None,
        help=f"use this pyodide-{PYODIDE_VERSION}.tgz (made with 'npm pack pyodide@{PYODIDE_VERSION}')",
    )
    fetch.set_defaults(run=_fetch)
    status = actions.add_parser("status", help="say whether offline play is ready, and what it weighs")
    status.set_defaults(run=_status)


def _fetch(args: argparse.Namespace) -> int:
    from bistrot.pyodide import (
        PYODIDE_VERSION,
        OfflineUnavailable,
        fetch_pyodide,
        install_tarball,
        pyodide_ready,
    )

    try:
        if args.tarball is not None:
            if not args.tarball.is_file():
                print(f"bistrot offline fetch: no file {args.tarball}", file=sys.stderr)
                return 2
            folder = install_tarball(args.tarball)
        elif pyodide_ready():
            folder = fetch_pyodide()
            print(f"Pyodide {PYODIDE_VERSION} is already in {folder}")
            return 0
        else:
            print(f"fetching Pyodide {PYODIDE_VERSION} with npm...", flush=True)
            folder = fetch_pyodide()
    except OfflineUnavailable as err:
        print(f"bistrot offline fetch: {err}", file=sys.stderr)
        return 1
    print(f"Pyodide {PYODIDE_VERSION} checked and ready in {folder}")
    return 0


def _status(args: argparse.Namespace) -> int:
    from bistrot.pyodide import PYODIDE_VERSION, PyodideFetcher, pyodide_dir, pyodide_ready
    from bistrot.server.offline_assets import OfflineAssets  # what the server's page precaches

    if not pyodide_ready():
        print(f"offline play: not ready (no Pyodide {PYODIDE_VERSION} in {pyodide_dir()}); "
              "run 'bistrot offline fetch'")
        return 1
    pre = OfflineAssets(fetcher=PyodideFetcher()).precache()
    print(f"offline play: ready (Pyodide {PYODIDE_VERSION} in {pyodide_dir()})")
    print(f"the page caches {len(pre.urls)} files, {pre.bytes:,} bytes (version {pre.version})")
    return 0
