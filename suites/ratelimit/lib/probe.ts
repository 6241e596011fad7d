/**
 * One bounded run of the rate-limit probe (src/ratelimit/probe) with credentials.apiKey, shared by every check
 * built on it (ctx.memo): small budgets so the suite stays short.
 */
import type { CheckContext } from '../../../src/conformance/context.ts';
import { probeRateLimit, type ProbeResult } from '../../../src/ratelimit/probe/index.ts';

/** Fast enough to pass a 100-per-second quota well within one window. */
export const SUITE_PROBE_MAX_RPS = 400;
const SUITE_PROBE_REQUESTS = 1500;

export function suiteProbe(ctx: CheckContext): Promise<ProbeResult> {
  return ctx.memo('ratelimit.probe', async () => {
    const { maxWaitSeconds, checkTimeoutMs } = ctx.config.conformance;
    const policy = ctx.config.api.rateLimitPolicy;
    const result = await probeRateLimit({
      http: ctx.http,
      credential: ctx.credentials.apiKey!,
      maxRps: SUITE_PROBE_MAX_RPS,
      budgetRequests: SUITE_PROBE_REQUESTS,
      budgetSeconds: Math.min(2 * maxWaitSeconds, checkTimeoutMs / 2000),
      style: ctx.config.api.rateLimitHeaders,
      ...(policy ? { policy: { quota: policy.quota, windowS: policy.windowSeconds } } : {}),
      path: ctx.path('listMessages'),
      query: { [ctx.config.api.query.limit]: 1 },
      // The probe's own send lag joins the run's conditions (its round trips are recorded by the client already).
      onTiming: (_rttMs, lagMs) => ctx.conditions.recordSendLag(lagMs),
    });
    // The key may be left throttled: the burst checks that follow start by exhausting it anyway, and each of
    // them lets it recover before it ends.
    return result;
  });
}

/** "fixed-window, 100 per 1 s (342 requests in 2.2 s)": the observation, for messages. */
export function describeObservation(result: ProbeResult): string {
  const e = result.estimate;
  const shape = e.algorithm === 'token-bucket' ? `token bucket, burst ${e.burst}, refill ${e.refillPerS}/s` : `${e.algorithm}, ${e.quota ?? '?'} per ${e.windowS ?? '?'} s`;
  return `${shape} (${result.requests} requests in ${result.elapsedS} s)`;
}
