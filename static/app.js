// Small conveniences on top of pages that work without JavaScript.
(function () {
  "use strict";

  // Tricks that must add up to a total: once every player but one is entered,
  // the last player's count follows, so the scorer taps one player less.
  function fillLast(fieldset) {
    var total = parseInt(fieldset.dataset.sum, 10);
    var seats = fieldset.querySelectorAll(".seat");
    var missing = [], sum = 0;
    seats.forEach(function (seat) {
      var checked = seat.querySelector("input[type=radio]:checked");
      if (checked) { sum += parseInt(checked.value, 10); } else { missing.push(seat); }
    });
    if (missing.length !== 1) { return; }
    var rest = total - sum;
    var input = missing[0].querySelector('input[type=radio][value="' + rest + '"]');
    if (input) { input.checked = true; }
  }

  document.addEventListener("change", function (event) {
    var fieldset = event.target.closest("fieldset[data-sum]");
    if (fieldset && event.target.type === "radio") { fillLast(fieldset); }
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
  });

  // A save that never reached the server must not look saved.
  document.addEventListener("htmx:sendError", function (event) {
    var form = event.target.closest("form");
    if (!form) { return; }
    var note = form.querySelector(".send-error");
    if (!note) {
      note = document.createElement("p");
      note.className = "error send-error";
      note.setAttribute("role", "alert");
      form.prepend(note);
    }
    note.textContent = form.dataset.sendError || "Not saved: no connection. Try again.";
  });
})();
