"""The lobby and ratings on a cluster (issue 33): `bistrot serve` nodes on a throwaway PostgreSQL
and Redis, one behind a throwaway nginx configured as docs/deploy.md says.

Players asking "Play now" through different nodes meet at one table, and a rated game is rated
exactly once when its owner node is killed as its last action is being stored.
"""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import pytest
from cluster_harness import PagePlayer, alive, check_table, live_owner, next_mover, start_nodes
from server_harness import ProcessServer, http
from store_rooms import make, postgres_rows, replayed

from bistrot import games
from bistrot.server.players import HEADER
from tests.redis_server import RedisServer, redis_server_fixture  # noqa: F401 (the session's Redis)

#: What these tests need (tests/lanes.py).
pytestmark = [pytest.mark.cluster, pytest.mark.postgres, pytest.mark.redis, pytest.mark.process,
              pytest.mark.nginx]  # fmt: skip

if TYPE_CHECKING:
    from tests.postgres_server import PostgresServer

pytest_plugins = ["tests.postgres_server"]


def rows(db_url: str, sql: str) -> list[tuple[Any, ...]]:
    return list(postgres_rows(db_url)(sql))


def ask_at_once(urls: list[str], people: list[dict[str, Any]], game: str, rules: dict[str, Any]) -> list[Any]:
    """Each person asks "Play now" through their url, all at the same moment."""
    answers: list[Any] = [None] * len(people)
    start = threading.Barrier(len(people))

    def ask(i: int) -> None:
        start.wait()
        with http(urls[i]) as client:
            answers[i] = client.post(
                "/api/quickmatch", json={"game": game, "rules": rules}, headers={HEADER: people[i]["key"]}
            )

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(len(people))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def test_play_now_through_different_nodes_meets_at_one_table(
    postgres: PostgresServer, redis_server: RedisServer, tmp_path: Path
) -> None:
    from tests.nginx_server import NginxServer

    db_url = postgres.create_database("cluster_quickmatch")
    nodes = start_nodes(tmp_path, db_url, redis_server.url(), count=2)
    try:
        with NginxServer([node.url.removeprefix("http://") for node in nodes]) as proxy:
            with http(proxy.url) as client:
                people = [make(client, f"P{i}") for i in range(8)]
            # Four through the two nodes, two each; four more through nginx.
            for urls, batch in (
                ([nodes[i % 2].url for i in range(4)], people[:4]),
                ([proxy.url] * 4, people[4:]),
            ):
                answers = ask_at_once(urls, batch, "omi", {"target": 3})
                assert all(a.status_code == 201 for a in answers), [a.text for a in answers]
                seated = [a.json() for a in answers]
                assert len({s["table"] for s in seated}) == 1, seated  # they met
                assert sorted(s["seat"] for s in seated) == [0, 1, 2, 3]
                assert sorted(s["status"] for s in seated)[0] == "playing"
                table = seated[0]["table"]
                assert sorted(
                    r[0] for r in rows(db_url, f"SELECT profile FROM seats WHERE table_id = '{table}'")
                ) == (sorted(p["profile"] for p in batch))
            with http(proxy.url) as client:
                assert client.get("/api/lobby").json()["tables"] == []  # both tables in play
    finally:
        for node in nodes:
            node.stop()


def ends_the_game(db_url: str, table: str, seat: int, action: str) -> bool:
    """Whether ``action`` by ``seat`` ends the game, replaying the stored table with the library."""
    [(game, rules, seed)] = rows(db_url, f"SELECT game, rules, seed FROM tables WHERE id = '{table}'")
    entry = games.get(game)
    done = rows(db_url, f"SELECT actor, action FROM events WHERE table_id = '{table}' ORDER BY seq")
    now = entry.game_class().replay(entry.rules_from_dict(rules), seed, [(a, act) for a, act in done])
    now.apply(action, seat)
    return bool(now.is_over)


def oti_choice(legal: list[str], rng: random.Random) -> str:
    if "ready" in legal:
        return "ready"
    plays = [a for a in legal if a != "pickup"]
    return rng.choice(plays) if plays else legal[0]


def test_a_rated_game_is_rated_once_when_its_owner_dies_at_the_end(
    postgres: PostgresServer, redis_server: RedisServer, tmp_path: Path
) -> None:
    db_url = postgres.create_database("cluster_rated_end")
    nodes = start_nodes(tmp_path, db_url, redis_server.url(), count=2)
    try:
        with http(nodes[0].url) as client:
            people = [make(client, "Ama"), make(client, "Kasun")]
        seated = [a.json() for a in ask_at_once([n.url for n in nodes], people, "oti", {"players": 2})]
        table = seated[0]["table"]
        assert seated[1]["table"] == table
        rng = random.Random(4)
        players = [PagePlayer(nodes, table, s["token"], rng) for s in seated]
        killed: ProcessServer | None = None
        while (mover := next_mover(players, within_s=60)) is not None:
            action = oti_choice(mover.view["legal"], rng)
            last = killed is None and ends_the_game(db_url, table, mover.view["seat"], action)
            act_id = mover.send_act(action)
            if last:
                # The owner dies as the last action is being stored: before or after its commit.
                killed = live_owner(nodes, db_url, table)
                killed.kill()
            answer = mover.answer(act_id, action, within_s=60)
            assert answer["type"] == "ack", answer
        assert killed is not None and not alive(killed)
        check_table(db_url, table, players)
        for player in players:
            player.close()
        # Rated exactly once, as openskill computes it from the stored result.
        assert rows(db_url, f"SELECT count(*) FROM rated_games WHERE table_id = '{table}'") == [(1,)]
        assert rows(db_url, "SELECT count(*) FROM rating_changes") == [(2,)]
        stored = {
            p: (mu, sigma, n)
            for p, mu, sigma, n in rows(db_url, "SELECT profile, mu, sigma, games FROM ratings")
        }
        expected = replayed(SimpleNamespace(rows=postgres_rows(db_url)), "oti")
        assert set(stored) == set(expected) == {p["profile"] for p in people}
        for profile, (mu, sigma, count) in stored.items():
            assert (mu, sigma, count) == pytest.approx(expected[profile])
        [(places,)] = rows(db_url, "SELECT places FROM rated_games")
        assert sorted(s["place"] for s in (json.loads(places) if isinstance(places, str) else places)) == [
            0,
            1,
        ]
    finally:
        for node in nodes:
            node.stop()
