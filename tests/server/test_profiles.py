"""Profiles without signing up (issue 33, item 1), on SQLite and on a throwaway PostgreSQL.

A profile is made with a name; its key is the player's only credential: HttpOnly cookie or the
``X-Bistrot-Profile`` header, stored hashed, in no other answer, no URL and no log line.
"""

from __future__ import annotations

import logging
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from server_harness import AllRecords, ThreadServer, http, make_settings
from store_rooms import Room, make

from bistrot.server.players import COOKIE, HEADER, profile_name
from bistrot.tablecore.records import secret_hash
from bistrot.tablecore.text import TextRefused
from tests.redis_server import RedisServer, redis_server_fixture  # noqa: F401 (the session's Redis)

if TYPE_CHECKING:
    from tests.postgres_server import PostgresServer

pytest_plugins = ["tests.postgres_server"]


def test_a_profile_is_made_with_a_name_and_its_key_opens_it(room: Room) -> None:
    with http(room.url) as browser:
        made = make(browser, "Ama")
        assert set(made) == {"profile", "name", "key"} and made["name"] == "Ama"
        cookie = browser.cookies.get(COOKIE)
        assert cookie == made["key"]
        # The browser's cookie opens it ...
        me = browser.get("/api/profile").json()
        assert me["profile"] == made["profile"] and me["name"] == "Ama"
    with http(room.url) as script:
        # ... and a script's header does, without any cookie.
        assert script.get("/api/profile", headers={HEADER: made["key"]}).json()["profile"] == made["profile"]
        public = script.get(f"/api/profiles/{made['profile']}")
        assert public.status_code == 200 and public.json()["name"] == "Ama"
        assert made["key"] not in public.text
    # Stored hashed: the key itself is nowhere in the store.
    assert room.rows("SELECT id, name, key_hash FROM profiles") == [
        (made["profile"], "Ama", secret_hash(made["key"]))
    ]


def test_the_cookie_is_http_only_and_lax_and_secure_only_over_https(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, forwarded_allow_ips="127.0.0.1")
    with ThreadServer(settings) as server, http(server.url) as client:
        plain = client.post("/api/profiles", json={"name": "Ama"}).headers["set-cookie"].lower()
        assert "httponly" in plain and "samesite=lax" in plain and "path=/" in plain
        assert "secure" not in plain
        # Behind a proxy that says the page came over https: Secure.
        behind = client.post("/api/profiles", json={"name": "Ama"}, headers={"X-Forwarded-Proto": "https"})
        assert "secure" in behind.headers["set-cookie"].lower()


def test_no_key_or_a_wrong_key_is_refused_401_with_a_clear_code(room: Room) -> None:
    with http(room.url) as client:
        made = make(client)
    with http(room.url) as stranger:
        assert stranger.get("/api/profile").json()["code"] == "no_profile"
        altered = made["key"][:-1] + ("A" if made["key"][-1] != "A" else "B")
        for wrong in ("x" * 22, altered, "not a key!", ""):
            answer = stranger.get("/api/profile", headers={HEADER: wrong})
            assert answer.status_code == 401, wrong
            assert answer.json()["code"] in ("bad_profile_key", "no_profile")
            renamed = stranger.patch("/api/profile", json={"name": "Eve"}, headers={HEADER: wrong})
            assert renamed.status_code == 401
        # A wrong header is not rescued by a right cookie: the header is what a script meant.
        stranger.cookies.set(COOKIE, made["key"])
        assert stranger.get("/api/profile", headers={HEADER: "y" * 22}).status_code == 401
        assert stranger.get("/api/profile").status_code == 200
    assert room.rows("SELECT name FROM profiles") == [("Ama",)]  # nothing renamed


def test_names_follow_the_one_text_rule_after_nfc(room: Room) -> None:
    with http(room.url) as client:
        decomposed = "Ame\u0301lie"
        made = make(client, decomposed)
        assert made["name"] == unicodedata.normalize("NFC", decomposed) == "Amélie"
        assert make(client, "x" * 24)["name"] == "x" * 24  # 24 after NFC
        for bad, why in [
            ("", "needs some text"),
            ("   ", "needs some text"),
            ("x" * 25, "at most 24"),
            ("\u202eevil", "U+202E"),
            ("a\u0007b", "U+0007"),
            ("\u200b", "U+200B"),
        ]:
            answer = client.post("/api/profiles", json={"name": bad})
            assert answer.status_code == 422, bad
            assert answer.json()["code"] == "bad_request" and why in answer.json()["message"]
        for bad_body in ({}, {"name": 3}, {"name": "Ama", "key": "mine"}, [], "Ama"):
            assert client.post("/api/profiles", json=bad_body).status_code == 422
    assert len(room.rows("SELECT id FROM profiles")) == 2  # the refused ones made nothing


def test_rename_changes_the_name_everyone_sees_and_a_bad_name_changes_nothing(room: Room) -> None:
    with http(room.url) as client:
        made = make(client, "Ama")
        renamed = client.patch("/api/profile", json={"name": "  Kofi "})
        assert renamed.status_code == 200 and renamed.json()["name"] == "Kofi"
        assert client.get(f"/api/profiles/{made['profile']}").json()["name"] == "Kofi"
        refused = client.patch("/api/profile", json={"name": "\u202eKofi"})
        assert refused.status_code == 422
        assert client.get("/api/profile").json()["name"] == "Kofi"
        assert "key" not in renamed.json() and made["key"] not in renamed.text


def test_two_profiles_may_share_a_name_and_keep_their_own_ids(room: Room) -> None:
    with http(room.url) as one, http(room.url) as two:
        first, second = make(one, "Ama"), make(two, "Ama")
        assert first["profile"] != second["profile"] and first["key"] != second["key"]
        assert one.get("/api/profile").json()["profile"] == first["profile"]
        assert two.get("/api/profile").json()["profile"] == second["profile"]


def test_an_unknown_public_id_is_404(room: Room) -> None:
    with http(room.url) as client:
        for unknown in ("A" * 16, "nope", "x" * 300):
            answer = client.get(f"/api/profiles/{unknown}")
            assert answer.status_code == 404 and answer.json()["code"] == "unknown_profile"


@pytest.mark.settings(profile_quota_burst=2, profile_quota_per_s=0.01)
def test_making_profiles_has_a_quota_per_address(room: Room) -> None:
    with http(room.url) as client:
        make(client), make(client)
        refused = client.post("/api/profiles", json={"name": "Three"})
        assert refused.status_code == 429 and refused.json()["code"] == "too_many_profiles"
        assert int(refused.headers["Retry-After"]) >= 1
        # The table quota is another bucket: tables may still be opened.
        assert client.post("/api/tables", json={"game": "omi"}).status_code == 201
    assert len(room.rows("SELECT id FROM profiles")) == 2


def test_the_key_is_in_no_log_line_nor_any_answer_but_its_creation(
    room: Room, all_records: AllRecords
) -> None:
    logger = logging.getLogger("bistrot")
    level = logger.level
    logger.setLevel(logging.DEBUG)  # every line the server would write at debug level
    try:
        answers = _every_profile_call(room)
    finally:
        logger.setLevel(level)
    key = answers[0].json()["key"]
    for answer in answers[1:]:
        assert key not in answer.text and secret_hash(key) not in answer.text
        assert COOKIE not in answer.headers.get("set-cookie", "")  # set once, at creation
    assert any("/api/profile" in r.getMessage() for r in all_records.records), "the access log was heard"
    for record in all_records.records:
        line = record.getMessage() + repr(record.args) + repr(record.__dict__)
        assert key not in line and secret_hash(key) not in line


def _every_profile_call(room: Room) -> list[httpx.Response]:
    with http(room.url) as client:
        created = client.post("/api/profiles", json={"name": "Ama"})
        made = created.json()
        key = made["key"]
        answers = [
            created,
            client.get("/api/profile"),
            client.get("/api/profile", headers={HEADER: key}),
            client.patch("/api/profile", json={"name": "Kofi"}),
            client.patch("/api/profile", json={"name": "\u202e"}),
            client.get(f"/api/profiles/{made['profile']}"),
            # Every other call that a profile's key goes with (cookie or header).
            client.post("/api/quickmatch", json={"game": "oti"}),
            client.post("/api/quickmatch", json={"game": "oti"}),  # already_waiting
            client.post("/api/tables", json={"game": "omi", "mode": "friends", "public": True}),
            client.get("/api/lobby"),
            client.get("/api/ratings/oti"),
        ]
        public = answers[-3].json()["table"]
        answers.append(client.get(f"/api/tables/{public}"))
        answers.append(client.post(f"/api/tables/{public}/join", json={}))  # already_seated
        with http(room.url) as stranger:
            wrong = {HEADER: key[:-2] + "zz"}
            answers.append(stranger.get("/api/profile", headers=wrong))
            answers.append(stranger.post(f"/api/tables/{public}/join", json={}, headers=wrong))
            answers.append(stranger.post("/api/quickmatch", json={"game": "omi"}, headers={HEADER: key}))
    return answers


@given(st.text(max_size=40))
def test_a_profile_name_is_nfc_and_shown_as_it_looks_or_refused(text: str) -> None:
    try:
        name = profile_name(text)
    except TextRefused:
        return
    assert name == unicodedata.normalize("NFC", name) == name.strip()
    assert 1 <= len(name) <= 24
    assert not any(unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn") for c in name)
    assert not set(name) & set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200b")


@pytest.mark.cluster
def test_two_nodes_share_the_profiles_and_their_quota(
    postgres: PostgresServer, redis_server: RedisServer, tmp_path: Path
) -> None:
    url = postgres.create_database(f"profiles_cluster_{tmp_path.name[-12:].lower()}")
    nodes = [
        make_settings(tmp_path / name, database_url=url, redis_url=redis_server.url(5), profile_quota_burst=2,
                      profile_quota_per_s=0.01)
        for name in ("a", "b")
    ]  # fmt: skip
    for settings in nodes:
        Path(settings.db).parent.mkdir()
    with ThreadServer(nodes[0]) as a, ThreadServer(nodes[1]) as b, http(a.url) as at_a, http(b.url) as at_b:
        made = make(at_a, "Ama")
        # Made on one node, it opens on the other: the store is theirs together.
        assert at_b.get("/api/profile", headers={HEADER: made["key"]}).json()["profile"] == made["profile"]
        make(at_b, "Kofi")
        # The address's bucket is in Redis: its third profile is refused on either node.
        assert at_a.post("/api/profiles", json={"name": "Three"}).json()["code"] == "too_many_profiles"
        assert at_b.post("/api/profiles", json={"name": "Three"}).status_code == 429


# ---------------------------------------------------------------------------- another device


def test_a_move_link_opens_the_profile_on_another_device_once(room: Room) -> None:
    with http(room.url) as first:
        made = make(first, "Ama")
        link = first.post("/api/profile/transfer")
        assert link.status_code == 201, link.text
        code = link.json()["code"]
        assert link.json()["link"] == f"/profile/claim#{code}"  # the code in the fragment only
    with http(room.url) as second:
        claimed = second.post("/api/profile/claim", json={"code": code})
        assert claimed.status_code == 200, claimed.text
        body = claimed.json()
        assert (body["profile"], body["name"]) == (made["profile"], "Ama")
        assert body["key"] != made["key"] and second.cookies.get(COOKIE) == body["key"]
        assert second.get("/api/profile").json()["profile"] == made["profile"]
        # Used once.
        again = second.post("/api/profile/claim", json={"code": code})
        assert (again.status_code, again.json()["code"]) == (409, "transfer_used")
        for wrong in ("x" * 22, "not a code!"):
            refused = second.post("/api/profile/claim", json={"code": wrong})
            assert (refused.status_code, refused.json()["code"]) == (403, "bad_transfer")
    # The first device keeps its profile; only hashes are stored.
    assert http(room.url).get("/api/profile", headers={HEADER: made["key"]}).json()["name"] == "Ama"
    stored = room.rows("SELECT key_hash FROM profile_keys")
    stored += room.rows("SELECT code_hash FROM profile_transfers")
    assert sorted(h for (h,) in stored) == sorted([secret_hash(body["key"]), secret_hash(code)])
    # A stranger cannot make a link for a profile that is not theirs.
    refused = http(room.url).post("/api/profile/transfer")
    assert (refused.status_code, refused.json()["code"]) == (401, "no_profile")


def test_a_move_link_expires_after_ten_minutes_and_few_are_open_at_once(tmp_path: Path) -> None:
    import asyncio

    from bistrot.server.players import TRANSFER_S, TRANSFERS_OPEN, Profiles
    from bistrot.server.protocol import ApiError
    from bistrot.server.sqlite import SQLiteStorage

    async def run() -> None:
        store = SQLiteStorage(tmp_path / "room.db")
        await store.start()
        now = [1000.0]
        profiles = Profiles(store, clock=lambda: now[0])
        try:
            ama, _ = await profiles.create("Ama")
            codes = [(await profiles.new_transfer(ama))[0] for _ in range(TRANSFERS_OPEN)]
            with pytest.raises(ApiError) as refused:
                await profiles.new_transfer(ama)
            assert refused.value.code == "too_many_transfers"
            now[0] += TRANSFER_S - 1
            assert (await profiles.claim_transfer(codes[0]))[0] == ama  # just in time
            now[0] += 2
            with pytest.raises(ApiError) as late:
                await profiles.claim_transfer(codes[1])
            assert (late.value.status, late.value.code) == (410, "transfer_expired")
            await profiles.new_transfer(ama)  # the expired ones no longer count
        finally:
            await store.close()

    asyncio.run(run())
