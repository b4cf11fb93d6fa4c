// A table that never loses a deal (issue 53): what the scorer records while the connection is down
// is kept on the phone (IndexedDB: it survives a reload, a closed tab, a phone that sleeps), any
// number of deals, in order, each with its own submission token; the page takes the next deal at
// once. When the connection returns the waiting deals are sent by themselves, in order, one at a
// time, each once (a repeat of a token the server has is answered "already recorded", never saved
// twice). A deal the server refuses (the game changed meanwhile) stays on the phone with the
// server's message, and the deals after it wait until the scorer settles it.
//
// What the page tells this script: the #offline box of the game's live region
// (templates/games/_offline.html): where a deal is recorded, the version and next deal the page was
// drawn at, whose deal it is, and every sentence shown. Pages work without any of this.
(function () {
  "use strict";
  // Loaded only by pages that enter facts (a scorer's game page, an event table's link, a seat's
  // console, the game master's allotment and orders pages), in their body: a boosted visit runs
  // it again, and once is enough (its listeners are the document's).
  if (window.scorekeeperOffline) { return; }
  // This script's own address: the service worker keeps it when it keeps the page (it is not in
  // the worker's install list, which every visitor fetches; web/pwa.py).
  var SELF = document.currentScript ? document.currentScript.src : null;

  var DB_NAME = "scorekeeper-offline";
  var WAITING = "waiting";  // one record per deal kept: {id, game, url, fields, token, base, ...}
  var KNOWN = "known";  // per game: the newest version (and next deal, dealer) this phone has seen
  var PAGES = "pages";  // the service worker's cache of pages (static/sw.js)
  var SHOWN_SAVED = "offline-saved";  // sessionStorage: say "every waiting deal is saved" after a reload

  // ---- Storage: IndexedDB, or (without it) this page's memory. -----------------------------
  var memory = {waiting: [], known: {}, next: 1};
  var dbPromise = null;

  function database() {
    if (dbPromise) { return dbPromise; }
    dbPromise = new Promise(function (resolve) {
      var request;
      try {
        request = window.indexedDB.open(DB_NAME, 1);
      } catch (e) {
        resolve(null);
        return;
      }
      request.onupgradeneeded = function () {
        var db = request.result;
        var store = db.createObjectStore(WAITING, {keyPath: "id", autoIncrement: true});
        store.createIndex("game", "game");
        db.createObjectStore(KNOWN, {keyPath: "game"});
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { resolve(null); };  // private mode without storage: memory
      request.onblocked = function () { resolve(null); };
    });
    return dbPromise;
  }

  function tx(store, mode, work) {
    return database().then(function (db) {
      if (!db) { var kept = work(null); return kept ? kept.result : undefined; }
      return new Promise(function (resolve, reject) {
        var t = db.transaction(store, mode);
        var out = work(t.objectStore(store));
        // (``out``: the request whose result is wanted, read once the transaction is done.)
        t.oncomplete = function () { resolve(out ? out.result : undefined); };
        t.onerror = function () { reject(t.error); };
        t.onabort = function () { reject(t.error); };
      });
    });
  }

  function listWaiting(game) {
    return tx(WAITING, "readonly", function (store) {
      if (!store) { return {result: memory.waiting.filter(function (e) { return e.game === game; })}; }
      return store.index("game").getAll(game);
    }).then(function (rows) {
      return (rows || []).slice().sort(function (a, b) { return a.id - b.id; });
    });
  }

  function putWaiting(entry) {
    return tx(WAITING, "readwrite", function (store) {
      if (!store) {
        if (!entry.id) { entry.id = memory.next++; memory.waiting.push(entry); }
        return {result: entry.id};
      }
      return store.put(entry);
    });
  }

  function dropWaiting(id) {
    return tx(WAITING, "readwrite", function (store) {
      if (!store) {
        memory.waiting = memory.waiting.filter(function (e) { return e.id !== id; });
        return {result: true};
      }
      return store.delete(id);
    });
  }

  function readKnown(game) {
    return tx(KNOWN, "readonly", function (store) {
      return store ? store.get(game) : {result: memory.known[game]};
    });
  }

  function writeKnown(known) {
    return tx(KNOWN, "readwrite", function (store) {
      if (!store) { memory.known[known.game] = known; return {result: true}; }
      return store.put(known);
    });
  }

  // ---- The page's box and what it knows. -----------------------------------------------------
  function box() { return document.getElementById("offline"); }

  function say(name, values) {
    var b = document.getElementById("offline-words");
    var text = (b && b.dataset[name]) || "";
    Object.keys(values || {}).forEach(function (key) { text = text.split("{" + key + "}").join(values[key]); });
    return text;
  }

  // This page's game, in memory: its waiting deals (a copy of the store, read at load and kept in
  // step with every change) and the newest state seen.
  var state = {game: null, entries: [], known: null, loaded: false};

  function boxKnown(b) {
    return {
      game: b.dataset.game,
      version: parseInt(b.dataset.version, 10),
      deal: parseInt(b.dataset.deal, 10),
      dealer: b.dataset.dealer === "" ? null : parseInt(b.dataset.dealer, 10),
      players: JSON.parse(b.dataset.players || "[]"),
    };
  }

  // A box drawn (a page load, a recorded deal's answer): the newer of it and what was kept is
  // what the phone knows. A page the service worker kept may be older than the last deal saved.
  function learn() {
    var b = box();
    if (!b) { return Promise.resolve(); }
    var seen = boxKnown(b);
    if (state.game !== seen.game) { state = {game: seen.game, entries: [], known: null, loaded: false}; }
    var guard = b.dataset.mode === "guard";  // (a page that records no deal: what the phone knows)
    return readKnown(seen.game).then(function (kept) {
      var newest = kept && (guard || kept.version > seen.version) ? kept : seen;
      if (guard) { state.known = kept || null; return null; }
      state.known = newest;
      if (newest === seen) { return writeKnown(seen); }
      return null;
    }).catch(function () { state.known = seen; }).then(function () {
      return listWaiting(seen.game);
    }).then(function (rows) {
      state.entries = rows;
      state.loaded = true;
      passKeptStage();
      // A first stage's heading names the deal it is for: after the deals kept here.
      var head = document.querySelector("#entry [data-offline-head]");
      var kept = rows.filter(function (e) { return !e.kind || e.kind === "deal"; }).length;
      if (head && kept && state.known) { head.textContent = say("dealLabel", {n: state.known.deal + kept}); }
      draw();
    });
  }

  function pending() { return state.entries; }

  // A page drawn at a later stage of a deal already kept whole on the phone (opened again
  // offline, from the worker's copy): that deal is done here, so the next deal's first stage.
  function passKeptStage() {
    var form = document.getElementById("entry");
    var b = box();
    if (!form || !b || !document.getElementById("entry-next")) { return; }
    var drawn = b.dataset.version;
    if (pending().some(function (e) { return e.staged === drawn; })) { ready(form); }
  }

  // The newest version this page has seen: its box's, or the phone's record of the game.
  function currentVersion() {
    var b = box();
    var drawn = b && b.dataset.game === state.game ? parseInt(b.dataset.version, 10) : 0;
    return Math.max(drawn, state.known ? state.known.version : 0);
  }

  // ---- Tokens and what a deal says. ----------------------------------------------------------
  function newToken() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    var chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    var out = "";
    for (var i = 0; i < bytes.length; i += 1) { out += chars.charAt(bytes[i] % 64); }
    return out;
  }

  function clean(text) { return (text || "").replace(/\s+/g, " ").trim(); }

  function groupName(input) {
    var group = input.closest("[role=radiogroup]");
    if (group) {
      var by = group.getAttribute("aria-labelledby");
      var named = by && document.getElementById(by);
      if (named) { return clean(named.textContent); }
      if (group.getAttribute("aria-label")) { return clean(group.getAttribute("aria-label")); }
    }
    var seat = input.closest(".seat");
    var who = seat && seat.querySelector(".who");
    if (who) { return clean(who.textContent); }
    if (input.id) {
      var label = document.querySelector('label[for="' + input.id + '"]');
      if (label) { return clean(label.textContent); }
    }
    var fieldset = input.closest("fieldset");
    var legend = fieldset && fieldset.querySelector("legend");
    return legend ? clean(legend.textContent) : "";
  }

  // The facts typed, in the form's own words: "Maker: Ann, Tricks won by the makers: 4"; a fact
  // asked of every player under its heading: "Tricks won: Ann 4, Bob 3, Cid 3, Dee 3".
  function summaryOf(form, submitter) {
    var parts = [];
    var perSeat = [];  // [{head, items}] in the form's order
    function add(input, value) {
      var seat = input.closest(".seat");
      var who = seat && seat.querySelector(".who");
      var fieldset = input.closest("fieldset");
      var legend = fieldset && fieldset.querySelector("legend");
      if (who && legend) {
        var head = clean(legend.textContent).replace(/\s*\(.*\)$/, "");
        var group = perSeat.filter(function (g) { return g.head === head; })[0];
        if (!group) { group = {head: head, items: []}; perSeat.push(group); parts.push(group); }
        // (the name alone: the dealer's tag is said once, in the deal's own words)
        var name = who.cloneNode(true);
        name.querySelectorAll("[data-offline-dealer]").forEach(function (tag) { tag.remove(); });
        group.items.push(clean(name.textContent) + " " + value);
        return;
      }
      var name = groupName(input);
      parts.push(name && name !== value ? name + ": " + value : value);
    }
    form.querySelectorAll("input:checked, input[type=number], input[type=text], input:not([type]), select, textarea").forEach(function (input) {
      if (input.closest("[hidden]") || input.type === "hidden" || !input.value) { return; }
      var value;
      if (input.type === "radio" || input.type === "checkbox") {
        var label = input.closest("label");
        value = clean(label ? label.textContent : input.value);
      } else if (input.tagName === "SELECT") {
        value = clean(input.options[input.selectedIndex].textContent);
      } else {
        value = input.value;
      }
      add(input, value);
    });
    if (submitter && submitter.name && !submitter.classList.contains("primary")) {
      parts.unshift(clean(submitter.textContent));
    }
    return parts.map(function (part) {
      return typeof part === "string" ? part : part.head + ": " + part.items.join(", ");
    }).join("; ");
  }

  // A seat's console (Secrets' private link): orders for the turn being collected, not deals.
  function ordersMode() { var b = box(); return !!b && b.dataset.mode === "orders"; }

  function dealWords(n) {
    var known = state.known;
    if (ordersMode()) { return say("dealLabel", {n: known ? known.deal : n}); }
    var text = say("dealLabel", {n: n});
    if (known && known.dealer !== null && known.players.length) {
      var seat = (known.dealer + (n - known.deal)) % known.players.length;
      text += " (" + say("dealerLabel", {dealer: known.players[seat]}) + ")";
    }
    return text;
  }

  // ---- Drawing the list in the box. ----------------------------------------------------------
  var note = null;  // {text, link}: the last thing said (kept, saving, saved)
  var discarding = null;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function secure() { return "serviceWorker" in navigator && window.isSecureContext; }

  // The entry form's words for the deal it is for (a legend's number, the dealer's tag, who bids
  // first), drawn by the server for the next deal it has: with deals kept on the phone, the form
  // is for a later one, and says so. ``data-offline-words`` is the sentence with {n} (that deal's
  // number), {prev} (the one before) and {first} (the player after its dealer).
  function nameNextDeal() {
    var form = document.getElementById("entry");
    var known = state.known;
    var b = box();
    if (!form || !known || !b || b.dataset.mode !== "deals") { return; }  // (a seat's orders, a correction: as drawn)
    var kept = pending().filter(function (e) { return !e.kind || e.kind === "deal"; }).length;
    var n = known.deal + kept;
    var count = known.players.length;
    var dealer = known.dealer !== null && count ? (known.dealer + kept) % count : null;
    form.querySelectorAll("[data-offline-words]").forEach(function (node) {
      var text = node.dataset.offlineWords.split("{n}").join(String(n)).split("{prev}").join(String(n - 1));
      if (dealer !== null) { text = text.split("{first}").join(known.players[(dealer + 1) % count]); }
      node.textContent = text;
    });
    var tag = form.querySelector("[data-offline-dealer]");
    var seats = form.querySelectorAll("[data-offline-seat]");
    if (tag && dealer !== null && seats[dealer] && tag.parentNode !== seats[dealer]) {
      seats[dealer].appendChild(document.createTextNode(" "));
      seats[dealer].appendChild(tag);
    }
  }

  function draw() {
    var b = box();
    if (!b) { return; }
    nameNextDeal();
    var live = document.getElementById("live");
    // (An entry is listed once it is on the phone for good: listed while its write to IndexedDB
    // was still under way, a reload at once lost what the page had said was kept.)
    var entries = pending().filter(function (e) { return !storing.has(e); });
    b.textContent = "";
    // What the phone cannot know while deals wait: the totals, the status line, the preview.
    if (live) { live.classList.toggle("offline-waiting", entries.length > 0); }
    if (!entries.length && !note) { b.hidden = true; return; }
    b.hidden = false;
    if (note) {
      var said = el("p", "flash " + (note.ok ? "flash-ok" : "offline-note"), note.text);
      said.setAttribute("role", "status");
      if (note.link) {
        var link = el("a", "", note.link);
        link.href = window.location.pathname;
        said.appendChild(document.createTextNode(" "));
        said.appendChild(link);
      }
      b.appendChild(said);
    }
    // Without a service worker (plain HTTP on the hall's network) the page cannot open offline.
    if ((entries.length || (note && !note.ok)) && !secure()) {
      b.appendChild(el("p", "error offline-fragile", say("notDurable")));
    }
    if (!entries.length) { return; }
    b.appendChild(el("p", "offline-head", say("waiting")));
    var list = el("ol", "offline-list");
    // Deals are numbered from the next one the server has; a seat's orders and allotments name
    // themselves (entry.label) and take no deal number.
    var first = state.known ? state.known.deal : 1;
    var dealsBefore = 0;
    var blocked = false;
    entries.forEach(function (entry, i) {
      var item = el("li", "offline-deal" + (entry.refused ? " offline-refused" : ""));
      item.dataset.token = entry.token;
      var number = first + dealsBefore;
      if (!entry.kind || entry.kind === "deal") { dealsBefore += 1; }
      var head = (entry.label || dealWords(number)) + (entry.summary ? ": " + entry.summary : "");
      if (entry.refused) {
        item.appendChild(el("strong", "", say("refused") + " "));
        item.appendChild(document.createTextNode(head));
        item.appendChild(el("p", "error", entry.refused));
        var actions = el("p", "offline-actions");
        var put = el("button", "small", say("putBack"));
        put.type = "button";
        put.dataset.offlinePut = String(entry.id);
        var drop = el("button", "small danger", discarding === entry.id ? say("discardAgain") : say("discard"));
        drop.type = "button";
        drop.dataset.offlineDiscard = String(entry.id);
        actions.appendChild(put);
        actions.appendChild(document.createTextNode(" "));
        actions.appendChild(drop);
        item.appendChild(actions);
        blocked = true;
      } else {
        item.appendChild(document.createTextNode(head));
        if (blocked) { item.appendChild(el("span", "muted", " (" + say("held") + ")")); }
      }
      list.appendChild(item);
    });
    b.appendChild(list);
    if (!ordersMode() && b.dataset.mode !== "guard") {
      b.appendChild(el("p", "hint", say("unknown")));
      // After a game's last planned deal there is no next one to name (unless a tie plays on,
      // which only the server can tell: the form stays for it).
      var last = parseInt(b.dataset.last, 10);
      var after = first + dealsBefore;
      b.appendChild(el("p", "offline-next", last && after > last ? say("lastKept") : say("next", {deal: dealWords(after)})));
    }
  }

  // ---- Keeping a deal. -----------------------------------------------------------------------
  var lastSubmitter = new WeakMap();

  function submitUrl(form, submitter) {
    var url = submitter && submitter.hasAttribute("formaction") ? submitter.formAction : form.action;
    try { return new URL(url, window.location.href).pathname; } catch (e) { return ""; }
  }

  // A deal's own entry form, for this page's game (not a preview, a draft, a correction); or a
  // form that says it is kept the same way (``data-offline-keep``: a Hidden Secrets allotment, on
  // the seat's console or the game master's page), sent where it posts.
  function isDealForm(form, submitter) {
    var b = box();
    if (!b || !form) { return false; }
    if (form.hasAttribute("data-offline-keep")) { return submitUrl(form, submitter) === submitUrl(form, null); }
    return form.id === "entry" && !!b.dataset.action && submitUrl(form, submitter) === b.dataset.action;
  }

  // What a kept entry is: "deal" (numbered, each one more), or what replaces an earlier one of its
  // kind still waiting ("orders" for the turn, an "allotment"), as online each change replaces the last.
  function kindOf(form) {
    if (form.hasAttribute("data-offline-keep")) { return form.getAttribute("data-offline-keep") || "allotment"; }
    return ordersMode() ? "orders" : "deal";
  }

  function fieldsOf(form, submitter) {
    var fields = [];
    var data;
    try { data = new FormData(form, submitter || undefined); } catch (e) { data = new FormData(form); }
    if (submitter && submitter.name && !data.has(submitter.name)) { data.append(submitter.name, submitter.value); }
    data.forEach(function (value, name) { if (typeof value === "string") { fields.push([name, value]); } });
    return fields;
  }

  function setField(fields, name, value) {
    var found = false;
    fields.forEach(function (pair) { if (pair[0] === name) { pair[1] = value; found = true; } });
    if (!found) { fields.push([name, value]); }
  }

  function fieldOf(fields, name) {
    for (var i = 0; i < fields.length; i += 1) { if (fields[i][0] === name) { return fields[i][1]; } }
    return null;
  }

  // ``sent``: the request went out and failed on its way (its answer may have been lost after the
  // server saved it): the deal keeps the token it was sent with, so a repeat is recognised. Not
  // sent: a new token of its own (the page may be a copy kept from before its own token was used).
  // Entries whose write to IndexedDB is under way (not stored with them: a Set beside them).
  var storing = new Set();
  function keep(form, submitter, sent) {
    var fields = fieldsOf(form, submitter);
    var token = sent ? fieldOf(fields, "submit_token") : null;
    if (!token || !/^[A-Za-z0-9_-]{8,64}$/.test(token)) { token = newToken(); }
    setField(fields, "submit_token", token);
    var entry = {
      game: state.game,
      url: submitUrl(form, submitter),
      fields: fields,
      token: token,
      // The first deal waiting is based on the newest version seen; each after it on the one
      // before it, as the server answers (X-Game-Version).
      base: pending().length ? null : (state.known ? state.known.version : parseInt(fieldOf(fields, "base_version"), 10)),
      summary: summaryOf(form, submitter),
      kind: kindOf(form),
      label: form.getAttribute("data-offline-label") || null,
      // A deal finished in a later stage of its entry (Abracadabra's tricks): the version that
      // stage was drawn at, to know the page again if it is opened before the deal is sent.
      staged: form.querySelector("[data-abra-offline-suits], input[name=stage][value=suits]") && box() ? box().dataset.version : null,
      at: Date.now(),
      refused: null,
    };
    storing.add(entry);
    var replaced = [];
    if (entry.kind !== "deal") {
      // Orders (an allotment) changed again before the first were sent: only the newest go (as
      // online, where each change replaces the last). A refused one stays until it is settled.
      var same = function (e) { return !e.refused && e.kind === entry.kind && e.url === entry.url; };
      replaced = state.entries.filter(same);
      state.entries = state.entries.filter(function (e) { return !same(e); });
    }
    state.entries.push(entry);
    if (form.dataset.abraPlay) {
      // (Its taps, kept by app.js for a reload, are this deal's: it is kept whole now.)
      try { window.localStorage.removeItem("abra-tricks:" + form.dataset.abraPlay); } catch (e) { /* none */ }
    }
    keptAt = Date.now();
    tappedSince = false;
    note = {text: say(entry.kind === "deal" ? "kept" : "keptOrders")};
    // A deal's form is emptied for the next deal; orders and allotments stay shown as sent.
    if (entry.kind === "deal") { ready(form); } else { fresh_token(form); }
    draw();
    return Promise.all(replaced.map(function (e) { return e.id ? dropWaiting(e.id) : null; }))
      .then(function () { return putWaiting(entry); })
      .then(function (id) { entry.id = id; }).catch(function () { /* kept in memory */ })
      .then(function () { storing.delete(entry); draw(); later(0); });
  }

  function fresh_token(form) {
    var token = form.querySelector("input[name=submit_token]");
    if (token) { token.value = newToken(); }
  }

  // The form, emptied for the next deal, with a token of its own. A form of a deal's later stage
  // (Abracadabra's tricks kept on the phone) gives way to the next deal's first stage, which the
  // page carries for this (<template id="entry-next">): the deal is over on the phone.
  function ready(form) {
    var next = document.getElementById("entry-next");
    if (next && next.content && form.id === "entry") {
      var fresh = next.content.firstElementChild.cloneNode(true);
      form.replaceWith(fresh);
      next.remove();  // (once: the next deal's own stage follows it)
      if (window.htmx) { window.htmx.process(fresh); }
      form = fresh;
      var head = form.querySelector("[data-offline-head]");
      if (head && state.known) { head.textContent = say("dealLabel", {n: state.known.deal + pending().length}); }
    }
    form.reset();
    form.querySelectorAll("[data-touched], [data-filled]").forEach(function (seat) {
      delete seat.dataset.touched;
      delete seat.dataset.filled;
    });
    form.querySelectorAll(".send-error, .error-summary").forEach(function (n) { n.remove(); });
    var token = form.querySelector("input[name=submit_token]");
    if (token) { token.value = newToken(); }
    var first = form.querySelector("input:not([type=hidden]), select, button");
    if (first) { first.focus({preventScroll: true}); }
    form.scrollIntoView({block: "start"});
  }

  // A double tap on Record: the second tap finds the form already emptied for the next deal.
  // Within a moment of a deal kept, with nothing tapped since, it records nothing.
  var keptAt = 0;
  var tappedSince = false;
  document.addEventListener("change", function (event) {
    if (event.target.closest && event.target.closest("#entry")) { tappedSince = true; }
  });
  function doubleTap() { return Date.now() - keptAt < 1500 && !tappedSince; }

  document.addEventListener("submit", function (event) {
    if (event.submitter) { lastSubmitter.set(event.target, event.submitter); }
    var form = event.target;
    if (!state.loaded || !isDealForm(form, event.submitter)) { return; }
    if (doubleTap() && kindOf(form) === "deal") { event.preventDefault(); event.stopImmediatePropagation(); return; }
    var token = form.querySelector("input[name=submit_token]");
    var entries = pending();
    // A refused deal put back in the form and sent again goes first, online, as any deal.
    var settling = entries.length && entries[0].refused && token && token.value === entries[0].token;
    if (navigator.onLine !== false && (!entries.length || settling)) { return; }
    event.preventDefault();
    event.stopImmediatePropagation();
    keep(form, event.submitter, false);
  }, true);

  // A deal recorded by a button of its own (Spades' Record: hx-post on the button, so htmx sends
  // it on the click, not on the form's submit).
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#entry button[hx-post]");
    if (!button || !state.loaded || button.disabled) { return; }
    var form = button.closest("form");
    if (!isDealForm(form, button)) { return; }
    if (doubleTap() && kindOf(form) === "deal") { event.preventDefault(); event.stopImmediatePropagation(); return; }
    var token = form.querySelector("input[name=submit_token]");
    var entries = pending();
    var settling = entries.length && entries[0].refused && token && token.value === entries[0].token;
    if (navigator.onLine !== false && (!entries.length || settling)) { return; }
    if (!form.checkValidity()) { return; }
    event.preventDefault();
    event.stopImmediatePropagation();
    keep(form, button, false);
  }, true);

  // Sent, and failed on the way with the phone offline (cut mid-request). Online (a server that
  // did not answer), the entry stays in its form and app.js says to try again: the same token.
  document.addEventListener("htmx:sendError", function (event) {
    var elt = event.detail && event.detail.elt;
    var form = elt && elt.closest ? elt.closest("form") : null;
    if (!form || !state.loaded || navigator.onLine !== false) { return; }
    if (elt.getAttribute("data-background") === "save" && form.id === "entry" && box()) {
      // The first part of a deal kept as the game's draft (Spades' bids): it goes with the deal,
      // kept here when recorded; sent alone later it would only race the deal.
      event.detail.kept = true;
      note = {text: say("offline")};
      draw();
      return;
    }
    var submitter = elt.matches && elt.matches("button[type=submit]") ? elt : lastSubmitter.get(form);
    if (!isDealForm(form, submitter) || elt.hasAttribute("data-background")) { return; }
    event.detail.kept = true;  // (app.js: not also retried from the form)
    keep(form, submitter, true);
  });

  // ---- Sending the waiting deals. ------------------------------------------------------------
  var sending = false;
  var timer = null;

  function later(ms) {
    window.clearTimeout(timer);
    timer = window.setTimeout(send, ms);
  }

  function csrf() {
    var input = document.querySelector("input[name=csrf_token]");
    return input ? input.value : null;
  }

  // The server's own words for a refusal: the conflict's sentence, the rules' list, an error page.
  function refusalOf(status, text) {
    var doc;
    try { doc = new DOMParser().parseFromString(text || "", "text/html"); } catch (e) { doc = null; }
    var said = [];
    if (doc) {
      var conflict = doc.querySelector(".conflict");
      // The game's own version conflict speaks of a form and an entry "below", as online: here the
      // deal is in the list, above its message, and "Put it in the form" or "Discard it" settles it.
      if (conflict && status === 409 && conflict.closest("#live")) { said.push(say("conflict")); }
      else if (conflict) { said.push(clean(conflict.textContent)); }
      doc.querySelectorAll("#error-summary li, .error-page p").forEach(function (n) { said.push(clean(n.textContent)); });
      if (!said.length) {
        doc.querySelectorAll(".error").forEach(function (n) { if (clean(n.textContent)) { said.push(clean(n.textContent)); } });
      }
    }
    return said.length ? said.join(" ") : say("serverError", {code: status});
  }

  var savedKey = "saved";  // (the words for what the last sending saved)

  function send() {
    if (sending || !state.loaded || navigator.onLine === false) { return; }
    var entries = pending();
    if (!entries.length || entries[0].refused) { return; }
    sending = true;
    // A seat's orders or an allotment are no deals: the sentences say what was waiting.
    var deals = entries.some(function (e) { return !e.kind || e.kind === "deal"; });
    savedKey = deals ? "saved" : "savedOther";
    note = {text: say(deals ? "sending" : "sendingOther")};
    draw();
    var version = null;
    var sentAny = false;
    function next() {
      var entries = pending();
      var entry = entries[0];
      if (!entry || entry.refused) { return finish(true, sentAny); }
      var fields = entry.fields.map(function (pair) { return pair.slice(); });
      var base = entry.base !== null && entry.base !== undefined ? entry.base : (version !== null ? version : currentVersion());
      setField(fields, "base_version", String(base));
      var token = csrf();
      if (token) { setField(fields, "csrf_token", token); }
      var body = new URLSearchParams();
      fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
      return window.fetch(entry.url, {
        method: "POST",
        body: body,
        credentials: "same-origin",
        headers: {"HX-Request": "true", "HX-Current-URL": window.location.href},
      }).then(function (answer) {
        var saved = answer.headers.get("X-Game-Version");
        // Saved: the answer names the version it left; a page posted without htmx (the game
        // master's allotment page) answers by leading on to the game (a redirect followed).
        if (answer.ok && (saved || answer.redirected)) {
          if (saved) { version = parseInt(saved, 10); }
          sentAny = true;
          state.entries.shift();
          // The next deal waiting (if any) follows this one: based on the version it left.
          if (state.entries.length && (state.entries[0].base === null || state.entries[0].base === undefined)) {
            state.entries[0].base = version;
            putWaiting(state.entries[0]);
          }
          if (state.known && version !== null) {
            state.known.version = Math.max(state.known.version, version);
            if (!entry.kind || entry.kind === "deal") { state.known.deal += 1; }
            writeKnown(state.known);
          }
          draw();
          return dropWaiting(entry.id).then(next);
        }
        if (answer.status >= 400 && answer.status < 500 && answer.status !== 408 && answer.status !== 429) {
          return answer.text().then(function (text) {
            entry.refused = refusalOf(answer.status, text);
            return putWaiting(entry).then(function () { finish(false, true); });
          });
        }
        return finish(false, false, true);  // the server could not answer now: again later
      }, function () {
        return finish(false, false, true);  // no connection after all
      });
    }
    // ``allSaved``: nothing left to send; ``changed``: something was saved or refused (the page
    // then shows the game as it is now); ``again``: no answer, look again in a while.
    function finish(allSaved, changed, again) {
      sending = false;
      note = allSaved && changed ? {text: say(savedKey), ok: true} : null;
      draw();
      if (again) { later(5000); return; }
      if (changed) { fresh(allSaved); }
    }
    next().catch(function () { sending = false; later(5000); });
  }

  // Is anything typed in the entry form? Then the page is not reloaded under the scorer's fingers.
  function typing() {
    var form = document.getElementById("entry");
    if (!form) { return false; }
    var typed = false;
    form.querySelectorAll("input, select, textarea").forEach(function (input) {
      if (input.type === "hidden") { return; }
      if (input.type === "radio" || input.type === "checkbox") {
        if (input.checked !== input.defaultChecked) { typed = true; }
      } else if (input.tagName === "SELECT") {
        Array.prototype.forEach.call(input.options, function (o) { if (o.selected !== o.defaultSelected) { typed = true; } });
      } else if (input.value !== input.defaultValue) {
        typed = true;
      }
    });
    return typed;
  }

  // Deals sent: the page shows the game as the server has it now (and an event table's next round
  // once its game is over), unless the scorer is typing the next deal: then a link says so.
  function fresh(allSaved) {
    keepPage();
    if (typing()) {
      if (allSaved) { note = {text: say(savedKey), ok: true, link: say("newest")}; draw(); }
      return;
    }
    try { window.sessionStorage.setItem(SHOWN_SAVED, allSaved ? say(savedKey) : ""); } catch (e) { /* said once only */ }
    window.location.reload();
  }

  // The service worker's copy of this page follows the game: opened offline later, it shows the
  // deals the phone has seen saved, not the page as it first came.
  var keepTimer = null;
  function keepPage(soon) {
    if (!("caches" in window) || !window.isSecureContext) { return; }
    window.clearTimeout(keepTimer);
    keepTimer = window.setTimeout(function () {
      var here = window.location.pathname;
      // Only where the service worker serves the kept pages (static/sw.js).
      var worker = navigator.serviceWorker;
      Promise.resolve(worker && worker.controller).then(function (has) {
        if (!has) { return null; }
        // (Through the worker, which keeps a static file it serves: the page opens offline
        // with this script, though the page's first visit fetched it before the worker served.
        // The script first, then the page: a page kept before its script opened offline as a
        // page with no waiting deals, when the connection dropped within that moment.)
        var script = SELF ? window.fetch(SELF).catch(function () { /* kept later */ }) : Promise.resolve();
        return script.then(function () { return window.fetch(here, {credentials: "same-origin"}); }).then(function (answer) {
          if (!answer.ok || answer.redirected) { return null; }
          return window.caches.open(PAGES).then(function (cache) { return cache.put(here, answer); });
        });
      }).catch(function () { /* kept as it was */ });
    }, soon === true ? 0 : 1500);
  }

  // ---- The scorer settles a refused deal. ----------------------------------------------------
  function putBack(entry) {
    // (An allotment goes back in its own form, wherever it is on the page.)
    var form = entry.kind === "allotment" ? document.querySelector("form[data-offline-keep]") : document.getElementById("entry");
    if (!form) { return; }
    form.reset();
    var skip = {csrf_token: 1, base_version: 1};
    entry.fields.forEach(function (pair) {
      var name = pair[0], value = pair[1];
      if (skip[name]) { return; }
      form.querySelectorAll('[name="' + name.replace(/"/g, '\\"') + '"]').forEach(function (input) {
        if (input.type === "radio" || input.type === "checkbox") {
          if (input.value === value) { input.checked = true; }
        } else if (input.tagName !== "BUTTON") {
          input.value = value;
        }
      });
    });
    // Its own token: once saved from the form, it is no longer waiting.
    var token = form.querySelector("input[name=submit_token]");
    if (token) { token.value = entry.token; }
    form.scrollIntoView({block: "start"});
  }

  document.addEventListener("click", function (event) {
    var put = event.target.closest && event.target.closest("[data-offline-put]");
    var drop = event.target.closest && event.target.closest("[data-offline-discard]");
    if (!put && !drop) { return; }
    var id = parseInt((put || drop).dataset.offlinePut || (put || drop).dataset.offlineDiscard, 10);
    var entry = pending().filter(function (e) { return e.id === id; })[0];
    if (!entry) { return; }
    if (put) { putBack(entry); return; }
    if (discarding !== id) { discarding = id; draw(); return; }
    discarding = null;
    state.entries = state.entries.filter(function (e) { return e.id !== id; });
    dropWaiting(id).then(function () { draw(); later(0); });
  });

  // A deal sent from the form (online) whose token is a waiting one's: it is saved, no longer waiting.
  var tokens = new WeakMap();
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    var form = elt && elt.closest ? elt.closest("form") : null;
    var token = form && form.querySelector("input[name=submit_token]");
    if (token && event.detail.xhr) { tokens.set(event.detail.xhr, token.value); }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    var token = xhr && tokens.get(xhr);
    if (!token || xhr.status < 200 || xhr.status >= 300) { return; }
    // Any step saved (a draft's too: Abracadabra's play begun): the worker's copy follows it.
    keepPage();
    if (!xhr.getResponseHeader("X-Game-Version")) { return; }
    var done = pending().filter(function (e) { return e.token === token; })[0];
    if (!done) { return; }
    state.entries = state.entries.filter(function (e) { return e !== done; });
    dropWaiting(done.id).then(function () { draw(); later(0); });
  });


  // ---- Other writes while deals wait (issue 53). ---------------------------------------------
  // A deal kept on the phone is not yet on the server, so any other write to the game now would
  // be made on a state the scorer does not see. Each decided by what it does:
  // - Record deal, and Tally's "Yes, end the game" (a button of the deal's own form): wait their
  //   turn in the queue above (the end comes after the deals typed before it, as tapped).
  // - A seat's orders, a Hidden Secrets allotment: kept too; each replaces the one of its kind
  //   still waiting (they are not based on a version: nothing before them can make them wrong).
  // - Spades' bids kept as the draft in the background: not sent; they go with their deal.
  // - Everything else is refused here with a plain message, nothing sent, what was typed kept:
  //   "Undo" takes back the newest change on the server, not the deal the scorer last tapped;
  //   Abracadabra's trick-by-trick steps (Start play, a trick saved, a draft discarded) change a
  //   draft that the waiting deals must reach first; a correction or deletion of a deal, Delete
  //   this game, Rematch and Archive act on a record that lacks the waiting deals; an event
  //   table's confirmation confirms totals the phone cannot know yet. Queued, each would act
  //   later on a state nobody looked at: done by hand once the deals are in, it is done right.
  // A preview (not a write) and the language (not the game's) pass.
  function writeOf(form, submitter) {
    if (!form || (form.getAttribute("method") || "get").toLowerCase() !== "post") { return false; }
    if (form.classList.contains("lang") || form.closest("#offline")) { return false; }
    var url = submitUrl(form, submitter);
    return !/\/preview$/.test(url);
  }

  function blockedWords(n) {
    // The page carries the sentence for 1, 2 and 5 (every plural form of en, pl, pt-PT): the one
    // whose plural category is n's is used, with n in it.
    var b = document.getElementById("offline-words");
    var rules = null;
    try { rules = new Intl.PluralRules(document.documentElement.lang || "en"); } catch (e) { rules = null; }
    var sample = [1, 2, 5].filter(function (k) { return rules ? rules.select(k) === rules.select(n) : (n === 1) === (k === 1); })[0] || 2;
    return ((b && b.dataset["blocked" + sample]) || "").split("{n}").join(String(n));
  }

  function refuseWrite(elt) {
    var form = elt && elt.closest ? elt.closest("form") : null;
    var text = pending().length ? blockedWords(pending().length) : say("offlineWrite");
    // (A form that offers another way meanwhile says which: Abracadabra's set-up, "as reported".)
    if (form && form.dataset.offlineInstead) { text += " " + form.dataset.offlineInstead; }
    var place = (elt && elt.closest && (elt.closest("form") || elt)) || box();
    var said = place && place.nextElementSibling && place.nextElementSibling.classList.contains("offline-blocked")
      ? place.nextElementSibling : el("p", "error offline-blocked");
    said.setAttribute("role", "alert");
    said.textContent = text;
    if (place && said.parentNode !== place.parentNode) { place.insertAdjacentElement("afterend", said); }
  }

  // While deals wait, or with no connection at all (then the write could only fail, or be kept
  // in memory by app.js until the tab closes: said now instead, the same way).
  // Only on a page of the game whose deals these are (a boosted visit elsewhere, a new game say,
  // is no write to this game).
  function mustWait() {
    var b = box();
    return state.loaded && !!b && b.dataset.game === state.game && (pending().length > 0 || navigator.onLine === false);
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!mustWait() || isDealForm(form, event.submitter) || !writeOf(form, event.submitter)) { return; }
    event.preventDefault();
    event.stopImmediatePropagation();
    refuseWrite(event.submitter || form);
  }, true);

  // A write htmx makes from an element of its own (not a form's submit): the same rule.
  document.addEventListener("htmx:confirm", function (event) {
    var elt = event.detail && event.detail.elt;
    var verb = event.detail && event.detail.verb;
    if (!mustWait() || !elt || !verb || verb.toLowerCase() === "get") { return; }
    var form = elt.closest ? elt.closest("form") : null;
    var path = event.detail.path || "";
    if (/\/preview$/.test(path)) { return; }
    if (form && isDealForm(form, elt.matches && elt.matches("button") ? elt : null)) { return; }
    // Spades' bids with no deal waiting: sent, and if the connection is down, kept with the deal
    // (htmx:sendError above).
    if (elt.getAttribute("data-background") === "save" && !pending().length) { return; }
    event.preventDefault();
    // Spades' bids, kept with their deal: nothing to say. Anything else: said where it was tapped.
    if (elt.getAttribute("data-background") !== "save") { refuseWrite(elt); }
  });

  window.scorekeeperOffline = {waiting: function () { return pending().length; }, offline: function () { return navigator.onLine === false; }};

  // ---- When to look. -------------------------------------------------------------------------
  function start() {
    try {
      var saved = window.sessionStorage.getItem(SHOWN_SAVED);
      if (saved) { note = {text: saved, ok: true}; }
      window.sessionStorage.removeItem(SHOWN_SAVED);
    } catch (e) { /* nothing to say */ }
    // A page opened from the worker's copy may carry a token already used: a new one for the form.
    var form = document.getElementById("entry");
    var token = form && isDealForm(form, null) && form.querySelector("input[name=submit_token]");
    if (token && !form.querySelector(".error-summary")) { token.value = newToken(); }
    learn().then(function () { later(0); });
    // The first visit (before the worker was installed) is not kept by it: kept once it serves.
    if (box() && secure() && !navigator.serviceWorker.controller) {
      navigator.serviceWorker.addEventListener("controllerchange", function () { keepPage(true); });
    } else if (box() && secure() && "caches" in window) {
      // The worker took the page over before this script started (it had no change left to
      // hear): the page, fetched before the worker served, is kept now unless it is already.
      window.caches.open(PAGES)
        .then(function (cache) { return cache.match(window.location.pathname); })
        .then(function (hit) { if (!hit) { keepPage(true); } })
        .catch(function () { /* kept at the next save */ });
    }
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
  // A region swapped in (a recorded deal, a poll's redraw): its box is drawn empty again.
  document.addEventListener("htmx:load", function (event) {
    var elt = event.detail && event.detail.elt;
    if (elt && elt.querySelector && (elt.id === "offline" || elt.id === "live" || elt.querySelector("#offline"))) { learn(); }
  });
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.id === "offline") { learn(); }
  });
  window.addEventListener("online", function () { later(0); });
  // In case the "online" event is missed (a phone waking up): look again now and then.
  window.setInterval(function () { if (pending().length && !sending) { send(); } }, 5000);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { later(0); }
  });
})();
