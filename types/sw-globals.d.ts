// What `bistrot serve` writes above js/sw.js when it serves /sw.js (OfflineAssets.service_worker,
// bistrot/server), declared for tsc (tsconfig.workers.json). Types only: nothing here reaches the
// page.
declare const VERSION: string;
declare const PRECACHE: string[];
declare const PRECACHE_BYTES: number;
