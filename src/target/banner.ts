/**
 * The start-up print of `harness serve`: one JSON line for machines (a CI job can `jq` the credentials out
 * of the log) and an aligned table for people. Computing only; the CLI prints.
 */
import type { ReferenceCredentials } from './types.ts';

export interface CredentialBanner {
  json: string;
  table: string;
  /**
   * `export HARNESS_…='…'` lines for the variables harness.config.yaml reads that this target supplies, then one
   * `# …` line per group it does not, saying why (a shell's eval skips those).
   */
  env: string;
}

/**
 * The variables the shipped harness.config.yaml reads that `serve` does not print, and why. Every other
 * `${HARNESS_…}` of that file is printed (a test derives the list from the file).
 */
export const NOT_PRINTED: ReadonlyArray<{ names: readonly string[]; why: string }> = [
  {
    names: ['HARNESS_OAUTH_CODE', 'HARNESS_OAUTH_CODE_COMMAND'],
    why: 'read only with credentials.oauth.consent code or command; the shipped config\'s automated consent obtains a fresh single-use code from this target on every run',
  },
  {
    names: ['HARNESS_WEBHOOK_SECRET'],
    why: 'webhooks.preRegistered (commented out in the shipped config) is a webhook registered by hand; the webhooks suite registers its own at this target and gets its secret back',
  },
  {
    names: [
      'HARNESS_REFERENCE_API_KEY', 'HARNESS_REFERENCE_RESTRICTED_KEY', 'HARNESS_REFERENCE_SECOND_KEY', 'HARNESS_REFERENCE_LOAD_KEY',
      'HARNESS_REFERENCE_LOGIN_EMAIL', 'HARNESS_REFERENCE_LOGIN_PASSWORD',
      'HARNESS_REFERENCE_OAUTH_CLIENT_ID', 'HARNESS_REFERENCE_OAUTH_CLIENT_SECRET', 'HARNESS_REFERENCE_OAUTH_REDIRECT_URI',
      'HARNESS_REFERENCE_OTHER_API_KEY', 'HARNESS_REFERENCE_OTHER_LOGIN_EMAIL', 'HARNESS_REFERENCE_OTHER_LOGIN_PASSWORD',
    ],
    why: 'reference.credentials fix the credentials a reference target starts with (input, not output); exported, they would pin every later serve and embedded run in that shell to these, which are printed above under the names a run reads',
  },
];

export interface BannerExtras {
  /**
   * The HS256 key the target signs its JWTs with, when the caller chose it (`harness serve` does: a test-only key,
   * random per start): a tester's `credentials.jwtSigning` mints expired and not-yet-valid tokens with it.
   */
  jwtSigningKey?: string;
}

/**
 * Each credential a reference target hands out, in the order printed: its label in the table, the variable the
 * shipped harness.config.yaml reads it from, and what it is for. The table and the export lines both come from here.
 */
const CREDENTIALS: ReadonlyArray<[label: string, env: string, value: (creds: ReferenceCredentials) => string, use: string]> = [
  ['api key full', 'HARNESS_API_KEY', (c) => c.apiKeys.full, 'every scope: messages:send messages:read campaigns:write webhooks:manage sandbox'],
  ['api key restricted', 'HARNESS_RESTRICTED_KEY', (c) => c.apiKeys.restricted, 'every scope but messages:send (403 checks)'],
  ['api key second', 'HARNESS_SECOND_KEY', (c) => c.apiKeys.second, 'every scope, its own quota (isolation checks)'],
  ['api key load', 'HARNESS_LOAD_KEY', (c) => c.apiKeys.load, 'every scope, a quota that does not bind (throughput)'],
  ['login email', 'HARNESS_LOGIN_EMAIL', (c) => c.login.email, 'POST /v1/auth/login -> JWT for GET /v1/account'],
  ['login password', 'HARNESS_LOGIN_PASSWORD', (c) => c.login.password, 'password of that user'],
  ['oauth client id', 'HARNESS_OAUTH_CLIENT_ID', (c) => c.oauth.clientId, 'authorization code + PKCE S256 (GET/POST /v1/oauth/authorize)'],
  ['oauth client secret', 'HARNESS_OAUTH_CLIENT_SECRET', (c) => c.oauth.clientSecret, 'client authentication at POST /v1/oauth/token'],
  ['oauth redirect uri', 'HARNESS_OAUTH_REDIRECT_URI', (c) => c.oauth.redirectUri, 'registered redirect (compared, never followed)'],
  ['other client id', 'HARNESS_OAUTH_OTHER_CLIENT_ID', (c) => c.otherOAuthClient.clientId, 'a second client, for "another client\'s code" checks'],
  ['other client secret', 'HARNESS_OAUTH_OTHER_CLIENT_SECRET', (c) => c.otherOAuthClient.clientSecret, ''],
  ['other redirect uri', 'HARNESS_OAUTH_OTHER_REDIRECT_URI', (c) => c.otherOAuthClient.redirectUri, ''],
  ['other account key', 'HARNESS_OTHER_API_KEY', (c) => c.otherAccount.apiKey, 'a second account, every scope: sees nothing of the first account (ownership checks)'],
  ['other account email', 'HARNESS_OTHER_LOGIN_EMAIL', (c) => c.otherAccount.login.email, 'login user of that second account'],
  ['other account password', 'HARNESS_OTHER_LOGIN_PASSWORD', (c) => c.otherAccount.login.password, ''],
];

const JWT_KEY: [label: string, env: string, use: string] = ['jwt signing key', 'HARNESS_JWT_KEY', 'test-only HS256 key the JWTs are signed with (credentials.jwtSigning: expired, not-yet-valid tokens)'];

/** The credentials as [label, env, value, use], the signing key last when the caller chose one. */
function credentialRows(creds: ReferenceCredentials, extras: BannerExtras): Array<[string, string, string, string]> {
  const rows = CREDENTIALS.map(([label, env, value, use]): [string, string, string, string] => [label, env, value(creds), use]);
  if (extras.jwtSigningKey !== undefined) rows.push([JWT_KEY[0], JWT_KEY[1], extras.jwtSigningKey, JWT_KEY[2]]);
  return rows;
}

export function credentialBanner(creds: ReferenceCredentials, baseUrl: string, extras: BannerExtras = {}): CredentialBanner {
  const signing = extras.jwtSigningKey !== undefined ? { jwtSigning: { alg: 'HS256', key: extras.jwtSigningKey } } : {};
  const json = JSON.stringify({ event: 'reference-target.listening', baseUrl, credentials: { ...creds, ...signing } });
  const rows: [string, string, string][] = [
    ['base url', baseUrl, 'every path below is relative to it'],
    ...credentialRows(creds, extras).map(([label, , value, use]): [string, string, string] => [label, value, use]),
  ];
  return { json, table: formatTable(['NAME', 'VALUE', 'FOR'], rows), env: envLines(creds, extras) };
}

/**
 * The `${HARNESS_*}` variables the shipped harness.config.yaml reads, as shell `export` lines with these
 * credentials, so a tester can `eval` them (README "A five-minute tour"), then the ones not printed with why.
 * Values are quoted for a POSIX shell.
 */
function envLines(creds: ReferenceCredentials, extras: BannerExtras): string {
  const exports = credentialRows(creds, extras).map(([, name, value]) => `export ${name}='${value.replace(/'/g, `'\\''`)}'`);
  const notPrinted = NOT_PRINTED.map(({ names, why }) => `# not printed: ${names.join(' ')}: ${why}`);
  return [...exports, ...notPrinted].join('\n');
}

function formatTable(header: [string, string, string], rows: [string, string, string][]): string {
  const all = [header, ...rows];
  const widths = [0, 1].map((col) => Math.max(...all.map((row) => row[col]!.length)));
  return all.map((row) => `${row[0].padEnd(widths[0]!)}  ${row[1].padEnd(widths[1]!)}  ${row[2]}`.trimEnd()).join('\n');
}
