/** Auth / API key: which credentials the messaging operations accept and refuse (SERVICE-SPEC §5 rules 1 and 5, §7). */
import { randomBytes } from 'node:crypto';
import { defineCheck } from '../../src/conformance/check.ts';
import { fail } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { expect2xx, expectStatus } from '../../src/conformance/expect.ts';
import { textMessage } from '../../src/conformance/operations.ts';
import { requiresCredential } from '../../src/conformance/preconditions.ts';
import type { HttpResponse, RequestOptions } from '../../src/http/client.ts';

/** Sends a text message with exactly the given credential headers (no default API key). */
export function sendAs(ctx: CheckContext, auth: Pick<RequestOptions, 'bearer' | 'headers' | 'query'>): Promise<HttpResponse> {
  return ctx.http.request({ method: 'POST', path: ctx.path('sendMessage'), json: textMessage(), ...auth });
}

/** A key no target issued: same alphabet as real keys, random, so it can never collide with one. */
export function unknownKey(): string {
  return `sk_unknown_${randomBytes(24).toString('hex')}`;
}

export const validKeyAccepted = requiresCredential('apiKey')(
  defineCheck({
    id: 'auth.api-key.valid-key-accepted',
    suite: 'auth',
    title: 'The API key sent as a Bearer credential is accepted on the send operation',
    level: 'MUST',
    specRef: 'SERVICE-SPEC §5 rule 1, §4 (POST /v1/whatsapp/messages)',
    clauses: ['§5.1', '§4.send'],
    async run(ctx) {
      expect2xx(await sendAs(ctx, { bearer: ctx.credentials.apiKey! }), 'send with "Authorization: Bearer <API key>"');
    },
  }),
);

export const missingCredential = defineCheck({
  id: 'auth.api-key.missing-credential',
  suite: 'auth',
  title: 'A send without any credential is refused with 401',
  level: 'MUST',
  specRef: 'SERVICE-SPEC §5 rule 5, §7 (401)',
  clauses: ['§5.5', '§7.401'],
  owasp: ['API2:2023'],
  async run(ctx) {
    expectStatus(await sendAs(ctx, {}), [401], 'send without an Authorization header');
  },
});

export const malformedHeader = requiresCredential('apiKey')(
  defineCheck({
    id: 'auth.api-key.malformed-header',
    suite: 'auth',
    title: 'A malformed Authorization header (no credential after Bearer, no scheme, a quoted key) is refused with 401',
    level: 'MUST',
    specRef: 'SERVICE-SPEC §5 ("Authorization: Bearer <credential>"), §5 rule 5, §7 (401)',
    clauses: ['§5.5', '§7.401'],
    owasp: ['API2:2023'],
    async run(ctx) {
      const key = ctx.credentials.apiKey!;
      const variants: Array<[string, string]> = [
        ['"Bearer" with no credential', 'Bearer'],
        ['the key without a scheme', key],
        ['the key in quotes', `Bearer "${key}"`],
      ];
      for (const [what, value] of variants) {
        expectStatus(await sendAs(ctx, { headers: { authorization: value } }), [401], `send with ${what}`);
      }
    },
  }),
);

export const basicScheme = requiresCredential('apiKey')(
  defineCheck({
    id: 'auth.api-key.basic-scheme-refused',
    suite: 'auth',
    title: 'The API key sent with the Basic scheme instead of Bearer is refused with 401',
    level: 'MUST',
    specRef: 'SERVICE-SPEC §5 ("Authorization: Bearer <credential>", rule 5), §7 (401)',
    clauses: ['§5.5', '§7.401'],
    owasp: ['API2:2023'],
    async run(ctx) {
      const basic = Buffer.from(`${ctx.credentials.apiKey!}:`, 'utf8').toString('base64');
      expectStatus(await sendAs(ctx, { headers: { authorization: `Basic ${basic}` } }), [401], 'send with "Authorization: Basic <key:>"');
    },
  }),
);

export const unknownKeyRefused = defineCheck({
  id: 'auth.api-key.unknown-key',
  suite: 'auth',
  title: 'A Bearer credential the target never issued is refused with 401',
  level: 'MUST',
  specRef: 'SERVICE-SPEC §5 rule 5, §7 (401)',
  clauses: ['§5.5', '§7.401'],
  owasp: ['API2:2023'],
  async run(ctx) {
    expectStatus(await sendAs(ctx, { bearer: unknownKey() }), [401], 'send with an unknown key');
  },
});

export const queryStringIgnored = requiresCredential('apiKey')(
  defineCheck({
    id: 'auth.api-key.query-string-ignored',
    suite: 'auth',
    title: 'An API key in the query string (no Authorization header) is ignored: 401',
    level: 'PROFILE',
    specRef: 'PROFILE Authentication ("a credential in a query string is ignored (401)")',
    clauses: ['§5.1'],
    owasp: ['API2:2023'],
    async run(ctx) {
      const key = ctx.credentials.apiKey!;
      // access_token is RFC 6750 §2.3's name; api_key and key are the usual others.
      const res = await sendAs(ctx, { query: { access_token: key, api_key: key, key } });
      expectStatus(res, [401], 'send with the key only in the query string');
    },
  }),
);

export const lowercaseScheme = requiresCredential('apiKey')(
  defineCheck({
    id: 'auth.api-key.scheme-case-insensitive',
    suite: 'auth',
    title: 'The authentication scheme is case-insensitive: "bearer <key>" and "BEARER <key>" are accepted like "Bearer <key>"',
    level: 'SHOULD',
    specRef: 'RFC 9110 §11.1 (auth-scheme is case-insensitive), RFC 6750 §2.1',
    clauses: ['§5.1'],
    async run(ctx) {
      for (const scheme of ['bearer', 'BEARER']) {
        expect2xx(await sendAs(ctx, { headers: { authorization: `${scheme} ${ctx.credentials.apiKey!}` } }), `send with "Authorization: ${scheme} <API key>"`);
      }
    },
  }),
);

export const restrictedKeyForbidden = requiresCredential('restrictedKey')(
  defineCheck({
    id: 'auth.api-key.restricted-key-forbidden',
    suite: 'auth',
    title: 'A valid key that lacks the send permission is refused with 403 on send',
    level: 'MUST',
    specRef: 'SERVICE-SPEC §5 rule 5 ("a key lacking permissions yields 403"), §7 (403)',
    clauses: ['§5.5', '§7.403'],
    owasp: ['API5:2023'],
    async run(ctx) {
      const res = await sendAs(ctx, { bearer: ctx.credentials.restrictedKey! });
      if (res.status >= 200 && res.status < 300) {
        fail(`send with credentials.restrictedKey (a key without the send permission): expected 403, got ${res.status} — the message was accepted`, { expected: 403, actual: res.status });
      }
      expectStatus(res, [403], 'send with credentials.restrictedKey (a key without the send permission)');
    },
  }),
);

/** Every check of this file, in run order. */
export const API_KEY_CHECKS = [
  validKeyAccepted,
  missingCredential,
  malformedHeader,
  basicScheme,
  unknownKeyRefused,
  queryStringIgnored,
  lowercaseScheme,
  restrictedKeyForbidden,
];
