// @ts-check
// Where the links a player shares point (invite, watch, challenge, their QR codes), as the
// server says (GET /api/room, server/sharing.py): its public address, the machine's network
// address when the page was opened at 127.0.0.1, or the page's own address. Offline (no server
// to ask) links keep the page's address.
import { get } from "./api.js";

let room = { share_origin: null, local_only: false };

/** Ask the server once, at start; never fails (the page's own address is the fallback). */
export async function loadSharing() {
  try {
    room = await get("/api/room");
  } catch {
    /* offline, or an older server: links keep the page's address */
  }
}

/** The full link to share for a path of this card room (`/join/...#...`). */
export const shareUrl = (path) => new URL(path, room.share_origin || location.origin).href;

/** Whether shared links open on this machine only (the page says so next to them). */
export const linksLocalOnly = () => room.local_only;
