// Spades' entry: the tricks shown once every bid is in, the bids kept as the game's draft (scorekeeper/games/spades/static/entry.js).
// Loaded only on this game's pages (web/games/assets.py), in the body: a boosted visit runs
// it again, so it starts once (scorekeeperGames.once, static/app.js); pages work without it.
window.scorekeeperGames.once("spades", function () {
  "use strict";

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
  window.scorekeeperGames.ready(function () { bidsDrawn(document); });
  document.addEventListener("htmx:load", function (event) { bidsDrawn(event.detail.elt || event.target); });
});
