// The header's language switch: choosing a language posts the form at once (the button
// stays for browsers without JavaScript). The server keeps the choice in a cookie and
// returns to the same page.
(function () {
  "use strict";
  const form = document.getElementById("language-switch");
  const select = document.getElementById("language-select");
  if (!form || !select) return;
  select.addEventListener("change", function () { form.submit(); });
})();
