/** Unknown paths and wrong methods: 404, and 405 with an Allow header (PROFILE General, RFC 9110 §15.5.6). */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, skip } from '../../src/conformance/outcomes.ts';
import { expectStatus } from '../../src/conformance/expect.ts';
import { guarded, requiresCredential, requiresProfile } from '../../src/conformance/preconditions.ts';
import { knownMethods, unknownPath, WRONG_METHOD, wrongMethod } from './lib/requests.ts';

export const unknownPathNotFound = requiresCredential('apiKey')(
  defineCheck({
    id: 'errors.not-found.unknown-path',
    suite: 'errors',
    title: 'A path under the API prefix that does not exist is answered 404',
    level: 'PROFILE',
    specRef: 'PROFILE General ("Unknown path: 404")',
    clauses: ['§9.1'],
    async run(ctx) {
      expectStatus(await unknownPath(ctx), [404], 'GET of an unknown path with the API key');
    },
  }),
);

export const wrongMethodStatus = guarded(
  defineCheck({
    id: 'errors.method-not-allowed.status',
    suite: 'errors',
    title: 'A known path with a method it does not serve is answered 405',
    level: 'PROFILE',
    specRef: 'PROFILE General ("Known path, wrong method: 405 with Allow")',
    clauses: [],
    owasp: ['API8:2023'],
    async run(ctx) {
      expectStatus(await wrongMethod(ctx), [405], `${WRONG_METHOD} on the send-message path`);
    },
  }),
  requiresCredential('apiKey'),
  requiresProfile('methodNotAllowed'),
);

export const allowHeader = requiresCredential('apiKey')(
  defineCheck({
    id: 'errors.method-not-allowed.allow-header',
    suite: 'errors',
    title: 'A 405 carries Allow listing the methods the path serves',
    level: 'SHOULD',
    specRef: 'RFC 9110 §15.5.6 (405 Method Not Allowed: the origin server generates an Allow header)',
    clauses: [],
    async run(ctx) {
      const res = await wrongMethod(ctx);
      if (res.status !== 405) skip(`${WRONG_METHOD} on the send-message path answered ${res.status}, not 405`);
      const allow = res.header('allow');
      if (allow === undefined) fail('expected an Allow header on the 405, got none', { expected: 'Allow', actual: null });
      const listed = allow.split(',').map((m) => m.trim().toUpperCase()).filter(Boolean);
      const expected = knownMethods(ctx, ctx.config.api.paths.sendMessage);
      const missing = expected.filter((method) => !listed.includes(method));
      if (missing.length > 0 || listed.includes(WRONG_METHOD)) {
        fail(`expected Allow to list ${expected.join(', ')} (and not ${WRONG_METHOD}), got ${JSON.stringify(allow)}`, {
          expected,
          actual: listed,
        });
      }
    },
  }),
);
