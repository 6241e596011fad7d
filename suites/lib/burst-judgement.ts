/**
 * What a burst without a 429 says (suites/lib/rate-limit-burst.ts sends it). Two things can make it say nothing:
 * its pace — what this run's conditions allowed — was too slow to exceed the announced policy; or the target's
 * own counts (the remaining quota its answers carry) replenished during the burst and never ran out, so by the
 * target's own accounting the limit was never reached, whatever the announced window says (a window that
 * disagrees with the counts is ratelimit.policy.claimed-window-matches's finding, not this burst's). Either is
 * "could not decide", with the measured reason. A burst past the announced policy whose counts never came back, or
 * came back but also went on admitting at 0 (counts that say nothing), is decisive.
 */
import type { RateLimitReading } from '../../src/ratelimit/headers.ts';

/** The remaining quota the burst's admitted answers reported, batch by batch (absent: no answer reported one). */
export interface BurstCounts {
  /** The lowest remaining any admitted answer reported. */
  lowest: number;
  /** Batches whose highest remaining was above the previous batch's lowest: the target credited quota back. */
  replenishments: number;
  /** Milliseconds from the burst's start to the first replenishment. */
  firstReplenishedMs?: number;
  /** A batch admitted past a count of 0 with no replenishment in between: the target exceeded its own count. */
  overrun: boolean;
}

/** What the judgement needs of a burst (a BurstOutcome without a 429). */
export interface JudgedBurst {
  sent: number;
  statuses: Record<number, number>;
  elapsedMs: number;
  reading: RateLimitReading;
  counts?: BurstCounts;
}

/** Follows the remaining quota through a burst's batches (the first answer is a batch of one). */
export class CountTracker {
  #counts: BurstCounts | undefined;
  #previousLowest: number | undefined;

  /** `remaining`: what each admitted answer of one batch reported (undefined where none); `atMs`: since the burst began. */
  batch(remaining: ReadonlyArray<number | undefined>, atMs: number): void {
    const values = remaining.filter((r): r is number => r !== undefined);
    if (values.length === 0) return;
    const lowest = Math.min(...values);
    const highest = Math.max(...values);
    const counts = (this.#counts ??= { lowest, replenishments: 0, overrun: false });
    const before = this.#previousLowest;
    if (before !== undefined) {
      // Without a credit, every answer of a later batch reports less than the earlier batch's lowest.
      if (highest > before) {
        counts.replenishments++;
        counts.firstReplenishedMs ??= Math.round(atMs);
      } else if (before === 0 && highest === 0 && values.length > 1) {
        // Two or more admitted at 0 after a batch that left 0: no credit of any size explains that.
        counts.overrun = true;
      }
    }
    counts.lowest = Math.min(counts.lowest, lowest);
    this.#previousLowest = lowest;
  }

  get counts(): BurstCounts | undefined {
    return this.#counts === undefined ? undefined : { ...this.#counts };
  }
}

/**
 * Undefined when the burst was decisive (its failure stands: nothing is announced, so the bound it worked to is
 * all there is to say; or it exceeded the announced policy and the target's counts do not say otherwise), else
 * why it could not decide, in measured terms.
 */
export function undecisiveBurst(burst: JudgedBurst): string | undefined {
  const { quota, windowS } = burst.reading;
  if (quota === undefined) return undefined;
  const counts = burst.counts;
  if (!exceedsAnnounced(quota, windowS, burst.sent, burst.elapsedMs)) {
    const admits = windowS === undefined || windowS <= 0
      ? `${2 * quota}: twice the announced quota of ${quota}, no window announced`
      : `${admitsAtMost(quota, windowS, burst.elapsedMs)}, counting a window boundary`;
    return `the burst ${describeBurst(burst)}: no more than ${describePolicy(quota, windowS)} admits in ${burst.elapsedMs} ms `
      + `(${admits}), so it may never have exceeded the limit it tests — its pace was what this run's conditions allowed`;
  }
  // A count that went on admitting at 0 is no count to go by (remaining-decreases and remaining-decrements-by-one
  // judge it): the announced policy alone decides.
  if (counts !== undefined && counts.replenishments > 0 && !counts.overrun) {
    return `the burst ${describeBurst(burst)}, more than ${describePolicy(quota, windowS)} admits, but the target's own remaining quota `
      + `was credited back ${counts.replenishments} time(s) during it (first after ${counts.firstReplenishedMs} ms) and never went on admitting at 0 `
      + `(lowest ${counts.lowest}): by its own counts the limit was never exceeded, so this burst cannot say whether it is enforced — `
      + 'its pace was what this run\'s conditions allowed, and whether the announced window matches the counts is ratelimit.policy.claimed-window-matches\'s question';
  }
  return undefined;
}

function describePolicy(quota: number, windowS: number | undefined): string {
  return windowS === undefined || windowS <= 0 ? `twice the announced quota of ${quota} (no window announced)` : `a policy of ${quota} per ${windowS} s`;
}

/** Most requests a policy of `quota` per `windowS` admits within `elapsedMs`: a fixed window's boundary may fall inside. */
function admitsAtMost(quota: number, windowS: number, elapsedMs: number): number {
  return quota * (Math.max(1, Math.ceil(elapsedMs / (windowS * 1000))) + 1);
}

/** Whether `sent` requests in `elapsedMs` are more than the announced policy admits (unknown window: 2 × quota). */
export function exceedsAnnounced(quota: number, windowS: number | undefined, sent: number, elapsedMs: number): boolean {
  return windowS === undefined || windowS <= 0 ? sent > 2 * quota : sent > admitsAtMost(quota, windowS, elapsedMs);
}

/** Words for a failure message: "sent 1000 requests in 812 ms (200 ×1000)". */
export function describeBurst(burst: Pick<JudgedBurst, 'sent' | 'elapsedMs' | 'statuses'>): string {
  const statuses = Object.entries(burst.statuses).map(([status, n]) => `${status} ×${n}`).join(', ');
  return `sent ${burst.sent} requests in ${burst.elapsedMs} ms (${statuses})`;
}
