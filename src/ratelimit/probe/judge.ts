/**
 * Claimed quota and window against what the probe observed, with the observation's own uncertainty. The probe
 * places each request at the target by its send time, which is right within that request's own round trip (the
 * target saw it somewhere between send and answer), and it notices a recovery only at its next watch request.
 * Every tolerance below is the worst lateness measured on the very requests it relies on (their round trips),
 * never a percentile of all of them: one late request among hundreds is exactly the one a percentile drops. So an observed
 * window is an interval, not a number; an observed quota is a clean count only when the run that counted it ended
 * well inside one window (a run stretched by a stalled sender spans a boundary and counts two windows' admissions).
 *
 * The decision: the claim matches when it is within ±tolerance of every value the interval allows, differs when it
 * is within ±tolerance of none, and is undecidable otherwise (the measured uncertainty covers the difference).
 */
import { cutRuns, pauseIn, primarySamples, type Run } from './runs.ts';
import type { ProbeResult } from './types.ts';

/** Claims within this share of the observation are "matching". */
export const CLAIM_TOLERANCE = 0.1;

export interface Observed {
  /** The point estimate (what the estimator reported). */
  value: number;
  /** Every value the measurement allows. */
  low: number;
  high: number;
  /** How the interval was derived, in words (with the measured numbers). */
  how: string;
}

export type Judgement =
  | { outcome: 'matches' | 'differs'; observed: Observed; deviation: number }
  | { outcome: 'undecidable'; observed?: Observed; reason: string };

/** Whether `claimed` is within ±CLAIM_TOLERANCE of all, none or some of the values in [low, high]. */
export function judgeClaim(claimed: number, observed: Observed): Judgement {
  // claimed within ±t of w  ⇔  w ∈ [claimed / (1 + t), claimed / (1 − t)]
  const lo = claimed / (1 + CLAIM_TOLERANCE);
  const hi = claimed / (1 - CLAIM_TOLERANCE);
  const deviation = observed.value === 0 ? Infinity : (claimed - observed.value) / observed.value;
  if (observed.low >= lo && observed.high <= hi) return { outcome: 'matches', observed, deviation };
  if (observed.high < lo || observed.low > hi) return { outcome: 'differs', observed, deviation };
  return {
    outcome: 'undecidable',
    observed,
    reason: `the claim (${claimed}) is within ±${CLAIM_TOLERANCE * 100}% of some but not all of the values the measurement allows (${observed.low} … ${observed.high}: ${observed.how})`,
  };
}

/** The observed window as an interval, or why the probe's trace cannot give one. */
export function observedWindow(result: ProbeResult): Observed | string {
  const est = result.estimate;
  if (est.windowS === undefined || est.algorithm === 'unknown') {
    return `the probe did not establish the window (${est.reasons.at(-1) ?? 'no recovery observed'}; ${paceOf(result)}; stopped by ${result.stoppedBy} after ${result.requests} of ${result.budget.requests} requests in ${result.elapsedS} of ${result.budget.seconds} s)`;
  }
  const runs = cutRuns(result.samples);
  if (est.algorithm === 'token-bucket') {
    // burst / refill: the refill slope over the recovery admissions' span is off by the first and the last
    // admission's lateness over that span.
    const times = runs.recovery.flatMap((run) => run.times);
    const spanMs = times.length > 1 ? times.at(-1)! - times[0]! : 0;
    const late = times.length > 1 ? latenessMs(result, [times[0]!]) + latenessMs(result, [times.at(-1)!]) : 0;
    if (spanMs <= late) return `the recovery admissions span ${round(spanMs)} ms, no more than the first and the last one's round trips together (${round(late)} ms): the refill rate is not measurable`;
    const paced = paceLimited(result, times) ?? mostlyRefill(result, runs);
    if (paced) return paced;
    const rel = late / spanMs;
    return { value: est.windowS, low: round(est.windowS / (1 + rel)), high: round(est.windowS / Math.max(1e-9, 1 - rel)), how: `refill slope over ${round(spanMs)} ms, its ends placed within their round trips (${round(late)} ms together)` };
  }
  const [r1, r2] = runs.recovery;
  if (!r1 || !r2) return 'the probe observed fewer than two recoveries';
  const windows = windowsPerRun(result, [r1, r2], est.windowS * 1000);
  if (typeof windows === 'string') return windows;
  // Recovery i happened after the target saw the request before run i (no earlier than that request's send time)
  // and no later than the target saw the run's first admission (its send time plus its own round trip).
  const lead1 = r1.start - previousSend(result, r1);
  const lead2 = r2.start - previousSend(result, r2);
  const late1 = latenessMs(result, [r1.start]);
  const late2 = latenessMs(result, [r2.start]);
  const w = (r2.start - r1.start) / 1000;
  return {
    value: est.windowS,
    // A run that may have crossed k − 1 boundaries puts its recoveries up to k windows apart.
    low: round((w - (lead2 + late1) / 1000) / windows.k),
    high: round(w + (lead1 + late2) / 1000),
    how: `recoveries noticed within ${round(lead1)} ms and ${round(lead2)} ms of happening, the admissions that showed them answered within ${round(late1)} ms and ${round(late2)} ms${windows.how}`,
  };
}

/** The observed quota as an interval, or why the probe's trace cannot give one. */
export function observedQuota(result: ProbeResult): Observed | string {
  const est = result.estimate;
  if (est.quota === undefined || est.algorithm === 'unknown') {
    // A count of admissions is a quota only once the algorithm says which count it is (a recovery run of an
    // unidentified policy may be a partial refill): then "N enforced" would say more than was measured.
    return `the probe did not establish the policy's shape, so no count of admissions is known to be the quota (${est.reasons.join('; ')}; ${paceOf(result)}; `
      + `stopped by ${result.stoppedBy} after ${result.requests} of ${result.budget.requests} requests in ${result.elapsedS} of ${result.budget.seconds} s)`;
  }
  if (est.algorithm === 'token-bucket') {
    const runs = cutRuns(result.samples);
    const paced = paceLimited(result, runs.recovery.flatMap((run) => run.times)) ?? mostlyRefill(result, runs);
    if (paced) return paced;
    // burst = B1 − refill × (first burst's duration): the duration is known within its ends' round trips.
    const burst = primarySamples(result.samples).filter((s) => s.phase === 'burst');
    const late = burst.length > 0 ? latenessMs(result, [burst[0]!.t]) + latenessMs(result, [burst.at(-1)!.t]) : result.timing.uncertaintyMs;
    // A bucket holds whole tokens: the bounds are the whole numbers within the refill's uncertainty and one request.
    const slack = ((est.refillPerS ?? 0) * late) / 1000 + 1;
    return { value: est.quota, low: Math.max(1, Math.ceil(est.quota - slack)), high: Math.floor(est.quota + slack), how: `first burst minus its refill, refill ${est.refillPerS}/s × ±${round(late)} ms (its ends' round trips), ±1 request` };
  }
  // Window algorithms: the count stands only if the runs that made it were quick against the window.
  const windowMs = (est.windowS ?? 0) * 1000;
  const counted = cutRuns(result.samples).recovery.slice(0, 2);
  const windows = windowsPerRun(result, counted, windowMs);
  if (typeof windows === 'string') return windows;
  const spanMs = Math.max(0, ...counted.map(activeSpanMs));
  // A count over k windows is k quotas at most: the quota is at least count / k.
  return {
    value: est.quota,
    low: Math.ceil(est.quota / windows.k),
    high: est.quota,
    how: `the longest counting run took ${round(spanMs)} ms of the ${round(windowMs)} ms observed, its requests answered within ${round(latenessMs(result, counted.flatMap((run) => run.sendTimes)))} ms${windows.how}`,
  };
}

/**
 * How many windows a recovery run may have spanned. A run that kept being admitted past a window boundary counts
 * two windows' quota and puts the next recovery two windows later — so the observed window W could be k true
 * windows. A run crossed k − 1 boundaries only if it lasted (k − 1) true windows: with its span s (deliberate pause
 * aside), the lead before its first admission and the send-time uncertainty u, (k − 1)·W/k ≤ s + lead + u. kMax is
 * the largest such k; past 10 (a run as long as the window itself) nothing is measured.
 */
function windowsPerRun(result: ProbeResult, runs: readonly Run[], windowMs: number): { k: number; how: string } | string {
  let k = 1;
  let slowest: { run: Run; spanMs: number; late: number } | undefined;
  for (const run of runs) {
    const spanMs = activeSpanMs(run);
    // The run's requests reached the target up to their own round trips after their send times.
    const late = latenessMs(result, run.sendTimes);
    const ratio = windowMs > 0 ? (spanMs + (run.start - previousSend(result, run)) + late) / windowMs : Infinity;
    const kRun = ratio >= 1 ? Infinity : Math.floor(1 / (1 - ratio));
    if (kRun > k) {
      k = kRun;
      slowest = { run, spanMs, late };
    }
  }
  const t = result.timing;
  const pace = `round trips p50 ${t.rttP50Ms ?? '?'} ms, p99 ${t.rttP99Ms ?? '?'} ms; send lag max ${t.lagMaxMs ?? '?'} ms`;
  if (k > 10) {
    return `a recovery run took ${round(slowest!.spanMs)} ms (pause aside; its requests answered within ${round(slowest!.late)} ms) to be admitted ${slowest!.run.size} times, about as long as the `
      + `observed window (${round(windowMs)} ms; ${pace}): it may have crossed window boundaries, so neither its count nor the spacing of recoveries is one window's`;
  }
  if (k === 1) return { k, how: '' };
  return { k, how: `; a recovery run took ${round(slowest!.spanMs)} ms for ${slowest!.run.size} admissions (${pace}), so it may have spanned up to ${k} windows` };
}

/**
 * A refill rate is the target's only if the probe asked faster than it was admitted: over the recovery admissions'
 * span, at least twice as many requests sent as admitted. A sender slowed by this run's conditions to about the
 * policy's own rate sees admissions follow its own pace, a token at a time, whatever the policy.
 */
function paceLimited(result: ProbeResult, times: readonly number[]): string | undefined {
  if (times.length < 2) return undefined;
  const from = times[0]!;
  const to = times.at(-1)!;
  const sent = primarySamples(result.samples).filter((s) => s.t >= from && s.t <= to).length;
  if (sent >= 2 * times.length) return undefined;
  const spanS = (to - from) / 1000;
  return `the recovery admissions (${times.length} in ${round(spanS)} s) came from only ${sent} requests sent meanwhile: the probe asked at about `
    + `the rate it was admitted (${round(sent / spanS)}/s; round trips p50 ${result.timing.rttP50Ms ?? '?'} ms, p99 ${result.timing.rttP99Ms ?? '?'} ms), `
    + 'so the admissions may follow its own pace rather than a refill';
}

/**
 * A bucket's size is the first burst less what refilled while it was sent: a difference that measures the bucket
 * only if the burst outran the refill. When the refill over the first burst's duration could account for half its
 * admissions or more (a probe slowed to about twice the refill rate or less), the difference is mostly the error of
 * the refill estimate, not the bucket (a burst of 1 that is really a sender's pace).
 */
function mostlyRefill(result: ProbeResult, runs: ReturnType<typeof cutRuns>): string | undefined {
  const est = result.estimate;
  if (!est.refillPerS || runs.first429 === undefined) return undefined;
  const durationS = (runs.first429 - runs.first.start) / 1000;
  const refilled = est.refillPerS * durationS;
  if (refilled < est.firstBurst / 2) return undefined;
  return `the first burst was sent at ${round(est.firstBurst / Math.max(durationS, 1e-3))}/s (${est.firstBurst} admitted in ${round(durationS)} s), no more than twice `
    + `the refill rate (${est.refillPerS}/s): about ${Math.round(refilled)} of its admissions may be refill, so the bucket's size is not measured`;
}

/** A run's span without its deliberate pause (the probe pauses the first run once, on purpose). */
function activeSpanMs(run: Run): number {
  return run.end - run.start - (pauseIn(run, 0)?.ms ?? 0);
}

/**
 * How fast the probe's first recovery run actually went: a run slowed by long round trips (a loaded sender or
 * target) can outlast the window, and then its count mixes windows — the measured reason a shape stays unknown.
 */
function paceOf(result: ProbeResult): string {
  const r1 = cutRuns(result.samples).recovery[0];
  const t = result.timing;
  const rtt = `round trips p50 ${t.rttP50Ms ?? '?'} ms, p99 ${t.rttP99Ms ?? '?'} ms`;
  if (!r1 || r1.size < 2) return rtt;
  return `the first recovery run took ${round(r1.end - r1.start)} ms for ${r1.size} admissions (${rtt})`;
}

/**
 * The worst lateness measured on the requests sent at `times`: the longest of their round trips (the target saw
 * each somewhere within it). A request without a measured round trip counts as the run's slowest.
 */
function latenessMs(result: ProbeResult, times: readonly number[]): number {
  const wanted = new Set(times);
  let worst = 0;
  for (const s of primarySamples(result.samples)) {
    if (!wanted.has(s.t)) continue;
    worst = Math.max(worst, s.rttMs ?? result.timing.uncertaintyMs);
  }
  return worst;
}

function previousSend(result: ProbeResult, run: Run): number {
  const before = primarySamples(result.samples).filter((s) => s.t < run.start);
  return before.at(-1)?.t ?? run.start;
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
