/**
 * Idempotency-Key on the send operation (PROFILE Messages; draft-ietf-httpapi-idempotency-key-header): the same
 * key with the same body answers the first response again and sends nothing twice; the same key with another
 * body gets 422; different keys are different messages. "Sent once" is what a black box can see of it: the
 * replay names the same message id.
 */
import { randomBytes } from 'node:crypto';
import { defineCheck, type Check } from '../../src/conformance/check.ts';
import { fail, passVacuously } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { expect2xx, expectStatus, jsonObject } from '../../src/conformance/expect.ts';
import { sendMessage, textMessage } from '../../src/conformance/operations.ts';
import { guarded, requiresCredential, requiresProfile } from '../../src/conformance/preconditions.ts';
import type { HttpResponse } from '../../src/http/client.ts';
import { canonicalJson } from '../../src/util/deep-json.ts';

function idempotencyCheck(check: Check): Check {
  return guarded(check, requiresProfile('idempotency'), requiresCredential('apiKey'));
}

function newKey(): string {
  return `conformance-${randomBytes(12).toString('hex')}`;
}

function uniqueBody(): Record<string, unknown> {
  return textMessage('15551234567', `idempotency ${randomBytes(6).toString('hex')}`);
}

function sendWithKey(ctx: CheckContext, key: string, body: unknown): Promise<HttpResponse> {
  return sendMessage(ctx, body, { headers: { 'Idempotency-Key': key } });
}

export const sameKeySameBody = idempotencyCheck(
  defineCheck({
    id: 'idempotency.replay.same-response',
    suite: 'idempotency',
    title: 'The same Idempotency-Key with the same body answers the first response again: same status, same message id, same body',
    level: 'PROFILE',
    specRef: 'PROFILE Messages ("the same key with the same body within 24 h answers the first response again and sends nothing twice")',
    clauses: ['§4.send'],
    async run(ctx) {
      const key = newKey();
      const body = uniqueBody();
      const first = await sendWithKey(ctx, key, body);
      expect2xx(first, 'first send with an Idempotency-Key');
      const second = await sendWithKey(ctx, key, body);
      expect2xx(second, 'the same send repeated with the same Idempotency-Key');
      const a = jsonObject(first, 'first send response');
      const b = jsonObject(second, 'repeated send response');
      if (a.id !== b.id) fail(`the repeated send created another message: first id ${JSON.stringify(a.id)}, repeat id ${JSON.stringify(b.id)}`, { expected: a.id, actual: b.id ?? null });
      if (first.status !== second.status) fail(`the repeated send answered ${second.status}, the first ${first.status}`, { expected: first.status, actual: second.status });
      const answer = canonicalJson(a);
      if (answer !== canonicalJson(b)) fail('the repeated send answered another body than the first', { expected: a, actual: b });
      // The same answer twice proves a replay only if another send gets another answer: a target that answers
      // every send with one static body would pass the lines above without replaying anything.
      const control = await sendWithKey(ctx, newKey(), uniqueBody());
      const c = control.status >= 200 && control.status <= 299 ? control.json() : undefined;
      const sameAnswer = c !== null && typeof c === 'object' && canonicalJson(c) === answer;
      if (c && typeof c === 'object' && ((c as Record<string, unknown>).id === a.id || sameAnswer)) {
        passVacuously(`a different message under another Idempotency-Key got the same ${sameAnswer ? 'answer' : 'message id'} as well, so the identical answer to the repeat is no evidence of a replay (static ids: see schemas.send-response.distinct-ids)`);
      }
    },
  }),
);

export const sameKeyOtherBody = idempotencyCheck(
  defineCheck({
    id: 'idempotency.replay.other-body-422',
    suite: 'idempotency',
    title: 'The same Idempotency-Key with another body is refused with 422',
    level: 'PROFILE',
    specRef: 'PROFILE Messages ("the same key with another body gets 422")',
    clauses: ['§4.send'],
    async run(ctx) {
      const key = newKey();
      expect2xx(await sendWithKey(ctx, key, uniqueBody()), 'first send with an Idempotency-Key');
      expectStatus(await sendWithKey(ctx, key, uniqueBody()), [422], 'another body with the same Idempotency-Key');
    },
  }),
);

export const differentKeys = idempotencyCheck(
  defineCheck({
    id: 'idempotency.replay.different-keys-different-messages',
    suite: 'idempotency',
    title: 'The same body under two different Idempotency-Keys is sent twice: two different message ids',
    level: 'PROFILE',
    specRef: 'PROFILE Messages (Idempotency-Key: a key identifies one request)',
    clauses: ['§4.send'],
    async run(ctx) {
      const body = uniqueBody();
      const first = await sendWithKey(ctx, newKey(), body);
      expect2xx(first, 'send with a first Idempotency-Key');
      const second = await sendWithKey(ctx, newKey(), body);
      expect2xx(second, 'the same body with a second Idempotency-Key');
      const a = jsonObject(first, 'first send response').id;
      const b = jsonObject(second, 'second send response').id;
      if (a === b) fail(`two different Idempotency-Keys answered the same message id ${JSON.stringify(a)}`, { first: a, second: b });
    },
  }),
);
