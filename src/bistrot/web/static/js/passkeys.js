// @ts-check
// Passkeys (WebAuthn, docs/protocol.md "Passkeys"): add one to this browser's profile, sign in
// with one. The server's options and the browser's answers travel as JSON whose binary fields are
// base64url strings; the browser's own converters (PublicKeyCredential.parse*OptionsFromJSON,
// credential.toJSON()) are used where it has them, the small ones below otherwise.
import { post } from "./api.js";

/** Whether this browser can use passkeys at all. */
export const passkeysSupported = () => typeof window.PublicKeyCredential === "function" && !!navigator.credentials;

function fromBase64url(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(text.length / 4) * 4, "=");
  const bytes = atob(base64);
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = bytes.charCodeAt(i);
  return out.buffer;
}

function toBase64url(buffer) {
  const bytes = new Uint8Array(buffer);
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const descriptors = (list) => list?.map((c) => ({ ...c, id: fromBase64url(c.id) }));

function creationOptions(json) {
  if (typeof PublicKeyCredential.parseCreationOptionsFromJSON === "function") {
    return PublicKeyCredential.parseCreationOptionsFromJSON(json);
  }
  return { ...json, challenge: fromBase64url(json.challenge), user: { ...json.user, id: fromBase64url(json.user.id) },
    excludeCredentials: descriptors(json.excludeCredentials) };
}

function requestOptions(json) {
  if (typeof PublicKeyCredential.parseRequestOptionsFromJSON === "function") {
    return PublicKeyCredential.parseRequestOptionsFromJSON(json);
  }
  return { ...json, challenge: fromBase64url(json.challenge), allowCredentials: descriptors(json.allowCredentials) };
}

/** A credential the browser made or used, as the server reads it. */
function credentialJSON(credential) {
  if (typeof credential.toJSON === "function") return credential.toJSON();
  const { response } = credential;
  const out = { id: credential.id, rawId: toBase64url(credential.rawId), type: credential.type,
    clientExtensionResults: credential.getClientExtensionResults?.() || {}, response: {
      clientDataJSON: toBase64url(response.clientDataJSON) } };
  if (response.attestationObject) {
    out.response.attestationObject = toBase64url(response.attestationObject);
    if (response.getTransports) out.response.transports = response.getTransports();
  } else {
    out.response.authenticatorData = toBase64url(response.authenticatorData);
    out.response.signature = toBase64url(response.signature);
    if (response.userHandle) out.response.userHandle = toBase64url(response.userHandle);
  }
  return out;
}

/** Add a passkey to this browser's profile: how many passkeys the profile holds now. Throws the
 * server's refusal (an ApiError), or the browser's DOMException (NotAllowedError: cancelled). */
export async function addPasskey() {
  const { ceremony, options } = await post("/api/profile/passkeys/options");
  const credential = await navigator.credentials.create({ publicKey: creationOptions(options) });
  const answer = await post("/api/profile/passkeys", { ceremony, credential: credentialJSON(credential) });
  return answer.passkeys;
}

/** Sign in with a passkey of this site: the profile it opens ({profile, name}); the server sets
 * this browser's profile cookie. Throws as addPasskey() does. */
export async function signInWithPasskey() {
  const { ceremony, options } = await post("/api/passkeys/options");
  const credential = await navigator.credentials.get({ publicKey: requestOptions(options) });
  const answer = await post("/api/passkeys/signin", { ceremony, credential: credentialJSON(credential) });
  return { profile: answer.profile, name: answer.name };
}
