"""Failover as a person sees it: the page follows its table from a killed node to another, and
from a node that hangs.

Three ``bistrot serve`` nodes on a throwaway PostgreSQL and Redis, nginx in front configured by
docs/deploy.md's own block; the page (Debian's Chromium) plays Omi against the computer through
nginx. The table's owner node is killed with SIGKILL mid-hand, the page's WebSocket being on that
node (it dies with it) or on another node relaying it to the owner (closed 1012): either way the
page reconnects by itself through nginx to a live node, shows no error and says it is back only
once it is, shows the same hand, and the match is played to its end, the computer players now
run by the node that took the table over.

A node that hangs instead (SIGSTOP, as a long GC pause or a frozen VM does) closes nothing: the
page's socket on it just falls silent.  The page must notice by itself (its keep-alive:
docs/protocol.md) and be back at its table through nginx while the node is still paused.
"""

from __future__ import annotations

import re
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import pytest
from cluster_harness import alive, check_stored, live_owner, start_nodes, stored

from tests.nginx_server import NginxServer
from tests.redis_server import RedisServer, redis_server_fixture  # noqa: F401 (the session's Redis)

from .browser_kit import go
from .omi_driver import hand_shown, play_one, play_until_over, wait_for_turn

#: What these tests need (tests/lanes.py).
pytestmark = [pytest.mark.cluster, pytest.mark.postgres, pytest.mark.redis, pytest.mark.process,
              pytest.mark.nginx]

if TYPE_CHECKING:
    from server_harness import ProcessServer

    from tests.postgres_server import PostgresServer

pytest_plugins = ["tests.postgres_server"]

#: What the page's sockets went through, for the test to wait on and to report: sockets opened,
#: sockets served (sent at least one state), their close codes, the codes of refusals without an
#: action id, the last state's seq, the socket of the moment (``current``, for the test to close),
#: and every toast shown (its kind, its text, whether the socket of the moment had been served).
WS_WATCH = """
(() => {
  const seen = window.__ws = {
    opened: 0, served: 0, closes: [], refusals: [], seq: null, current: null, toasts: [],
  };
  let servedNow = false;
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (!node.classList?.contains("toast")) continue;
        const kind = [...node.classList].find((c) => c.startsWith("toast-"));
        seen.toasts.push({ kind, text: node.textContent, served: servedNow });
      }
    }
  }).observe(document, { subtree: true, childList: true });
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      seen.current = this;
      servedNow = false;
      let served = false;
      this.addEventListener("open", () => { seen.opened += 1; });
      this.addEventListener("close", (event) => { seen.closes.push(event.code); });
      // (Listening before the page's own onmessage: a state is counted before the page sees it.)
      this.addEventListener("message", (event) => {
        let msg;
        try { msg = JSON.parse(event.data); } catch { return; }
        if (msg.type === "reject" && (msg.id === null || msg.id === undefined)) seen.refusals.push(msg.code);
        if (msg.type === "state") {
          seen.seq = msg.seq;
          if (!served) seen.served += 1;
          served = true;
          servedNow = servedNow || seen.current === this;
        }
      });
    }
  };
})();
"""

#: From the kill to the page playing again: the lease (2 s), a sweep (1 s), the page's backoff
#: (at most 5 s a try), with room to spare on a busy machine.
BACK_S = 30.0


class Room(NamedTuple):
    db_url: str
    nodes: list[ProcessServer]
    proxy: NginxServer


@pytest.fixture
def room(postgres: PostgresServer, redis_server: RedisServer, tmp_path: Path) -> Iterator[Room]:
    db_url = postgres.create_database("browser_failover")
    nodes = start_nodes(tmp_path, db_url, redis_server.url())
    try:
        with NginxServer([node.url.removeprefix("http://") for node in nodes]) as proxy:
            yield Room(db_url, nodes, proxy)
    finally:
        for node in nodes:
            node.stop()


def owner_node(room: Room, table: str) -> ProcessServer:
    return live_owner(room.nodes, room.db_url, table)


def established_to(node: ProcessServer) -> int:
    """How many TCP connections to the node's port are established (from nginx: it keeps none
    between requests, so once the page is idle the one left is its WebSocket)."""
    port = int(node.url.rsplit(":", 1)[1])
    rows = [line.split() for line in Path("/proc/net/tcp").read_text().splitlines()[1:]]
    return sum(1 for row in rows if int(row[1].rsplit(":", 1)[1], 16) == port and row[3] == "01")


def socket_node(room: Room, within_s: float = 10.0) -> ProcessServer:
    """The node the page's WebSocket landed on (through nginx)."""
    deadline = time.monotonic() + within_s
    while True:
        counts = [established_to(node) if alive(node) else 0 for node in room.nodes]
        if sorted(counts)[-2:] == [0, 1]:
            return room.nodes[counts.index(1)]
        assert time.monotonic() < deadline, f"connections to the nodes: {counts}"
        time.sleep(0.05)


def watched(page) -> dict:
    return page.evaluate("() => { const { current, ...rest } = window.__ws; return rest; }")


def back_at_the_table(page, served: int, hand: str) -> None:
    """The page connected again by itself and a new socket of it is sent the table's state: the
    connection notice (if it had time to show) is gone, the same hand is on screen, it is the
    page's turn."""
    page.wait_for_function("n => window.__ws.served > n", arg=served, timeout=BACK_S * 1000)
    page.wait_for_selector("#notice", state="hidden", timeout=BACK_S * 1000)
    wait_for_turn(page, timeout_s=BACK_S)
    assert hand_shown(page) == hand


def steer(page, room: Room, hand: str, *, on_owner: bool, owner: ProcessServer) -> None:
    """Have the page's socket on the owner, or on another node (relayed), by closing it from the
    page until nginx's round robin puts it there: each new socket goes to the next node."""
    for _ in range(2 * len(room.nodes)):
        if (socket_node(room) is owner) == on_owner:
            return
        served = watched(page)["served"]
        page.evaluate("() => window.__ws.current.close(4000, 'moved by the test')")
        back_at_the_table(page, served, hand)
    raise AssertionError("nginx never put the page's socket where the test wanted it")


def omi_through_the_proxy(room: Room, pages) -> tuple:
    """A page watching its sockets (WS_WATCH) opens an Omi table against the computer through
    nginx and plays its first card: the page and the table's id."""
    page = pages.new()
    page.add_init_script(WS_WATCH)
    page.goto(room.proxy.url + "/")
    go(page, "/play/omi?level=easy&target=1")
    page.wait_for_selector(".felt.omi")
    page.wait_for_url(re.compile(r"/t/[^/?#]+$"))
    play_one(page)
    return page, page.url.rsplit("/t/", 1)[1]


@pytest.mark.parametrize("on_owner", [True, False], ids=["socket-on-the-owner", "socket-relayed"])
def test_the_page_follows_its_table_when_the_owner_node_is_killed(room: Room, pages, on_owner: bool) -> None:
    page, table = omi_through_the_proxy(room, pages)
    play_one(page)
    wait_for_turn(page)  # the computer players have answered: the page's turn again
    hand = hand_shown(page)
    assert len(hand.split()) == 6
    victim = owner_node(room, table)
    steer(page, room, hand, on_owner=on_owner, owner=victim)
    before = watched(page)

    victim.kill()
    killed_at = time.monotonic()
    back_at_the_table(page, before["served"], hand)
    back_s = time.monotonic() - killed_at
    after = watched(page)
    since_kill = {key: after[key][len(before[key]) :] for key in ("closes", "refusals", "toasts")}
    print(f"back after {back_s:.1f} s; since the kill: {since_kill}")
    # Its socket died with the owner (nginx closes the page's side: 1006), or the node relaying
    # it closed it with 1012 (service restart) once the owner's lease ran out.
    assert since_kill["closes"][:1] == [1006 if on_owner else 1012], since_kill
    # Refused meanwhile, if at all, only as "try again" (the page did, by itself); no error shown,
    # and "Reconnected: the table is up to date" only once it was.
    assert set(since_kill["refusals"]) <= {"table_moving", "node_unreachable"}, since_kill
    assert [t["kind"] for t in since_kill["toasts"]] == ["toast-ok"] * len(since_kill["toasts"]), since_kill
    assert all(t["served"] for t in since_kill["toasts"]), since_kill
    # It is served by the node that took the table over.
    assert owner_node(room, table) is not victim

    # The match goes on to its end: the page's cards acknowledged, the computer players run by
    # the new owner answering them.
    assert play_until_over(page) >= 6
    # Stored once each, seqs contiguous, and the page has shown the last of them.
    check_stored(room.db_url, table, {})
    assert watched(page)["seq"] == len(stored(room.db_url, table))


#: How long the owner stays paused: the page must be back well before it resumes (its keep-alive
#: gives the socket up after about 3 s, the lease runs out after 2 s).
PAUSE_S = 20.0


def test_the_page_leaves_a_hung_owner_node_by_itself(room: Room, pages) -> None:
    page, table = omi_through_the_proxy(room, pages)
    wait_for_turn(page)
    hand = hand_shown(page)
    victim = owner_node(room, table)
    steer(page, room, hand, on_owner=True, owner=victim)
    before = watched(page)

    assert victim.proc is not None
    victim.proc.send_signal(signal.SIGSTOP)
    paused_at = time.monotonic()
    try:
        # Nothing closes the page's socket: only its own keep-alive can tell it is silent.
        page.wait_for_function("n => window.__ws.served > n", arg=before["served"], timeout=PAUSE_S * 1000)
        back_s = time.monotonic() - paused_at
        back_at_the_table(page, before["served"], hand)
        # A card acknowledged (a state past it) by the node that took the table over, the owner
        # still paused.
        seq = watched(page)["seq"]
        play_one(page)
        page.wait_for_function("n => window.__ws.seq > n", arg=seq, timeout=PAUSE_S * 1000)
        played_s = time.monotonic() - paused_at
        assert victim.proc.poll() is None
        assert played_s < PAUSE_S, f"the page played again only {played_s:.1f} s after the pause"
    finally:
        victim.proc.send_signal(signal.SIGCONT)
    after = watched(page)
    print(f"served again {back_s:.1f} s after the pause, a card acknowledged after {played_s:.1f} s;"
          f" sockets opened since: {after['opened'] - before['opened']}")
    assert [t["kind"] for t in after["toasts"][len(before["toasts"]):]] in ([], ["toast-ok"])
    assert owner_node(room, table) is not victim
    assert play_until_over(page) >= 1
    check_stored(room.db_url, table, {})
    assert watched(page)["seq"] == len(stored(room.db_url, table))
