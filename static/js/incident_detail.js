// Incident page: while the analysis is queued or running, poll its status and update
// the progress bar; reload once it has finished so the report renders server-side.
// Texts come from Django's JavaScript catalog (gettext, loaded by base.html).
(function () {
  "use strict";
  const panel = document.getElementById("run-status");
  if (!panel) return;
  const active = ["queued", "running"];
  if (active.indexOf(panel.dataset.state) === -1) return;
  const bar = document.getElementById("run-progress");
  const step = document.getElementById("run-step");
  const badge = document.getElementById("run-state");
  const intervalMs = 1000;

  function update(data) {
    if (active.indexOf(data.status) === -1) {
      window.location.reload();
      return;
    }
    badge.textContent = data.status === "running" ? gettext("Running") : gettext("Queued");
    badge.className = "badge badge-" + data.status;
    if (bar) bar.value = data.progress;
    if (step) step.textContent = data.step || gettext("waiting for a worker");
    window.setTimeout(poll, intervalMs);
  }

  function poll() {
    fetch(panel.dataset.statusUrl, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      })
      .then(update)
      .catch(function () { window.setTimeout(poll, intervalMs * 5); });
  }

  window.setTimeout(poll, intervalMs);
})();
