// Evidence log viewer. The server renders the page around `?line=`; a bare `#L123` link
// (the fragment never reaches the server) is turned into `?line=123#L123` here.
// Keys: n / p jump to the next / previous error line.
(function () {
  "use strict";
  const match = /^#L(\d+)$/.exec(window.location.hash);
  const params = new URLSearchParams(window.location.search);
  if (match && !document.getElementById("L" + match[1]) && params.get("line") !== match[1]) {
    window.location.replace("?line=" + match[1] + "#L" + match[1]);
    return;
  }
  const target = document.querySelector("tr.target");
  if (target && !match) target.scrollIntoView({ block: "center" });

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (/^(input|textarea|select)$/i.test(event.target.tagName)) return;
    const link = document.getElementById(event.key === "n" ? "next-error" : event.key === "p" ? "prev-error" : "");
    if (link) link.click();
  });
})();
