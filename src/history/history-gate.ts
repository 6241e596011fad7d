/**
 * Budgets against a history: the candidate's value is held to a limit from the mean of the baseline runs
 * (baseline-runs.ts), and decided with the noise that matters across CI jobs — the spread *between* runs of the
 * same build — as well as each run's own within-run interval (percentile-interval.ts):
 *
 *   s      the baseline runs' standard deviation (the between-run spread), at least the root-mean-square of their
 *          within-run standard errors (a run-to-run spread can never be smaller than a run's own sampling noise);
 *   σ      √((slope·s)²/N + max(s, w_c)²): the error of the limit (the mean of N runs, times the budget's slope: 1.1
 *          for +10 %) and of one candidate run (at least s; more when its own interval, w_c, is wider);
 *   margin candidate − limit (latency, rates), or limit − candidate (throughput).
 *
 * Exceeded when margin > t·σ, within when margin < −t·σ, otherwise inconclusive; t is Student's one-sided 99 %
 * quantile with N−1 degrees of freedom (s is estimated from N runs). Fewer than MIN_RUNS baseline runs: it cannot
 * decide yet, and says so. The rules of the two-run gate (evaluate-budgets.ts) keep applying to the candidate:
 * generator-bound, the machine's scheduling, uneven stalls, too few samples.
 */
import type { Budget } from '../compare/budget.ts';
import { ADVICE, UNEVEN_RATIO, UNEVEN_WIDENING, stalledBy } from '../compare/evaluate-budgets.ts';
import type { BudgetResult, ScenarioMetrics } from '../compare/model.ts';
import { Z, samplesNeeded } from '../compare/percentile-interval.ts';
import { MIN_RUNS, type BaselineSelection } from './baseline-runs.ts';
import { median } from './change-points.ts';

type ScenarioBudget = Exclude<Budget, { max: number }>;

/** Student's t, one-sided 99 %, by degrees of freedom (normal 2.326 beyond the table). */
const T99: ReadonlyArray<readonly [number, number]> = [
  [1, 31.821], [2, 6.965], [3, 4.541], [4, 3.747], [5, 3.365], [6, 3.143], [7, 2.998], [8, 2.896], [9, 2.821], [10, 2.764],
  [12, 2.681], [15, 2.602], [20, 2.528], [30, 2.457], [60, 2.39], [120, 2.358],
];

export function tQuantile99(df: number): number {
  let t = 2.326;
  for (const [d, value] of [...T99].reverse()) if (df <= d) t = value;
  return df < 1 ? Infinity : t;
}

const LATENCY = { p50: 'p50', p95: 'p95', p99: 'p99' } as const;
const KEY = { p50: 'p50Ms', p95: 'p95Ms', p99: 'p99Ms', rps: 'rps', rate429: 'rate429', errorRate: 'errorRate' } as const;

interface Measured {
  value: number;
  /** Standard error of the value within its run (from its 99 % interval), when the run has one. */
  se?: number;
}

function measured(budget: ScenarioBudget, m: ScenarioMetrics): Measured | undefined {
  if (budget.metric in LATENCY) {
    const i = m.intervals?.[budget.metric as keyof typeof LATENCY];
    if (i) return { value: i.valueMs, se: (i.highMs - i.lowMs) / (2 * Z) };
  }
  const value = m[KEY[budget.metric]];
  return value === undefined ? undefined : { value };
}

export function historyBudget(budget: ScenarioBudget, run: string, cand: ScenarioMetrics, base: BaselineSelection): BudgetResult {
  const scenario = base.scenario;
  const where = `${budget.metric} of scenario "${scenario}" in ${run}`;
  const head = { budget: budget.text, run, scenario };
  const compared = `compared with ${base.said}`;
  if (base.runs.length < MIN_RUNS) {
    const reason = `cannot decide yet: the history has ${base.runs.length} usable run${base.runs.length === 1 ? '' : 's'} to compare with, the gate needs at least ${MIN_RUNS} (5 or more decide better)`;
    return { ...head, status: 'inconclusive', reason, advice: 'add baseline runs to the history (harness history DIR --add report.json --label …)', detail: `${budget.text}: inconclusive: ${reason}; ${compared}` };
  }
  const c = measured(budget, cand);
  const values = base.runs.map((r) => measured(budget, r.metrics)).filter((v): v is Measured => v !== undefined);
  if (!c || values.length < MIN_RUNS) {
    return { ...head, status: 'not-evaluated', detail: `${budget.text}: ${budget.metric} of scenario "${scenario}" was not measured in ${!c ? run : 'enough baseline runs'}; ${compared}` };
  }
  if (budget.metric in LATENCY) {
    const p = budget.metric as keyof typeof LATENCY;
    const short = [cand, ...base.runs.map((r) => r.metrics)].find((m) => m.intervals && !m.intervals[p].enough);
    if (short) {
      const reason = `too few samples: ${where} needs at least ${samplesNeeded(Number(p.slice(1)))} requests per run (${short === cand ? run : 'a baseline run'} has ${short.intervals![p].n})`;
      return { ...head, status: 'inconclusive', reason, advice: ADVICE.samples, detail: `${budget.text}: inconclusive: ${reason}; ${compared}` };
    }
  }
  const n = values.length;
  const mean = values.reduce((a, v) => a + v.value, 0) / n;
  const sd = Math.sqrt(values.reduce((a, v) => a + (v.value - mean) ** 2, 0) / (n - 1));
  const ses = values.flatMap((v) => (v.se !== undefined ? [v.se] : []));
  const within = ses.length > 0 ? Math.sqrt(ses.reduce((a, s) => a + s * s, 0) / ses.length) : 0;
  const s = Math.max(sd, within);
  const { limit, slope, lowerIsWorse, unit } = limitOf(budget, mean);
  const sigma = Math.sqrt((slope * s) ** 2 / n + Math.max(s, c.se ?? 0) ** 2);
  const t = tQuantile99(n - 1);
  const margin = lowerIsWorse ? limit - c.value : c.value - limit;
  const exceeded = margin > t * sigma;
  const inside = margin < -t * sigma || (sigma === 0 && margin <= 0);
  const said = `baseline mean ${unit(mean)} of ${n} runs, between-run sd ${unit(sd)}, within-run se ${unit(within)}; ${margin > 0 ? 'over' : 'under'} the limit by ${unit(Math.abs(margin))}, noise ±${unit(t * sigma)} (one-sided 99 %, t with ${n - 1} df); ${compared}`;
  const result = { ...head, baseline: mean, actual: c.value, limit };
  const rel = lowerIsWorse ? (exceeded ? '<' : '≥') : exceeded ? '>' : '≤';
  const line = `${where} is ${unit(c.value)} ${rel} limit ${unit(limit)}`;
  if (exceeded) {
    const why = honesty(budget, cand, base, margin - t * sigma, limit + (lowerIsWorse ? 0 : t * sigma));
    if (why) return { ...result, status: 'inconclusive', reason: why.reason, advice: why.advice, detail: `${budget.text}: inconclusive, because ${why.reason} (${said})` };
    return { ...result, status: 'exceeded', detail: `${budget.text}: ${line} (${said})` };
  }
  if (inside) return { ...result, status: 'within', detail: `${budget.text}: ${line} (${said})` };
  const reason = `the runs' spread covers the limit: ${where} (${unit(c.value)}) cannot be told from the limit ${unit(limit)}`;
  return { ...result, status: 'inconclusive', reason, advice: 'more baseline runs in the history, or longer runs (narrower within-run intervals)', detail: `${budget.text}: inconclusive: ${reason} (${said})` };
}

function limitOf(budget: ScenarioBudget, mean: number): { limit: number; slope: number; lowerIsWorse: boolean; unit: (n: number) => string } {
  const ms = (n: number) => `${round(n)} ms`;
  switch (budget.metric) {
    case 'p50':
    case 'p95':
    case 'p99':
      return budget.ms !== undefined ? { limit: mean + budget.ms, slope: 1, lowerIsWorse: false, unit: ms } : { limit: mean * (1 + (budget.percent ?? 0) / 100), slope: 1 + (budget.percent ?? 0) / 100, lowerIsWorse: false, unit: ms };
    case 'rps':
      return { limit: mean * (1 - budget.percent / 100), slope: 1 - budget.percent / 100, lowerIsWorse: true, unit: (n) => `${round(n)} req/s` };
    case 'rate429':
    case 'errorRate':
      return { limit: mean + budget.points / 100, slope: 1, lowerIsWorse: false, unit: (n) => `${round(n * 100)} %` };
  }
}

/**
 * The two-run gate's honesty rules, for a candidate over the limit by `excess` beyond the noise: a latency it
 * measured with a stalled generator, a machine whose scheduling moves latencies by more than that excess, or
 * stalls of the candidate alone.
 */
function honesty(budget: ScenarioBudget, cand: ScenarioMetrics, base: BaselineSelection, excess: number, bar: number): { reason: string; advice: string } | undefined {
  if (!(budget.metric in LATENCY)) return undefined;
  const p = budget.metric as keyof typeof LATENCY;
  const dc = cand.generatorBound ? stalledBy(cand.generatorBound) : 0;
  const clean = cand.cleanIntervals?.intervals[p];
  const cleanOver = clean !== undefined && clean.enough && clean.lowMs > bar;
  if (dc > 0 && excess <= dc && !cleanOver) {
    return { reason: `the load generator stalled: the candidate was generator-bound in ${cand.generatorBound!.seconds} of ${cand.generatorBound!.ofSeconds} s, so its latencies include up to ${round(dc)} ms of its own delay, more than the ${round(excess)} ms it exceeds the limit by beyond the noise`, advice: ADVICE.generator };
  }
  // Every baseline run was measured with its own generator's stalls, and their between-run spread (in the noise
  // already) shows what those did to the percentile; only the candidate's stall beyond theirs can explain an excess.
  const typical = median(base.runs.map((r) => r.metrics.loopDelayMs ?? 0));
  const loop = (cand.loopDelayMs ?? 0) - typical;
  if (loop > 0 && excess < loop) {
    return { reason: `the machine's scheduling: ${budget.metric} is above the limit by ${round(excess)} ms beyond the noise, less than the ${round(loop)} ms more the load generator's event loop stalled in a typical second than in the baseline runs (${round(cand.loopDelayMs ?? 0)} ms against their median ${round(typical)} ms)`, advice: ADVICE.generator };
  }
  const ci = cand.intervals?.[p];
  const widening = median(base.runs.map((r) => r.metrics.intervals?.[p].widening ?? 1));
  if (ci && ci.method === 'blocks' && ci.widening >= UNEVEN_WIDENING && ci.widening >= UNEVEN_RATIO * widening && !(ci.calmMs !== undefined && ci.calmMs > bar)) {
    return { reason: `the candidate stalled where the baseline runs did not: its interval ${round(ci.widening)}× as wide as for independent requests (the baseline runs' median ${round(widening)}×), and over its calmer half of seconds it is ${round(ci.calmMs ?? ci.valueMs)} ms, not over the limit beyond the noise`, advice: ADVICE.uneven };
  }
  return undefined;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
