/**
 * Bodies the server cannot read: a non-JSON Content-Type (415, PROFILE General; SERVICE-SPEC §4 says bodies are
 * JSON) and JSON that does not parse (a client error, never a server error: RFC 9110 §15.5.1; exactly
 * api.malformedJsonStatus: PROFILE).
 */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail } from '../../src/conformance/outcomes.ts';
import { expectStatus } from '../../src/conformance/expect.ts';
import { guarded, requiresCredential, requiresProfile } from '../../src/conformance/preconditions.ts';
import { malformedJson, nonJsonContentType } from './lib/requests.ts';

export const unsupportedMediaType = guarded(
  defineCheck({
    id: 'errors.unsupported-media-type.status',
    suite: 'errors',
    title: 'A POST whose Content-Type is not JSON is answered 415',
    level: 'PROFILE',
    specRef: 'PROFILE General ("A POST whose Content-Type is not JSON gets 415"); SERVICE-SPEC §4 (bodies are JSON)',
    clauses: ['§4.json'],
    async run(ctx) {
      expectStatus(await nonJsonContentType(ctx), [415], 'a message sent as text/plain');
    },
  }),
  requiresCredential('apiKey'),
  requiresProfile('unsupportedMediaType'),
);

export const malformedJsonClientError = requiresCredential('apiKey')(
  defineCheck({
    id: 'errors.malformed-json.client-error',
    suite: 'errors',
    title: 'A body that is not valid JSON is answered with a 4xx, never a 5xx',
    level: 'SHOULD',
    specRef: 'RFC 9110 §15.5.1 (400 Bad Request: malformed request syntax)',
    clauses: ['§4.json'],
    async run(ctx) {
      const res = await malformedJson(ctx);
      if (res.status < 400 || res.status > 499) {
        fail(`a message whose JSON is cut off: expected a 4xx answer, got ${res.status}`, { expected: '4xx', actual: res.status });
      }
    },
  }),
);

export const malformedJsonStatus = requiresCredential('apiKey')(
  defineCheck({
    id: 'errors.malformed-json.status',
    suite: 'errors',
    title: 'A body that is not valid JSON is answered with the configured status (400 by default)',
    level: 'PROFILE',
    specRef: 'PROFILE General ("a body that is not valid JSON gets 400"); api.malformedJsonStatus',
    clauses: ['§4.json'],
    async run(ctx) {
      expectStatus(await malformedJson(ctx), ctx.config.api.malformedJsonStatus, 'a message whose JSON is cut off');
    },
  }),
);
