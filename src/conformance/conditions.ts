/**
 * The run's own conditions, measured while it runs: how late this process's event loop ran (a stall delays every
 * timestamp the harness takes and every request it sends), the round-trip times of its requests to the target,
 * and its own send lag where it schedules sends (the rate-limit probe's pacer). A judgement that reads time takes
 * its tolerance from these numbers — for the stretch of the run it judges, not for the whole run — so a loaded
 * runner widens the tolerance (or makes the answer "could not decide") instead of turning into a finding about
 * the target. The whole-run figures go to report.json's `conditions`.
 *
 * One concern only: measuring. What a check concludes from the numbers stays in the check.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/** Percentiles of a set of durations, milliseconds. */
export interface Percentiles {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** What the run measured about itself over a stretch of time (report.json `conditions`, and in check messages). */
export interface ConditionsSnapshot {
  /** Length of the stretch, ms. */
  spanMs: number;
  /**
   * How late the event loop ran a timer meant to fire every SAMPLE_MS ms (ms beyond the interval): a stall of the
   * harness's own process. Absent when the stretch was too short for one sample.
   */
  loopDelayMs?: Percentiles;
  /** Round trips of the harness's requests to the target (request sent → response read), ms. */
  rttMs?: Percentiles;
  /** How much later than scheduled the harness sent the requests it schedules (the probe's pacer), ms. */
  sendLagMs?: Percentiles;
}

/** The loop-delay sampler's period. A 20 ms timer costs nothing measurable and still shows a 30 ms stall. */
const SAMPLE_MS = 20;
/** A stall shows in the sampler once it ends: readings this long after a stretch still belong to it. */
const STALL_READ_MS = 2 * SAMPLE_MS + 10;
/** Readings kept per series (a ring): at 20 ms, loop delay covers the last 10 minutes; RTTs the last 20 000. */
const RING = 30_000;

/** A bounded series of (monotonic time, value) readings. */
class Ring {
  readonly #t = new Float64Array(RING);
  readonly #v = new Float64Array(RING);
  #n = 0;

  push(t: number, v: number): void {
    const i = this.#n % RING;
    this.#t[i] = t;
    this.#v[i] = v;
    this.#n++;
  }

  /** Values read within [from, to] (monotonic ms). */
  between(from: number, to: number): number[] {
    const out: number[] = [];
    const kept = Math.min(this.#n, RING);
    for (let k = 0; k < kept; k++) {
      const i = (this.#n - kept + k) % RING;
      if (this.#t[i]! >= from && this.#t[i]! <= to) out.push(this.#v[i]!);
    }
    return out;
  }
}

export class RunConditions {
  readonly #loop = new Ring();
  readonly #rtt = new Ring();
  readonly #lag = new Ring();
  readonly #startedAt = performance.now();
  #timer: NodeJS.Timeout | undefined;
  #histogram: IntervalHistogram | undefined;

  /** Starts measuring the event loop (the job calls it once before any traffic; unref'd: it never holds the process). */
  start(): this {
    if (this.#timer) return this;
    let expected = performance.now() + SAMPLE_MS;
    this.#timer = setInterval(() => {
      const now = performance.now();
      this.#loop.push(now, Math.max(0, now - expected));
      expected = now + SAMPLE_MS;
    }, SAMPLE_MS);
    this.#timer.unref();
    // Node's own sampler for the whole-run distribution (finer resolution than ours; it cannot be read by window).
    this.#histogram = monitorEventLoopDelay({ resolution: 10 });
    this.#histogram.enable();
    return this;
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#histogram?.disable();
  }

  /** Monotonic "now" in the same clock as the marks: `since(mark())` later reads the stretch from here. */
  mark(): number {
    return performance.now();
  }

  recordRoundTrip(ms: number): void {
    if (Number.isFinite(ms) && ms >= 0) this.#rtt.push(performance.now(), ms);
  }

  recordSendLag(ms: number): void {
    if (Number.isFinite(ms)) this.#lag.push(performance.now(), Math.max(0, ms));
  }

  /** The conditions of the stretch from `from` (a mark) until now. */
  since(from: number): ConditionsSnapshot {
    return this.between(from, performance.now());
  }

  /**
   * The conditions of the stretch [from, to] (marks). A stall is recorded when it ends, so readings up to
   * STALL_READ_MS after `to` count too: a timestamp taken at `to` may have been late because of that stall.
   */
  between(from: number, to: number): ConditionsSnapshot {
    const end = to + STALL_READ_MS;
    const pick = (ring: Ring) => ring.between(from, end);
    return withSeries(round(Math.max(0, to - from)), pick(this.#loop), pick(this.#rtt), pick(this.#lag));
  }

  /** The mark (monotonic ms) of a wall-clock time (Date.now()), for timestamps other code took with Date.now. */
  markOfWallClock(epochMs: number): number {
    return epochMs - performance.timeOrigin;
  }

  /** The whole run so far (report.json `conditions`); loop delay from Node's monitorEventLoopDelay when running. */
  snapshot(): ConditionsSnapshot {
    const whole = this.since(this.#startedAt);
    const h = this.#histogram;
    if (!h || h.count === 0) return whole;
    // monitorEventLoopDelay reports the whole delay in ns, its own resolution included: subtract it, as ours does.
    const ms = (ns: number) => round(Math.max(0, ns / 1e6 - 10));
    return { ...whole, loopDelayMs: { count: h.count, p50: ms(h.percentile(50)), p90: ms(h.percentile(90)), p99: ms(h.percentile(99)), max: ms(h.max) } };
  }
}

function withSeries(spanMs: number, loop: number[], rtt: number[], lag: number[]): ConditionsSnapshot {
  return {
    spanMs,
    ...(loop.length ? { loopDelayMs: percentiles(loop) } : {}),
    ...(rtt.length ? { rttMs: percentiles(rtt) } : {}),
    ...(lag.length ? { sendLagMs: percentiles(lag) } : {}),
  };
}

export function percentiles(values: readonly number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
  return { count: sorted.length, p50: round(at(0.5)), p90: round(at(0.9)), p99: round(at(0.99)), max: round(sorted.at(-1) ?? 0) };
}

/**
 * How far one timestamp the harness takes during the stretch can be from the instant it stands for: the longest
 * stall of its event loop there (a timestamp taken in a stalled loop is late by up to that much), plus the spread of
 * its round trips (p99 − p50: how much the time between the target acting and the harness seeing it varied). The
 * difference of two such timestamps is uncertain by twice this; a difference of two gaps (three timestamps, the
 * middle one counted twice) by four times (see uncertaintyOfGapChangeMs). An event the timestamp stands for that
 * passed `turns` event-loop turns before it was taken (a request sent, written and read) is late by up to that many
 * stalls.
 */
export function timestampUncertaintyMs(s: ConditionsSnapshot, turns = 1): number {
  const stall = s.loopDelayMs?.max ?? 0;
  const spread = s.rttMs ? s.rttMs.p99 - s.rttMs.p50 : 0;
  return round(turns * stall + spread);
}

/**
 * Uncertainty of (gap₂ − gap₁) where the gaps are between three timestamps t₁ t₂ t₃ taken by the harness: each is
 * late by 0 … e, so gap₂ − gap₁ = t₃ − 2t₂ + t₁ is off by at most 2e either way.
 */
export function uncertaintyOfGapChangeMs(s: ConditionsSnapshot): number {
  return round(2 * timestampUncertaintyMs(s));
}

/** "event-loop stalls up to 12 ms (p99 4 ms); round trips p50 1.2 ms, p99 3.8 ms (140 requests); send lag p99 2 ms". */
export function describeConditions(s: ConditionsSnapshot): string {
  const parts: string[] = [];
  parts.push(s.loopDelayMs ? `event-loop stalls up to ${s.loopDelayMs.max} ms (p99 ${s.loopDelayMs.p99} ms)` : 'event-loop delay not sampled');
  if (s.rttMs) parts.push(`round trips p50 ${s.rttMs.p50} ms, p99 ${s.rttMs.p99} ms (${s.rttMs.count} requests)`);
  if (s.sendLagMs) parts.push(`send lag p99 ${s.sendLagMs.p99} ms, max ${s.sendLagMs.max} ms`);
  return `${parts.join('; ')} over ${round(s.spanMs / 1000)} s`;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
