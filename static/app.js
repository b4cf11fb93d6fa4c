// Small conveniences on top of pages that work without JavaScript.
(function () {
  "use strict";

  // What a game's own entry script (games/<key>/static/entry.js, web/games/assets.py) is started
  // with. It comes in its pages' body, after this script (both deferred), and a boosted visit runs
  // it again: ``once(key, start)`` starts it on the first of its pages only, its listeners on the
  // document serving the pages after; ``ready(fn)`` runs ``fn`` once the page is parsed.
  var started = {};
  window.scorekeeperGames = {
    once: function (key, start) {
      if (started[key]) { return; }
      started[key] = true;
      start();
    },
    ready: function (fn) {
      if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", fn); } else { fn(); }
    }
  };

  // Tricks that must add up to a total: once every player but one is given, the last player's
  // count follows, so the scorer taps one player less. Only a player the scorer has not touched
  // is filled (and refilled while still untouched); a value shown by the page counts as given.
  // Arrow keys step through values, so from the keyboard it waits until the values settle.
  function fillLast(fieldset) {
    var total = parseInt(fieldset.dataset.sum, 10);
    var open = [], sum = 0;
    fieldset.querySelectorAll(".seat").forEach(function (seat) {
      var checked = seat.querySelector("input[type=radio]:checked");
      if (seat.dataset.touched || (checked && !seat.dataset.filled)) {
        sum += checked ? parseInt(checked.value, 10) : NaN;
      } else {
        open.push(seat);
      }
    });
    if (open.length !== 1 || isNaN(sum)) { return; }
    var seat = open[0];
    var input = seat.querySelector('input[type=radio][value="' + (total - sum) + '"]');
    var was = seat.querySelector("input[type=radio]:checked");
    if (input) {
      input.checked = true;
      seat.dataset.filled = "1";
    } else if (was && seat.dataset.filled) {
      was.checked = false;  // an earlier fill no longer adds up: leave the choice to the scorer
    }
  }

  var byKeyboard = false, settle = null;
  document.addEventListener("keydown", function () { byKeyboard = true; }, true);
  document.addEventListener("pointerdown", function () { byKeyboard = false; }, true);
  document.addEventListener("change", function (event) {
    var fieldset = event.target.closest("fieldset[data-sum]");
    if (!fieldset || event.target.type !== "radio") { return; }
    var seat = event.target.closest(".seat");
    if (seat) { seat.dataset.touched = "1"; delete seat.dataset.filled; }
    window.clearTimeout(settle);
    if (byKeyboard) {
      settle = window.setTimeout(function () { fillLast(fieldset); }, 800);
    } else {
      fillLast(fieldset);
    }
  });

  // Cards dealt once each (Secret Agent's assignment cards, Abracadabra's bid suits with four
  // players: fieldset[data-each-once], its value the selector of a player's row): once every
  // player but one has a card, the last player's is the card left, filled in at once (visibly,
  // and marked "filled"); tapping it changes it as any chip. Only an untouched player is filled.
  function fillLastCard(fieldset) {
    var open = [], used = {}, values = null;
    fieldset.querySelectorAll(fieldset.dataset.eachOnce || ".seat").forEach(function (seat) {
      var inputs = seat.querySelectorAll("input[type=radio]");
      if (values === null) { values = Array.prototype.map.call(inputs, function (i) { return i.value; }); }
      var checked = seat.querySelector("input[type=radio]:checked");
      if (seat.dataset.touched || (checked && !seat.dataset.filled)) {
        if (checked) { used[checked.value] = (used[checked.value] || 0) + 1; } else { used[""] = 1; }
      } else {
        open.push(seat);
      }
    });
    if (open.length !== 1 || used[""] || values === null) { return; }
    var left = values.filter(function (v) { return !used[v]; });
    var seat = open[0];
    var was = seat.querySelector("input[type=radio]:checked");
    if (left.length === 1 && Object.keys(used).every(function (v) { return used[v] === 1; })) {
      seat.querySelector('input[type=radio][value="' + left[0] + '"]').checked = true;
      seat.dataset.filled = "1";
    } else if (was && seat.dataset.filled) {
      was.checked = false;
      delete seat.dataset.filled;
    }
  }

  document.addEventListener("change", function (event) {
    var fieldset = event.target.closest && event.target.closest("fieldset[data-each-once]");
    if (!fieldset || event.target.type !== "radio") { return; }
    var seat = event.target.closest(fieldset.dataset.eachOnce || ".seat");
    if (seat) { seat.dataset.touched = "1"; delete seat.dataset.filled; }
    fillLastCard(fieldset);
  });

  // One explanation open at a time on the scoreboard.
  document.addEventListener("toggle", function (event) {
    var opened = event.target;
    if (!opened.open || !opened.closest(".board")) { return; }
    document.querySelectorAll(".board details[open]").forEach(function (other) {
      if (other !== opened) { other.open = false; }
    });
  }, true);

  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-print]")) { window.print(); }
    if (event.target.closest("[data-back]")) { window.history.back(); }
  });

  // A save that failed must not look saved: say so at once, in the form, and keep the entry
  // there. The form keeps its submission token, so tapping again saves it exactly once.
  function messages(form) {
    var box = form.querySelector(".save-messages");
    return box ? box.dataset : {};
  }

  function notSaved(form, text) {
    var note = form.querySelector(".send-error");
    if (!note) {
      note = document.createElement("p");
      note.className = "error send-error";
      note.setAttribute("role", "alert");
      form.prepend(note);
    }
    note.textContent = text;
    note.scrollIntoView({block: "nearest"});
  }

  function failedForm(event) {
    var elt = event.detail && event.detail.elt;
    var form = elt && elt.closest ? elt.closest("form") : null;
    return form && form.method && form.method.toLowerCase() === "post" ? form : null;
  }

  // A request made inside a form that is not the form's own save ([data-background]): "preview"
  // (the deal's points) asks again at the next change, so its failure says nothing and never
  // sends the form (that would record a deal nobody tapped Record for); "save" (Spades' bids kept
  // as the draft) is sent again by itself.
  function background(elt) {
    return elt && elt.getAttribute ? elt.getAttribute("data-background") : null;
  }

  // With the device offline, a failed save waits in its form and is sent again, with the same
  // submission token (so recorded once), as soon as the connection returns.
  var waiting = [];
  var submitters = new WeakMap();

  document.addEventListener("submit", function (event) {
    if (event.submitter) { submitters.set(event.target, event.submitter); }
  }, true);

  var waitingQuiet = [];

  document.addEventListener("htmx:sendError", function (event) {
    // After offline.js (loaded later, on the pages that enter facts) has had its say.
    window.setTimeout(function () { failedSend(event); }, 0);
  });

  function failedSend(event) {
    var form = failedForm(event);
    // A deal kept on the phone by offline.js is sent by it, in order with the others waiting.
    if (!form || event.detail.kept) { return; }
    var elt = event.detail.elt;
    var quiet = background(elt);
    if (quiet === "preview") { return; }
    if (quiet && navigator.onLine === false) {
      if (waitingQuiet.indexOf(elt) < 0) { waitingQuiet.push(elt); }
      notSaved(form, messages(form).offline || "No connection: your entry is kept and will be saved when the connection returns.");
      return;
    }
    if (navigator.onLine === false) {
      // Sent again as it was sent: through the button tapped (its own formaction), if any.
      if (elt.matches && elt.matches("button[type=submit]")) { submitters.set(form, elt); }
      if (waiting.indexOf(form) < 0) { waiting.push(form); }
      notSaved(form, messages(form).offline || "No connection: your entry is kept and will be saved when the connection returns.");
      return;
    }
    notSaved(form, form.dataset.sendError || messages(form).sendError || "Not saved: no connection. Try again.");
  }

  function sendWaiting() {
    if (navigator.onLine === false) { return; }
    waitingQuiet.splice(0).forEach(function (elt) {
      if (elt.isConnected) { elt.dispatchEvent(new CustomEvent("background-save")); }
    });
    waiting.splice(0).forEach(function (form) {
      if (!form.isConnected) { return; }
      form.dataset.resent = "1";
      var button = submitters.get(form);
      if (button && form.contains(button)) { form.requestSubmit(button); } else { form.requestSubmit(); }
    });
  }
  window.addEventListener("online", sendWaiting);
  // In case the "online" event is missed (a phone waking up): look again now and then.
  window.setInterval(function () { if (waiting.length || waitingQuiet.length) { sendWaiting(); } }, 5000);

  // A save sent again after the connection returned: say so where the answer landed.
  var savedLater = null;
  // (On the target, before the swap: the form itself is gone from the page once the answer is in.)
  document.addEventListener("htmx:beforeSwap", function (event) {
    var config = event.detail.requestConfig;
    var elt = config && config.elt ? config.elt : event.detail.elt;
    if (!elt || !elt.dataset || elt.dataset.resent !== "1") { return; }
    delete elt.dataset.resent;
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (status >= 200 && status < 300) {
      var target = event.detail.target;
      savedLater = {text: messages(elt).savedLater || "The connection returned: your entry was saved.",
                    id: target && target.id};
    }
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!savedLater) { return; }
    var where = (savedLater.id && document.getElementById(savedLater.id)) || event.detail.target;
    var note = document.createElement("p");
    note.className = "flash flash-ok saved-later";
    note.setAttribute("role", "status");
    note.textContent = savedLater.text;
    savedLater = null;
    if (where) { where.prepend(note); }
  });

  document.addEventListener("htmx:timeout", function (event) {
    var form = failedForm(event);
    if (!form || background(event.detail.elt) === "preview") { return; }
    notSaved(form, messages(form).timeout || messages(form).sendError || "Not saved: no answer. Try again.");
  });

  document.addEventListener("htmx:responseError", function (event) {
    var form = failedForm(event);
    if (!form || background(event.detail.elt) === "preview") { return; }
    var xhr = event.detail.xhr;
    // Our error answers carry one sentence that says what happened (templates/_error.html).
    var said = "";
    try {
      var doc = new DOMParser().parseFromString(xhr.responseText || "", "text/html");
      var p = doc.querySelector(".error-page p");
      said = p ? p.textContent.trim() : "";
    } catch (e) { said = ""; }
    var generic = (messages(form).serverError || "Not saved ({code}). Try again.").replace("{code}", xhr.status);
    notSaved(form, said ? said + " " + generic : generic);
  });

  // Followed regions (data-poll, hx-trigger "poll") ask when this script says: after the wait
  // the server asked in its last answer (X-Poll-After; Retry-After after a 503 or 429), the
  // page's data-poll seconds until then. A page not on screen asks nothing; shown again, it asks
  // at once. The contract: docs/live-updates.md.
  var pollWait = null;
  function waitOf(xhr) {
    var asked = xhr && (xhr.getResponseHeader("X-Poll-After") || xhr.getResponseHeader("Retry-After"));
    var seconds = parseInt(asked, 10);
    return isNaN(seconds) || seconds < 1 ? null : Math.min(seconds, 300);
  }
  function schedulePoll(elt) {
    if (elt._pollTimer) { window.clearTimeout(elt._pollTimer); }
    var seconds = pollWait || parseInt(elt.dataset.poll, 10) || 3;
    elt._pollTimer = window.setTimeout(function () {
      elt._pollTimer = null;
      if (!elt.isConnected) { return; }
      if (document.visibilityState === "hidden") { elt.dataset.pollDue = "1"; return; }
      htmx.trigger(elt, "poll");
    }, seconds * 1000);
  }
  function followed(root) {
    var found = root.matches && root.matches("[data-poll]") ? [root] : [];
    return found.concat(Array.prototype.slice.call(root.querySelectorAll ? root.querySelectorAll("[data-poll]") : []));
  }
  document.addEventListener("htmx:load", function (event) { followed(event.detail.elt).forEach(schedulePoll); });
  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail.elt;
    if (!elt.dataset || !elt.dataset.poll) { return; }
    var wait = waitOf(event.detail.xhr);
    if (wait) { pollWait = wait; }
    // A region swapped out is followed by its successor (htmx:load); one kept (304, 503) goes on.
    if (elt.isConnected) { schedulePoll(elt); }
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "visible") { return; }
    followed(document).forEach(function (elt) {
      if (elt._pollTimer) { window.clearTimeout(elt._pollTimer); elt._pollTimer = null; }
      delete elt.dataset.pollDue;
      htmx.trigger(elt, "poll");
    });
  });

  // A new answer clears the failure note of the form it replaces or keeps.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    // A followed region asks nothing while the page is not on screen.
    if (elt.dataset && elt.dataset.etag && document.visibilityState === "hidden") {
      event.preventDefault();
      return;
    }
    var form = elt.closest ? elt.closest("form") : null;
    var note = form && background(elt) !== "preview" && form.querySelector(".send-error");
    if (note) { note.remove(); }
  });

  // A poll drawn before the page's own write never lands over its answer (docs/live-updates.md):
  // its answer is not swapped in (an abort logs errors); a poll due meanwhile asks after it.
  var writes = 0;  // on their way
  var written = 0;  // begun since the page loaded: a poll sent before the last one is stale
  var pollsAfterWrite = [];
  function isFollowed(elt) { return !!(elt && elt.dataset && elt.dataset.etag && elt.dataset.poll); }
  function dropStale(event) {
    var xhr = event.detail.xhr;
    if (xhr && xhr.sentAfter !== undefined && xhr.sentAfter !== written) { event.detail.shouldSwap = false; }
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.defaultPrevented) { return; }  // not sent (a page not on screen)
    var elt = event.detail.elt;
    var xhr = event.detail.xhr;
    var config = event.detail.requestConfig;
    if (isFollowed(elt)) {
      if (writes > 0) {
        event.preventDefault();
        if (pollsAfterWrite.indexOf(elt) < 0) { pollsAfterWrite.push(elt); }
        return;
      }
      if (!xhr) { return; }
      xhr.sentAfter = written;
      // On the region: swapped out, it hears nothing through the document.
      if (!elt.staleGuard) { elt.staleGuard = true; elt.addEventListener("htmx:beforeSwap", dropStale); }
      return;
    }
    var verb = config && config.verb ? String(config.verb).toLowerCase() : "get";
    if (verb === "get" || !xhr) { return; }
    writes += 1;
    written += 1;
    // "loadend": after htmx swapped the answer in ("load"), or a failure or abort.
    xhr.addEventListener("loadend", function () {
      writes = Math.max(0, writes - 1);
      if (writes) { return; }
      pollsAfterWrite.splice(0).forEach(function (region) {
        if (region.isConnected) { htmx.trigger(region, "poll"); }
      });
    });
  });

  // A small reply to the scorer's own change brings the board above the form to that version:
  // its next poll then asks from there (a 304), not for the whole board again.
  document.addEventListener("board-current", function (event) {
    var board = document.getElementById("board");
    if (board && event.detail && event.detail.etag) { board.dataset.etag = event.detail.etag; }
  });

  // Followed regions (hx-trigger "every 3s") send the ETag they were drawn at: an unchanged
  // game answers 304 and nothing on the page moves.
  document.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt;
    if (elt.dataset && elt.dataset.etag && event.detail.verb === "get") {
      event.detail.headers["If-None-Match"] = elt.dataset.etag;
      // A viewer's region then gets only what changed since (docs/live-updates.md).
      event.detail.headers["X-Live-Since"] = elt.dataset.etag;
    }
  });
  // Such an answer swaps its parts out of band and brings the region's ETag to its version.
  document.addEventListener("live-current", function (event) {
    var elt = event.target;
    if (elt && elt.dataset && event.detail && event.detail.etag) { elt.dataset.etag = event.detail.etag; }
  });

  // Focus that follows: a refused form puts focus (and the eye) on its summary of problems; a
  // saved deal puts it on the next entry's first control, not on <body>.
  function focusSummary() {
    var summary = document.getElementById("error-summary");
    if (!summary) { return false; }
    summary.focus({preventScroll: true});
    summary.scrollIntoView({block: "start"});
    return true;
  }
  document.addEventListener("DOMContentLoaded", focusSummary);
  // A reply swaps new nodes in (the whole region, or only parts out of band, the form among
  // them): once they are in, after a save from the entry form (not a preview), focus follows.
  var saved = false;
  document.addEventListener("htmx:beforeRequest", function (event) {
    var config = event.detail.requestConfig;
    var target = event.detail.target;
    var elt = event.detail.elt;
    if (config && config.verb === "post" && elt.closest && elt.closest("#entry")
        && !(target && target.id === "preview") && !elt.hasAttribute("data-background")) { saved = true; }
  });
  document.addEventListener("htmx:load", function () {
    if (!saved) { return; }
    saved = false;
    window.setTimeout(function () {
      if (focusSummary()) { return; }
      var first = document.querySelector("#entry input:not([type=hidden]), #entry select, #entry button");
      if (first) { first.focus({preventScroll: true}); }
    }, 0);
  });

  // A boosted visit swaps the body alone, and a page's own stylesheet (a game's entry style,
  // evening.css) comes in its body: swapped in, it loaded after the page was shown, and the page
  // moved under the thumb (a tap meant for one player's points landed on the next player's).
  // So a stylesheet once met is kept in <head> for the visits after, and a visit that brings one
  // not kept yet is made a whole-page visit, where the stylesheet holds the page until it is in.
  function keptStyle(href) {
    var found = false;
    document.head.querySelectorAll("link[rel=stylesheet]").forEach(function (link) {
      if (link.getAttribute("href") === href) { found = true; }
    });
    return found;
  }
  function keepStyles() {
    document.querySelectorAll("body link[rel=stylesheet]").forEach(function (link) {
      var href = link.getAttribute("href");
      if (href && !keptStyle(href)) { document.head.appendChild(link.cloneNode(false)); }
    });
  }
  document.addEventListener("DOMContentLoaded", keepStyles);
  // After a page's visit only (a boosted swap of the body): a followed region's poll, every few
  // seconds, or a form's answer brings no page's stylesheet, and need not look for one.
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail && event.detail.boosted) { keepStyles(); }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    if (!detail.boosted || !detail.shouldSwap || typeof detail.serverResponse !== "string") { return; }
    var page = new DOMParser().parseFromString(detail.serverResponse, "text/html");
    var missing = [];
    page.querySelectorAll("body link[rel=stylesheet]").forEach(function (link) {
      var href = link.getAttribute("href");
      if (href && !keptStyle(href)) { missing.push(href); }
    });
    if (!missing.length) { return; }
    var xhr = detail.xhr;
    var config = detail.requestConfig || {};
    var landed = xhr && xhr.responseURL;
    // A page reached by GET (or by a redirect after a POST) is asked for again whole. A POST's
    // own answer (a form refused with what was typed) cannot be: its styles are put in <head>
    // first, so that they are at least on their way.
    if (landed && (config.verb === "get" || landed.split("#")[0] !== new URL(config.path || "", window.location.href).href)) {
      detail.shouldSwap = false;
      window.location.assign(landed);
      return;
    }
    missing.forEach(function (href) {
      var link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = href;
      document.head.appendChild(link);
    });
  });

  // The installable app: the service worker keeps static files and an offline page. Browsers
  // allow one only in a secure context (HTTPS, or this machine itself).
  var manifest = document.querySelector("link[rel=manifest][data-sw]");
  if (manifest && "serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register(manifest.dataset.sw).catch(function () { /* pages work without it */ });
  }
})();
