/** The probe's per-second timeline for report.json: accepted vs throttled, last remaining and Retry-After. */
import type { Sample } from './types.ts';

/** One second of the rate-limit probe. */
export interface RateLimitTimelinePoint {
  t: number;
  /** Requests answered with anything but 429. */
  accepted: number;
  /** Requests answered 429. */
  limited: number;
  /** Last remaining-quota header value seen in this second, when the target sends one. */
  remaining?: number;
  /** Retry-After (seconds) claimed by the last 429 of this second. */
  retryAfterS?: number;
}

export function timelineOf(samples: readonly Sample[]): RateLimitTimelinePoint[] {
  const points = new Map<number, RateLimitTimelinePoint>();
  for (const sample of [...samples].sort((a, b) => a.t - b.t)) {
    const t = Math.floor(sample.t / 1000);
    let point = points.get(t);
    if (!point) {
      point = { t, accepted: 0, limited: 0 };
      points.set(t, point);
    }
    if (sample.admitted) point.accepted += 1;
    else point.limited += 1;
    if (sample.remaining !== undefined) point.remaining = sample.remaining;
    if (!sample.admitted && sample.retryAfterS !== undefined) point.retryAfterS = sample.retryAfterS;
  }
  return [...points.values()].sort((a, b) => a.t - b.t);
}
