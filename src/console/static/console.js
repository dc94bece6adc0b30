// pks console: follows a running task. The page names the console's JSON
// route in data-poll; this polls it, shows status and progress, and reloads
// the page once the task has finished (the server then renders the result).
// Each poll counts against the person's rate limit (60 requests a rolling
// minute), so it asks every second for the first ten seconds, then every
// three, and waits as long as a 429's Retry-After says: a long task never
// spends the minute's allowance the other pages need.
"use strict";
(function () {
  var box = document.querySelector("[data-poll]");
  if (!box) return;
  var url = box.getAttribute("data-poll");
  var status = document.getElementById("task-status");
  var bar = document.getElementById("task-progress");
  var count = document.getElementById("task-count");
  var polls = 0;
  function later(ms) {
    setTimeout(tick, ms);
  }
  function tick() {
    polls++;
    fetch(url, { credentials: "same-origin", headers: { accept: "application/json" } })
      .then(function (res) {
        if (res.status === 429) {
          later((Number(res.headers.get("retry-after")) || 5) * 1000);
          return null;
        }
        if (!res.ok) throw new Error("status " + res.status);
        return res.json();
      })
      .then(function (t) {
        if (!t) return;
        if (status) status.textContent = t.status;
        if (bar) {
          bar.max = Math.max(t.total, 1);
          bar.value = t.done;
        }
        if (count) count.textContent = t.done + " of " + t.total + " steps";
        if (t.finished) window.location.reload();
        else later(polls < 10 ? 1000 : 3000);
      })
      .catch(function () {
        later(3000);
      });
  }
  later(500);
})();
