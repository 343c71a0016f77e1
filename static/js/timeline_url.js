// The incident timeline's view in the page URL, with the data endpoint's parameter names:
//   /incidents/INC-7/?axis=time&ranks=0-3,7&x0=120&x1=480&stragglers=1#timeline
// axis: logical (default) or time; ranks: the rank filter; x0/x1: the zoom window on that
// axis (checkpoint positions, or seconds since the job's first checkpoint); stragglers=1:
// the overlay is on. timeline.js reads it on load and rewrites it (history.replaceState,
// no new history entries) whenever the view changes, so a copied URL reopens that view.
(function () {
  "use strict";
  const KEYS = ["axis", "ranks", "x0", "x1", "stragglers"];
  const SWITCH_ON = ["1", "on", "true", "yes"];

  function read(search) {
    const params = new URLSearchParams(search);
    const axis = params.get("axis");
    const x0 = Number(params.get("x0"));
    const x1 = Number(params.get("x1"));
    const hasWindow = params.get("x0") !== null && params.get("x1") !== null;
    return {
      axis: axis === "time" ? "time" : "logical",
      ranks: (params.get("ranks") || "").trim(),
      window: hasWindow && isFinite(x0) && isFinite(x1) && x1 > x0 ? [x0, x1] : null,
      stragglers: SWITCH_ON.indexOf((params.get("stragglers") || "").toLowerCase()) >= 0,
    };
  }

  // Other parameters of the page are kept; defaults are left out so URLs stay short.
  function write(view) {
    const params = new URLSearchParams(window.location.search);
    KEYS.forEach(function (key) { params.delete(key); });
    if (view.axis !== "logical") params.set("axis", view.axis);
    if (view.ranks) params.set("ranks", view.ranks);
    if (view.window) {
      params.set("x0", String(view.window[0]));
      params.set("x1", String(view.window[1]));
    }
    if (view.stragglers) params.set("stragglers", "1");
    const search = readableQuery(params);
    const hash = search ? "#timeline" : window.location.hash;
    window.history.replaceState(window.history.state, "",
      window.location.pathname + (search ? "?" + search : "") + hash);
  }

  // Commas stay commas (ranks=0-3,7): the URL is meant to be read in a ticket.
  function readableQuery(params) {
    const parts = [];
    params.forEach(function (value, key) {
      parts.push(encodeURIComponent(key) + "=" + encodeURIComponent(value).replace(/%2C/gi, ","));
    });
    return parts.join("&");
  }

  // A window is rounded to ~5 significant digits of its width, so that the URL stays short
  // and this browser asks the server for exactly the window the pasted URL will ask for.
  function roundWindow(range) {
    const low = Number(range[0]);
    const high = Number(range[1]);
    if (!isFinite(low) || !isFinite(high) || high <= low) return null;
    const decimals = Math.max(0, Math.min(9, 4 - Math.floor(Math.log10(high - low))));
    const factor = Math.pow(10, decimals);
    return [Math.round(low * factor) / factor, Math.round(high * factor) / factor];
  }

  window.RanklensTimelineUrl = { read: read, write: write, roundWindow: roundWindow };
})();
