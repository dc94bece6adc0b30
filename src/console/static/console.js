// pks console: follows a running task. The page names the console's JSON
// route in data-poll; this polls it, shows status and progress, and reloads
// the page once the task has finished (the server then renders the result).
"use strict";
(function () {
  var box = document.querySelector("[data-poll]");
  if (!box) return;
  var url = box.getAttribute("data-poll");
  var status = document.getElementById("task-status");
  var bar = document.getElementById("task-progress");
  var count = document.getElementById("task-count");
  function tick() {
    fetch(url, { credentials: "same-origin", headers: { accept: "application/json" } })
      .then(function (res) {
        if (!res.ok) throw new Error("status " + res.status);
        return res.json();
      })
      .then(function (t) {
        if (status) status.textContent = t.status;
        if (bar) {
          bar.max = Math.max(t.total, 1);
          bar.value = t.done;
        }
        if (count) count.textContent = t.done + " of " + t.total + " steps";
        if (t.finished) window.location.reload();
        else setTimeout(tick, 1000);
      })
      .catch(function () {
        setTimeout(tick, 3000);
      });
  }
  setTimeout(tick, 500);
})();
