// The round clock (templates/events/_clock.html): counts down each second from the server's time
// (data-now: the phone's own clock may be off), and says "time is up" when it runs out. What the
// round becomes next (over, closed, the next one) comes from the server: the region follows it.
// Loaded only by the pages that show a clock (events/_clock_script.html); a boosted visit runs it
// again, so it starts once.
(function () {
  if (window.scorekeeperClock) { return; }
  window.scorekeeperClock = true;
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    document.querySelectorAll("[data-ends-at][data-now]").forEach(function (clock) {
      if (clock._skew === undefined) { clock._skew = Date.parse(clock.dataset.now) - Date.now(); }
      var left = Math.ceil((Date.parse(clock.dataset.endsAt) - Date.now() - clock._skew) / 1000);
      if (isNaN(left)) { return; }
      if (left <= 0) {
        clock.removeAttribute("data-ends-at");
        clock.classList.add("ev-late");
        clock.textContent = clock.dataset.over;
        return;
      }
      var time = clock.querySelector(".ev-time");
      if (time) { time.textContent = Math.floor(left / 60) + ":" + pad(left % 60); }
    });
  }
  window.setInterval(tick, 1000);
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", tick); } else { tick(); }
  document.addEventListener("htmx:load", tick);
})();
