// What `bistrot serve` writes above js/sw.js when it serves /sw.js (bistrot/server/offline.py,
// OfflineAssets.service_worker), declared for tsc (tsconfig.workers.json). Types only: nothing
// here reaches the page.
declare const VERSION: string;
declare const PRECACHE: string[];
declare const PRECACHE_BYTES: number;
