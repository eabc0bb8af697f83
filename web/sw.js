// The service worker: keeps the whole site (page, Pyodide runtime, wheels) in the Cache API so
// a reload works with the network or the server gone. Registered by web/runtime/offline.js once Python
// has loaded, so its downloads never compete with the first visit's own.
//
// precache.js (written by build.py) sets self.PRECACHE = {version, files, immutable}: the files
// to keep, a version naming their content, and the path prefixes whose content never changes
// under one name (the pinned runtime, content-named wheels). A rebuild changes precache.js, so
// the browser installs the new worker, which fills a new cache and drops the old one.
//
// Answers:
// - immutable files: from the cache, else from the network (and kept);
// - everything else: from the network (so an edit shows on reload), kept as the offline copy,
//   and from the cache when the network fails.
// The offline copy is written beside the answer, never before it (the page does not wait for the
// cache), and not at all when the kept copy is the same file (same validators).
// Cached responses keep the headers the server sent, COOP/COEP included, so a page loaded
// offline is cross-origin isolated exactly when the online one was.
/* global PRECACHE */
importScripts("precache.js");

const CACHE_PREFIX = "pysolver-";
const CACHE_NAME = `${CACHE_PREFIX}${PRECACHE.version}`;
const scope = new URL(self.registration.scope);
const immutablePrefixes = PRECACHE.immutable.map((prefix) => new URL(prefix, scope).href);

function isImmutable(url) {
  return immutablePrefixes.some((prefix) => url.startsWith(prefix));
}

// An immutable file already kept by an earlier version is copied over, not downloaded again.
async function precacheOne(cache, url) {
  if (isImmutable(url)) {
    const kept = await caches.match(url);
    if (kept) {
      await cache.put(url, kept);
      return;
    }
  }
  // "no-cache": revalidate with the server, so a stale HTTP-cached page is never kept.
  const response = await fetch(url, { cache: isImmutable(url) ? "default" : "no-cache" });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  await cache.put(url, response);
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE_NAME);
    await Promise.all(PRECACHE.files.map((file) => precacheOne(cache, new URL(file, scope).href)));
    // Take over at once: the cache is complete, and pages never depend on which version of
    // the worker serves them (every answer is a file of one consistent build or the network).
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    // Navigation preload: the page's own request goes out while this worker starts up, instead
    // of after (networkFirst takes it from event.preloadResponse).
    if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
    for (const name of await caches.keys()) {
      if (name.startsWith(CACHE_PREFIX) && name !== CACHE_NAME) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

async function fromCache(request) {
  const cache = await caches.open(CACHE_NAME);
  const kept = await cache.match(request, { ignoreSearch: request.mode === "navigate" });
  if (kept) return kept;
  // A navigation to any page of the scope (say with a query) falls back to the page itself.
  return request.mode === "navigate" ? cache.match(scope.href) : undefined;
}

// Keep a copy of a response (a clone) without holding up the answer: the page gets the response
// as it streams in, while the copy is written (event.waitUntil keeps this worker alive for it).
function keepCopy(event, request, response) {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE_NAME);
    await cache.put(request, response);
  })().catch((error) => console.warn(`pysolver offline copy of ${request.url}: ${error}`)));
}

// The same file as the kept copy, by the validators the server sent (then there is nothing to
// write: a warm visit would otherwise rewrite every file of the page).
function sameAsKept(kept, response) {
  if (!kept) return false;
  const validators = ["etag", "last-modified", "content-length", "content-encoding"];
  const known = validators.filter((name) => response.headers.has(name));
  return known.includes("etag") || known.includes("last-modified") ?
    known.every((name) => kept.headers.get(name) === response.headers.get(name)) :
    false;
}

async function cacheFirst(event) {
  const request = event.request;
  const kept = await fromCache(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) keepCopy(event, request, response.clone());
  return response;
}

async function networkFirst(event) {
  const request = event.request;
  try {
    const response = (await event.preloadResponse) || await fetch(request);
    if (response.ok && response.type === "basic") {
      const cache = await caches.open(CACHE_NAME);
      if (!sameAsKept(await cache.match(request), response)) keepCopy(event, request, response.clone());
    }
    return response;
  } catch (error) {
    const kept = await fromCache(request);
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(scope.href)) return;
  event.respondWith(isImmutable(request.url) ? cacheFirst(event) : networkFirst(event));
});
