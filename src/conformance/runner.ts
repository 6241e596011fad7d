/**
 * Runs the selected suites' checks one after another (checks share a target and its rate limit, so running
 * them in parallel would make them interfere) — except a check that mostly waits and names the suites it may run
 * beside (`Check.besideSuites`, beside.ts). Each check gets its own exchange log, a deadline, and a result whose
 * message and evidence are redacted before anyone sees them (evidence.ts); results come back in the suites' order.
 */
import { TargetLostError } from '../errors/harness-errors.ts';
import { UnsendableRequestError } from '../http/client.ts';
import { withAbortSignal } from '../http/deadline.ts';
import { recordInto, type Exchange } from '../http/exchange.ts';
import { RateLimitedError, runMetered, type WaitMeter } from '../http/polite-wait.ts';
import type { SecretRegistry } from '../http/redact.ts';
import { BesideLane, overlapMs, planBeside, type Span } from './beside.ts';
import type { PendingRecovery } from './recoveries.ts';
import { checkBudgetMs, describeBudget, MAX_WAIT_EXTENSION } from './budget.ts';
import type { Check } from './check.ts';
import { withDescribeKeys } from './describe-keys.ts';
import { CheckFailure, CheckSkipped, CheckUndecided, CheckVacuous } from './outcomes.ts';
import type { CheckContext } from './context.ts';
import type { Suite } from './registry.ts';
import type { CheckResult, Evidence } from './result.ts';
import type { CheckEventSink } from './check-events.ts';
import { evidenceOf } from './evidence.ts';

export interface RunChecksOptions {
  suites: readonly Suite[];
  ctx: CheckContext;
  /** Where the run's check events go (the job hands in its event bus). */
  bus: CheckEventSink;
  skipChecks?: ReadonlySet<string>;
  /**
   * Upper bound for one check, raised for checks that declare many requests against a small quota (budget.ts);
   * when it passes, the check's requests are aborted.
   */
  checkTimeoutMs: number;
  /** Stops the run (Ctrl-C): the running check's requests are aborted, results so far are kept. */
  signal?: AbortSignal;
  /**
   * Requests in a row without an HTTP response (refused, reset, timed out), spread over at least two checks,
   * after which the target counts as lost and the run stops. @default 5
   */
  maxConsecutiveFailures?: number;
  /** Called once when the target is lost; the run stops after the check that lost it. */
  onTargetLost?: (lost: TargetLostError) => void;
}

/** How long an aborted check gets to settle, so the exchanges it was making are recorded as evidence. */
const SETTLE_AFTER_ABORT_MS = 1000;

export async function runChecks(options: RunChecksOptions): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const streak = new FailureStreak(options.maxConsecutiveFailures ?? 5);
  const beside = planBeside(options.suites, options.skipChecks);
  const lane = new BesideLane();
  let lostAt: string | undefined;
  // Credentials left throttled recover before a check that needs them served (recoveries.ts), one at a time: at the
  // start of that check, in its scope (its exchanges, its deadline, its duration), not at the end of the check that
  // throttled them.
  let settling = Promise.resolve();
  const settle = (exhausts?: readonly PendingRecovery['credential'][], tagged = false): Promise<void> => {
    const due = options.ctx.recoveries.takeDue(exhausts);
    settling = settling.then(async () => {
      for (const recovery of due) await recover(recovery, options, tagged);
    });
    return settling;
  };
  // When each check ran, for the time checks beside others share with them (beside.ts overlapMs).
  const spans = new Map<string, Span>();
  const runAndRecord = async (check: Check): Promise<void> => {
    await options.bus.emit({ type: 'check-started', id: check.id, suite: check.suite, title: check.title });
    const { result, exchanges, span } = options.skipChecks?.has(check.id)
      ? { result: resultOf(check, 'skipped', 0, 'skipped by conformance.skipChecks'), exchanges: [], span: undefined }
      : await runOne(check, options, () => settle(check.exhausts));
    if (span) spans.set(check.id, span);
    const pointed = withDescribeKeys(result, options.ctx.config);
    results.push(pointed);
    await options.bus.emit({ type: 'check-finished', result: pointed });
    if (streak.add(check.id, exchanges)) {
      lostAt = check.id;
      options.onTargetLost?.(new TargetLostError(options.ctx.target.baseUrl, check.id, streak.count, options.ctx.secrets.redactText(streak.lastError)));
    }
  };
  try {
    for (const suite of options.suites) {
      if (options.signal?.aborted || streak.lost) break;
      // A check running beside earlier suites ends before a suite it did not name begins.
      await lane.joinFor(suite.name);
      if (options.signal?.aborted || streak.lost) break;
      await options.bus.emit({ type: 'suite-started', suite: suite.name, title: suite.title, checks: suite.checks.length });
      for (const check of beside.startAt(suite.name)) lane.start(check, () => runAndRecord(check));
      for (const check of suite.checks) {
        if (options.signal?.aborted || streak.lost) break;
        if (!beside.moved(check.id)) await runAndRecord(check);
      }
      await options.bus.emit({ type: 'suite-finished', suite: suite.name });
    }
  } finally {
    // However the run ends (an interruption aborts its requests), a check running beside ends before the results are final.
    await lane.joinAll();
  }
  // What follows the checks (run-end hooks, the load phase's webhook registration) finds every credential served.
  if (!options.signal?.aborted && !streak.lost) await settle(undefined, true);
  // Of a check that ran beside others, the time they ran too: counted once, in theirs (junit.xml).
  for (const [id, ms] of overlapMs(spans, beside.moved)) {
    const index = results.findIndex((r) => r.id === id);
    if (ms > 0 && index >= 0) results[index] = { ...results[index]!, besideMs: Math.min(results[index]!.durationMs, Math.round(ms * 10) / 10) };
  }
  // A lost target ends the run, but the checks it kept from running are still part of what was asked: each is in
  // the report (and junit.xml) as not run, so "TARGET LOST … MUST 1 not run" cannot hide 31 MUST checks that never
  // started. (An interruption is the user's choice and stays a partial report of what ran.)
  if (streak.lost && !options.signal?.aborted) {
    const ran = new Set(results.map((r) => r.id));
    for (const suite of options.suites) {
      for (const check of suite.checks) {
        if (!ran.has(check.id)) results.push(resultOf(check, 'skipped', 0, `not run: the target was lost during check ${lostAt ?? 'the first check'}`));
      }
    }
  }
  return inSuiteOrder(results, options.suites);
}

/** Results in the order of the suites' checks, whatever order they finished in (beside.ts). */
function inSuiteOrder(results: CheckResult[], suites: readonly Suite[]): CheckResult[] {
  const position = new Map(suites.flatMap((suite) => suite.checks).map((check, index) => [check.id, index]));
  return results.sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0));
}

/**
 * One pending recovery. At a check's start it runs in that check's scope; after the last check (`tagged`) in a
 * scope of its own, within the run's interruption, its exchanges joining the traffic log under the check that left
 * the credential throttled. One that fails leaves the credential as it is: the next request's polite client waits
 * for it, as it would for any 429.
 */
async function recover(recovery: PendingRecovery, options: RunChecksOptions, tagged: boolean): Promise<void> {
  if (options.signal?.aborted) return;
  if (!tagged) {
    await recovery.ensureServed().catch(() => undefined);
    return;
  }
  const exchanges: Exchange[] = [];
  try {
    await recordInto(exchanges, () => withAbortSignal(options.signal ?? new AbortController().signal, recovery.ensureServed));
  } catch {
    // Left as it is (above).
  } finally {
    options.ctx.traffic.record(recovery.by, exchanges);
  }
}

/** Requests in a row that got no HTTP response, and how many checks they span. */
class FailureStreak {
  count = 0;
  lastError = '';
  lost = false;
  readonly #checks = new Set<string>();
  constructor(readonly bound: number) {}

  /** True the moment the streak reaches the bound (over two checks or more). */
  add(checkId: string, exchanges: readonly Exchange[]): boolean {
    for (const exchange of exchanges) {
      if (exchange.response) {
        this.count = 0;
        this.#checks.clear();
      } else if (exchange.error) {
        this.count++;
        this.lastError = exchange.error;
        this.#checks.add(checkId);
      }
    }
    if (!this.lost && this.count >= this.bound && this.#checks.size >= 2) this.lost = true;
    else return false;
    return true;
  }
}

/** `prelude`: what must happen first in the check's scope (a credential it needs recovering, recoveries.ts). */
async function runOne(check: Check, options: RunChecksOptions, prelude: () => Promise<void>): Promise<{ result: CheckResult; exchanges: Exchange[]; span: Span }> {
  const { ctx, checkTimeoutMs } = options;
  const started = performance.now();
  const exchanges: Exchange[] = [];
  // The check's own signal: its deadline or an interruption aborts every request it has in flight.
  const controller = new AbortController();
  // The deadline follows the target's rate limit: the check's own budget (checkBudgetMs), plus the time its
  // polite requests spent waiting for the target's quota (bounded), which is not the check's own time.
  const budget = checkBudgetMs(check, ctx, checkTimeoutMs);
  const meter: WaitMeter = { waitedMs: 0, throttled: 0 };
  let timer: NodeJS.Timeout | undefined;
  let onInterrupt: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    const arm = (ms: number): void => {
      timer = setTimeout(() => {
        const due = budget.ms + Math.min(meter.waitedMs, MAX_WAIT_EXTENSION * budget.ms);
        const left = due - (performance.now() - started);
        if (left > 5) arm(left);
        else reject(new CheckTimeout(budget, meter));
      }, ms);
    };
    arm(budget.ms);
    onInterrupt = () => reject(new CheckInterrupted());
    if (options.signal?.aborted) onInterrupt();
    else options.signal?.addEventListener('abort', onInterrupt, { once: true });
  });
  const running = recordInto(exchanges, () => withAbortSignal(controller.signal, async () => {
    await prelude();
    return runMetered(meter, () => check.run(ctx));
  }));
  running.catch(() => undefined);
  stopped.catch(() => undefined);
  // The span from the clock itself, not the rounded duration: a check quicker than 0.05 ms still ran beside a waiting one.
  const done = (result: CheckResult) => ({ result, exchanges, span: [started, performance.now()] as Span });
  try {
    await Promise.race([running, stopped]);
    return done(resultOf(check, 'passed', elapsed(started)));
  } catch (err) {
    if (err instanceof CheckTimeout || err instanceof CheckInterrupted) {
      // Whatever the check does after its requests are aborted (a fail() about "no response") is not its result.
      controller.abort();
      await settled(running, SETTLE_AFTER_ABORT_MS);
    }
    return done(resultOfError(check, err, exchanges, ctx.secrets, elapsed(started)));
  } finally {
    clearTimeout(timer);
    if (onInterrupt) options.signal?.removeEventListener('abort', onInterrupt);
    ctx.traffic.record(check.id, exchanges);
  }
}

function resultOfError(check: Check, err: unknown, exchanges: Exchange[], secrets: SecretRegistry, durationMs: number): CheckResult {
  if (err instanceof CheckVacuous) return { ...resultOf(check, 'passed', durationMs), vacuous: secrets.redactText(err.message) };
  if (err instanceof CheckSkipped) {
    const skipped = resultOf(check, 'skipped', durationMs, secrets.redactText(err.message));
    return err.notApplicable ? { ...skipped, notApplicable: true } : skipped;
  }
  // Could not decide under the run's conditions: the reason names the measurement, the details carry its numbers.
  if (err instanceof CheckUndecided) return resultOf(check, 'undecided', durationMs, secrets.redactText(err.message), evidenceOf(exchanges, secrets, err.details));
  if (err instanceof CheckFailure) {
    // A check may point at exchanges it also made itself (shared, memoised traffic): show each once.
    const shown = err.exchanges ? [...new Set([...err.exchanges, ...exchanges])] : exchanges;
    return resultOf(check, 'failed', durationMs, secrets.redactText(err.message), evidenceOf(shown, secrets, err.details));
  }
  // A credential the target issued that cannot go into a header (invalid UTF-8, a control character) is a finding
  // about the target, not a harness error and not a lost target: nothing was sent.
  if (err instanceof UnsendableRequestError) return resultOf(check, 'failed', durationMs, secrets.redactText(err.message), evidenceOf(exchanges, secrets));
  // The target's rate limit kept the check from running: its rule was not tested (error, never failed).
  const message = err instanceof CheckTimeout || err instanceof CheckInterrupted
    ? err.message
    : err instanceof RateLimitedError
      ? `not run: rate limited — ${err.message}`
      : `check could not run: ${(err as Error)?.message ?? String(err)}`;
  return resultOf(check, 'error', durationMs, secrets.redactText(message), evidenceOf(exchanges, secrets));
}

function settled(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise.then(() => undefined, () => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]).finally(() => clearTimeout(timer));
}

class CheckTimeout extends Error {
  constructor(budget: ReturnType<typeof checkBudgetMs>, meter: WaitMeter) {
    super(meter.throttled > 0
      ? `not run: rate limited — the check did not finish in time (${describeBudget(budget)}; ${Math.round(meter.waitedMs / 100) / 10} s of it `
        + `waiting out ${meter.throttled} 429 answer(s)); its requests were aborted`
      : `check did not finish within ${budget.ms} ms (${budget.ms === budget.timeoutMs ? 'conformance.checkTimeoutMs' : describeBudget(budget)}); its requests were aborted`);
  }
}

class CheckInterrupted extends Error {
  constructor() {
    super('interrupted while this check ran (SIGINT/SIGTERM): no verdict');
  }
}

function resultOf(check: Check, status: CheckResult['status'], durationMs: number, message?: string, evidence?: Evidence): CheckResult {
  return {
    id: check.id,
    suite: check.suite,
    title: check.title,
    level: check.level,
    specRef: check.specRef,
    status,
    durationMs,
    ...(message !== undefined ? { message } : {}),
    ...(evidence ? { evidence } : {}),
  };
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
