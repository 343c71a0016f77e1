// Incident page: the rank-by-rank checkpoint timeline (Plotly, WebGL traces).
// The server sends columnar, downsampled data (incidents/timeline/charts.py); zooming asks it for
// the detailed points of the visible window. Clicking a marker opens its log line.
// The view (axis, rank filter, zoom window, straggler overlay) lives in the page URL
// (static/js/timeline_url.js): a pasted URL opens the same view, with that window's
// points fetched from the server. Texts come from Django's JavaScript catalog (gettext,
// ngettext, interpolate: /jsi18n/, loaded by base.html before this script).
(function () {
  "use strict";
  const configNode = document.getElementById("timeline-config");
  const plot = document.getElementById("timeline-plot");
  const viewUrl = window.RanklensTimelineUrl;
  if (!configNode || !plot || !viewUrl) return;
  // This script runs before plotly.js (both deferred) so that the data request overlaps
  // the parsing of the 4.8 MB chart library; drawing waits for both.
  const plotlyReady = new Promise(function (resolve, reject) {
    function check(final) {
      if (window.Plotly) resolve(window.Plotly);
      else if (final) {
        reject(new Error(gettext("The chart library did not load; the rank table below holds the same facts.")));
      }
    }
    if (document.readyState === "complete") {
      check(true);
    } else {
      document.addEventListener("DOMContentLoaded", function () { check(false); });
      window.addEventListener("load", function () { check(true); });
    }
  });
  const config = JSON.parse(configNode.textContent);
  const statusLine = document.getElementById("timeline-status");
  const errorLine = document.getElementById("timeline-error");
  const noticeLine = document.getElementById("timeline-notice");
  const filterForm = document.getElementById("timeline-filter");
  const filterInput = document.getElementById("timeline-ranks");
  const axisInputs = document.querySelectorAll("input[name=timeline-axis]");
  const stragglerInput = document.getElementById("timeline-stragglers");
  const COLORS = { point: "#2457c5", culprit: "#d9730d", error: "#b3261e", causal: "#6b0f0a",
    lane: "#c7ced6", common: "#1f7a3f", straggler: "#c2185b", cut: "#5f3dc4" };
  // A rank's status as the report keys it, in the page's language (the rank table says the
  // same words: incidents/evidence/rank_status.py); a missing rank is named apart.
  const STATUS_WORDS = { error: pgettext("rank status", "error"),
    hung: pgettext("rank status", "hung"), killed: pgettext("rank status", "killed") };
  const MAX_LISTED_STRAGGLERS = 8;
  const MAX_SHADED_STRAGGLER_LANES = 48;  // each shading is an SVG shape: hundreds slow Plotly
  const ZOOM_DELAY_MS = 250;
  // A click on a marker waits this long for a second click: a double-click zooms out.
  // Plotly's own double-click window (config doubleClickDelay) is set to the same.
  const DOUBLE_CLICK_MS = 300;
  const MAX_NAMED_TICKS = 30;
  const state = { axis: "logical", ranks: "", window: null, stragglers: false, seq: 0, renders: 0,
    zoomTimer: null };
  const rowsOfTrace = [];  // per trace: which payload row each point is, for clicks

  function query() {
    const params = new URLSearchParams({ axis: state.axis });
    if (config.run) params.set("run", config.run);
    if (state.ranks) params.set("ranks", state.ranks);
    if (state.window) {
      params.set("x0", String(state.window[0]));
      params.set("x1", String(state.window[1]));
    }
    if (state.stragglers) params.set("stragglers", "1");
    return config.dataUrl + "?" + params.toString();
  }

  // --- the view in the page URL (static/js/timeline_url.js) ----------------------------------

  function readUrlState() {
    const view = viewUrl.read(window.location.search);
    state.axis = view.axis;
    state.ranks = view.ranks;
    state.window = view.window;
    state.stragglers = view.stragglers;
    axisInputs.forEach(function (input) { input.checked = input.value === state.axis; });
    filterInput.value = state.ranks;
    if (stragglerInput) stragglerInput.checked = state.stragglers;
  }

  function writeUrlState() {
    viewUrl.write(state);
  }

  function load() {
    const seq = ++state.seq;
    const started = performance.now();
    fetch(query(), { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        return response.json().then(function (body) { return { ok: response.ok, body: body }; });
      })
      .then(function (result) {
        if (!result.ok) throw new Error(result.body.error || gettext("the timeline could not be loaded"));
        const fetchMs = performance.now() - started;
        return plotlyReady.then(function () {
          if (seq !== state.seq) return;  // a newer request is on its way
          showError("");
          showNotice(result.body.filter_notice);
          if (result.body.lanes.rank.length) draw(result.body, fetchMs);
          else clearChart();  // the notice says which ranks the job has
        });
      })
      .catch(function (error) {
        if (seq !== state.seq) return;
        clearChart();
        showNotice("");
        showError(error.message);
      });
  }

  function showError(message) {
    errorLine.textContent = message;
    errorLine.hidden = !message;
  }

  function showNotice(message) {
    noticeLine.textContent = message || "";
    noticeLine.hidden = !message;
  }

  // A view that cannot be drawn (a filter the server refused, or one no rank matches) takes
  // the chart away: the previous view's chart left in place would pass for this one.
  function clearChart() {
    if (window.Plotly && plot.data) window.Plotly.purge(plot);
    bound = false;  // purging dropped the chart's event handlers
    plot.timelinePayload = null;
    plot.hidden = true;
    statusLine.textContent = "";
  }

  // --- turning the payload into traces --------------------------------------------------

  function labelMap(payload) {
    const map = new Map();
    payload.labels.pos.forEach(function (pos, i) { map.set(pos, escapeHtml(payload.labels.text[i])); });
    return map;
  }

  function clockText(payload, seconds, lane) {
    if (seconds === null || seconds === undefined) return gettext("no time in the log");
    const shown = "t = " + seconds.toFixed(3) + " s";
    if (payload.t0 === null) return shown;
    const own = new Date((payload.t0 + seconds + payload.lanes.offset[lane]) * 1000);
    return shown + " " + interpolate(gettext("(%(clock)s on its clock)"),
      { clock: own.toISOString().replace("T", " ").replace("Z", "") }, true);
  }

  // Durations are per rank, from its own consecutive times (computed on the server from
  // every checkpoint, so a downsampled view shows the same figure as a zoomed one).
  function stepText(seconds) {
    if (seconds === null || seconds === undefined) {
      return gettext("no step time (first checkpoint or no time in the log)");
    }
    return interpolate(gettext("%(duration)s since this rank's previous checkpoint"),
      { duration: "<b>" + formatDuration(seconds) + "</b>" }, true);
  }

  function formatDuration(seconds) {
    if (seconds < 0) {
      return interpolate(gettext("−%(duration)s (its clock went back)"), { duration: formatDuration(-seconds) }, true);
    }
    if (seconds < 1) {
      const ms = seconds * 1000;
      return ms.toFixed(ms < 10 ? 2 : 1) + " ms";
    }
    if (seconds < 60) return seconds.toFixed(3) + " s";
    return Math.floor(seconds / 60) + " min " + (seconds % 60).toFixed(1) + " s";
  }

  // Marker sizes follow the lane height, so 512 lanes stay lanes instead of one blur.
  function sizes(payload) {
    const count = Math.max(1, payload.lanes.rank.length);
    const lanePx = (plotHeight(count) - 90) / count;
    const clamp = function (v, lo, hi) { return Math.max(lo, Math.min(hi, v)); };
    return { point: clamp(lanePx * 0.7, 2, 6), error: clamp(lanePx * 1.3, 5, 11),
      lane: clamp(lanePx * 0.35, 1, 2), opacity: payload.downsampled ? 0.7 : 1 };
  }

  function plotHeight(count) {
    return Math.max(300, Math.min(900, 130 + count * 24));
  }

  function pointTraces(payload, labels, files) {
    const pts = payload.points;
    const lanes = payload.lanes;
    const groups = { point: emptyGroup(), culprit: emptyGroup() };
    for (let i = 0; i < pts.y.length; i++) {
      const y = pts.y[i];
      const x = payload.axis === "logical" ? pts.pos[i] : pts.t[i];
      const group = lanes.culprit[y] ? groups.culprit : groups.point;
      group.x.push(x);
      group.y.push(y);
      group.rows.push(i);
      group.text.push(rankText(lanes.rank[y]) + " · " + (labels.get(pts.pos[i]) || gettext("checkpoint")) +
        "<br>" + files[pts.file[i]] + ":" + pts.line[i] + "<br>" + stepText(pts.dt[i]) +
        "<br>" + clockText(payload, pts.t[i], y));
    }
    return [
      markerTrace(groups.point, gettext("checkpoints"),
        { color: COLORS.point, size: sizes(payload).point, opacity: sizes(payload).opacity }, "point"),
      markerTrace(groups.culprit, gettext("checkpoints of culprit ranks"),
        { color: COLORS.culprit, size: sizes(payload).point }, "point"),
    ];
  }

  function emptyGroup() { return { x: [], y: [], text: [], rows: [] }; }

  function rankText(rank) {
    return interpolate(gettext("rank %(rank)s"), { rank: rank }, true);
  }

  function markerTrace(group, name, marker, kind) {
    rowsOfTrace.push({ kind: kind, rows: group.rows });
    return { type: "scattergl", mode: "markers", name: name, x: group.x, y: group.y, text: group.text,
      hovertemplate: "%{text}<extra></extra>", marker: marker };
  }

  function errorTraces(payload, labels, files) {
    const errs = payload.errors;
    const lanes = payload.lanes;
    const groups = { first: emptyGroup(), causal: emptyGroup() };
    // A rank's first error that is also the first causal error is drawn once, as the star:
    // an x under it would catch the hover and name it a plain first error.
    const causalLines = new Set();
    for (let i = 0; i < errs.y.length; i++) {
      if (errs.causal[i]) causalLines.add(errs.y[i] + ":" + errs.file[i] + ":" + errs.line[i]);
    }
    for (let i = 0; i < errs.y.length; i++) {
      if (!errs.causal[i] && causalLines.has(errs.y[i] + ":" + errs.file[i] + ":" + errs.line[i])) continue;
      const group = errs.causal[i] ? groups.causal : groups.first;
      const after = labels.get(Math.floor(errs.pos[i]));
      group.x.push(errs.x[i]);
      group.y.push(errs.y[i]);
      group.rows.push(i);
      group.text.push((errs.causal[i] ? "<b>" + gettext("first causal error") + "</b>" : gettext("first error")) +
        " · " + rankText(lanes.rank[errs.y[i]]) + "<br>" + escapeHtml(errs.text[i]) + "<br>" + files[errs.file[i]] +
        ":" + errs.line[i] + (after ? "<br>" + interpolate(gettext("after %(checkpoint)s"), { checkpoint: after }, true) : "") +
        "<br>" + clockText(payload, errs.t[i], errs.y[i]));
    }
    return [
      markerTrace(groups.first, gettext("first error of a rank"),
        { color: COLORS.error, size: sizes(payload).error, symbol: "x" }, "error"),
      markerTrace(groups.causal, gettext("first causal error"),
        { color: COLORS.causal, size: 18, symbol: "star", line: { color: "#fff", width: 1 } }, "error"),
    ];
  }

  function stragglerTraces(payload, labels, files) {
    const marks = payload.stragglers;
    const group = emptyGroup();
    const rule = payload.straggler_rule;
    for (let i = 0; marks && i < marks.y.length; i++) {
      const y = marks.y[i];
      group.x.push(payload.axis === "logical" ? marks.pos[i] : marks.t[i]);
      group.y.push(y);
      group.rows.push(i);
      const median = marks.median[i] === null ? gettext("no median")
        : interpolate(gettext("median %(duration)s"), { duration: formatDuration(marks.median[i]) }, true);
      const step = { duration: "<b>" + formatDuration(marks.dt[i]) + "</b>", ratio: marks.ratio[i], median: median };
      const slowText = marks.ratio[i] !== null
        ? gettext("%(duration)s since its previous checkpoint, %(ratio)s× the %(median)s of this step across ranks")
        : gettext("%(duration)s since its previous checkpoint (the %(median)s of this step across ranks)");
      group.text.push("<b>" + gettext("straggler") + "</b> · " + rankText(payload.lanes.rank[y]) + " · " +
        (labels.get(marks.pos[i]) || gettext("checkpoint")) + "<br>" + interpolate(slowText, step, true) +
        "<br>" + interpolate(gettext("(a straggler takes over %(factor)s× the median)"), { factor: rule.factor }, true) +
        "<br>" + files[marks.file[i]] + ":" + marks.line[i]);
    }
    const size = sizes(payload).error + 3;
    return [markerTrace(group, gettext("stragglers"),
      { color: COLORS.straggler, size: size, symbol: "circle-open", line: { color: COLORS.straggler, width: 2 } },
      "straggler")];
  }

  // A lane whose log stops mid-line ends in a bar just past its last checkpoint (where the
  // rank may have gone on, unseen), apart from that checkpoint so each can be clicked.
  function cutTrace(payload) {
    const lanes = payload.lanes;
    const group = emptyGroup();
    const gap = payload.axis === "logical" ? 0.5 : (payload.range[1] - payload.range[0]) / 100;
    for (let i = 0; i < lanes.rank.length; i++) {
      if (!lanes.cut[i] || lanes.last[i] === null) continue;
      group.x.push(lanes.last[i] + gap);
      group.y.push(i);
      group.rows.push(i);
      group.text.push("<b>" + gettext("log cut") + "</b> · " + rankText(lanes.rank[i]) + "<br>" +
        interpolate(gettext("the log stops mid-line at %(where)s: the rank may have gone further than its file shows"),
          { where: escapeHtml(lanes.cut[i]) }, true));
    }
    return [markerTrace(group, gettext("log cut"),
      { color: COLORS.cut, size: sizes(payload).error + 6, symbol: "line-ns-open", line: { color: COLORS.cut, width: 3 } },
      "cut")];
  }

  // Where a cut log stops, as the timeline's file index and line (null when the file is not one of the timeline's).
  function cutSource(payload) {
    const file = [];
    const line = [];
    payload.lanes.cut.forEach(function (where) {
      const at = where ? where.lastIndexOf(":") : -1;
      file.push(at > 0 ? payload.files.indexOf(where.slice(0, at)) : -1);
      line.push(at > 0 ? Number(where.slice(at + 1)) : 0);
    });
    return { file: file, line: line };
  }

  function escapeHtml(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }

  function laneTrace(payload) {
    const lanes = payload.lanes;
    const x = [];
    const y = [];
    for (let i = 0; i < lanes.rank.length; i++) {
      if (lanes.first[i] === null) continue;
      x.push(lanes.first[i], lanes.last[i], null);
      y.push(i, i, null);
    }
    rowsOfTrace.push(null);
    return { type: "scattergl", mode: "lines", name: gettext("rank progress"), x: x, y: y, hoverinfo: "skip",
      line: { color: COLORS.lane, width: sizes(payload).lane }, showlegend: false };
  }

  // --- layout -------------------------------------------------------------------------------

  function laneShapes(payload) {
    const lanes = payload.lanes;
    const shapes = [];
    const straggleCount = lanes.rank.filter(function (_, i) { return straggling(payload, i); }).length;
    const shadeStragglers = straggleCount <= MAX_SHADED_STRAGGLER_LANES;
    for (let i = 0; i < lanes.rank.length; i++) {
      const fill = lanes.culprit[i] ? "rgba(217,115,13,0.14)" : lanes.missing[i] ? "rgba(102,112,124,0.16)"
        : shadeStragglers && straggling(payload, i) ? "rgba(194,24,91,0.10)" : null;
      if (fill) {
        shapes.push({ type: "rect", xref: "paper", yref: "y", x0: 0, x1: 1, y0: i - 0.5, y1: i + 0.5,
          fillcolor: fill, line: { width: 0 }, layer: "below" });
      }
    }
    const common = payload.last_common;
    if (common && common.x !== null) {
      shapes.push({ type: "line", xref: "x", yref: "paper", x0: common.x, x1: common.x, y0: 0, y1: 1,
        line: { color: COLORS.common, dash: "dash", width: 2 } });
    }
    return shapes;
  }

  // A lane is marked as straggling only while the overlay is on.
  function straggling(payload, lane) {
    return payload.stragglers !== null && payload.lanes.stragglers[lane] > 0;
  }

  // Every lane is named while they fit; in big jobs every step-th one, plus every
  // culprit or missing lane, with plain ticks too close to those left out.
  function laneTicks(payload) {
    const lanes = payload.lanes;
    const count = lanes.rank.length;
    const step = Math.max(1, Math.ceil(count / 48));
    const gap = Math.max(step / 2 + 0.5, 16 / ((plotHeight(count) - 90) / Math.max(1, count)));
    const marked = [];
    for (let i = 0; i < count; i++) if (lanes.culprit[i] || lanes.missing[i] || lanes.cut[i] || straggling(payload, i)) marked.push(i);
    const nearMarked = function (i) {
      return marked.some(function (m) { return m !== i && Math.abs(m - i) < gap; });
    };
    const vals = [];
    const text = [];
    for (let i = 0; i < lanes.rank.length; i++) {
      const isMarked = lanes.culprit[i] || lanes.missing[i] || lanes.cut[i] || straggling(payload, i);
      if (!isMarked && (i % step !== 0 || nearMarked(i))) continue;
      vals.push(i);
      text.push(rankText(lanes.rank[i]) + (lanes.culprit[i] ? " ⚠ " + gettext("culprit") : "") +
        (straggling(payload, i) ? " · " + interpolate(gettext("%(count)s slow"), { count: lanes.stragglers[i] }, true) : "") +
        (lanes.missing[i] ? " (" + gettext("missing") + ")" : lanes.status[i] !== "ok" ? " · " + (STATUS_WORDS[lanes.status[i]] || lanes.status[i]) : "") +
        (lanes.cut[i] ? " · " + gettext("log cut") : ""));
    }
    return { tickvals: vals, ticktext: text };
  }

  // On the logical axis, few enough checkpoints in view are named instead of numbered.
  function checkpointTicks(payload) {
    const pos = payload.labels.pos;
    if (payload.axis !== "logical" || pos.length === 0 || pos.length > MAX_NAMED_TICKS) return {};
    return { tickmode: "array", tickvals: pos, tickangle: -30, automargin: true,
      ticktext: payload.labels.text.map(function (text) {
        return escapeHtml(text.length > 32 ? text.slice(0, 31) + "…" : text);
      }) };
  }

  // A job that logged no checkpoint has nothing to order or time its lanes by: the axis says
  // so instead of numbering the span Plotly pads around its error marks (-2 … 0 in fractions).
  function noCheckpointsAxis() {
    return { title: { text: gettext("no checkpoints in these logs: the lanes show their errors only") },
      showticklabels: false, showgrid: false, fixedrange: true };
  }

  function layout(payload) {
    const count = payload.lanes.rank.length;
    const common = payload.last_common;
    const xTitle = payload.axis === "logical" ? gettext("checkpoint order (all ranks merged)")
      : gettext("seconds since the first checkpoint (clock skew between ranks corrected)");
    const xaxis = Object.assign({ title: { text: xTitle }, zeroline: false }, checkpointTicks(payload));
    if (state.window) xaxis.range = state.window.slice();
    if (!payload.total_points) Object.assign(xaxis, noCheckpointsAxis());
    return {
      height: plotHeight(count),
      margin: { l: 150, r: 20, t: 36, b: 50 },
      xaxis: xaxis,
      // The left margin is a floor: long lane names (culprit, status, cut) widen it.
      yaxis: Object.assign({ range: [count - 0.5, -0.5], zeroline: false, showgrid: false, fixedrange: count < 24,
        automargin: true },
        laneTicks(payload)),
      shapes: laneShapes(payload),
      annotations: common && common.x !== null ? [{ x: common.x, y: 1, xref: "x", yref: "paper", yanchor: "bottom", xanchor: "right",
        text: interpolate(gettext("last common: %(checkpoint)s"), { checkpoint: escapeHtml(common.label) }, true),
        showarrow: false, font: { color: COLORS.common, size: 11 } }] : [],
      hovermode: "closest",
      dragmode: "zoom",
      showlegend: false,
      uirevision: state.axis + "|" + state.ranks,
    };
  }

  function describe(payload, fetchMs) {
    const lanes = payload.lanes.rank.length;
    const parts = [interpolate(ngettext("%(count)s rank lane", "%(count)s rank lanes", lanes), { count: lanes }, true)];
    parts.push(payload.downsampled
      ? interpolate(gettext("showing %(shown)s of %(total)s checkpoints (aggregated: zoom in or filter ranks for every point)"),
        { shown: payload.shown.toLocaleString(), total: payload.in_window.toLocaleString() }, true)
      : interpolate(ngettext("%(count)s checkpoint", "%(count)s checkpoints", payload.shown),
        { count: payload.shown.toLocaleString() }, true));
    if (payload.axis === "time" && payload.untimed_errors) {
      parts.push(interpolate(ngettext("%(count)s error without a time is not shown on this axis",
        "%(count)s errors without a time are not shown on this axis", payload.untimed_errors),
      { count: payload.untimed_errors }, true));
    }
    const stragglers = stragglerSummary(payload);
    if (stragglers) parts.push(stragglers);
    if (payload.unplaced_causal) {
      parts.push(interpolate(gettext("the first causal error is in no rank's lane (%(where)s)"),
        { where: payload.unplaced_causal.file + ":" + payload.unplaced_causal.line }, true));
    }
    parts.push(interpolate(gettext("data %(ms)s ms"), { ms: Math.round(fetchMs) }, true));
    return parts.join(" · ");
  }

  function stragglerSummary(payload) {
    const lanes = payload.lanes;
    const slow = [];
    for (let i = 0; i < lanes.rank.length; i++) {
      if (lanes.stragglers[i] > 0) slow.push(rankText(lanes.rank[i]) + " (" + lanes.stragglers[i] + ")");
    }
    const rule = interpolate(gettext("a step over %(factor)s× the median of that step across ranks"),
      { factor: payload.straggler_rule.factor }, true);
    if (!slow.length) {
      return payload.stragglers === null ? ""
        : interpolate(gettext("no stragglers in view (%(rule)s)"), { rule: rule }, true);
    }
    if (payload.stragglers === null) {
      return interpolate(ngettext("%(count)s rank straggles in view: switch on “Stragglers”",
        "%(count)s ranks straggle in view: switch on “Stragglers”", slow.length), { count: slow.length }, true);
    }
    const listed = slow.slice(0, MAX_LISTED_STRAGGLERS).join(", ");
    const more = slow.length > MAX_LISTED_STRAGGLERS
      ? " " + interpolate(gettext("and %(count)s more"), { count: slow.length - MAX_LISTED_STRAGGLERS }, true) : "";
    return interpolate(gettext("stragglers (%(rule)s): %(ranks)s"), { rule: rule, ranks: listed + more }, true);
  }

  function draw(payload, fetchMs) {
    const building = performance.now();
    const labels = labelMap(payload);
    const files = payload.files.map(escapeHtml);
    rowsOfTrace.length = 0;
    const traces = [laneTrace(payload)].concat(pointTraces(payload, labels, files),
      stragglerTraces(payload, labels, files), cutTrace(payload), errorTraces(payload, labels, files));
    axisInputs.forEach(function (input) {
      if (input.value === "time") input.disabled = !payload.has_time;
    });
    const started = performance.now();
    plot.hidden = false;
    Plotly.react(plot, traces, layout(payload), { displaylogo: false, responsive: true,
      doubleClickDelay: DOUBLE_CLICK_MS, modeBarButtonsToRemove: ["select2d", "lasso2d"] }).then(function () {
      plot.timelinePayload = payload;
      // Timings for the benchmark and the browser test (bench/timeline_bench.py).
      plot.dataset.fetchMs = String(Math.round(fetchMs));
      plot.dataset.buildMs = String(Math.round(started - building));
      plot.dataset.renderMs = String(Math.round(performance.now() - started));
      plot.dataset.readyAt = String(Math.round(performance.now()));  // ms since navigation
      plot.dataset.lanes = String(payload.lanes.rank.length);
      plot.dataset.ready = String(++state.renders);
      statusLine.textContent = describe(payload, fetchMs) + " · " +
        interpolate(gettext("drawn in %(ms)s ms"), { ms: plot.dataset.renderMs }, true);
      bindPlotEvents();
    });
  }

  // --- interaction ----------------------------------------------------------------------------

  let bound = false;
  function bindPlotEvents() {
    if (bound) return;
    bound = true;
    plot.on("plotly_click", openClickedLine);
    plot.on("plotly_doubleclick", cancelOpening);
    plot.on("plotly_relayout", onRelayout);
  }

  // Both clicks of a double-click reach plotly_click (the second right after
  // plotly_doubleclick): a line opens only once no second click came. The browser's own
  // click count tells a second click too, when a busy page made Plotly miss the double.
  const opening = { timer: null, doubleClickAt: -Infinity };

  function cancelOpening() {
    window.clearTimeout(opening.timer);
    opening.doubleClickAt = performance.now();
  }

  function openClickedLine(event) {
    const point = event.points && event.points[0];
    const payload = plot.timelinePayload;
    const trace = point && rowsOfTrace[point.curveNumber];
    if (!trace || !payload) return;
    const row = trace.rows[point.pointIndex];
    const source = trace.kind === "cut" ? cutSource(payload)
      : { error: payload.errors, straggler: payload.stragglers, point: payload.points }[trace.kind];
    const line = source.line[row];
    if (source.file[row] < 0) return;
    const second = event.event && event.event.detail > 1;
    if (second || performance.now() - opening.doubleClickAt < DOUBLE_CLICK_MS) {
      window.clearTimeout(opening.timer);
      return;
    }
    const url = payload.file_urls[source.file[row]] + "?line=" + line + "#L" + line;
    window.clearTimeout(opening.timer);
    opening.timer = window.setTimeout(function () { window.location.assign(url); }, DOUBLE_CLICK_MS);
  }

  function onRelayout(event) {
    let next = state.window;
    if (event["xaxis.autorange"]) next = null;
    else if ("xaxis.range[0]" in event) next = viewUrl.roundWindow([event["xaxis.range[0]"], event["xaxis.range[1]"]]);
    else if (event["xaxis.range"]) next = viewUrl.roundWindow(event["xaxis.range"]);
    else return;
    if (JSON.stringify(next) === JSON.stringify(state.window)) return;
    state.window = next;
    writeUrlState();
    window.clearTimeout(state.zoomTimer);
    state.zoomTimer = window.setTimeout(load, ZOOM_DELAY_MS);
  }

  axisInputs.forEach(function (input) {
    input.addEventListener("change", function () {
      if (!input.checked) return;
      state.axis = input.value;
      state.window = null;
      writeUrlState();
      load();
    });
  });

  // The zoom window is kept: "these ranks, in this part of the run".
  filterForm.addEventListener("submit", function (event) {
    event.preventDefault();
    state.ranks = filterInput.value.trim();
    writeUrlState();
    load();
  });

  if (stragglerInput) {
    stragglerInput.addEventListener("change", function () {
      state.stragglers = stragglerInput.checked;
      writeUrlState();
      load();
    });
  }

  plotlyReady.then(function () { plot.textContent = ""; }, function (error) { showError(error.message); });
  readUrlState();
  load();
})();
