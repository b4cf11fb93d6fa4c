// The service worker: static files from the cache, pages from the network (kept for when the
// connection is down), and the offline page for a page never kept. Writes (POST) pass straight
// through: a failed save stays in its form (app.js), which sends it again when the connection returns.
"use strict";

var SETTINGS = /*SETTINGS*/ {};
var STATIC = "static-" + SETTINGS.version;
var PAGES = "pages";

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(STATIC)
      .then(function (cache) { return cache.addAll(SETTINGS.precache); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (names) {
        return Promise.all(names.filter(function (name) {
          return name.indexOf("static-") === 0 && name !== STATIC;
        }).map(function (name) { return caches.delete(name); }));
      })
      .then(function () { return self.clients.claim(); })
  );
});

function fromCacheFirst(request) {
  return caches.open(STATIC).then(function (cache) {
    return cache.match(request).then(function (hit) {
      return hit || fetch(request).then(function (answer) {
        if (answer.ok) { cache.put(request, answer.clone()); }
        return answer;
      });
    });
  });
}

function offlinePage() {
  return caches.match(SETTINGS.offline).then(function (page) {
    return page || new Response("Offline", {status: 503, headers: {"Content-Type": "text/plain"}});
  });
}

function pageFromNetwork(request) {
  return fetch(request).then(function (answer) {
    if (answer.ok && answer.type === "basic") {
      var copy = answer.clone();
      caches.open(PAGES).then(function (cache) { cache.put(request, copy); });
    }
    return answer;
  }).catch(function () {
    return caches.open(PAGES)
      .then(function (cache) { return cache.match(request); })
      .then(function (kept) { return kept || offlinePage(); });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (url.pathname.indexOf(SETTINGS.static) === 0) {
    event.respondWith(fromCacheFirst(request));
  } else if (request.mode === "navigate") {
    event.respondWith(pageFromNetwork(request));
  } else if (request.headers.get("HX-Boosted")) {
    // A link followed by htmx: the offline page in place of a page that cannot come.
    event.respondWith(fetch(request).catch(offlinePage));
  }
});
