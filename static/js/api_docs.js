// API docs page: start Swagger UI on the schema URL the page names (settings are a JSON
// data block, not inline script). Requests sent from the page with the login session carry
// the CSRF token, as the API asks of every session-authenticated change.
(function () {
  "use strict";
  const root = document.getElementById("swagger-ui");
  const settingsBlock = document.getElementById("swagger-settings");
  if (!root || !settingsBlock || typeof SwaggerUIBundle === "undefined") return;
  const config = JSON.parse(settingsBlock.textContent);
  config.dom_id = "#swagger-ui";
  config.presets = [SwaggerUIBundle.presets.apis];
  config.requestInterceptor = function (request) {
    const token = root.dataset.csrfToken;
    if (token) request.headers["X-CSRFToken"] = token;
    return request;
  };
  SwaggerUIBundle(config);
})();
