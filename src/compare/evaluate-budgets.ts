/**
 * Budgets against runs: each run other than the baseline is held to every budget. Latency budgets are decided on
 * 99 % confidence intervals of the percentile from each run's HDR histogram (percentile-interval.ts): exceeded
 * only when the candidate's interval lies wholly above the limit the baseline's interval allows, within when
 * wholly below, otherwise "inconclusive: too few samples" (exit 0 with a warning, never a failure). Reports
 * without histograms fall back to the point estimates, and the detail says so. Scenario metrics are compared
 * per scenario name present in both runs; a scenario metric with no common scenario is `not-evaluated` (said,
 * not silently passed, and not failed either: a conformance-only run has no latency to regress).
 */
import type { Budget } from './budget.ts';
import type { BudgetResult, ComparedRun, ScenarioMetrics, ScenarioRow } from './model.ts';
import { samplesNeeded } from './percentile-interval.ts';

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
    return { ...common, status: 'inconclusive', detail: `${budget.text}: inconclusive: too few samples: ${where} needs at least ${samplesNeeded(b.p)} requests per run (baseline ${b.n}, ${run} ${c.n})` };
  }
  const range = (lo: number, hi: number) => `[${round(lo)}, ${round(hi)}] ms`;
  const said = `${run} ${range(c.lowMs, c.highMs)} vs limit ${range(limitOf(b.lowMs), limitOf(b.highMs))} from baseline ${range(b.lowMs, b.highMs)}; 99 % intervals, ${c.n} and ${b.n} samples`;
  if (c.lowMs > limitOf(b.highMs) + EPSILON) return { ...common, status: 'exceeded', detail: `${budget.text}: ${where} is ${round(c.valueMs)} ms > limit ${round(limitOf(b.valueMs))} ms (${said})` };
  if (c.highMs <= limitOf(b.lowMs) + EPSILON) return { ...common, status: 'within', detail: `${budget.text}: ${where} is ${round(c.valueMs)} ms ≤ limit ${round(limitOf(b.valueMs))} ms (${said})` };
  return { ...common, status: 'inconclusive', detail: `${budget.text}: inconclusive: too few samples to tell ${where} (${round(c.valueMs)} ms) from the limit ${round(limitOf(b.valueMs))} ms (${said})` };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
