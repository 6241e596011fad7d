/**
 * Error bodies: 401, 403 and 429 answers match the configured error schema (PROFILE General: RFC 9457 problem
 * details with a snake_case code), and error answers say `application/problem+json`.
 */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, skip } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { jsonObject } from '../../src/conformance/expect.ts';
import { sendMessage, textMessage } from '../../src/conformance/operations.ts';
import { guarded, requiresCredential, requiresProfile } from '../../src/conformance/preconditions.ts';
import type { HttpResponse } from '../../src/http/client.ts';
import { burstUntil429, describeBurst, recover } from '../lib/rate-limit-burst.ts';
import { malformedJson, mediaType, nonJsonContentType, unauthenticated, unknownPath, wrongMethod } from './lib/requests.ts';

function expectErrorBody(ctx: CheckContext, res: HttpResponse, status: number, what: string): void {
  if (res.status !== status) skip(`${what} answered ${res.status}, not ${status}: there is no ${status} body to inspect (the auth and ratelimit suites report the status)`);
  ctx.schemas.expect('error', jsonObject(res, `${status} body`), `${status} body`);
}

export const unauthorizedBody = defineCheck({
  id: 'errors.unauthorized.problem-body',
  suite: 'errors',
  title: 'A 401 body matches the configured error schema (problem details with a code by default)',
  level: 'PROFILE',
  specRef: 'PROFILE General (error bodies: problem details, RFC 9457) or the target\'s own error schema (api.errorSchema)',
  clauses: ['§7.401'],
  async run(ctx) {
    expectErrorBody(ctx, await unauthenticated(ctx), 401, 'a send without credentials');
  },
});

export const forbiddenBody = guarded(
  defineCheck({
    id: 'errors.forbidden.problem-body',
    suite: 'errors',
    title: 'A 403 body matches the configured error schema (problem details with a code by default)',
    level: 'PROFILE',
    specRef: 'PROFILE General (error bodies: problem details, RFC 9457) or the target\'s own error schema (api.errorSchema)',
    clauses: ['§7.403'],
    async run(ctx) {
      const res = await sendMessage(ctx, textMessage(), { bearer: ctx.credentials.restrictedKey! });
      expectErrorBody(ctx, res, 403, 'a send with credentials.restrictedKey');
    },
  }),
  requiresCredential('restrictedKey'),
);

/**
 * The 429 comes from the per-address bucket of unauthenticated requests, so credentials.apiKey keeps its quota
 * for the checks after this one; without an address limit, credentials.secondKey is burst instead.
 */
export const rateLimitedBody = defineCheck({
  id: 'errors.rate-limited.problem-body',
  suite: 'errors',
  title: 'A 429 body matches the configured error schema (problem details with a code by default)',
  level: 'PROFILE',
  specRef: 'PROFILE General (error bodies: problem details, RFC 9457) or the target\'s own error schema (api.errorSchema)',
  clauses: ['§7.429'],
  async run(ctx) {
    const tried: string[] = [];
    for (const [label, bearer] of [['unauthenticated requests', undefined], ['credentials.secondKey', ctx.credentials.secondKey]] as const) {
      if (label !== 'unauthenticated requests' && bearer === undefined) continue;
      const burst = await burstUntil429(ctx, bearer);
      if (!burst.throttled) {
        tried.push(`${label}: ${describeBurst(burst)}`);
        continue;
      }
      try {
        ctx.schemas.expect('error', jsonObject(burst.throttled, '429 body'), '429 body');
      } finally {
        await recover(ctx, bearer, burst.throttled);
      }
      return;
    }
    skip(`no 429 could be provoked without spending credentials.apiKey (${tried.join('; ')})`);
  },
});

export const problemContentType = guarded(
  defineCheck({
    id: 'errors.problem-json.content-type',
    suite: 'errors',
    title: 'Error answers (401, 404, 405, 415, malformed JSON) say Content-Type: application/problem+json',
    level: 'PROFILE',
    specRef: 'PROFILE General ("Errors are application/problem+json"), RFC 9457 §3',
    clauses: [],
    async run(ctx) {
      const answers: Array<[string, HttpResponse]> = [
        ['send without credentials', await unauthenticated(ctx)],
        ['unknown path', await unknownPath(ctx)],
        ['wrong method', await wrongMethod(ctx)],
        ['text/plain body', await nonJsonContentType(ctx)],
        ['malformed JSON', await malformedJson(ctx)],
      ];
      const errors = answers.filter(([, res]) => res.status >= 400);
      if (errors.length === 0) skip('none of the wrong requests was answered with an error status');
      const wrong = errors.filter(([, res]) => mediaType(res) !== 'application/problem+json');
      if (wrong.length > 0) {
        fail(`expected Content-Type application/problem+json on error answers, got ${wrong
          .map(([what, res]) => `${JSON.stringify(res.header('content-type') ?? null)} for the ${what} (${res.status})`)
          .join(', ')}`, {
          expected: 'application/problem+json',
          actual: wrong.map(([what, res]) => ({ request: what, status: res.status, contentType: res.header('content-type') ?? null })),
        });
      }
    },
  }),
  requiresCredential('apiKey'),
  requiresProfile('problemJson'),
);
