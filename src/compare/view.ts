/**
 * The comparison as plain tables of strings, shared by the console and the Markdown summary so both say the
 * same thing (the HTML page renders the Comparison itself, with charts).
 */
import type { Comparison, ScenarioMetrics } from './model.ts';

export interface TableView {
  title: string;
  headers: string[];
  rows: string[][];
  /** Said instead of an empty table. */
  empty?: string;
}

export function comparisonTables(c: Comparison): TableView[] {
  const labels = c.runs.map((run, i) => (i === c.baseline ? `${run.label} (baseline)` : run.label));
  const tables: TableView[] = [
    {
      title: 'Runs',
      headers: ['', ...labels],
      rows: [
        ['verdict', ...c.runs.map((r) => r.verdict)],
        ...(['passed', 'failed', 'skipped', 'errors'] as const).map((k) => [k, ...c.runs.map((r) => String(r.summary[k]))]),
        ['MUST failed', ...c.runs.map((r) => String(r.summary.byLevel.MUST.failed + r.summary.byLevel.MUST.errors))],
      ],
    },
    {
      title: 'Checks whose status changed',
      headers: ['check', 'level', ...labels],
      rows: c.checkChanges.map((ch) => [ch.id, ch.level, ...ch.statuses.map((s) => s ?? '—')]),
      empty: 'none: every check has the same status in every run',
    },
  ];
  for (const row of c.scenarios) {
    const base = row.runs[c.baseline] ?? null;
    // "n/a": the run has the scenario but not this number (a k6 import holds only what k6 reported).
    const cell = (m: ScenarioMetrics, i: number, pick: (m: ScenarioMetrics) => number | undefined, fmt: (n: number) => string, relative: boolean): string => {
      const value = pick(m);
      if (value === undefined) return 'n/a';
      const from = base && i !== c.baseline ? pick(base) : undefined;
      return `${fmt(value)}${from !== undefined ? ` (${relative ? relDelta(value, from) : ppDelta(value, from)})` : ''}`;
    };
    const line = (name: string, pick: (m: ScenarioMetrics) => number | undefined, fmt: (n: number) => string, relative: boolean) => [
      name,
      ...row.runs.map((m, i) => (m ? cell(m, i, pick, fmt, relative) : '—')),
    ];
    tables.push({
      title: `Scenario ${row.name}${row.runs.some((m) => m?.source === 'k6') ? ' (k6 summaries: n/a where k6 gave no such number)' : ''}`,
      headers: ['metric', ...labels],
      rows: [
        line('p50', (m) => m.p50Ms, ms, true),
        line('p95', (m) => m.p95Ms, ms, true),
        line('p99', (m) => m.p99Ms, ms, true),
        line('requests/s', (m) => m.rps, (n) => String(round(n)), true),
        line('error rate', (m) => m.errorRate, pct, false),
        line('429 rate', (m) => m.rate429, pct, false),
        line('dropped', (m) => m.dropped, (n) => String(n), true),
      ],
    });
  }
  if (c.runs.some((r) => r.rateLimit)) {
    const rl = (f: (r: NonNullable<Comparison['runs'][number]['rateLimit']>) => string) => c.runs.map((r) => (r.rateLimit ? f(r.rateLimit) : '—'));
    tables.push({
      title: 'Rate limits',
      headers: ['', ...labels],
      rows: [
        ['claimed', ...rl((r) => (r.policyClaimed ? `${r.policyClaimed.quota} / ${r.policyClaimed.windowS} s (${r.headerStyle})` : `none (${r.headerStyle})`))],
        ['observed', ...rl((r) => (r.observed ? `${r.observed.quota} / ${r.observed.windowS ?? '?'} s` : 'not measured (no 429)'))],
        ['algorithm', ...rl((r) => (r.observed ? r.observed.algorithm + (r.observed.refillPerS !== undefined ? `, refill ${r.observed.refillPerS}/s` : '') : 'not measured'))],
        ['Retry-After claimed', ...rl((r) => (r.retryAfter.claimedS !== undefined ? `${r.retryAfter.claimedS} s` : 'none'))],
        ['actual recovery', ...rl((r) => (r.retryAfter.actualRecoveryS !== undefined ? `${r.retryAfter.actualRecoveryS} s` : 'not measured'))],
        ['isolated per credential', ...rl((r) => (r.isolation.perCredential === undefined ? 'not tested' : r.isolation.perCredential ? 'yes' : 'no'))],
      ],
    });
  }
  if (c.gate !== 'none') {
    tables.push({
      title: 'Budgets',
      headers: ['result', 'budget', 'run', 'detail'],
      rows: c.budgets.map((b) => [b.status === 'exceeded' ? 'EXCEEDED' : b.status === 'within' ? 'ok' : b.status === 'inconclusive' ? 'inconclusive' : 'not evaluated', b.budget, b.run, b.detail]),
    });
  }
  return tables;
}

/**
 * The closing lines: what the gate decided and why. Inconclusive budgets are warnings (exit 0): the samples could
 * not tell, which is not evidence of a regression; each says what it lacked.
 */
export function gateLines(c: Comparison): string[] {
  if (c.gate === 'none') return [];
  const exceeded = c.budgets.filter((b) => b.status === 'exceeded');
  const inconclusive = c.budgets.filter((b) => b.status === 'inconclusive');
  const within = c.budgets.filter((b) => b.status === 'within').length;
  // What to change, once per distinct advice (several budgets usually lack the same thing).
  const advice = [...new Set(inconclusive.map((b) => b.advice).filter((a): a is string => a !== undefined))];
  const warnings = inconclusive.length
    ? [`warning: ${inconclusive.length} budget check${inconclusive.length === 1 ? '' : 's'} inconclusive (not a failure):`, ...inconclusive.map((b) => `  ${b.detail}`), ...advice.map((a) => `  to decide: ${a}`)]
    : [];
  if (exceeded.length > 0) return [`gate: FAILED — ${exceeded.length} budget${exceeded.length === 1 ? '' : 's'} exceeded:`, ...exceeded.map((b) => `  ${b.detail}`), ...warnings];
  if (inconclusive.length > 0) return [`gate: INCONCLUSIVE — ${within} budget checks within limits, none exceeded, ${inconclusive.length} undecided (exit 0)`, ...warnings];
  return [`gate: PASSED — ${within} budget checks within limits`];
}

const round = (n: number) => Math.round(n * 100) / 100;
const ms = (n: number) => `${round(n)} ms`;
const pct = (share: number) => `${round(share * 100)} %`;

export function relDelta(value: number, base: number): string {
  if (base === 0) return value === 0 ? '±0 %' : 'new';
  const d = ((value - base) / base) * 100;
  return `${d >= 0 ? '+' : ''}${Math.round(d * 10) / 10} %`;
}

export function ppDelta(value: number, base: number): string {
  const d = (value - base) * 100;
  return `${d >= 0 ? '+' : ''}${round(d)} pp`;
}
