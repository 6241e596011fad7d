/** X-Request-Id on every response, echoed when the client sent one (PROFILE General). */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail } from '../../src/conformance/outcomes.ts';
import { listMessages } from '../../src/conformance/operations.ts';
import { guarded, requiresCredential, requiresProfile } from '../../src/conformance/preconditions.ts';
import type { HttpResponse } from '../../src/http/client.ts';
import { malformedJson, suffix, unauthenticated, unknownPath, wrongMethod } from './lib/requests.ts';

export const requestIdPresent = guarded(
  defineCheck({
    id: 'errors.request-id.present',
    suite: 'errors',
    title: 'Successes and errors alike carry an X-Request-Id header',
    level: 'PROFILE',
    specRef: 'PROFILE General ("Every response carries X-Request-Id")',
    clauses: [],
    async run(ctx) {
      const answers: Array<[string, HttpResponse]> = [
        ['list with the API key', await listMessages(ctx, { limit: 1 })],
        ['send without credentials', await unauthenticated(ctx)],
        ['unknown path', await unknownPath(ctx)],
        ['wrong method', await wrongMethod(ctx)],
        ['malformed JSON', await malformedJson(ctx)],
      ];
      const without = answers.filter(([, res]) => !res.header('x-request-id')?.trim());
      if (without.length > 0) {
        fail(`expected X-Request-Id on every response, missing on: ${without.map(([what, res]) => `${what} (${res.status})`).join(', ')}`, {
          expected: 'X-Request-Id',
          actual: without.map(([what, res]) => ({ request: what, status: res.status })),
        });
      }
    },
  }),
  requiresCredential('apiKey'),
  requiresProfile('requestId'),
);

export const requestIdEchoed = guarded(
  defineCheck({
    id: 'errors.request-id.echoed',
    suite: 'errors',
    title: 'An X-Request-Id sent by the client comes back unchanged',
    level: 'PROFILE',
    specRef: 'PROFILE General ("X-Request-Id … echoed when the client sent one")',
    clauses: [],
    async run(ctx) {
      const sent = `harness-${suffix()}`;
      const res = await listMessages(ctx, { limit: 1 }, { headers: { 'x-request-id': sent } });
      const got = res.header('x-request-id');
      if (got !== sent) fail(`expected X-Request-Id ${JSON.stringify(sent)} echoed, got ${JSON.stringify(got ?? null)}`, { expected: sent, actual: got ?? null });
    },
  }),
  requiresCredential('apiKey'),
  requiresProfile('requestId'),
);
