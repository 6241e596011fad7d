/**
 * Which runs of a history a candidate is compared with, per scenario: the newest `last` runs of the same label that
 * measured that scenario, never the candidate's own run, and never a run that stopped early (its numbers cover part
 * of the scenario). A left-out run is named with why, and the runs before it fill its place: the decision always says
 * which runs it compared with and why. Runs whose load generator stalled stay in, and are counted in the sentence:
 * their delay is part of the between-run spread the gate measures, which only makes it more careful (a high
 * baseline hides regressions, it cannot invent one; a stalled candidate is history-gate.ts's concern).
 */
import type { ScenarioMetrics } from '../compare/model.ts';
import { scenarioMetrics } from '../compare/metrics.ts';
import { runName, type HistoryEntry } from './entry.ts';

export interface BaselineRun {
  entry: HistoryEntry;
  metrics: ScenarioMetrics;
}

export interface BaselineSelection {
  scenario: string;
  runs: BaselineRun[];
  leftOut: Array<{ run: string; why: string }>;
  /** One sentence: which runs, from where, and why those. */
  said: string;
}

export { DEFAULT_LAST } from './baseline-defaults.ts';
/** Fewest baseline runs the gate decides on: with fewer the between-run spread is not measured at all. */
export const MIN_RUNS = 3;

export function selectBaseline(entries: readonly HistoryEntry[], scenario: string, options: { label?: string; last: number; candidateRunId: string }): BaselineSelection {
  const runs: BaselineRun[] = [];
  const leftOut: BaselineSelection['leftOut'] = [];
  const pool = entries.filter((e) => (options.label === undefined || e.meta.label === options.label) && e.report.run.id !== options.candidateRunId);
  for (let i = pool.length - 1; i >= 0 && runs.length < options.last; i--) {
    const entry = pool[i]!;
    const found = entry.report.scenarios?.find((s) => s.name === scenario);
    if (!found) continue;
    const metrics = scenarioMetrics(found);
    if (entry.report.run.aborted) leftOut.push({ run: runName(entry), why: `stopped early (${entry.report.run.aborted.code})` });
    else runs.push({ entry, metrics });
  }
  runs.reverse();
  const of = options.label === undefined ? 'any label' : `label "${options.label}"`;
  const names = runs.map((r) => runName(r.entry)).join(', ');
  const bound = runs.filter((r) => r.metrics.generatorBound).length;
  const said = (runs.length === 0
    ? `no run of ${of} with scenario "${scenario}" in the history`
    : `the last ${runs.length} run${runs.length === 1 ? '' : 's'} of ${of} with scenario "${scenario}" (at most ${options.last}): ${names}` +
      (bound > 0 ? ` (${bound} of them generator-bound: their stalls are in the between-run spread)` : '')) +
    (leftOut.length > 0 ? `; left out: ${leftOut.map((l) => `${l.run} (${l.why})`).join(', ')}` : '');
  return { scenario, runs, leftOut, said };
}
