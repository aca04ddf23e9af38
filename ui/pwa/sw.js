/*
 * Balcão's service worker (docs/pwa.md), built by ui/vite.config.ts (balcao-service-worker) into dist/sw.js
 * with the build's file list and a version derived from it, and served at /sw.js (scope /).
 *
 * - Caches the app shell only: index.html, the build's JS/CSS chunks, the manifest and the icons. Nothing
 *   under /api or /mqtt ever goes through the cache (sessions, conversations and tokens are per person).
 * - Navigations are network-first; offline, the cached index.html starts the app (which then says it is
 *   offline through its own error states).
 * - A new build has a new version: its cache replaces the old one on activate.
 * - Web Push: shows the notification the api sent (api/push/send.ts) and, on a click, focuses an open tab
 *   and takes it to the conversation, or opens a new window there.
 */
const VERSION = '__BALCAO_SW_VERSION__';
const PRECACHE = __BALCAO_SW_PRECACHE__;
const PREFIX = 'balcao-shell-';
const CACHE = PREFIX + VERSION;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(PRECACHE.map((url) => new Request(url, { cache: 'reload' }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

function neverCached(url) {
  return url.origin !== self.location.origin || url.pathname === '/api' || url.pathname.startsWith('/api/') || url.pathname === '/mqtt' || url.pathname === '/sw.js';
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  // API data, the realtime socket and other origins go straight to the network, untouched.
  if (neverCached(url)) return;
  if (request.mode === 'navigate') {
    event.respondWith(fetch(request).catch(() => caches.open(CACHE).then((cache) => cache.match('/index.html')).then((r) => r || Response.error())));
    return;
  }
  // Shell files: from the cache when this version holds them (hashed names never change), else the network.
  event.respondWith(
    caches
      .open(CACHE)
      .then((cache) => cache.match(request, { ignoreSearch: true }))
      .then((cached) => cached || fetch(request)),
  );
});

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: 'Balcão', body: event.data ? event.data.text() : '' };
  }
  const title = data.title || 'Balcão';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: data.body || '',
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      tag: data.tag,
      renotify: Boolean(data.tag),
      lang: 'pt-BR',
      data: { url: data.url || '/inbox' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = (event.notification.data && event.notification.data.url) || '/inbox';
  const target = new URL(path, self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
      if (open) {
        // The page routes itself (ui/src/pwa/registerServiceWorker.ts): no reload, the session stays.
        open.postMessage({ type: 'balcao:navigate', url: path });
        return open.focus();
      }
      return self.clients.openWindow(target);
    }),
  );
});
