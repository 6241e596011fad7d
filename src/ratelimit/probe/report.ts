/** A probe result as report.json's `rateLimit` section (RateLimitReport, src/reporters/report-load.ts). */
import type { RateLimitReport } from '../../reporters/report-load.ts';
import { timelineOf } from './timeline.ts';
import type { ProbeResult } from './types.ts';

export function toRateLimitReport(result: ProbeResult): RateLimitReport {
  const { claimed, estimate, retryAfter, isolation } = result;
  // With no limit observed, `observed` says what was reached: that many requests in that time, nothing refused.
  const observed: RateLimitReport['observed'] = estimate.limited
    ? {
        quota: estimate.quota ?? estimate.firstBurst,
        windowS: positive(estimate.windowS ?? claimed.windowS ?? result.elapsedS),
        algorithm: estimate.algorithm,
        ...(estimate.burst !== undefined ? { burst: estimate.burst } : {}),
        ...(estimate.refillPerS !== undefined ? { refillPerS: estimate.refillPerS } : {}),
      }
    : { quota: estimate.firstBurst, windowS: positive(result.elapsedS), algorithm: 'unknown' };
  return {
    headerStyle: claimed.headerStyle,
    ...(claimed.quota !== undefined && claimed.windowS !== undefined
      ? { policyClaimed: { quota: claimed.quota, windowS: claimed.windowS, ...(claimed.raw !== undefined ? { raw: claimed.raw } : {}) } }
      : {}),
    observed,
    retryAfter: {
      ...(retryAfter.claimedS !== undefined ? { claimedS: retryAfter.claimedS } : {}),
      actualRecoveryS: retryAfter.actualRecoveryS ?? 0,
      samples: retryAfter.samples,
      ...(retryAfter.honest !== undefined ? { honest: retryAfter.honest } : {}),
    },
    isolation: { perCredential: isolation.perCredential, tested: isolation.tested, detail: isolation.detail },
    timeline: timelineOf(result.samples),
  };
}

function positive(value: number): number {
  return value > 0 ? value : 0.001;
}
