"""The arena on Ray (``--ray``): the same answer as the process pool on a real two-node cluster on
loopback, a node killed mid-run changing nothing; ``--checkpoint`` resuming a stopped run; and the
option's message where Ray is not installed."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bistrot.arena import omi, rotation
from bistrot.arena.runner import Where, load_checkpoint
from bistrot.games import get
from bistrot.oti import OtiRules
from tests.ray_cluster import RayCluster, ray_cluster

OTI = get("oti")


def same_answer(result: dict[str, Any]) -> dict[str, Any]:
    """A report without its think times (wall time, which no two runs share)."""
    return {k: v for k, v in result.items() if k != "think_ms"}


def omi_run(where: Where, progress: Any = None) -> dict[str, Any]:
    return omi.run_arena(["medium", "easy"], deals=6, seed=11, dd=True, where=where, progress=progress)


def oti_run(where: Where) -> dict[str, Any]:
    return rotation.run_arena(OTI, ["medium", "easy"], games=6, players=3, seed=11, rules=OtiRules(),
                              where=where)


@pytest.fixture(scope="module")
def cluster() -> Iterator[RayCluster]:
    with ray_cluster() as running:
        yield running


@pytest.mark.ray
@pytest.mark.slow
def test_ray_gives_the_process_pools_results_for_omi_and_oti(cluster: RayCluster) -> None:
    pool = omi_run(Where(workers=2))
    on_ray = omi_run(Where(ray=cluster.address))
    assert same_answer(on_ray) == same_answer(pool)
    assert on_ray["per_deal"] == pool["per_deal"] and on_ray["dd_cards"]["medium"] > 0
    assert same_answer(oti_run(Where(ray=cluster.address))) == same_answer(oti_run(Where(workers=2)))


@pytest.mark.ray
@pytest.mark.slow
def test_a_node_killed_mid_run_changes_nothing(cluster: RayCluster) -> None:
    """The second node dies as the first deals come back: its tasks run again on the head."""
    def kill_once(done: int) -> None:
        if cluster.node.poll() is None:
            cluster.kill_node()

    on_ray = omi_run(Where(ray=cluster.address), progress=kill_once)
    assert cluster.node.poll() is not None  # it was killed mid-run
    assert same_answer(on_ray) == same_answer(omi_run(Where(workers=1)))


class Stop(Exception):
    pass


def test_a_stopped_run_resumes_from_its_checkpoint(tmp_path: Path) -> None:
    checkpoint = str(tmp_path / "run.ckpt")
    seen: list[int] = []

    def stop_after_three(done: int) -> None:
        seen.append(done)
        if done >= 3:
            raise Stop

    with pytest.raises(Stop):
        omi_run(Where(workers=1, checkpoint=checkpoint), progress=stop_after_three)
    resumed: list[int] = []
    result = omi_run(Where(workers=2, checkpoint=checkpoint), progress=resumed.append)
    assert resumed[0] == 3  # the three saved deals were not played again
    assert same_answer(result) == same_answer(omi_run(Where(workers=1)))


def test_a_checkpoint_of_another_run_is_refused(tmp_path: Path) -> None:
    checkpoint = str(tmp_path / "run.ckpt")
    omi.run_arena(["medium", "easy"], deals=2, seed=1, dd=False, where=Where(checkpoint=checkpoint))
    before = Path(checkpoint).read_bytes()
    with pytest.raises(ValueError, match="checkpoint of another run"):
        omi.run_arena(["medium", "easy"], deals=2, seed=2, dd=False, where=Where(checkpoint=checkpoint))
    assert Path(checkpoint).read_bytes() == before
    with pytest.raises(ValueError, match="not an arena checkpoint"):
        Path(checkpoint).write_bytes(b"garbage")
        load_checkpoint(checkpoint, "")


def test_without_ray_the_option_says_how_to_install_it() -> None:
    code = ("import sys; sys.modules['ray'] = None\n"
            "from bistrot.cli import main\n"
            "main(['arena', 'omi', '--deals', '1', '--ray'])")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode != 0
    assert "pip install 'bistrot[ray]'" in run.stderr and "Traceback" not in run.stderr


def test_the_command_resumes_a_finished_oti_run_from_its_checkpoint(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bistrot.cli import main

    args = ["arena", "oti", "--games", "4", "--players", "2", "--seed", "5", "--json",
            "--checkpoint", str(tmp_path / "oti.ckpt")]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(args) == 0  # every game saved: nothing is played again, the same report
    again = json.loads(capsys.readouterr().out)
    assert again == first  # think times too: they are the saved games'
