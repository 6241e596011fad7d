/**
 * Runs the selected suites' checks one after another (checks share a target and its rate limit, so running
 * them in parallel would make them interfere). Each check gets its own exchange log, a deadline, and a
 * result whose message and evidence are redacted before anyone sees them.
 */
import type { EventBus } from '../events.ts';
import { cutBody, runRecorded, type Exchange } from '../http/exchange.ts';
import { RateLimitedError, runMetered, type WaitMeter } from '../http/polite-wait.ts';
import type { SecretRegistry } from '../http/redact.ts';
import { checkBudgetMs, describeBudget, MAX_WAIT_EXTENSION } from './budget.ts';
import { CheckFailure, CheckSkipped, CheckVacuous, type Check } from './check.ts';
import type { CheckContext } from './context.ts';
import type { Suite } from './registry.ts';
import type { CheckResult, Evidence } from './result.ts';

export interface RunChecksOptions {
  suites: readonly Suite[];
  ctx: CheckContext;
  bus: EventBus;
  skipChecks?: ReadonlySet<string>;
  /** Upper bound for one check. */
  checkTimeoutMs: number;
  /** Stops the run between checks (Ctrl-C, target lost); results so far are kept. */
  signal?: AbortSignal;
}

/** Exchanges kept per failing check: the last ones are the ones that show the failure. */
const MAX_EVIDENCE_EXCHANGES = 12;

export async function runChecks(options: RunChecksOptions): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const suite of options.suites) {
    if (options.signal?.aborted) break;
    await options.bus.emit({ type: 'suite-started', suite: suite.name, title: suite.title, checks: suite.checks.length });
    for (const check of suite.checks) {
      if (options.signal?.aborted) break;
      const result = options.skipChecks?.has(check.id)
        ? resultOf(check, 'skipped', 0, 'skipped by conformance.skipChecks')
        : await runOne(check, options);
      results.push(result);
      await options.bus.emit({ type: 'check-finished', result });
    }
    await options.bus.emit({ type: 'suite-finished', suite: suite.name });
  }
  return results;
}

async function runOne(check: Check, options: RunChecksOptions): Promise<CheckResult> {
  const { ctx, checkTimeoutMs } = options;
  const started = performance.now();
  let exchanges: Exchange[] = [];
  let timer: NodeJS.Timeout | undefined;
  // The deadline follows the target's rate limit: the check's own budget (checkBudgetMs), plus the time its
  // polite requests spent waiting for the target's quota (bounded), which is not the check's own time.
  const budget = checkBudgetMs(check, ctx, checkTimeoutMs);
  const meter: WaitMeter = { waitedMs: 0, throttled: 0 };
  try {
    const deadline = new Promise<never>((_, reject) => {
      const arm = (ms: number) => {
        timer = setTimeout(() => {
          const due = budget.ms + Math.min(meter.waitedMs, MAX_WAIT_EXTENSION * budget.ms);
          const left = due - (performance.now() - started);
          if (left > 5) arm(left);
          else reject(new CheckTimeout(budget, meter));
        }, ms);
      };
      arm(budget.ms);
    });
    await Promise.race([
      runRecorded(
        () => runMetered(meter, () => check.run(ctx)),
        (log) => {
          exchanges = log;
          ctx.traffic.record(check.id, log);
        },
      ),
      deadline,
    ]);
    return resultOf(check, 'passed', elapsed(started));
  } catch (err) {
    const secrets = ctx.secrets;
    if (err instanceof CheckVacuous) return { ...resultOf(check, 'passed', elapsed(started)), vacuous: secrets.redactText(err.message) };
    if (err instanceof CheckSkipped) return resultOf(check, 'skipped', elapsed(started), secrets.redactText(err.message));
    if (err instanceof CheckFailure) {
      // A check may point at exchanges it also made itself (shared, memoised traffic): show each once.
      const shown = err.exchanges ? [...new Set([...err.exchanges, ...exchanges])] : exchanges;
      return resultOf(check, 'failed', elapsed(started), secrets.redactText(err.message), evidenceOf(shown, secrets, err.details));
    }
    // The target's rate limit kept the check from running: its rule was not tested (error, never failed).
    const message = err instanceof CheckTimeout
      ? err.message
      : err instanceof RateLimitedError
        ? `not run: rate limited — ${err.message}`
        : `check could not run: ${(err as Error)?.message ?? String(err)}`;
    return resultOf(check, 'error', elapsed(started), secrets.redactText(message), evidenceOf(exchanges, secrets));
  } finally {
    clearTimeout(timer);
  }
}

class CheckTimeout extends Error {
  constructor(budget: ReturnType<typeof checkBudgetMs>, meter: WaitMeter) {
    super(meter.throttled > 0
      ? `not run: rate limited — the check did not finish in time (${describeBudget(budget)}; ${Math.round(meter.waitedMs / 100) / 10} s of it `
        + `waiting out ${meter.throttled} 429 answer(s))`
      : `check did not finish within ${budget.ms} ms (${budget.ms === budget.timeoutMs ? 'conformance.checkTimeoutMs' : describeBudget(budget)})`);
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

/** Redacts and cuts the exchanges; secrets the check registered while running are known by now. */
export function evidenceOf(exchanges: readonly Exchange[], secrets: SecretRegistry, details?: Record<string, unknown>): Evidence {
  const kept = exchanges.slice(-MAX_EVIDENCE_EXCHANGES).map((exchange) => redactExchange(exchange, secrets));
  return { exchanges: kept, ...(details ? { details: secrets.redactValue(details) } : {}) };
}

export function redactExchange(exchange: Exchange, secrets: SecretRegistry): Exchange {
  const { request, response } = exchange;
  return {
    startedAt: exchange.startedAt,
    durationMs: exchange.durationMs,
    request: {
      method: request.method,
      url: secrets.redactUrl(request.url),
      headers: secrets.redactHeaders(request.headers),
      ...(request.body !== undefined ? { body: cutBody(secrets.redactBody(request.body)) } : {}),
    },
    ...(response
      ? { response: { status: response.status, headers: secrets.redactHeaders(response.headers), body: cutBody(secrets.redactBody(response.body)) } }
      : {}),
    ...(exchange.error ? { error: secrets.redactText(exchange.error) } : {}),
  };
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
