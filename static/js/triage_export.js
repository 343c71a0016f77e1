// Incident page: "Copy as Markdown" puts the ticket export (rendered by the server into a
// hidden textarea) on the clipboard. Where the Clipboard API is missing or refused (plain
// http, no permission), the text is shown selected so Ctrl+C copies it.
(function () {
  "use strict";
  const button = document.getElementById("copy-export");
  const text = document.getElementById("export-text");
  const status = document.getElementById("copy-status");
  if (!button || !text) return;

  function say(message) {
    if (status) status.textContent = message;
  }

  function showSelected() {
    text.hidden = false;
    text.focus();
    text.select();
    let copied = false;
    try {
      copied = document.execCommand("copy");
    } catch (error) {
      copied = false;
    }
    button.dataset.copied = copied ? "selected-copied" : "selected";
    say(copied ? button.dataset.copiedText : button.dataset.selectText);
  }

  button.addEventListener("click", function () {
    if (!navigator.clipboard || !window.isSecureContext) {
      showSelected();
      return;
    }
    navigator.clipboard.writeText(text.value).then(
      function () {
        button.dataset.copied = "clipboard";
        say(button.dataset.copiedText);
      },
      showSelected
    );
  });
})();
