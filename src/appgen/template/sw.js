// The service worker: the app's own files come from the cache filled at install, so the app opens
// offline after the first visit; pictures from elsewhere are kept as they are seen. Requests to the
// event's API always go to the network (the app falls back to its snapshot).
const BUILD = '{{build}}';
const FILES = {{files}};
// Caches are named after this app's folder: other apps on the same origin keep theirs.
const PREFIX = `event-app ${self.registration.scope} `;
const APP_CACHE = `${PREFIX}${BUILD}`;
const PICTURES = `${PREFIX}${BUILD} pictures`;

self.addEventListener('install', (event) => {
  // `reload`: the files of this build from the server, never older ones from the HTTP cache.
  const requests = FILES.map((file) => new Request(file, { cache: 'reload' }));
  event.waitUntil(caches.open(APP_CACHE).then((cache) => cache.addAll(requests)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== APP_CACHE && k !== PICTURES).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin === self.location.origin) {
    event.respondWith(caches.match(request, { cacheName: APP_CACHE, ignoreSearch: true }).then((hit) => hit || fetch(request)));
  } else if (request.destination === 'image') {
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok || response.type === 'opaque') {
            const copy = response.clone();
            event.waitUntil(caches.open(PICTURES).then((cache) => cache.put(request, copy)));
          }
          return response;
        })
        .catch(() => caches.match(request, { cacheName: PICTURES }).then((hit) => hit || Response.error())),
    );
  }
});
