// The service worker: static files from the cache, pages from the network (kept for when the
// connection is down), and the offline page for a page never kept. Writes (POST) pass straight
// through: a deal recorded without a connection is kept on the phone (offline.js, IndexedDB) and
// sent by the page when the connection returns; a kept game page opens with its waiting deals.
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
        if (!answer.ok) { return answer; }
        // Answered once kept: whoever asked (offline.js keeping its page) knows it is there.
        return cache.put(request, answer.clone()).then(function () { return answer; }, function () { return answer; });
      });
    });
  });
}

function offlinePage() {
  return caches.match(SETTINGS.offline).then(function (page) {
    return page || new Response("Offline", {status: 503, headers: {"Content-Type": "text/plain"}});
  });
}

// A page followed through a redirect (a scoring link /g/<id>?key=... lands on /g/<id>) is kept
// under where it landed, never under the link with its key, and as a plain answer: a redirected
// one may not answer a navigation.
function keepPage(request, answer) {
  if (!answer.redirected) {
    // (A link with its key that did not lead on, a key refused: not kept under the key.)
    if (new URL(request.url).searchParams.has("key")) { return Promise.resolve(); }
    return caches.open(PAGES).then(function (cache) { return cache.put(request, answer); });
  }
  return answer.blob().then(function (body) {
    var plain = new Response(body, {status: answer.status, statusText: answer.statusText, headers: answer.headers});
    return caches.open(PAGES).then(function (cache) { return cache.put(answer.url, plain); });
  });
}

function pageFromNetwork(request) {
  return fetch(request).then(function (answer) {
    if (answer.ok && answer.type === "basic") { keepPage(request, answer.clone()); }
    return answer;
  }).catch(function () {
    // (ignoreVary: a page is kept once per address, whatever the request's headers.)
    // A scoring link opened again (its QR scanned once more) opens the page it led to, kept
    // under its address without the key.
    var url = new URL(request.url);
    var bare = url.searchParams.has("key") ? url.origin + url.pathname : null;
    return caches.open(PAGES)
      .then(function (cache) {
        return cache.match(request, {ignoreVary: true}).then(function (kept) {
          return kept || (bare ? cache.match(bare, {ignoreVary: true}) : undefined);
        });
      })
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
