/**
 * The login-and-consent page of GET /v1/oauth/authorize. Every value taken from the request is HTML-escaped:
 * the page echoes client-controlled parameters (state, scope…), the textbook place for reflected XSS.
 */
import type { AuthorizeRequest } from '../auth/oauth-authorize-request.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

/** Headers for the page: no caching, no framing (clickjacking on a consent page grants access), no scripts. */
export const CONSENT_PAGE_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
} as const;

/** Authorization-request parameters the form carries over to the consent POST. */
const FORWARDED_PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
];

export function renderConsentPage(request: AuthorizeRequest, params: Record<string, unknown>): string {
  const hidden = FORWARDED_PARAMS.filter((name) => typeof params[name] === 'string')
    .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(params[name] as string)}">`)
    .join('\n      ');
  const scopes = [...request.scopes].map((s) => `<li><code>${escapeHtml(s)}</code></li>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Authorize ${escapeHtml(request.client.clientId)}</title>
  <style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}label{display:block;margin:.5rem 0}</style>
</head>
<body>
  <h1>Authorize access</h1>
  <p>The application <strong>${escapeHtml(request.client.clientId)}</strong> asks for:</p>
  <ul>${scopes}</ul>
  <form method="post" action="/v1/oauth/authorize">
      ${hidden}
      <label>Email <input type="email" name="email" autocomplete="username" required></label>
      <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
      <button type="submit" name="decision" value="approve">Approve</button>
      <button type="submit" name="decision" value="deny">Deny</button>
  </form>
</body>
</html>
`;
}
