"""The commands that need no server never import it: ``bistrot solve`` or ``--help`` work where
the server's dependencies are broken or missing (as SQLAlchemy 2.1 without greenlet was), and
start without paying for their import."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bistrot.bots import make_bot
from bistrot.oti import OtiGame, OtiRules

#: Imported by the server only; each is made unimportable in the command's process.
SERVER_ONLY = ("bistrot.server", "fastapi", "starlette", "uvicorn", "sqlalchemy", "alembic", "psycopg",
               "redis", "pydantic")
BLOCK = "import sys\nfor name in {names!r}: sys.modules[name] = None\n"


def run_without_server(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    code = BLOCK.format(names=SERVER_ONLY) + f"from bistrot.cli import main\nsys.exit(main({args!r}))\n"
    return subprocess.run([sys.executable, "-c", code], input=stdin, capture_output=True, text=True,
                          timeout=300, check=False)


def test_blocking_works() -> None:
    """The check itself can fail: ``serve`` does need the server, and says so by failing."""
    done = run_without_server(["serve", "--port", "0", "--db", "/nonexistent/dir/x.db"])
    assert done.returncode != 0
    assert "ModuleNotFoundError" in done.stderr or "ImportError" in done.stderr


@pytest.mark.parametrize("command", ["play", "arena", "serve", "offline", "solve", "analyze"])
def test_help_never_imports_the_server(command: str) -> None:
    done = run_without_server([command, "--help"])
    assert done.returncode == 0, done.stderr
    assert f"usage: bistrot {command}" in done.stdout


@pytest.mark.slow
def test_solve_arena_play_and_analyze_never_import_the_server(tmp_path: Path) -> None:
    done = run_without_server(["solve", ".AQ..", "K.K..", "AJ...", "Q.J..", "--trump", "H", "--json"])
    assert done.returncode == 0, done.stderr
    assert '"AH": 2' in done.stdout

    done = run_without_server(["arena", "omi", "--bots", "easy,medium", "--deals", "2", "--workers", "1"])
    assert done.returncode == 0, done.stderr

    done = run_without_server(["play", "oti", "--players", "2"], stdin="quit\n")
    assert done.returncode == 0, done.stderr
    assert "Deal code" in done.stdout

    game = OtiGame.new(OtiRules(players=2), 5)
    bots = [make_bot("oti", "easy", seed=s) for s in range(2)]
    while not game.is_over:
        seat = game.actors()[0]
        game.apply(bots[seat].act(game.view(seat)), seat=seat)
    (tmp_path / "game.txt").write_text(game.record())
    done = run_without_server(["analyze", str(tmp_path / "game.txt"), "--samples", "4", "--json"])
    assert done.returncode == 0, done.stderr
