// Diagnosis tree: open the node a permalink points at (and its ancestors), and the
// "path only / expand all / collapse all" buttons. Works without JS too: the taken
// path is rendered open by the server.
(function () {
  "use strict";

  function ancestorsOpen(element) {
    for (let node = element; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") node.open = true;
    }
  }

  function showTarget() {
    const id = decodeURIComponent(window.location.hash.slice(1));
    if (!id) return;
    const target = document.getElementById(id);
    if (!target || !target.closest("[data-tree]")) return;
    document.querySelectorAll(".tree-node.is-target").forEach(function (el) {
      el.classList.remove("is-target");
    });
    ancestorsOpen(target);
    const own = target.querySelector(":scope > details");
    if (own) own.open = true;
    target.classList.add("is-target");
    target.scrollIntoView({ block: "start" });
  }

  function setAll(tree, predicate) {
    tree.querySelectorAll(".tree-node > details").forEach(function (details) {
      details.open = predicate(details.parentElement);
    });
  }

  const actions = {
    expand: function () { return true; },
    collapse: function () { return false; },
    path: function (node) {
      return node.classList.contains("is-taken") || node.classList.contains("is-chosen");
    },
  };

  document.querySelectorAll("[data-tree]").forEach(function (tree) {
    tree.addEventListener("click", function (event) {
      const button = event.target.closest("[data-tree-action]");
      if (!button) return;
      setAll(tree, actions[button.dataset.treeAction]);
    });
  });
  window.addEventListener("hashchange", showTarget);
  showTarget();
})();
