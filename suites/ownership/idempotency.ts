/**
 * An Idempotency-Key belongs to the account whose credential used it: account B sending the same key with the same
 * body gets its own result, never account A's stored answer (A's message id, or the replay of A's send).
 */
import { randomBytes } from 'node:crypto';
import { defineCheck } from '../../src/conformance/check.ts';
import { fail } from '../../src/conformance/outcomes.ts';
import { expect2xx, jsonObject } from '../../src/conformance/expect.ts';
import { textMessage } from '../../src/conformance/operations.ts';
import { MUST_CLAUSES, MUST_REF, as, echoed, ownershipCheck } from './lib/accounts.ts';

export const idempotencyKeyIsolated = ownershipCheck(
  defineCheck({
    id: 'ownership.idempotency.replay-isolated',
    suite: 'ownership',
    title: "Another account replaying an Idempotency-Key with the same body never gets the first account's answer",
    level: 'MUST',
    specRef: `${MUST_REF}; draft-ietf-httpapi-idempotency-key-header`,
    clauses: [...MUST_CLAUSES, '§4.send'],
    async run(ctx) {
      const key = `ownership-${randomBytes(12).toString('hex')}`;
      const body = textMessage('15551234567', `ownership ${randomBytes(6).toString('hex')}`);
      const send = { method: 'POST', path: ctx.path('sendMessage'), json: body, headers: { 'Idempotency-Key': key } };
      const first = await as(ctx, 'A', send);
      expect2xx(first, 'account A sending with an Idempotency-Key');
      const id = jsonObject(first, "account A's send answer").id;
      if (typeof id !== 'string' || id.length === 0) fail("account A's send answer has no message id");
      const replay = await as(ctx, 'B', send);
      if (echoed(replay, [id]).length > 0) {
        fail(`account B replaying account A's Idempotency-Key got account A's answer: message ${id}`, { expected: 'its own result', actual: replay.json() ?? replay.status });
      }
      if (/^true$/i.test(replay.headers['idempotent-replayed'] ?? '')) {
        fail("account B's first use of the Idempotency-Key was answered as a replay (Idempotent-Replayed: true): account A's stored answer", { actual: replay.headers['idempotent-replayed'] });
      }
    },
  }),
  'idempotency',
);
