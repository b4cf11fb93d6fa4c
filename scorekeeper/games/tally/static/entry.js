// Tally's entry: ± on a phone's number pad, and each player's new total as it is typed (scorekeeper/games/tally/static/entry.js).
// Loaded only on this game's pages (web/games/assets.py), in the body: a boosted visit runs
// it again, so it starts once (scorekeeperGames.once, static/app.js); pages work without it.
window.scorekeeperGames.once("tally", function () {
  "use strict";
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
});
