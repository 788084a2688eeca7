"""Passkeys (issue 33, item 1), on SQLite and on a throwaway PostgreSQL, with a software
authenticator (tests/server/soft_authenticator.py; the page's test uses Chromium's virtual one).

A profile adds a passkey; on another device the passkey opens the profile with a key of that
device's own.  Every ceremony is used once; an answer for another site, another challenge, a
replayed signature counter or a forged signature is refused and changes nothing.
"""

from __future__ import annotations

from typing import Any

import httpx
from server_harness import http
from soft_authenticator import SoftAuthenticator, b64url
from store_rooms import Room, make

from bistrot.server.players import COOKIE, HEADER
from bistrot.tablecore.records import secret_hash

pytest_plugins = ["tests.postgres_server"]


def origin_of(room: Room) -> str:
    return room.url.rstrip("/")


def add_passkey(client: httpx.Client, device: SoftAuthenticator, **headers: str) -> httpx.Response:
    begun = client.post("/api/profile/passkeys/options", headers=headers)
    assert begun.status_code == 200, begun.text
    body = begun.json()
    assert body["options"]["authenticatorSelection"]["residentKey"] == "required"
    answer = device.create(body["options"])
    return client.post(
        "/api/profile/passkeys", json={"ceremony": body["ceremony"], "credential": answer}, headers=headers
    )


def sign_in(client: httpx.Client, device: SoftAuthenticator, **change: Any) -> httpx.Response:
    begun = client.post("/api/passkeys/options")
    assert begun.status_code == 200, begun.text
    body = begun.json()
    answer = device.get(body["options"], counter=change.get("counter"), origin=change.get("origin"))
    if "signature" in change:
        answer["response"]["signature"] = change["signature"]
    return client.post("/api/passkeys/signin", json={"ceremony": change.get("ceremony", body["ceremony"]),
                                                     "credential": answer})  # fmt: skip


def test_a_passkey_opens_the_profile_on_another_device(room: Room) -> None:
    phone = SoftAuthenticator(origin_of(room))
    with http(room.url) as first:
        made = make(first, "Ama")
        added = add_passkey(first, phone)
        assert (added.status_code, added.json()) == (201, {"passkeys": 1})
    with http(room.url) as second:
        signed = sign_in(second, phone)
        assert signed.status_code == 200, signed.text
        body = signed.json()
        assert (body["profile"], body["name"]) == (made["profile"], "Ama")
        assert body["key"] != made["key"] and second.cookies.get(COOKIE) == body["key"]
        assert second.get("/api/profile").json()["profile"] == made["profile"]
    # The store holds the public key and counter, the new key's hash, no challenge left.
    [(profile, count)] = room.rows("SELECT profile, sign_count FROM passkeys")
    assert (profile, count) == (made["profile"], 1)
    assert room.rows("SELECT key_hash FROM profile_keys") == [(secret_hash(body["key"]),)]
    assert room.rows("SELECT count(*) FROM passkey_ceremonies") == [(0,)]


def test_wrong_answers_are_refused_and_change_nothing(room: Room) -> None:
    phone = SoftAuthenticator(origin_of(room))
    with http(room.url) as client:
        made = make(client, "Ama")
        assert add_passkey(client, phone).status_code == 201
    with http(room.url) as stranger:
        # An answer made for another site's page.
        wrong_origin = sign_in(stranger, phone, origin="https://evil.example")
        assert (wrong_origin.status_code, wrong_origin.json()["code"]) == (400, "bad_passkey")
        # A ceremony used up, or never begun.
        begun = stranger.post("/api/passkeys/options").json()
        answer = phone.get(begun["options"])
        assert (
            stranger.post(
                "/api/passkeys/signin", json={"ceremony": begun["ceremony"], "credential": answer}
            ).status_code
            == 200
        )
        again = stranger.post(
            "/api/passkeys/signin", json={"ceremony": begun["ceremony"], "credential": answer}
        )
        assert (again.status_code, again.json()["code"]) == (400, "bad_ceremony")
        # A signature counter that did not move on (a cloned authenticator).
        replayed = sign_in(stranger, phone, counter=1)
        assert (replayed.status_code, replayed.json()["code"]) == (400, "bad_passkey")
        # A forged signature.
        forged = sign_in(stranger, phone, signature=b64url(b"\x30\x06\x02\x01\x01\x02\x01\x01"))
        assert (forged.status_code, forged.json()["code"]) == (400, "bad_passkey")
        # A passkey that no profile here holds.
        other = SoftAuthenticator(origin_of(room))
        other.create(
            {"rp": {"id": begun["options"]["rpId"]}, "user": {"id": b64url(b"nobody")}, "challenge": "x"}
        )
        unknown = sign_in(stranger, other)
        assert (unknown.status_code, unknown.json()["code"]) == (401, "unknown_passkey")
        # Adding a passkey needs the profile's key; a registration answer to a sign-in is refused.
        assert http(room.url).post("/api/profile/passkeys/options").json()["code"] == "no_profile"
    with http(room.url) as client:
        begun = client.post("/api/profile/passkeys/options", headers={HEADER: made["key"]}).json()
        sign = client.post("/api/passkeys/options").json()
        crossed = client.post(
            "/api/passkeys/signin",
            json={"ceremony": begun["ceremony"], "credential": phone.get(sign["options"])},
        )
        assert (crossed.status_code, crossed.json()["code"]) == (400, "bad_ceremony")
    assert room.rows("SELECT count(*) FROM passkeys") == [(1,)]
    assert room.rows("SELECT count(*) FROM profile_keys") == [(1,)]  # the one good sign-in


def test_no_passkey_credential_or_key_in_a_log_line(room: Room, all_records: Any) -> None:
    phone = SoftAuthenticator(origin_of(room))
    with http(room.url) as client:
        made = make(client, "Ama")
        add_passkey(client, phone)
    with http(room.url) as second:
        key = sign_in(second, phone).json()["key"]
    for record in all_records.records:
        line = record.getMessage() + repr(record.args)
        assert made["key"] not in line and key not in line
