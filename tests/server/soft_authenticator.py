"""A software WebAuthn authenticator for the passkey tests: what a phone or a security key does
when a page calls ``navigator.credentials.create`` and ``.get``, with an ES256 key of its own and
"none" attestation, written from the WebAuthn spec (the browser tests use Chromium's virtual
authenticator instead)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import struct
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

UP, UV, AT = 0x01, 0x04, 0x40  # authenticator data flags: user present, verified, credential data


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class SoftAuthenticator:
    """One authenticator holding discoverable credentials, for pages of ``origin``."""

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.credentials: dict[bytes, tuple[ec.EllipticCurvePrivateKey, bytes, str, int]] = {}

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        data = {"type": kind, "challenge": challenge, "origin": origin or self.origin, "crossOrigin": False}
        return json.dumps(data).encode()

    def create(self, options: dict[str, Any], origin: str | None = None) -> dict[str, Any]:
        """The answer to ``navigator.credentials.create`` with these options."""
        rp_id = options["rp"]["id"]
        key = ec.generate_private_key(ec.SECP256R1())
        numbers = key.public_key().public_numbers()
        cose = {1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")}
        credential_id = os.urandom(32)
        self.credentials[credential_id] = (key, unb64url(options["user"]["id"]), rp_id, 0)
        auth_data = (
            hashlib.sha256(rp_id.encode()).digest()
            + bytes([UP | UV | AT])
            + struct.pack(">I", 0)
            + bytes(16)  # AAGUID
            + struct.pack(">H", len(credential_id))
            + credential_id
            + cbor2.dumps(cose)
        )
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        return {
            "id": b64url(credential_id),
            "rawId": b64url(credential_id),
            "type": "public-key",
            "response": {"clientDataJSON": b64url(client_data), "attestationObject": b64url(attestation)},
            "clientExtensionResults": {},
        }

    def get(
        self, options: dict[str, Any], origin: str | None = None, counter: int | None = None
    ) -> dict[str, Any]:
        """The answer to ``navigator.credentials.get``: signed by this authenticator's credential
        for the options' site (its signature counter one higher, or ``counter``)."""
        rp_id = options["rpId"]
        credential_id, (key, user, _, count) = next(
            (cid, held) for cid, held in self.credentials.items() if held[2] == rp_id
        )
        count = count + 1 if counter is None else counter
        self.credentials[credential_id] = (key, user, rp_id, count)
        auth_data = hashlib.sha256(rp_id.encode()).digest() + bytes([UP | UV]) + struct.pack(">I", count)
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        signature = key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        return {
            "id": b64url(credential_id),
            "rawId": b64url(credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(client_data),
                "authenticatorData": b64url(auth_data),
                "signature": b64url(signature),
                "userHandle": b64url(user),
            },
            "clientExtensionResults": {},
        }
