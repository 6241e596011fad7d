/**
 * `harness compare --history DIR CANDIDATE.json`: the candidate against the runs of a history folder instead of
 * one baseline report. The result is a Comparison like any other (console, compare.json, compare.html, the
 * Markdown summary), its runs the newest baseline run and the candidate, its budgets decided by history-gate.ts,
 * and its `history` field naming the runs each scenario was compared with and the files that were skipped.
 */
import { readFile, writeFile } from 'node:fs/promises';
import type { Budget } from '../compare/budget.ts';
import { buildComparison, type LoadedReport } from '../compare/build-comparison.ts';
import { formatMarkdown } from '../compare/format-markdown.ts';
import { formatText } from '../compare/format-text.ts';
import { loadReport } from '../compare/load-report.ts';
import { scenarioMetrics } from '../compare/metrics.ts';
import type { BudgetResult, Comparison } from '../compare/model.ts';
import { writeComparison } from '../compare/write-outputs.ts';
import { UsageError } from '../errors/harness-errors.ts';
import { SecretRegistry } from '../http/redact.ts';
import { redactStrings } from '../report/redact-report.ts';
import { selectBaseline, type BaselineSelection } from './baseline-runs.ts';
import { historyBudget } from './history-gate.ts';
import { readHistory } from './read-history.ts';

export interface HistoryCompareOptions {
  historyDir: string;
  candidate: string;
  label?: string;
  last: number;
  budgets?: readonly Budget[];
  outDir: string;
  summaryMd?: string;
  write: (text: string) => void;
}

export async function runHistoryCompare(options: HistoryCompareOptions): Promise<{ comparison: Comparison; passed: boolean }> {
  const history = await readHistory(options.historyDir);
  for (const s of history.skipped) options.write(`history: skipped ${s.file}: ${s.why}\n`);
  const candidate = await loadReport(options.candidate);
  const pool = history.entries.filter((e) => (options.label === undefined || e.meta.label === options.label) && e.report.run.id !== candidate.run.id);
  const latest = pool.at(-1);
  const reports: LoadedReport[] = [...(latest ? [{ file: `${options.historyDir}/${latest.file}`, report: latest.report }] : []), { file: options.candidate, report: candidate }];
  const comparison = buildComparison({ reports, baseline: 0 });
  const label = comparison.runs.at(-1)!.label;
  const selections: BaselineSelection[] = (candidate.scenarios ?? []).map((s) =>
    selectBaseline(history.entries, s.name, { ...(options.label !== undefined ? { label: options.label } : {}), last: options.last, candidateRunId: candidate.run.id }),
  );
  const budgets: BudgetResult[] = [];
  for (const budget of options.budgets ?? []) {
    if ('max' in budget) {
      const actual = candidate.summary[budget.metric];
      const noun = budget.metric === 'failed' ? 'failed checks' : 'errored checks';
      budgets.push({ budget: budget.text, run: label, actual, limit: budget.max, status: actual > budget.max ? 'exceeded' : 'within', detail: `${budget.text}: ${label} has ${actual} ${noun} (at most ${budget.max} allowed)` });
      continue;
    }
    if (selections.length === 0) {
      budgets.push({ budget: budget.text, run: label, status: 'not-evaluated', detail: `${budget.text}: ${label} has no scenario to compare` });
      continue;
    }
    for (const selection of selections) {
      const scenario = candidate.scenarios!.find((s) => s.name === selection.scenario)!;
      budgets.push(historyBudget(budget, label, scenarioMetrics(scenario), selection));
    }
  }
  const gate: Comparison['gate'] = !options.budgets ? 'none' : budgets.some((b) => b.status === 'exceeded') ? 'failed' : budgets.some((b) => b.status === 'inconclusive') ? 'inconclusive' : 'passed';
  const result = redactStrings(
    {
      ...comparison,
      budgets,
      gate,
      history: {
        dir: options.historyDir,
        ...(options.label !== undefined ? { label: options.label } : {}),
        last: options.last,
        baselines: selections.map((s) => ({ scenario: s.scenario, runs: s.runs.map((r) => r.entry.report.run.id), leftOut: s.leftOut })),
        skipped: history.skipped,
      },
    },
    new SecretRegistry(),
  );
  options.write(formatText(result));
  for (const s of selections) options.write(`history: scenario "${s.scenario}" compared with ${s.said}\n`);
  const written = await writeComparison(result, options.outDir);
  options.write(`compare.json: ${written.json}\ncompare.html: ${written.html}\n`);
  if (options.summaryMd) {
    const before = await readFile(options.summaryMd, 'utf8').catch(() => '');
    const gap = before.length === 0 ? '' : before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
    await writeFile(options.summaryMd, gap + formatMarkdown(result), { flag: 'a' });
    options.write(`summary: ${options.summaryMd}\n`);
  }
  return { comparison: result, passed: gate !== 'failed' };
}

export function assertOneCandidate(files: readonly string[]): string {
  if (files.length !== 1) throw new UsageError(`--history: give exactly one report (the candidate) to compare with the history, got ${files.length}`);
  return files[0]!;
}
