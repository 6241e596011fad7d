/**
 * The start-up print of `harness serve`: one JSON line for machines (a CI job can `jq` the credentials out
 * of the log) and an aligned table for people. Computing only; the CLI prints.
 */
import type { ReferenceCredentials } from './types.ts';

export interface CredentialBanner {
  json: string;
  table: string;
}

export function credentialBanner(creds: ReferenceCredentials, baseUrl: string): CredentialBanner {
  const json = JSON.stringify({ event: 'reference-target.listening', baseUrl, credentials: creds });
  const { apiKeys, login, oauth, otherOAuthClient: other } = creds;
  const rows: [string, string, string][] = [
    ['base url', baseUrl, 'every path below is relative to it'],
    ['api key full', apiKeys.full, 'every scope: messages:send messages:read campaigns:write webhooks:manage sandbox'],
    ['api key restricted', apiKeys.restricted, 'every scope but messages:send (403 checks)'],
    ['api key second', apiKeys.second, 'every scope, its own quota (isolation checks)'],
    ['api key load', apiKeys.load, 'every scope, a quota that does not bind (throughput)'],
    ['login email', login.email, 'POST /v1/auth/login -> JWT for GET /v1/account'],
    ['login password', login.password, 'password of that user'],
    ['oauth client id', oauth.clientId, 'authorization code + PKCE S256 (GET/POST /v1/oauth/authorize)'],
    ['oauth client secret', oauth.clientSecret, 'client authentication at POST /v1/oauth/token'],
    ['oauth redirect uri', oauth.redirectUri, 'registered redirect (compared, never followed)'],
    ['other client id', other.clientId, 'a second client, for "another client\'s code" checks'],
    ['other client secret', other.clientSecret, ''],
    ['other redirect uri', other.redirectUri, ''],
  ];
  return { json, table: formatTable(['NAME', 'VALUE', 'FOR'], rows) };
}

function formatTable(header: [string, string, string], rows: [string, string, string][]): string {
  const all = [header, ...rows];
  const widths = [0, 1].map((col) => Math.max(...all.map((row) => row[col]!.length)));
  return all.map((row) => `${row[0].padEnd(widths[0]!)}  ${row[1].padEnd(widths[1]!)}  ${row[2]}`.trimEnd()).join('\n');
}
