// Meeting view: j/k move to the next/previous incident, the triage forms post with fetch
// and update the screen in place, and the compact timeline is drawn with Plotly.
// Every text shown here comes from the page (data attributes), already translated.
// Without this script the links and forms work as plain HTML.
(function () {
  "use strict";
  const root = document.getElementById("meeting");
  if (!root) return;

  // --- j / k --------------------------------------------------------------------------

  function isTyping(target) {
    if (!target || !target.tagName) return false;
    const tag = target.tagName.toLowerCase();
    return tag === "input" || tag === "textarea" || tag === "select" || target.isContentEditable;
  }

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    if (isTyping(event.target)) return;
    const ids = { j: "meeting-next", k: "meeting-previous" };
    const link = ids[event.key] && document.getElementById(ids[event.key]);
    if (!link) return;
    event.preventDefault();
    window.location.assign(link.href);
  });

  // --- triage and comment forms ---------------------------------------------------------

  const errorBox = document.getElementById("meeting-error");
  const savedBox = document.getElementById("meeting-saved");

  function clearMessages() {
    errorBox.hidden = true;
    errorBox.textContent = "";
    errorBox.removeAttribute("data-field");
    savedBox.textContent = "";
    root.querySelectorAll(".field-error").forEach(function (el) {
      el.classList.remove("field-error");
    });
  }

  function showError(message, field) {
    errorBox.textContent = message;
    errorBox.hidden = false;
    if (!field) return;
    errorBox.dataset.field = field;
    root.querySelectorAll('[data-field="' + field + '"]').forEach(function (el) {
      el.classList.add("field-error");
    });
  }

  function showRow(row) {
    const buttons = root.querySelectorAll('#meeting-status-form button[name="triage_status"]');
    buttons.forEach(function (button) {
      const current = button.value === row.triage_status;
      button.setAttribute("aria-pressed", current ? "true" : "false");
      if (current) document.getElementById("meeting-status").textContent = button.textContent;
    });
    document.getElementById("meeting-owner").textContent = row.owner || root.dataset.nobody;
    document.getElementById("meeting-owner-select").value = row.owner || "";
  }

  function addComment(comment) {
    const item = document.createElement("li");
    const meta = document.createElement("p");
    meta.className = "comment-meta";
    const who = document.createElement("strong");
    who.textContent = comment.author;
    const when = document.createElement("time");
    when.dateTime = comment.created_at;
    when.textContent = comment.created_at.slice(0, 16).replace("T", " ");
    meta.append(who, " ", when);
    const body = document.createElement("div");
    body.className = "comment-body";
    body.innerHTML = comment.body_html; // sanitised by the server (nh3)
    item.append(meta, body);
    document.getElementById("meeting-comments").append(item);
    const none = document.getElementById("meeting-no-comments");
    if (none) none.remove();
  }

  function submit(form, submitter) {
    const data = new FormData(form);
    if (submitter && submitter.name) data.set(submitter.name, submitter.value);
    clearMessages();
    form.classList.add("busy");
    return fetch(form.action, {
      method: "POST",
      body: data,
      credentials: "same-origin",
      headers: { Accept: "application/json", "X-CSRFToken": data.get("csrfmiddlewaretoken") },
    })
      .then(function (response) {
        return response.json().then(
          function (body) { return { response: response, body: body }; },
          function () { return { response: response, body: {} }; }
        );
      })
      .then(function (answer) {
        if (!answer.response.ok) {
          showError(answer.body.error || root.dataset.failed, answer.body.field);
          return;
        }
        if (form.dataset.meetingForm === "comment") {
          addComment(answer.body);
          form.reset();
        } else {
          showRow(answer.body);
        }
        savedBox.textContent = root.dataset.saved;
      })
      .catch(function () { showError(root.dataset.failed, null); })
      .finally(function () { form.classList.remove("busy"); });
  }

  root.querySelectorAll("form[data-meeting-form]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      submit(form, event.submitter);
    });
  });

  const ownerSelect = document.getElementById("meeting-owner-select");
  if (ownerSelect) {
    ownerSelect.addEventListener("change", function () {
      ownerSelect.form.requestSubmit();
    });
  }

  // --- compact timeline -----------------------------------------------------------------

  const plot = document.getElementById("meeting-timeline");
  const source = document.getElementById("meeting-timeline-data");
  if (!plot || !source || !window.Plotly) return;
  const data = JSON.parse(source.textContent);
  const words = document.getElementById("meeting-timeline-words").dataset;
  // Culprits stand out; ranks that were only stopped (killed) stay quiet.
  const colours = { ok: "#1864ab", error: "#c92a2a", killed: "#495057", hung: "#e67700", missing: "#adb5bd" };
  const labels = data.ranks.map(function (rank, i) {
    return words.rank + " " + rank + (data.culprit[i] ? " · " + words.culprit : "");
  });
  const trace = {
    type: "bar",
    orientation: "h",
    x: data.checkpoints,
    y: labels,
    text: data.last,
    textposition: data.ranks.length <= 16 ? "inside" : "none",
    insidetextanchor: "start",
    hovertemplate: "%{y}: %{x}<br>%{text}<extra></extra>",
    marker: {
      color: data.status.map(function (s, i) {
        return data.culprit[i] ? "#d9480f" : (colours[s] || "#1864ab");
      }),
      line: { color: "#000", width: data.culprit.map(function (c) { return c ? 3 : 0; }) },
    },
  };
  const layout = {
    height: Math.min(520, 80 + 30 * data.ranks.length),
    margin: { l: 20, r: 20, t: 10, b: 50 },
    font: { size: 18, color: "#000" },
    xaxis: { title: { text: words.axis }, rangemode: "tozero", fixedrange: true },
    yaxis: { autorange: "reversed", fixedrange: true, type: "category", automargin: true },
    paper_bgcolor: "#fff",
    plot_bgcolor: "#fff",
    showlegend: false,
  };
  window.Plotly.newPlot(plot, [trace], layout, { displayModeBar: false, responsive: true })
    .then(function () {
      plot.dataset.ready = "1";
      plot.dataset.bars = String(data.ranks.length);
    });
})();
