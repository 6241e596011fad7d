/**
 * The /sandbox page: Swagger UI (swagger-ui-dist, served from node_modules by this target, no CDN) showing the
 * target's OpenAPI document. No inline script: the page loads the bundle and /sandbox/init.js, which fetches
 * /sandbox/config.json (the test credentials) and starts the explorer, so a strict Content-Security-Policy holds.
 */

export const EXPLORER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // Swagger UI's React components set inline style attributes.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const EXPLORER_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API sandbox</title>
<link rel="stylesheet" href="/sandbox/swagger-ui.css">
<link rel="icon" href="/sandbox/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/sandbox/swagger-ui-bundle.js"></script>
<script src="/sandbox/init.js"></script>
</body>
</html>
`;

/**
 * Starts Swagger UI on the document and pre-fills the `apiKey` scheme with the target's sandbox-only key;
 * "Try it out" is on, and the validator badge (a call to validator.swagger.io) is off: no network beyond this
 * target.
 */
export const EXPLORER_INIT_JS = `'use strict';
(async function start() {
  const response = await fetch('/sandbox/config.json');
  const config = await response.json();
  const ui = SwaggerUIBundle({
    url: '/sandbox/openapi.json',
    dom_id: '#swagger-ui',
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    deepLinking: true,
    tryItOutEnabled: true,
    displayRequestDuration: true,
    validatorUrl: null,
    onComplete: function () {
      ui.preauthorizeApiKey('apiKey', config.apiKey);
      document.body.dataset.sandboxReady = 'true';
    },
  });
  window.sandboxUi = ui;
})();
`;
