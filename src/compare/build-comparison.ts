/** Two or more reports → one Comparison (model.ts): runs, checks whose status changed, scenarios, budgets. */
import type { CheckStatus } from '../conformance/check.ts';
import type { ReadReport as Report } from '../report/report.ts';
import type { Budget } from './budget.ts';
import { evaluateBudgets } from './evaluate-budgets.ts';
import { comparedRun, scenarioMetrics, uniqueLabels } from './metrics.ts';
import { COMPARISON_SCHEMA_VERSION, type BudgetResult, type CheckChange, type Comparison, type ScenarioRow } from './model.ts';

export interface LoadedReport {
  file: string;
  report: Report;
}

export interface ComparisonInput {
  reports: readonly LoadedReport[];
  /** Index of the baseline among `reports`. @default 0 */
  baseline?: number;
  budgets?: readonly Budget[];
  now?: Date;
}

export function buildComparison(input: ComparisonInput): Comparison {
  const baseline = input.baseline ?? 0;
  const labels = uniqueLabels(input.reports.map((r) => r.report.run.id));
  const runs = input.reports.map((r, i) => comparedRun(r.report, r.file, labels[i] as string));
  const reports = input.reports.map((r) => r.report);
  const scenarios = scenarioRows(reports);
  const budgets = input.budgets ? evaluateBudgets(input.budgets, runs, scenarios, baseline) : [];
  return {
    schemaVersion: COMPARISON_SCHEMA_VERSION,
    generatedAt: (input.now ?? new Date()).toISOString(),
    baseline,
    runs,
    checkChanges: checkChanges(reports),
    scenarios,
    budgets,
    gate: gateOf(input.budgets !== undefined, budgets),
  };
}

/** Failed when a budget was exceeded; inconclusive when none was but one could not be decided; else passed. */
function gateOf(given: boolean, budgets: readonly BudgetResult[]): Comparison['gate'] {
  if (!given) return 'none';
  if (budgets.some((b) => b.status === 'exceeded')) return 'failed';
  return budgets.some((b) => b.status === 'inconclusive') ? 'inconclusive' : 'passed';
}

/** Checks (in first-seen order) whose status is not the same in every run, including checks some runs lack. */
export function checkChanges(reports: readonly Report[]): CheckChange[] {
  const order: string[] = [];
  const info = new Map<string, Pick<CheckChange, 'title' | 'level'>>();
  const byRun = reports.map((report) => {
    const statuses = new Map<string, CheckStatus>();
    for (const check of report.checks) {
      if (!info.has(check.id)) {
        order.push(check.id);
        info.set(check.id, { title: check.title, level: check.level });
      }
      statuses.set(check.id, check.status);
    }
    return statuses;
  });
  return order
    .map((id): CheckChange => ({ id, ...(info.get(id) as Pick<CheckChange, 'title' | 'level'>), statuses: byRun.map((s) => s.get(id) ?? null) }))
    .filter((change) => new Set(change.statuses).size > 1);
}

/** Every scenario name (first-seen order) with each run's metrics, or null where a run lacks it. */
export function scenarioRows(reports: readonly Report[]): ScenarioRow[] {
  const names: string[] = [];
  for (const report of reports) for (const s of report.scenarios ?? []) if (!names.includes(s.name)) names.push(s.name);
  return names.map((name) => ({
    name,
    runs: reports.map((report) => {
      const scenario = report.scenarios?.find((s) => s.name === name);
      return scenario ? scenarioMetrics(scenario) : null;
    }),
  }));
}
