// Upload page: drag & drop onto the drop zone, and an XHR upload with a progress bar.
// Without JavaScript the form still posts normally. Texts come from Django's JavaScript
// catalog (gettext, interpolate: loaded by base.html).
(function () {
  "use strict";
  const form = document.getElementById("upload-form");
  if (!form) return;
  const input = form.querySelector("input[type=file]");
  const zone = document.getElementById("dropzone");
  const zoneText = document.getElementById("dropzone-text");
  const bar = document.getElementById("upload-progress");
  const status = document.getElementById("upload-status");
  const submit = document.getElementById("upload-submit");

  function showChosen() {
    const file = input.files[0];
    zoneText.textContent = file ? file.name + " (" + formatBytes(file.size) + ")" : zoneText.textContent;
  }

  function formatBytes(n) {
    const units = [gettext("bytes"), "KB", "MB", "GB"];
    let i = 0;
    while (n >= 1024 && i < units.length - 1) { n /= 1024; i += 1; }
    return (i === 0 ? n : n.toFixed(1)) + " " + units[i];
  }

  ["dragenter", "dragover"].forEach(function (name) {
    zone.addEventListener(name, function (event) {
      event.preventDefault();
      zone.classList.add("dragging");
    });
  });
  ["dragleave", "drop"].forEach(function (name) {
    zone.addEventListener(name, function () { zone.classList.remove("dragging"); });
  });
  zone.addEventListener("drop", function (event) {
    event.preventDefault();
    if (event.dataTransfer.files.length) {
      input.files = event.dataTransfer.files;
      showChosen();
    }
  });
  input.addEventListener("change", showChosen);

  function fail(message) {
    status.textContent = message;
    status.className = "error";
    submit.disabled = false;
    bar.hidden = true;
  }

  form.addEventListener("submit", function (event) {
    if (!input.files.length) return; // let the browser show its own "required" message
    event.preventDefault();
    const xhr = new XMLHttpRequest();
    xhr.open("POST", form.action);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.addEventListener("progress", function (e) {
      if (!e.lengthComputable) return;
      const percent = Math.round((100 * e.loaded) / e.total);
      bar.value = percent;
      status.textContent = percent < 100 ? gettext("Uploading…") + " " + percent + "%"
        : gettext("Checking the bundle…");
    });
    xhr.addEventListener("load", function () {
      let body = {};
      try { body = JSON.parse(xhr.responseText); } catch (e) { body = {}; }
      if (xhr.status === 201 && body.url) {
        window.location.assign(body.url);
      } else {
        fail(body.error || interpolate(gettext("The upload failed (HTTP %(status)s)."),
          { status: xhr.status }, true));
      }
    });
    xhr.addEventListener("error", function () {
      fail(gettext("The upload was interrupted. Please try again."));
    });
    submit.disabled = true;
    bar.hidden = false;
    bar.value = 0;
    status.className = "muted";
    status.textContent = gettext("Uploading…");
    xhr.send(new FormData(form));
  });
})();
