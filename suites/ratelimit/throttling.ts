/**
 * Exceeding the quota of credentials.apiKey: 429 (SERVICE-SPEC §7, §8 rule 1), with a Retry-After that is
 * there (RFC 6585 §4) and honest (RFC 9110 §10.2.3). A check that ends with the key throttled leaves it so: the
 * runner lets it recover before the next check that needs it served (src/conformance/recoveries.ts), not before
 * one that is judged on any 429 of the key (`exhausts`: the burst and the Retry-After presence) and so may take
 * it throttled. The honesty check needs it served: its 429 must come from the quota it spent itself.
 */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, skip, undecided } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { requiresCredential } from '../../src/conformance/preconditions.ts';
import type { HttpResponse } from '../../src/http/client.ts';
import { parseRetryAfter } from '../../src/http/retry-after.ts';
import { awaitFullQuota, burstUntil429, describeBurst, leaveApiKeyThrottled, MAX_BURST, probe, sleep, undecisiveBurst, type BurstOutcome } from '../lib/rate-limit-burst.ts';

/** Bursts with the API key and hands the 429 to `use`; a key still throttled afterwards is left to recover (`by`: the check). */
async function withThrottledApiKey(ctx: CheckContext, by: string, use: (throttled: HttpResponse, burst: BurstOutcome) => Promise<HttpResponse | void>): Promise<void> {
  const key = ctx.credentials.apiKey!;
  const burst = await burstUntil429(ctx, key);
  if (burst.quotaTooLarge) skip(`the target announces a quota of ${burst.reading.quota}, more than the ${MAX_BURST} requests a burst may send`);
  if (!burst.throttled) skip(`no 429 came within the burst (${describeBurst(burst)}); ratelimit.burst.exceeding-quota-gets-429 reports that`);
  let last: HttpResponse = burst.throttled;
  try {
    last = (await use(burst.throttled, burst)) ?? last;
  } finally {
    if (last.status === 429) leaveApiKeyThrottled(ctx, by);
  }
}

export const burstGets429 = requiresCredential('apiKey')(
  defineCheck({
    id: 'ratelimit.burst.exceeding-quota-gets-429',
    suite: 'ratelimit',
    title: 'A burst of requests past the quota of one API key is answered 429',
    level: 'MUST',
    specRef: 'SERVICE-SPEC §7 (429 Rate Limit), §8 rule 1',
    clauses: ['§7.429', '§8.1'],
    owasp: ['API4:2023'],
    exhausts: ['apiKey'],
    async run(ctx) {
      const key = ctx.credentials.apiKey!;
      const burst = await burstUntil429(ctx, key);
      if (burst.quotaTooLarge) skip(`the target announces a quota of ${burst.reading.quota}, more than the ${MAX_BURST} requests a burst may send`);
      if (burst.throttled) {
        leaveApiKeyThrottled(ctx, 'ratelimit.burst.exceeding-quota-gets-429');
        return;
      }
      const slow = undecisiveBurst(burst);
      if (slow) undecided(slow, { sent: burst.sent, elapsedMs: burst.elapsedMs, announcedQuota: burst.reading.quota, announcedWindowS: burst.reading.windowS, ...(burst.counts ? { counts: burst.counts } : {}), conditions: ctx.conditions.since(ctx.conditions.mark() - burst.elapsedMs) });
      fail(`expected a 429 once the quota is exceeded, but ${describeBurst(burst)} without one`, {
        expected: 429,
        actual: burst.statuses,
        sent: burst.sent,
        bound: burst.bound,
        announcedQuota: burst.reading.quota ?? null,
      });
    },
  }),
);

export const retryAfterPresent = requiresCredential('apiKey')(
  defineCheck({
    id: 'ratelimit.retry-after.present',
    suite: 'ratelimit',
    title: 'A 429 carries Retry-After in delay-seconds or as an HTTP-date',
    level: 'SHOULD',
    specRef: 'RFC 6585 §4, RFC 9110 §10.2.3',
    clauses: ['§7.429'],
    owasp: ['API4:2023'],
    exhausts: ['apiKey'],
    async run(ctx) {
      await withThrottledApiKey(ctx, 'ratelimit.retry-after.present', async (throttled) => {
        const value = throttled.header('retry-after');
        if (value === undefined) fail('expected a Retry-After header on the 429, got none', { expected: 'Retry-After', actual: null });
        if (parseRetryAfter(value, Date.now()) === undefined) {
          fail(`expected Retry-After as delay-seconds or an HTTP-date, got ${JSON.stringify(value)}`, { actual: value });
        }
      });
    },
  }),
);

/**
 * The polite client's own record (src/http/polite-wait.ts): a retry sent after a 429's Retry-After, with nothing
 * of ours admitted in between, was throttled again. Reported here, once, at this check's level.
 */
function failOnPoliteLies(ctx: CheckContext): void {
  const lies = ctx.http.polite.lies;
  if (lies.length === 0) return;
  const first = lies[0]!;
  fail(`earlier in this run, ${lies.length} request(s) sent after waiting a 429's Retry-After were throttled again (first: ${first.method} `
    + `${first.url}, Retry-After ${first.claimedS} s, retried after ${first.waitedS} s)`, { expected: 'not 429 after Retry-After', politeClientSaw: lies });
}

export const retryAfterHonest = requiresCredential('apiKey')(
  defineCheck({
    id: 'ratelimit.retry-after.honest',
    suite: 'ratelimit',
    title: 'A request sent after the Retry-After of a 429 has passed is not throttled',
    level: 'SHOULD',
    specRef: 'RFC 9110 §10.2.3; PROFILE Rate limits ("it is honest")',
    clauses: ['§7.429', '§8.1'],
    owasp: ['API4:2023'],
    // Not `exhausts`: the key must be served when it starts, and its quota full, so that its 429 comes from a quota
    // this check just spent. A 429 for a key left throttled or part-spent earlier says Retry-After from an older
    // state (a sliding window whose oldest requests are about to leave it), and a lie could pass.
    async run(ctx) {
      const key = ctx.credentials.apiKey!;
      await awaitFullQuota(ctx, key);
      await withThrottledApiKey(ctx, 'ratelimit.retry-after.honest', async (throttled) => {
        const waitS = parseRetryAfter(throttled.header('retry-after'), Date.now());
        if (waitS === undefined) skip('the 429 has no usable Retry-After to honour (ratelimit.retry-after.present reports it)');
        const maxWait = ctx.config.conformance.maxWaitSeconds;
        if (waitS > maxWait) {
          failOnPoliteLies(ctx);
          skip(`Retry-After is ${waitS} s, longer than conformance.maxWaitSeconds (${maxWait} s)`);
        }
        await sleep(waitS * 1000 + 100);
        const after = await probe(ctx, key);
        if (after.status === 429) {
          fail(`expected the request sent ${waitS} s after the 429 (as its Retry-After said) to be admitted, got 429 again`
            + ` (Retry-After now ${JSON.stringify(after.header('retry-after') ?? null)})`, {
            expected: 'not 429',
            actual: 429,
            retryAfterSeconds: waitS,
            ...(ctx.http.polite.lies.length > 0 ? { politeClientSaw: ctx.http.polite.lies } : {}),
          });
        }
        return after;
      });
    },
  }),
);
