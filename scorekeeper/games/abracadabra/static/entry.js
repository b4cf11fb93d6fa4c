// Abracadabra's entry: a reported bid card won is laid too, and the tricks played in the page (scorekeeper/games/abracadabra/static/entry.js).
// Loaded only on this game's pages (web/games/assets.py), in the body: a boosted visit runs
// it again, so it starts once (scorekeeperGames.once, static/app.js); pages work without it.
window.scorekeeperGames.once("abracadabra", function () {
  "use strict";

  // Abracadabra as reported (issue 53): a bid card tapped as won is laid too (the server adds it
  // as well), so it is ticked under "laid"; a card no longer laid is no longer won.
  document.addEventListener("change", function (event) {
    var input = event.target, form = input.form, match = /^bid_(won|cards)_(\d+)$/.exec(input.name || "");
    if (!form || !match || input.type !== "checkbox" || !form.querySelector("[data-abra-won]")) { return; }
    var other = form.querySelector('input[name="bid_' + (match[1] === "won" ? "cards" : "won") + "_" + match[2] +
      '"][value="' + input.value + '"]');
    if (other && (match[1] === "won" ? input.checked : !input.checked)) { other.checked = input.checked; }
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
  window.scorekeeperGames.ready(function () { abraStart(document); });
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

  // Going back to the set-up keeps the tricks of the draft: taps not sent yet are sent first,
  // and only then is the set-up asked for. Heard in the capture phase and stopped there: the
  // link is boosted (body hx-boost), and htmx's own listener on the link would otherwise fetch
  // the set-up at once, drawn from the draft before the taps reached it (its version then older
  // than theirs), while this page's later navigation pulled the scorer back to the set-up from
  // wherever they had gone meanwhile (a loaded phone: the tricks again, as in the test).
  // Nothing unsent: htmx follows the link as any other.
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("form[data-abra-play] a.abra-change");
    if (!link) { return; }
    var form = link.closest("form");
    if (!form.dataset.abraSending && JSON.stringify(abraWinners(form)) === form.dataset.saved) { return; }
    event.preventDefault();
    event.stopPropagation();
    if (form.dataset.abraSending) { return; }  // a second tap while the taps are on their way
    form.dataset.abraSending = "1";
    var body = new FormData(form);
    body.set("step", "tricks");
    var go = function () { window.location.href = link.href; };
    window.fetch(form.action, {method: "POST", body: body, credentials: "same-origin"}).then(go, go);
  }, true);
});
