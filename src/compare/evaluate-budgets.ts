/**
 * Budgets against runs: each run other than the baseline is held to every budget. Latency budgets are decided on
 * 99 % confidence intervals of the percentile from each run's HDR histogram (percentile-interval.ts): exceeded
 * only when the candidate's interval lies wholly above the limit the baseline's interval allows, within when
 * wholly below, otherwise "inconclusive" with its reason and what to change (exit 0 with a warning, never a
 * failure); a run marked generator-bound is "exceeded" only by more than the generator delay it measured, or when it
 * is over the limit in the seconds its generator kept up in too, and never by less than the typical second's
 * event-loop stall the runs measured (the machine's scheduling; else
 * inconclusive, because its latencies include that delay). Reports
 * without histograms fall back to the point estimates, and the detail says so. Scenario metrics are compared
 * per scenario name present in both runs; a scenario metric with no common scenario is `not-evaluated` (said,
 * not silently passed, and not failed either: a conformance-only run has no latency to regress).
 */
import type { Budget } from './budget.ts';
import type { BudgetResult, ComparedRun, ScenarioMetrics, ScenarioRow } from './model.ts';
import { MIN_TAIL, samplesNeeded } from './percentile-interval.ts';

/** Float noise (0.1 + 0.2) must not turn an equal value into an exceeded budget. */
const EPSILON = 1e-9;

export function evaluateBudgets(budgets: readonly Budget[], runs: readonly ComparedRun[], scenarios: readonly ScenarioRow[], baseline: number): BudgetResult[] {
  const results: BudgetResult[] = [];
  runs.forEach((run, index) => {
    if (index === baseline) return;
    for (const budget of budgets) {
      if ('max' in budget) {
        results.push(countResult(budget, run, runs[baseline] as ComparedRun));
        continue;
      }
      const pairs = scenarios.filter((row) => row.runs[baseline] && row.runs[index]);
      if (pairs.length === 0) {
        results.push({ budget: budget.text, run: run.label, status: 'not-evaluated', detail: `${budget.text}: ${run.label} and the baseline have no scenario in common` });
        continue;
      }
      for (const row of pairs) results.push(scenarioResult(budget, run.label, row.name, row.runs[baseline] as ScenarioMetrics, row.runs[index] as ScenarioMetrics));
    }
  });
  return results;
}

function countResult(budget: Extract<Budget, { max: number }>, run: ComparedRun, base: ComparedRun): BudgetResult {
  const actual = run.summary[budget.metric];
  const baseline = base.summary[budget.metric];
  const exceeded = actual > budget.max;
  const noun = budget.metric === 'failed' ? 'failed checks' : 'errored checks';
  return {
    budget: budget.text,
    run: run.label,
    baseline,
    actual,
    limit: budget.max,
    status: exceeded ? 'exceeded' : 'within',
    detail: `${budget.text}: ${run.label} has ${actual} ${noun} (at most ${budget.max} allowed; baseline ${baseline})`,
  };
}

/** Where each scenario budget reads its metric. */
const METRIC_KEY = { p50: 'p50Ms', p95: 'p95Ms', p99: 'p99Ms', rps: 'rps', rate429: 'rate429', errorRate: 'errorRate' } as const;

function scenarioResult(budget: Exclude<Budget, { max: number }>, run: string, scenario: string, base: ScenarioMetrics, cand: ScenarioMetrics): BudgetResult {
  // Latency budgets are decided on confidence intervals when both runs carry histograms (intervalResult).
  if (budget.metric === 'p50' || budget.metric === 'p95' || budget.metric === 'p99') {
    const decided = intervalResult(budget, run, scenario, base, cand);
    if (decided) return decided;
  }
  const key = METRIC_KEY[budget.metric];
  const baseline = base[key];
  const actual = cand[key];
  // A k6 import holds only what k6 reported: a metric it lacks is not evaluated, never passed or failed.
  if (baseline === undefined || actual === undefined) {
    const where = [baseline === undefined ? 'the baseline' : '', actual === undefined ? run : ''].filter(Boolean).join(' and ');
    const k6 = base.source === 'k6' || cand.source === 'k6' ? ' (a k6 summary holds only its summaryTrendStats, rates and thresholds; error and 429 rates in the harness\'s sense are not among them)' : '';
    return { budget: budget.text, run, scenario, status: 'not-evaluated', detail: `${budget.text}: ${budget.metric} of scenario "${scenario}" was not measured in ${where}${k6}` };
  }
  let limit: number;
  let exceeded: boolean;
  let unit: (n: number) => string;
  switch (budget.metric) {
    case 'p50':
    case 'p95':
    case 'p99':
      limit = budget.ms !== undefined ? baseline + budget.ms : baseline * (1 + (budget.percent ?? 0) / 100);
      exceeded = actual > limit + EPSILON;
      unit = (n) => `${round(n)} ms`;
      break;
    case 'rps':
      limit = baseline * (1 - budget.percent / 100);
      exceeded = actual < limit - EPSILON;
      unit = (n) => `${round(n)} req/s`;
      break;
    case 'rate429':
    case 'errorRate':
      limit = baseline + budget.points / 100;
      exceeded = actual > limit + EPSILON;
      unit = (n) => `${round(n * 100)} %`;
      break;
  }
  const relation = budget.metric === 'rps' ? (exceeded ? '<' : '≥') : exceeded ? '>' : '≤';
  return {
    budget: budget.text,
    run,
    scenario,
    baseline,
    actual,
    limit,
    status: exceeded ? 'exceeded' : 'within',
    detail: `${budget.text}: ${budget.metric} of scenario "${scenario}" in ${run} is ${unit(actual)} ${relation} limit ${unit(limit)} (baseline ${unit(baseline)})` +
      (budget.metric === 'p50' || budget.metric === 'p95' || budget.metric === 'p99' ? ' [point estimates: a report has no histogram]' : ''),
  };
}

type LatencyBudget = Extract<Budget, { metric: 'p50' | 'p95' | 'p99' }>;

/**
 * A candidate whose interval is at least UNEVEN_WIDENING times as wide as independent requests' would give, and
 * UNEVEN_RATIO times as wide (relatively) as the baseline's, stalled where the baseline did not (see
 * intervalResult). The ratio leaves room for the noise of the baseline's own block variance: with 15 to 30 blocks
 * an independent run's widening itself comes out between about 1 and 1.5.
 */
export const UNEVEN_WIDENING = 2;
export const UNEVEN_RATIO = 1.5;

/** What to change when the samples could not tell (said in the console and the step summary). */
export const ADVICE = {
  samples: 'measure more requests per run: a longer run or a higher rate (scenarios/gate.yaml: 1 500 requests in 30 s)',
  correlated: 'latencies moved together in time (stalls): measure longer, so more seconds average out, or use a quieter runner',
  uneven: 'measure baseline and candidate at the same time on a quieter runner; if the candidate still stalls alone, look for an intermittent slowdown in it',
  generator: 'use a quieter runner (free cores), a lower rate, or more --workers; measure baseline and candidate at the same time',
} as const;

/** A latency budget on confidence intervals; undefined when either run has no histogram (point estimates then). */
function intervalResult(budget: LatencyBudget, run: string, scenario: string, base: ScenarioMetrics, cand: ScenarioMetrics): BudgetResult | undefined {
  const b = base.intervals?.[budget.metric];
  const c = cand.intervals?.[budget.metric];
  if (!b || !c) return undefined;
  const limitOf = (v: number) => (budget.ms !== undefined ? v + budget.ms : v * (1 + (budget.percent ?? 0) / 100));
  const where = `${budget.metric} of scenario "${scenario}" in ${run}`;
  const common = {
    budget: budget.text,
    run,
    scenario,
    baseline: b.valueMs,
    actual: c.valueMs,
    limit: limitOf(b.valueMs),
    intervals: { baseline: [b.lowMs, b.highMs] as [number, number], actual: [c.lowMs, c.highMs] as [number, number], baselineSamples: b.n, actualSamples: c.n },
  };
  if (!b.enough || !c.enough) {
    const tail = b.n * (1 - b.p / 100) < MIN_TAIL || c.n * (1 - c.p / 100) < MIN_TAIL;
    const reason = tail
      ? `too few samples: ${where} needs at least ${samplesNeeded(b.p)} requests per run (baseline ${b.n}, ${run} ${c.n})`
      : `too short: ${[!b.enough ? `the baseline: ${b.why}` : '', !c.enough ? `${run}: ${c.why}` : ''].filter(Boolean).join('; ')}`;
    return { ...common, status: 'inconclusive', reason, advice: ADVICE.samples, detail: `${budget.text}: inconclusive: ${reason}` };
  }
  const range = (lo: number, hi: number) => `[${round(lo)}, ${round(hi)}] ms`;
  const how = c.method === 'blocks' && b.method === 'blocks'
    ? `, over blocks of ${c.blockSeconds} s and ${b.blockSeconds} s${Math.max(b.widening, c.widening) > 1.05 ? ` (${round(c.widening)}× and ${round(b.widening)}× as wide as for independent requests)` : ''}`
    : `, requests taken as independent (${c.method === 'independent' ? run : 'the baseline'} has no per-second histograms: a report from before they existed)`;
  const said = `${run} ${range(c.lowMs, c.highMs)} vs limit ${range(limitOf(b.lowMs), limitOf(b.highMs))} from baseline ${range(b.lowMs, b.highMs)}; 99 % intervals, ${c.n} and ${b.n} samples${how}`;
  const exceeded = c.lowMs > limitOf(b.highMs) + EPSILON;
  const within = c.highMs <= limitOf(b.lowMs) + EPSILON;
  // A generator-bound run measured the load generator's own delay along with the target's latency: each of its
  // latencies may be up to that delay too high (stalledBy). "Exceeded" stands only when the candidate's interval is
  // above the limit by more than the delay its own run measured; "within" on a generator-bound baseline only when
  // the candidate is within the limit of a baseline lowered by the baseline's delay. Otherwise: inconclusive, because.
  const dc = cand.generatorBound ? stalledBy(cand.generatorBound) : 0;
  const db = base.generatorBound ? stalledBy(base.generatorBound) : 0;
  const bound: Array<{ label: string; g: NonNullable<ScenarioMetrics['generatorBound']> }> = [];
  // Over the seconds its generator kept up in (the bound seconds and the one after each left out), the candidate's
  // latencies hold none of its own delay: over the limit there too, the slowdown is the target's.
  const clean = cand.cleanIntervals?.intervals[budget.metric];
  const cleanOver = exceeded && clean !== undefined && clean.enough && clean.lowMs > limitOf(b.highMs) + EPSILON;
  if (exceeded && dc > 0 && !(c.lowMs - dc > limitOf(b.highMs) + EPSILON) && !cleanOver) bound.push({ label: run, g: cand.generatorBound! });
  if (within && db > 0 && !(c.highMs <= limitOf(Math.max(0, b.lowMs - db)) + EPSILON)) bound.push({ label: 'the baseline', g: base.generatorBound! });
  if (bound.length > 0) {
    const runs = bound.map(({ label, g }) => `${label} was generator-bound in ${g.seconds} of ${g.ofSeconds} s (event-loop stalls up to ${g.worstLoopDelayMs} ms, up to ${round(g.worstLateShare * 100)} % of a second's arrivals over ${g.lateStartMs} ms late)`).join(', and ');
    const would = exceeded ? `would be exceeded (${round(c.valueMs)} ms > limit ${round(limitOf(b.valueMs))} ms) by less than that delay` : `would be within (${round(c.valueMs)} ms ≤ limit ${round(limitOf(b.valueMs))} ms) by less than that delay`;
    const reason = `the load generator stalled: ${runs}, so its latencies include up to ${round(Math.max(exceeded ? dc : 0, within ? db : 0))} ms of its own delay; ${where} ${would}`;
    return { ...common, status: 'inconclusive', reason, advice: ADVICE.generator, detail: `${budget.text}: inconclusive, because ${reason} (${said})` };
  }
  // How the machine shared its cores while both runs measured: the typical second's longest event-loop stall of
  // either run's load generator. The targets share those cores, so a candidate above the limit by less than that
  // cannot be told from the machine's scheduling (two identical targets on a loaded runner differ by that much).
  const noise = Math.max(base.loopDelayMs ?? 0, cand.loopDelayMs ?? 0);
  if (exceeded && noise > 0 && c.lowMs - limitOf(b.highMs) < noise) {
    const reason = `the machine's scheduling: ${where} is above the limit by ${round(c.lowMs - limitOf(b.highMs))} ms at least, less than the ${round(noise)} ms the load generator's event loop stalled in a typical second of these runs (the targets share the same cores)`;
    return { ...common, status: 'inconclusive', reason, advice: ADVICE.generator, detail: `${budget.text}: inconclusive, because of ${reason} (${said})` };
  }
  const stallNote = !(exceeded && dc > 0)
    ? ''
    : c.lowMs - dc > limitOf(b.highMs) + EPSILON
      ? `; ${run} was generator-bound (up to ${round(dc)} ms of its own delay), and exceeds the limit by more than that`
      : `; ${run} was generator-bound (up to ${round(dc)} ms of its own delay), and over the ${cand.cleanIntervals!.seconds} of ${cand.cleanIntervals!.ofSeconds} s its generator kept up in it is still ${range(clean!.lowMs, clean!.highMs)}, over the limit`;
  // The candidate's latencies moved together in time (stalls) and the baseline's did not: runner stalls that hit
  // only one run look exactly like an intermittent slowdown of the build, and no interval of one run can tell them
  // apart (a run that saw no stall has no evidence that stalls happen). Said, never failed.
  // Unless the candidate is over the limit in its calmer half of seconds too: then the slowdown is not its stalls.
  const calmOver = c.calmMs !== undefined && c.calmMs > limitOf(b.highMs) + EPSILON;
  if (exceeded && !calmOver && c.method === 'blocks' && c.widening >= UNEVEN_WIDENING && c.widening >= UNEVEN_RATIO * b.widening) {
    const reason = `the runs stalled unevenly: ${run}'s latencies moved together in time (its interval ${round(c.widening)}× as wide as for independent requests, the baseline's ${round(b.widening)}×), which runner stalls hitting one run do as well as an intermittent slowdown; ${where} would be exceeded (${round(c.valueMs)} ms > limit ${round(limitOf(b.valueMs))} ms), but over its calmer half of seconds it is ${round(c.calmMs ?? c.valueMs)} ms, within the limit`;
    return { ...common, status: 'inconclusive', reason, advice: ADVICE.uneven, detail: `${budget.text}: inconclusive, because ${reason} (${said})` };
  }
  if (exceeded) return { ...common, status: 'exceeded', detail: `${budget.text}: ${where} is ${round(c.valueMs)} ms > limit ${round(limitOf(b.valueMs))} ms (${said}${stallNote})` };
  if (within) return { ...common, status: 'within', detail: `${budget.text}: ${where} is ${round(c.valueMs)} ms ≤ limit ${round(limitOf(b.valueMs))} ms (${said})` };
  const correlated = Math.max(b.widening, c.widening) >= 1.5;
  const reason = `the 99 % intervals overlap the limit: ${where} (${round(c.valueMs)} ms) cannot be told from the limit ${round(limitOf(b.valueMs))} ms`;
  return { ...common, status: 'inconclusive', reason, advice: correlated ? ADVICE.correlated : ADVICE.samples, detail: `${budget.text}: inconclusive: ${reason} (${said})` };
}

/**
 * How much a generator-bound run's latencies may be too high: the largest event-loop stall it measured, at least
 * the late-start bound (a start counted late was late by more than that). A run that fell behind its own schedule
 * for most of a second (more than FELL_BEHIND of its arrivals late) has lateness it did not measure: unbounded.
 */
export function stalledBy(g: NonNullable<ScenarioMetrics['generatorBound']>): number {
  return g.worstLateShare > FELL_BEHIND ? Infinity : Math.max(g.worstLoopDelayMs, g.lateStartMs);
}

/** Share of a second's arrivals late beyond which the generator fell behind instead of stalling (stalledBy). */
export const FELL_BEHIND = 0.5;

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
