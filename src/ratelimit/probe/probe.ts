/**
 * `probeRateLimit`: bounded traffic that discovers a limit. Never more than budgetRequests, never longer than
 * budgetSeconds, never faster than maxRps (pacer.ts). The steps:
 * 1. burst at maxRps until the first 429 (none within the budget: "no limit observed up to N req/s");
 * 2. one request with the second credential while the first is throttled (isolation);
 * 3. watch for recovery with spaced requests (a fraction of the claimed window apart, one of them exactly at
 *    the first 429's Retry-After); whenever one is admitted, send a run at full pace until RUN_BREAK 429s. The
 *    first run pauses once after a third of the first burst, so a sliding window's replay shows (estimate.ts);
 * 4. stop as soon as the estimate is complete, or when a window-shaped trace will show nothing more.
 * Header claims only place the samples; every number in the estimate comes from admissions.
 */
import { parseRetryAfter } from '../../http/retry-after.ts';
import { readRateLimit } from '../headers.ts';
import { claimedPolicy, compareHeaderClaims, contradiction, HeaderClaimsRecorder, withConfiguredPolicy } from './claims.ts';
import { estimate, type EstimateOptions } from './estimate.ts';
import { createPacer } from './pacer.ts';
import { analyseRecovery } from './recovery.ts';
import { RUN_BREAK } from './runs.ts';
import type { ClaimedPolicy, Estimate, IsolationFinding, ProbeOptions, ProbeResult, ProbeTiming, Sample, SampleCredential, SamplePhase } from './types.ts';

/** Watch spacing: this fraction of the claimed window (else of 2 s), at most MAX_WATCH_MS. */
const WATCH_SHARE = 1 / 80;
const MAX_WATCH_MS = 100;
const DEFAULT_WINDOW_MS = 2000;
/** How `stoppedBy` begins when a request got no HTTP response: the job calls the target lost (exit 3). */
export const TRANSPORT_STOP = 'transport error: ';

export async function probeRateLimit(options: ProbeOptions): Promise<ProbeResult> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => abortableSleep(ms, options.signal));
  const style = options.style ?? 'auto';
  const pacer = createPacer({ maxRps: options.maxRps, budgetRequests: options.budgetRequests, budgetSeconds: options.budgetSeconds, now, sleep, ...(options.signal ? { signal: options.signal } : {}) });
  const start = pacer.startedAt;
  const samples: Sample[] = [];
  let claimed: ClaimedPolicy = { headerStyle: 'none', findings: [] };
  // Every header family the target sends, read on every response: what each claims is compared at the end.
  const headerClaims = new HeaderClaimsRecorder();
  let stoppedBy: string | undefined;

  async function send(credential: SampleCredential, phase: SamplePhase, at?: number): Promise<Sample | undefined> {
    if (stoppedBy) return undefined;
    const sentAt = await pacer.slot(at);
    if (sentAt === undefined) {
      stoppedBy = pacer.exhausted ?? 'budget';
      return undefined;
    }
    const bearer = credential === 'primary' ? options.credential : options.secondCredential;
    const lagMs = pacer.lastLagMs;
    let res: { status: number; headers: Record<string, string> };
    try {
      res = await options.http.request({
        method: 'GET',
        path: options.path ?? '/v1/whatsapp/messages',
        query: options.query ?? { limit: 1 },
        ...(bearer !== undefined ? { bearer } : {}),
        retryOn429: false,
      });
    } catch (err) {
      stoppedBy = `${TRANSPORT_STOP}${err instanceof Error ? err.message : String(err)}`;
      return undefined;
    }
    const clock = now();
    const rttMs = Math.max(0, clock - sentAt);
    options.onTiming?.(rttMs, lagMs);
    if (samples.length === 0) claimed = withConfiguredPolicy(claimedPolicy(res.headers, style, clock), options.policy);
    const reading = readRateLimit(res.headers, style, clock);
    const sample: Sample = { t: sentAt - start, credential, phase, status: res.status, admitted: res.status !== 429, rttMs: round2(rttMs), lagMs: round2(lagMs) };
    if (reading.remaining !== undefined) sample.remaining = reading.remaining;
    if (res.status === 429) {
      const retryAfter = parseRetryAfter(headerOf(res.headers, 'retry-after'), clock);
      if (retryAfter !== undefined) sample.retryAfterS = retryAfter;
      else if (reading.resetS !== undefined) {
        sample.retryAfterS = reading.resetS;
        sample.retryAfterFromReset = true;
      }
    }
    headerClaims.observe(res.headers, res.status, clock);
    samples.push(sample);
    return sample;
  }

  // 1. The first burst.
  let first429: Sample | undefined;
  while (!first429) {
    const sample = await send('primary', 'burst');
    if (!sample) break;
    if (!sample.admitted) first429 = sample;
  }
  // Rate of the first burst: n sends span n − 1 intervals.
  const burstSpanMs = (samples.at(-1)?.t ?? 0) - (samples[0]?.t ?? 0);
  const peakRps = samples.length > 1 && burstSpanMs > 0 ? Math.round(((samples.length - 1) / burstSpanMs) * 1000 * 10) / 10 : 0;
  if (!first429) return withHeaderClaims(finish(samples, claimed, stoppedBy ?? 'budget', start, now(), peakRps, options, 'unknown', 'not observed: no request was answered 429'), headerClaims);

  // 2. Isolation, while the primary credential is throttled.
  if (options.secondCredential !== undefined) await send('second', 'isolation');

  // 3. Watch and runs.
  const claimedWindowMs = claimed.windowS !== undefined ? claimed.windowS * 1000 : undefined;
  const watchMs = Math.max(pacer.intervalMs, Math.min(MAX_WATCH_MS, (claimedWindowMs ?? DEFAULT_WINDOW_MS) * WATCH_SHARE));
  const estimateOptions: EstimateOptions = { minPauseMs: 3 * watchMs };
  let exactAt = first429.retryAfterS !== undefined && !first429.retryAfterFromReset ? start + first429.t + first429.retryAfterS * 1000 + 5 : undefined;
  const lockoutMs = 2 * Math.max(first429.retryAfterS ?? 0, claimed.windowS ?? 0) * 1000;
  let lastSend = start + first429.t;
  let runs = 0;
  let pauseMs = 0;
  let lastRunEnd = lastSend;
  let current: Estimate | undefined;
  let throttledConsume: ProbeResult['throttledConsume'] = 'unknown';
  let throttledConsumeNote = 'not observed: the probe stopped before the key recovered';

  while (!stoppedBy) {
    let at = lastSend + watchMs;
    if (exactAt !== undefined && exactAt <= at) {
      at = exactAt;
      exactAt = undefined;
    }
    // Never recovered while probed: does silence let it recover? (Then throttled requests use quota up.)
    if (runs === 0 && lockoutMs > 0 && at - (start + first429.t) > lockoutMs) {
      const silentAt = now() + Math.max(first429.retryAfterS ?? 0, claimed.windowS ?? 0) * 1000 + 5;
      if (!pacer.fits(silentAt)) break;
      const silent = await send('primary', 'silent-wait', silentAt);
      // Admitted after the silence: throttled requests may have used the quota up, but a window that turned over
      // during the silence explains it as well (the window is not known here), so the probe does not say "yes".
      const watchedS = round2((lastSend - (start + first429.t)) / 1000);
      throttledConsumeNote = silent?.admitted
        ? `not established: no recovery during ${watchedS} s of throttled requests, then admitted after ${round2((silentAt - lastSend) / 1000)} s of silence — `
          + 'a window boundary within the silence would explain that as well as throttled requests using the quota'
        : `not established: no recovery during ${watchedS} s of throttled requests${silent ? ', nor after a silent wait' : ''}`;
      stoppedBy ??= 'no recovery while probed';
      break;
    }
    const sample = await send('primary', 'watch', at);
    if (!sample) break;
    lastSend = start + sample.t;
    if (!sample.admitted) {
      // A window-shaped trace after two runs shows nothing more once the sliding replay's pause is over.
      if (runs >= 2 && current?.algorithm !== 'token-bucket' && now() - lastRunEnd > pauseMs + 0.25 * (claimedWindowMs ?? DEFAULT_WINDOW_MS) + 4 * watchMs) {
        stoppedBy = 'complete';
      }
      continue;
    }
    if (runs === 0 && samples.some((s) => s.phase === 'watch' && !s.admitted)) {
      // Recovery came while throttled requests kept arriving: they did not hold it off.
      const throttled = samples.filter((s) => s.credential === 'primary' && !s.admitted && s.t < sample.t).length;
      throttledConsume = 'no';
      throttledConsumeNote = `admitted again ${round2((sample.t - first429.t) / 1000)} s after the first 429 while ${throttled} throttled requests kept arriving`;
    } else if (runs === 0) {
      // The first watch came late enough (a slowed sender) to be admitted at once: no throttled request arrived
      // between the burst and the recovery, so nothing shows whether they would have held it off.
      throttledConsumeNote = `not observed: the first request after the burst's 429s (${round2((sample.t - first429.t) / 1000)} s after the first) was admitted already`;
    }
    // A run at full pace; the first pauses once (sliding-window signature) when the window leaves room for it.
    const b1 = samples.filter((s) => s.phase === 'burst' && s.admitted).length;
    let pauseAfter: number | undefined;
    if (runs === 0 && b1 >= 6) {
      // The window as far as observed: recovery came no later than one window after the first 429 (fixed window:
      // at the next boundary; sliding: one window after the burst began; bucket: at once). A claimed window longer
      // than that (a header that overstates it) must not stretch the pause past the real window's end, or the run
      // counts two windows' admissions and shows no shape.
      const windowGuess = Math.min(claimedWindowMs ?? Infinity, sample.t - first429.t);
      const pause = windowGuess / 5;
      if (b1 * pacer.intervalMs + pause < 0.8 * windowGuess && pause >= 4 * watchMs) {
        pauseAfter = Math.max(2, Math.floor(b1 / 3));
        pauseMs = pause;
      }
    }
    let admitted = 1;
    let throttledInRow = 0;
    let paused = false;
    while (throttledInRow < RUN_BREAK) {
      let runAt: number | undefined;
      if (pauseAfter !== undefined && !paused && admitted >= pauseAfter) {
        paused = true;
        runAt = now() + pauseMs;
      }
      const next = await send('primary', 'run', runAt);
      if (!next) break;
      lastSend = start + next.t;
      if (next.admitted) {
        admitted += 1;
        throttledInRow = 0;
      } else throttledInRow += 1;
    }
    runs += 1;
    lastRunEnd = now();
    current = estimate(samples, estimateOptions);
    if (current.complete) stoppedBy = 'complete';
    else if (runs >= 3 && current.algorithm !== 'token-bucket') stoppedBy = 'complete';
  }
  return withHeaderClaims(finish(samples, claimed, stoppedBy ?? pacer.exhausted ?? 'budget', start, now(), peakRps, options, throttledConsume, throttledConsumeNote, estimateOptions), headerClaims);
}

function withHeaderClaims(result: ProbeResult, recorder: HeaderClaimsRecorder): ProbeResult {
  const claims = recorder.claims();
  return claims.length > 0 ? { ...result, headerClaims: compareHeaderClaims(claims, result) } : result;
}

function finish(
  samples: Sample[],
  claimed: ClaimedPolicy,
  stoppedBy: string,
  start: number,
  end: number,
  peakRps: number,
  options: ProbeOptions,
  throttledConsume: ProbeResult['throttledConsume'],
  throttledConsumeNote: string,
  estimateOptions: EstimateOptions = {},
): ProbeResult {
  const result = estimate(samples, estimateOptions);
  const elapsedS = Math.round((end - start) / 10) / 100;
  const contradicted = contradiction(samples, claimed);
  return {
    claimed,
    estimate: result,
    retryAfter: analyseRecovery(samples),
    isolation: isolationOf(samples, options),
    throttledConsume,
    ...(result.limited ? {} : { noLimitNote: `no limit observed up to ${peakRps} req/s (${samples.length} requests in ${elapsedS} s)` }),
    ...(contradicted ? { contradiction: contradicted } : {}),
    stoppedBy,
    requests: samples.length,
    elapsedS,
    peakRps,
    budget: { requests: options.budgetRequests, seconds: options.budgetSeconds },
    timing: timingOf(samples),
    throttledConsumeNote,
    samples,
  };
}

/** The probe's own timing: round trips and send lag of its requests (ProbeTiming). */
export function timingOf(samples: readonly Sample[]): ProbeTiming {
  const rtt = samples.map((s) => s.rttMs).filter((v): v is number => v !== undefined).sort((a, b) => a - b);
  const lag = samples.map((s) => s.lagMs).filter((v): v is number => v !== undefined).sort((a, b) => a - b);
  const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
  const rttP99Ms = rtt.length ? at(rtt, 0.99) : undefined;
  return {
    ...(rtt.length ? { rttP50Ms: at(rtt, 0.5), rttP99Ms, rttMaxMs: rtt.at(-1)! } : {}),
    ...(lag.length ? { lagP99Ms: at(lag, 0.99), lagMaxMs: lag.at(-1)! } : {}),
    // The worst, not a percentile: a judgement may rest on the one late request a percentile leaves out.
    uncertaintyMs: rtt.at(-1) ?? 0,
  };
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

function isolationOf(samples: Sample[], options: ProbeOptions): IsolationFinding {
  const second = samples.find((s) => s.credential === 'second');
  if (options.secondCredential === undefined) return { tested: false, detail: 'not tested: no second credential was given' };
  if (!second) return { tested: false, detail: 'not tested: the first credential was never throttled' };
  if (!second.admitted) {
    return { tested: true, perCredential: false, detail: 'the first credential was throttled, and the second one was answered 429 too: they share a limit' };
  }
  const remaining = second.remaining !== undefined ? `, remaining ${second.remaining}` : '';
  return { tested: true, perCredential: true, detail: `the first credential was throttled; the second one was still answered ${second.status}${remaining}` };
}

function headerOf(headers: Record<string, string>, lower: string): string | undefined {
  if (headers[lower] !== undefined) return headers[lower];
  for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() === lower) return value;
  return undefined;
}

/** setTimeout that ends early on an interruption, so a long recovery wait does not hold the partial report back. */
function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
