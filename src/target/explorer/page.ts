/**
 * The /sandbox page: the explorer of client/explorer.js (plain browser JavaScript, shipped in this package, no
 * dependency, no CDN) showing the target's OpenAPI document. No inline script or style: the page loads
 * /sandbox/explorer.js and /sandbox/explorer.css, and the script fetches /sandbox/config.json (the test
 * credentials) and /sandbox/openapi.json, so a strict Content-Security-Policy holds.
 */

export const EXPLORER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
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
<link rel="stylesheet" href="/sandbox/explorer.css">
<link rel="icon" href="data:,">
</head>
<body>
<main id="explorer"><p>Loading the API description…</p></main>
<script src="/sandbox/explorer.js"></script>
</body>
</html>
`;
