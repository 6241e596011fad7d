/**
 * Bounded request bursts for the rate-limit checks (and the errors suite's 429 body check): cheap reads sent
 * concurrently in small batches, without the polite client's 429 waiting, until the first 429 or the bound.
 * The bound is twice the quota the headers announce (a fixed window may turn over mid-burst), else
 * MAX_BURST requests, and never longer than half the check's time budget. Each admitted answer's remaining quota
 * is followed (./burst-judgement.ts says what a burst without a 429 proves).
 */
import type { CheckContext } from '../../src/conformance/context.ts';
import type { HttpResponse } from '../../src/http/client.ts';
import { parseRetryAfter } from '../../src/http/retry-after.ts';
import { readRateLimit, type RateLimitReading } from '../../src/ratelimit/headers.ts';
import { CountTracker, exceedsAnnounced, type BurstCounts } from './burst-judgement.ts';

export { describeBurst, undecisiveBurst } from './burst-judgement.ts';

/** Most requests one burst sends when the target announces no quota. */
export const MAX_BURST = 1000;
const BATCH = 10;

export interface BurstOutcome {
  /** Requests sent, the first one included. */
  sent: number;
  /** How many answers of each status came. */
  statuses: Record<number, number>;
  elapsedMs: number;
  /** The bound the burst worked to. */
  bound: number;
  /** What the first answer's rate-limit headers said. */
  reading: RateLimitReading;
  /** The first 429, if any came. */
  throttled?: HttpResponse;
  /** The announced quota is beyond what a burst may send: nothing was burst. */
  quotaTooLarge?: boolean;
  /** The remaining quota the admitted answers reported (absent: none reported one). */
  counts?: BurstCounts;
}

/** One cheap read with `bearer` (undefined: no credential), never waiting out a 429. */
export function probe(ctx: CheckContext, bearer: string | undefined): Promise<HttpResponse> {
  return ctx.http.request({
    method: 'GET',
    path: ctx.path('listMessages'),
    query: { [ctx.config.api.query.limit]: 1 },
    ...(bearer !== undefined ? { bearer } : {}),
    retryOn429: false,
  });
}

export async function burstUntil429(ctx: CheckContext, bearer: string | undefined): Promise<BurstOutcome> {
  const started = performance.now();
  const deadline = started + ctx.config.conformance.checkTimeoutMs / 2;
  const statuses: Record<number, number> = {};
  const count = (res: HttpResponse) => (statuses[res.status] = (statuses[res.status] ?? 0) + 1);

  const first = await probe(ctx, bearer);
  count(first);
  const reading = readRateLimit(first.headers, ctx.config.api.rateLimitHeaders, Date.now());
  const tracker = new CountTracker();
  const track = (answers: HttpResponse[]) => tracker.batch(
    answers.filter((res) => res.status !== 429).map((res) => readRateLimit(res.headers, ctx.config.api.rateLimitHeaders, Date.now()).remaining),
    performance.now() - started,
  );
  track([first]);
  const quota = reading.quota;
  const bound = quota !== undefined ? Math.min(MAX_BURST, 2 * quota + BATCH) : MAX_BURST;
  const outcome = (sent: number, throttled?: HttpResponse, quotaTooLarge?: boolean): BurstOutcome => {
    const counts = tracker.counts;
    return {
      sent,
      statuses,
      elapsedMs: Math.round(performance.now() - started),
      bound,
      reading,
      ...(throttled ? { throttled } : {}),
      ...(quotaTooLarge ? { quotaTooLarge } : {}),
      ...(counts ? { counts } : {}),
    };
  };
  if (first.status === 429) return outcome(1, first);
  if (quota !== undefined && quota > MAX_BURST) return outcome(1, undefined, true);

  let sent = 1;
  // Past the bound, a burst without a 429 goes on (up to MAX_BURST and the deadline) while it has not sent more
  // than the announced policy admits in the time it took, or while the target's own counts keep being credited
  // back without running out: a sender slowed by this run's conditions may need longer to exhaust either.
  const unexhausted = () => {
    const counts = tracker.counts;
    return counts !== undefined && counts.replenishments > 0 && !counts.overrun;
  };
  const goOn = () => (sent < bound || (quota !== undefined && sent < MAX_BURST
    && (!exceedsAnnounced(quota, reading.windowS, sent, performance.now() - started) || unexhausted())));
  while (goOn() && performance.now() < deadline) {
    const size = Math.max(1, Math.min(BATCH, (sent < bound ? bound : MAX_BURST) - sent));
    const answers = await Promise.all(Array.from({ length: size }, () => probe(ctx, bearer)));
    sent += size;
    answers.forEach(count);
    track(answers);
    const throttled = answers.find((res) => res.status === 429);
    if (throttled) return outcome(sent, throttled);
  }
  return outcome(sent);
}

/**
 * Lets a served credential's quota fill up again before a burst whose 429 must come from the quota it spends itself.
 * One probe: when it announces fewer remaining than the quota less two (itself, and the probe that found the
 * credential served again, sent just before and so freeing no slot soon), older requests of ours still count: a
 * sliding window still holding an earlier, slower burst frees a slot at a time, so a 429 right after it needs only
 * a short Retry-After. The announced window is then waited out, if it is known and within maxWaitSeconds.
 */
export async function awaitFullQuota(ctx: CheckContext, bearer: string | undefined): Promise<void> {
  const first = await probe(ctx, bearer);
  const reading = readRateLimit(first.headers, ctx.config.api.rateLimitHeaders, Date.now());
  const { quota, remaining, windowS } = reading;
  const partial = first.status === 429 || (quota !== undefined && remaining !== undefined && remaining < quota - 2);
  if (!partial || windowS === undefined || windowS > ctx.config.conformance.maxWaitSeconds) return;
  await sleep(windowS * 1000 + 100);
}

/** Seconds a 429 asks the client to wait: Retry-After, else the rate-limit reset, else undefined. */
export function waitSecondsOf(ctx: CheckContext, res: HttpResponse): number | undefined {
  const retryAfter = parseRetryAfter(res.header('retry-after'), Date.now());
  const reset = readRateLimit(res.headers, ctx.config.api.rateLimitHeaders, Date.now()).resetS;
  // Once a Retry-After proved wrong in this run (src/http/polite-wait.ts), the reset is waited for too.
  if (retryAfter !== undefined && reset !== undefined && ctx.http.polite.distrustRetryAfter) return Math.max(retryAfter, reset);
  return retryAfter ?? reset;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Leaves the API key throttled for whoever comes next (src/conformance/recoveries.ts): the runner lets it recover
 * before the next check that does not exhaust it itself, instead of this check waiting now. `by`: the check's id.
 */
export function leaveApiKeyThrottled(ctx: CheckContext, by: string): void {
  const key = ctx.credentials.apiKey!;
  ctx.recoveries.leave({ credential: 'apiKey', by, ensureServed: () => ensureServed(ctx, key) });
}

/** Probes the credential, and lets it recover when it is throttled (recover); whether it is served. */
export async function ensureServed(ctx: CheckContext, bearer: string | undefined): Promise<boolean> {
  const first = await probe(ctx, bearer);
  return first.status !== 429 || recover(ctx, bearer, first);
}

/**
 * Lets a throttled credential's bucket recover so later checks are not throttled: waits what the 429 asked
 * (at least 1 s), probes, and repeats while throttled — never longer than maxWaitSeconds in all. Returns whether
 * the credential is usable again.
 */
export async function recover(ctx: CheckContext, bearer: string | undefined, throttled: HttpResponse): Promise<boolean> {
  const until = Date.now() + ctx.config.conformance.maxWaitSeconds * 1000;
  let last = throttled;
  for (;;) {
    const waitMs = Math.max(1, waitSecondsOf(ctx, last) ?? 1) * 1000 + 50;
    if (Date.now() + waitMs > until) return false;
    await sleep(waitMs);
    last = await probe(ctx, bearer);
    if (last.status !== 429) return true;
  }
}
