// @ts-check
// bistrot's service worker, served as /sw.js (scope: the whole site) by bistrot serve, which
// writes VERSION, PRECACHE and PRECACHE_BYTES above this line (bistrot/server/offline.py).
//
// Install: cache every file the page needs to play offline (the page, its scripts, styles and
// languages, Pyodide, the bistrot wheel) in a cache named after VERSION; the version changes
// whenever any of those files does, so an update installs a new cache and deletes the old one.
// Fetch: the page's routes go to the network first (always fresh online) and fall back to the
// cached page; files come from the cache first. The API and WebSocket are never cached, except
// the list of games (GET /api/games, precached by the server): the page builds its choices from
// it, so it is fetched fresh online and answered from the cache when the network is down.
/* global VERSION, PRECACHE */

const CACHE = `bistrot-${VERSION}`;
const PAGE = "/";
const NETWORK_TIMEOUT_MS = 4000;
const FROM_CACHE_WHEN_OFFLINE = ["/api/games"];
const NEVER = [/^\/api\//, /^\/ws\//, /^\/healthz$/, /^\/offline\/status$/, /^\/sw\.js$/, /^\/docs/, /^\/openapi\.json$/];

self.addEventListener("install", (/** @type {ExtendableEvent} */ event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // cache: "reload": straight from the server, never a stale copy from the HTTP cache.
    await cache.addAll(PRECACHE.map((url) => new Request(url, { cache: "reload" })));
    await /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self)).skipWaiting();
  })());
});

self.addEventListener("activate", (/** @type {ExtendableEvent} */ event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith("bistrot-") && key !== CACHE) await caches.delete(key);
    }
    await /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self)).clients.claim();
  })());
});

/** The network's answer, or `fallback()` when there is none within NETWORK_TIMEOUT_MS. */
async function networkFirst(request, fallback) {
  try {
    const response = await Promise.race([
      fetch(request),
      new Promise((_, reject) => setTimeout(() => reject(new Error("slow network")), NETWORK_TIMEOUT_MS)),
    ]);
    return response;
  } catch {
    return (await fallback()) || Response.error();
  }
}

function page(request) {
  return networkFirst(request, () => caches.open(CACHE).then((cache) => cache.match(PAGE)));
}

async function file(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  return hit || fetch(request);
}

self.addEventListener("fetch", (/** @type {FetchEvent} */ event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (FROM_CACHE_WHEN_OFFLINE.includes(url.pathname)) {
    event.respondWith(networkFirst(request, () => caches.open(CACHE).then((cache) => cache.match(url.pathname))));
    return;
  }
  if (NEVER.some((re) => re.test(url.pathname))) return;
  event.respondWith(request.mode === "navigate" ? page(request) : file(request));
});
