// Secrets' entry: the turn form folded to the next order, and Hidden Secrets' allotment sum (scorekeeper/games/secrets/static/entry.js).
// Loaded only on this game's pages (web/games/assets.py), in the body: a boosted visit runs
// it again, so it starts once (scorekeeperGames.once, static/app.js); pages work without it.
window.scorekeeperGames.once("secrets", function () {
  "use strict";

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
  window.scorekeeperGames.ready(function () { sxFoldAll(document); });
  document.addEventListener("htmx:load", function (event) { sxFoldAll(event.detail.elt || document); });
  document.addEventListener("change", function (event) {
    var fold = event.target.closest && event.target.closest("[data-sx-fold]");
    var item = fold && event.target.closest("[data-sx-item]");
    if (!item) { return; }
    item.dataset.touched = "1";
    sxFold(fold);
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
});
