/**
 * What the send response says about the message it created, beyond its field types: an `id` that identifies
 * THIS message (SERVICE-SPEC §2.2 "Identifier of the message": two messages, two ids — a static id answers every
 * send with one identity), and a `timestamp` that is a UTC time near the harness's clock (§2.2 "ISO 8601 UTC
 * date-time"; hours off is what local time labelled as UTC looks like).
 */
import { randomBytes } from 'node:crypto';
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, skip } from '../../src/conformance/outcomes.ts';
import { sendMessage, textMessage } from '../../src/conformance/operations.ts';
import { whatIs } from '../../src/conformance/observed.ts';
import { requiresCredential } from '../../src/conformance/preconditions.ts';
import { expect2xx, jsonObject } from '../../src/conformance/expect.ts';

const TO = '15551234567';

/**
 * Clock disagreement tolerated between the target and the harness, on top of the request's own round trip:
 * generous, because clocks of two machines drift and NTP may be off by minutes; a timezone mistake is hours.
 */
export const CLOCK_TOLERANCE_MS = 5 * 60_000;

export const distinctIds = requiresCredential('apiKey')(
  defineCheck({
    id: 'schemas.send-response.distinct-ids',
    suite: 'schemas',
    title: 'Two different messages sent one after the other get two different ids',
    level: 'MUST',
    specRef: 'SERVICE-SPEC §2.2 (id: "Identifier of the message")',
    clauses: ['§2.2'],
    async run(ctx) {
      const tag = randomBytes(4).toString('hex');
      const first = await sendMessage(ctx, textMessage(TO, `schemas: identity ${tag} one`));
      expect2xx(first, 'first send');
      const second = await sendMessage(ctx, textMessage(TO, `schemas: identity ${tag} two`));
      expect2xx(second, 'second send');
      const a = jsonObject(first, 'first send response').id;
      const b = jsonObject(second, 'second send response').id;
      if (typeof a !== 'string' || typeof b !== 'string') skip(`both sends worked, but the first id is ${whatIs(a)} and the second ${whatIs(b)}, not two strings to compare (schemas.send-response.spec-fields reports it)`);
      if (a === b) fail(`two different messages were both answered with id ${JSON.stringify(a)}: an id must identify its message`, { first: a, second: b });
    },
  }),
);

export const timestampNearClock = requiresCredential('apiKey')(
  defineCheck({
    id: 'schemas.send-response.timestamp-near-clock',
    suite: 'schemas',
    title: `The send response's timestamp is the present in UTC: within ${CLOCK_TOLERANCE_MS / 60_000} minutes (plus the round trip) of the harness's clock`,
    level: 'SHOULD',
    specRef: 'SERVICE-SPEC §2.2 (timestamp: "ISO 8601 UTC date-time"); ISO 8601-1:2019 §4.3.13 / RFC 3339 §4.1 (Z means UTC, not local time)',
    clauses: ['§2.2'],
    async run(ctx) {
      const before = Date.now();
      const res = await sendMessage(ctx, textMessage(TO, 'schemas: timestamp'));
      const after = Date.now();
      expect2xx(res, 'send in the long form');
      const timestamp = jsonObject(res, 'send response').timestamp;
      const at = typeof timestamp === 'string' ? Date.parse(timestamp) : Number.NaN;
      if (Number.isNaN(at)) skip('the send response has no readable timestamp (schemas.send-response.spec-fields reports it)');
      const off = at < before ? before - at : at > after ? at - after : 0;
      if (off > CLOCK_TOLERANCE_MS) {
        const hours = (off / 3_600_000).toFixed(2);
        fail(`the send response's timestamp ${timestamp} is ${hours} h ${at < before ? 'behind' : 'ahead of'} the harness's clock (request sent ${new Date(before).toISOString()}, answered ${new Date(after).toISOString()}); local time labelled as UTC?`, {
          expected: { notBefore: new Date(before - CLOCK_TOLERANCE_MS).toISOString(), notAfter: new Date(after + CLOCK_TOLERANCE_MS).toISOString() },
          actual: timestamp,
        });
      }
    },
  }),
);
