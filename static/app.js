// Small conveniences on top of pages that work without JavaScript.
(function () {
  "use strict";

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

  // Abracadabra as reported (issue 53): a bid card tapped as won is laid too (the server adds it
  // as well), so it is ticked under "laid"; a card no longer laid is no longer won.
  document.addEventListener("change", function (event) {
    var input = event.target, form = input.form, match = /^bid_(won|cards)_(\d+)$/.exec(input.name || "");
    if (!form || !match || input.type !== "checkbox" || !form.querySelector("[data-abra-won]")) { return; }
    var other = form.querySelector('input[name="bid_' + (match[1] === "won" ? "cards" : "won") + "_" + match[2] +
      '"][value="' + input.value + '"]');
    if (other && (match[1] === "won" ? input.checked : !input.checked)) { other.checked = input.checked; }
  });

  // Secrets' turn form from four players ([data-sx-fold], games/secrets/_macros.html): each player's
  // orders and each spy's keypads are drawn open (the page works without script); here all fold
  // but the next order to enter, and each tap moves on to the next, so six players' turn stays
  // within two screens and no tap is spent opening anything. A folded line says what it holds; a
  // tap on it opens it again to change it. Whatever the rules refused stays open.
  function sxDone(item) {
    var checked = item.querySelector("input[type=radio]:checked");
    // "home" (where a spy starts when spies may stay) counts once it was tapped on purpose.
    return !!checked && (checked.value !== "" || !!item.dataset.touched);
  }

  function sxRefused(part) { return !!part.querySelector(".error"); }

  // A policeman the page placed where he may stay (issue 53): his keypad stays open, and his
  // player's with it, so moving him is one tap, not three (the player, his line, the secret).
  function sxPreset(item) {
    var checked = item.querySelector('input[type=radio][name^="guards_"]:checked');
    return !!checked && checked.defaultChecked && !item.dataset.touched;
  }

  function sxFold(root) {
    var target = null;
    root.querySelectorAll("[data-sx-item]").forEach(function (item) {
      var done = sxDone(item);
      var checked = item.querySelector("input[type=radio]:checked");
      var said = item.querySelector("[data-sx-said]");
      if (said) { said.textContent = done ? "\u2192 " + checked.closest("label").textContent.replace(/\s+/g, " ").trim() : ""; }
      if (!target && !done) { target = item; }
    });
    root.querySelectorAll("[data-sx-item]").forEach(function (item) {
      item.open = item === target || sxRefused(item) || sxPreset(item);
    });
    root.querySelectorAll("[data-sx-player]").forEach(function (player) {
      var items = Array.prototype.slice.call(player.querySelectorAll("[data-sx-item]"));
      var said = player.querySelector("summary [data-sx-said]");
      if (said) { said.textContent = items.every(sxDone) ? "\u2713" : ""; }
      player.open = (!!target && player.contains(target)) || sxRefused(player) || items.some(sxPreset);
    });
  }

  function sxFoldAll(root) {
    var found = root.matches && root.matches("[data-sx-fold]") ? [root] : [];
    if (root.querySelectorAll) { found = found.concat(Array.prototype.slice.call(root.querySelectorAll("[data-sx-fold]"))); }
    found.forEach(sxFold);
  }
  document.addEventListener("DOMContentLoaded", function () { sxFoldAll(document); });
  document.addEventListener("htmx:load", function (event) { sxFoldAll(event.detail.elt || document); });
  document.addEventListener("change", function (event) {
    var fold = event.target.closest && event.target.closest("[data-sx-fold]");
    var item = fold && event.target.closest("[data-sx-item]");
    if (!item) { return; }
    item.dataset.touched = "1";
    sxFold(fold);
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

  // Tally: ± flips the sign of its player's points (a phone's number pad has no minus key),
  // and each player's new total shows while the points are typed.
  function tallyTotal(input) {
    var out = document.querySelector('[data-new-total="' + input.id + '"]');
    if (!out || input.dataset.total === undefined) { return; }
    var typed = parseInt(input.value, 10);
    var total = parseInt(input.dataset.total, 10) + (isNaN(typed) ? 0 : typed);
    out.textContent = "\u03a3 " + total;
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-pm]");
    if (!button) { return; }
    var input = document.getElementById(button.dataset.pm);
    if (!input) { return; }
    var value = input.value.trim();
    input.value = value.charAt(0) === "-" ? value.slice(1) : "-" + value;
    tallyTotal(input);
    // The tap on ± also picks the player: the digits typed next follow the sign.
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  });

  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches(".tally-pad input.points")) { tallyTotal(event.target); }
  });

  // Hidden Secrets' allotment: the running sum toward 45 as each value is typed (issue 53).
  document.addEventListener("input", function (event) {
    var form = event.target.form, out = form && form.querySelector("[data-allot-sum]");
    if (!out) { return; }
    var sum = 0, whole = true;
    form.querySelectorAll(".sx-allot-cell input").forEach(function (input) {
      var text = input.value.trim();
      if (text === "") { return; }
      if (!/^\d+$/.test(text)) { whole = false; } else { sum += parseInt(text, 10); }
    });
    var said = !whole ? out.dataset.under.replace("{sum}", "?").replace("{left}", "?")
      : sum < 45 ? out.dataset.under.replace("{sum}", sum).replace("{left}", 45 - sum)
      : sum === 45 ? out.dataset.exact : out.dataset.over.replace("{sum}", sum).replace("{over}", sum - 45);
    out.textContent = said;
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

  // Abracadabra's play in the page (scorekeeper/games/abracadabra/templates/games/abracadabra/_play.html): a tap ticks its
  // trick in the form's own list of every trick, and the stage is redrawn from that list with
  // the sentences the server put on each trick's row; nothing is sent until the last trick,
  // when the list is posted once. Without this, each tap is a post, as before.
  function abraRows(form) {
    return Array.prototype.slice.call(form.querySelectorAll(".abra-trick-row[data-abra]"));
  }

  function abraWinners(form) {
    return abraRows(form).map(function (row) {
      var checked = row.querySelector("input[type=radio]:checked");
      return checked ? parseInt(checked.value, 10) : null;
    });
  }

  function abraTick(form, trick, seat) {
    abraRows(form)[trick].querySelectorAll("input[type=radio]").forEach(function (input) {
      input.checked = seat !== null && input.value === String(seat);
    });
  }

  // Kept on the phone for a reload, a closed tab, a connection lost (issue 53: localStorage, not
  // the tab's), under the game; only for the version the page was drawn at (any write since, here
  // or on another device, makes the server's list the truth again: the old taps are dropped).
  function abraKey(form) { return "abra-tricks:" + form.dataset.abraPlay; }

  function abraKeep(form) {
    try {
      localStorage.setItem(abraKey(form), JSON.stringify({version: form.dataset.version, winners: abraWinners(form)}));
    } catch (e) { /* storage off: the taps are still in the page */ }
  }

  function abraRestore(form) {
    var kept = null;
    try { kept = JSON.parse(localStorage.getItem(abraKey(form)) || "null"); } catch (e) { kept = null; }
    if (kept && kept.version !== form.dataset.version) {
      try { localStorage.removeItem(abraKey(form)); } catch (e) { /* nothing kept */ }
    }
    if (!kept || kept.version !== form.dataset.version || kept.winners.length !== abraRows(form).length) { return; }
    kept.winners.forEach(function (seat, trick) { abraTick(form, trick, seat); });
  }

  function abraDraw(form, sending) {
    var winners = abraWinners(form);
    var data = abraRows(form).map(function (row) {
      var seats = form.querySelectorAll("button.abra-tap").length, said = [], undo = [];
      for (var seat = 0; seat < seats; seat += 1) {
        said.push(JSON.parse(row.getAttribute("data-said-" + seat)));
        undo.push(row.getAttribute("data-undo-" + seat));
      }
      return {head: row.dataset.head, progress: row.dataset.progress, owners: JSON.parse(row.dataset.owners),
              bidby: JSON.parse(row.dataset.bidby), said: said, undo: undo};
    });
    var taps = form.querySelector(".abra-taps");
    var next = winners.indexOf(null);
    var last = -1, played = 0, won = {};
    winners.forEach(function (seat, trick) {
      if (seat === null) { return; }
      last = trick;
      played += 1;
      won[seat] = (won[seat] || 0) + 1;
    });
    var coming = next < 0 ? null : data[next];
    form.querySelector("[data-abra-head]").textContent = coming ? coming.head : form.dataset.done;
    form.querySelector("[data-abra-progress]").textContent = played < data.length ? data[played].progress : "";
    form.querySelector("input[name=trick]").value = next < 0 ? "" : String(next + 1);
    var bidby = form.querySelector("[data-abra-bidby]");
    bidby.textContent = "";
    (coming ? coming.bidby : []).forEach(function (line) {
      var p = document.createElement("p");
      p.className = "abra-bidby";
      p.textContent = line;
      bidby.appendChild(p);
    });
    form.querySelectorAll("button.abra-tap").forEach(function (button) {
      var seat = parseInt(button.value, 10);
      button.classList.toggle("abra-owner", !!coming && coming.owners.indexOf(seat) >= 0);
      button.querySelector("[data-abra-tricks]").textContent = taps.getAttribute("data-count-" + (won[seat] || 0));
      button.disabled = !coming;
    });
    form.querySelectorAll("[data-abra-count]").forEach(function (cell) {
      cell.textContent = String(won[cell.dataset.abraCount] || 0);
    });
    var states = JSON.parse(form.querySelector(".abra-standings").dataset.states);
    form.querySelectorAll(".abra-card[data-trick]").forEach(function (card) {
      var winner = winners[parseInt(card.dataset.trick, 10) - 1];
      var state = winner === null || winner === undefined ? "pending"
        : (winner === parseInt(card.dataset.seat, 10) ? "won" : "lost");
      ["won", "lost", "pending"].forEach(function (s) { card.classList.toggle("abra-" + s, s === state); });
      card.title = card.dataset.title + states[state] + card.dataset.exposed;
      card.querySelector(".abra-vh").textContent = " " + states[state] + card.dataset.exposed;
    });
    var box = form.querySelector("[data-abra-last]");
    var undo = form.querySelector("button.abra-undo");
    box.textContent = "";
    box.hidden = undo.hidden = last < 0;
    if (last >= 0) {
      var seat = winners[last];
      var magic = data[last].owners.indexOf(seat) >= 0;
      box.classList.toggle("abra-magic", magic);
      data[last].said[seat].forEach(function (line, i) {
        var p = document.createElement("p");
        if (i === 0 && magic) {
          var star = document.createElement("span");
          star.setAttribute("aria-hidden", "true");
          star.textContent = "\u2605";
          p.appendChild(star);
          p.appendChild(document.createTextNode(" "));
        }
        p.appendChild(document.createTextNode(line));
        box.appendChild(p);
      });
      undo.textContent = data[last].undo[seat];
      undo.value = String(last + 1);
    }
    // Every trick in but not by a tap (the list, a refused post): its own Save button sends it.
    if (!coming && !sending) { form.querySelector(".abra-fix").open = true; }
  }

  function abraStart(root) {
    var forms = root.matches && root.matches("form[data-abra-play]") ? [root]
      : Array.prototype.slice.call(root.querySelectorAll ? root.querySelectorAll("form[data-abra-play]") : []);
    forms.forEach(function (form) {
      if (form.dataset.abraOn) { return; }
      form.dataset.abraOn = "1";
      form.dataset.saved = JSON.stringify(abraWinners(form));
      abraRestore(form);
      abraDraw(form);
      if (abraWinners(form).indexOf(null) < 0 && abraKeptHere()) { abraScoreHere(form); }
    });
  }

  // No connection, or deals kept on the phone before this one (static/offline.js): the tricks
  // cannot be kept as the game's draft now. The deal is finished and scored in this form instead
  // (its bid-suit cards below the tricks), and kept on the phone as a whole deal.
  function abraKeptHere() {
    var offline = window.scorekeeperOffline;
    return navigator.onLine === false || !!(offline && offline.waiting() > 0);
  }

  function abraScoreHere(form) {
    var part = form.querySelector("[data-abra-offline-suits]");
    if (!part) { return false; }
    part.hidden = false;
    part.disabled = false;
    part.scrollIntoView({block: "start"});
    return true;
  }
  document.addEventListener("DOMContentLoaded", function () { abraStart(document); });
  document.addEventListener("htmx:load", function (event) { abraStart(event.detail.elt); });

  document.addEventListener("click", function (event) {
    var button = event.target.closest("form[data-abra-play] button.abra-tap, form[data-abra-play] button.abra-undo");
    if (!button) { return; }
    var form = button.closest("form");
    event.preventDefault();
    var winners = abraWinners(form);
    if (button.classList.contains("abra-undo")) {
      var last = -1;
      winners.forEach(function (seat, trick) { if (seat !== null) { last = trick; } });
      if (last >= 0) { abraTick(form, last, null); }
    } else {
      var next = winners.indexOf(null);
      if (next < 0) { return; }
      abraTick(form, next, parseInt(button.value, 10));
    }
    var done = abraWinners(form).indexOf(null) < 0;
    abraKeep(form);
    abraDraw(form, done);
    if (done && !button.classList.contains("abra-undo")) {
      if (abraKeptHere() && abraScoreHere(form)) { return; }
      // The last trick: the list goes to the server once, by its own Save button (so htmx
      // sends that button's step, not the tap's).
      form.querySelector("button.abra-save-tricks").click();
    } else if (!done) {
      var part = form.querySelector("[data-abra-offline-suits]");
      if (part) { part.hidden = true; part.disabled = true; }
    }
  });

  // A list changed by hand (fixing a trick) redraws the stage and is kept like a tap.
  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("form[data-abra-play]");
    if (!form || !event.target.closest(".abra-trick-row")) { return; }
    abraKeep(form);
    abraDraw(form);
    // Every trick in by the list, with the draft out of reach: scored here too.
    if (abraWinners(form).indexOf(null) < 0 && abraKeptHere()) { abraScoreHere(form); }
  });

  // Going back to the set-up keeps the tricks of the draft: taps not sent yet are sent first.
  document.addEventListener("click", function (event) {
    var link = event.target.closest("form[data-abra-play] a.abra-change");
    if (!link) { return; }
    var form = link.closest("form");
    if (JSON.stringify(abraWinners(form)) === form.dataset.saved) { return; }
    event.preventDefault();
    var body = new FormData(form);
    body.set("step", "tricks");
    var go = function () { window.location.href = link.href; };
    window.fetch(form.action, {method: "POST", body: body, credentials: "same-origin"}).then(go, go);
  });

  // Spades: once every bid is in, the tricks show beneath the bids (no "Bids done" tap), and the
  // bids are kept as the game's draft in the background (the hidden [data-sp-save] posts them), so
  // they survive a reload and show on other phones while the hand is played. Each later change
  // of a bid is kept again. Record then sends the bids with the tricks.
  function bidsIn(form) {
    var given = {};
    form.querySelectorAll(".sp-bids input[type=radio]").forEach(function (input) {
      given[input.name] = given[input.name] || input.checked;
    });
    var names = Object.keys(given);
    return names.length > 0 && names.every(function (name) { return given[name]; });
  }

  function showTricks(form) {
    form.querySelectorAll("[data-sp-later]").forEach(function (part) { part.hidden = false; });
    form.querySelectorAll("[data-sp-before]").forEach(function (part) { part.hidden = true; });
  }

  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("form[data-sp-bids]");
    if (!form || !event.target.closest(".sp-bids") || !bidsIn(form)) { return; }
    showTricks(form);
    var save = form.querySelector("[data-sp-save]");
    if (save) { save.dispatchEvent(new CustomEvent("background-save")); }
  });

  // A form drawn with every bid already in (bids reopened, or refused) shows its tricks at once.
  function bidsDrawn(root) {
    var forms = root.matches && root.matches("form[data-sp-bids]") ? [root] : [];
    if (root.querySelectorAll) { forms = forms.concat(Array.prototype.slice.call(root.querySelectorAll("form[data-sp-bids]"))); }
    forms.forEach(function (form) { if (bidsIn(form)) { showTricks(form); } });
  }
  document.addEventListener("DOMContentLoaded", function () { bidsDrawn(document); });
  document.addEventListener("htmx:load", function (event) { bidsDrawn(event.detail.elt || event.target); });

  // The installable app: the service worker keeps static files and an offline page. Browsers
  // allow one only in a secure context (HTTPS, or this machine itself).
  var manifest = document.querySelector("link[rel=manifest][data-sw]");
  if (manifest && "serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register(manifest.dataset.sw).catch(function () { /* pages work without it */ });
  }
})();
