/**
 * report.json's model. The fields below are stable API from schemaVersion 1 on: later work adds fields,
 * never renames or removes them. schemas/report.schema.json describes the same shape.
 */
import type { TargetInfo } from '../conformance/context.ts';
import { coverageOf, type Coverage } from '../conformance/coverage.ts';
import type { SecurityCoverage } from '../conformance/owasp.ts';
import { HARNESS_VERSION } from '../version.ts';
import { summarize, verdictOf, type CheckResult, type Summary, type Verdict } from '../conformance/result.ts';
import type { ConditionsSnapshot } from '../conformance/conditions.ts';
import type { WebhookStats } from '../webhooks/stats.ts';
import type { RateLimitReport, ScenarioEntry, ScenarioReport } from './report-load.ts';

export type * from './report-load.ts';
export { isImportedScenario } from './report-load.ts';

export const REPORT_SCHEMA_VERSION = 1;

export interface Report {
  schemaVersion: typeof REPORT_SCHEMA_VERSION;
  run: {
    id: string;
    startedAt: string;
    finishedAt: string;
    harnessVersion: string;
    target: TargetInfo;
    /** Set when the run stopped early; what was measured before is still here. */
    aborted?: { code: string; message: string };
    /** Set when the report was imported from another tool's output (`harness import k6`), not run by the harness. */
    imported?: { tool: 'k6'; format: 'summary-export' | 'handle-summary' | 'samples'; file: string; files?: string[]; importedAt: string };
  };
  verdict: Verdict;
  /**
   * Present when the run left catalogue checks out (selected suites or checks, or skipped ids): then it is not a
   * certification, and a verdict that would have been `certified` or `certified-with-warnings` is
   * `selection-passed`. Every report shows it first (src/report/headline.ts).
   */
  selection?: Selection;
  checks: CheckResult[];
  summary: Summary;
  /** Each SERVICE-SPEC clause with the checks that test it, or why nothing can. */
  coverage: Coverage;
  /**
   * Each OWASP API Security Top 10 (2023) item with the checks of this run that cover it and their findings
   * (src/conformance/owasp.ts). Present in reports of runs with checks.
   */
  security?: SecurityCoverage;
  /** Throughput scenarios, when the run had any (report-load.ts). */
  scenarios?: ScenarioReport[];
  /** The rate-limit probe's findings, when it ran (report-load.ts). */
  rateLimit?: RateLimitReport;
  /** What the webhook receiver saw, when the webhooks suite ran (src/webhooks/stats.ts). */
  webhooks?: WebhookStats;
  /**
   * The run's own measured conditions over the whole run (src/conformance/conditions.ts): event-loop delay,
   * round trips to the target, send lag. Checks judged time against the same measurements, per stretch.
   */
  conditions?: ConditionsSnapshot;
}

/** What a run of selected checks selected, and out of how many. */
export interface Selection {
  /** Checks that ran (skipped ids not counted). */
  selected: number;
  /** Every check the run's catalogue held: the built-in suites and the config's declarative ones. */
  catalogue: number;
  /** The suites chosen (`--suite` / `conformance.suites`), when not all. */
  suites?: string[];
  /** The check ids chosen (`--check`), when given. */
  checks?: string[];
  /** The check ids skipped (`conformance.skipChecks`), when any. */
  skipChecks?: string[];
}

export interface ReportInput {
  runId: string;
  startedAt: string;
  /** @default now */
  finishedAt?: string;
  /** @default this harness's version */
  harnessVersion?: string;
  target: TargetInfo;
  /** @default none: a load, capacity or probe report (verdict "not-evaluated") */
  checks?: CheckResult[];
  /** @default no clause covered */
  coverage?: Coverage;
  /** @default absent (a load, capacity or probe report) */
  security?: SecurityCoverage;
  aborted?: { code: string; message: string };
  scenarios?: ScenarioReport[];
  rateLimit?: RateLimitReport;
  webhooks?: WebhookStats;
  imported?: Report['run']['imported'];
  /** When the run left catalogue checks out (src/job/run-job.ts selectionOf). */
  selection?: Selection;
  conditions?: ConditionsSnapshot;
}

/**
 * A report.json as readers (`harness compare`) take it: written by a harness run, or imported from k6
 * (`harness import k6`), whose `scenarios[]` entries are ImportedScenario (`source: "k6"`).
 */
export type ReadReport = Omit<Report, 'scenarios'> & { scenarios?: ScenarioEntry[] };

export function buildReport(input: ReportInput): Report {
  const checks = input.checks ?? [];
  const summary = summarize(checks);
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    run: {
      id: input.runId,
      startedAt: input.startedAt,
      finishedAt: input.finishedAt ?? new Date().toISOString(),
      harnessVersion: input.harnessVersion ?? HARNESS_VERSION,
      target: input.target,
      ...(input.aborted ? { aborted: input.aborted } : {}),
      ...(input.imported ? { imported: input.imported } : {}),
    },
    verdict: selectionVerdict(verdictOf(summary, input.aborted !== undefined), input.selection),
    ...(input.selection ? { selection: input.selection } : {}),
    checks,
    summary,
    coverage: input.coverage ?? coverageOf([]),
    ...(input.security ? { security: input.security } : {}),
    ...(input.scenarios ? { scenarios: input.scenarios } : {}),
    ...(input.rateLimit ? { rateLimit: input.rateLimit } : {}),
    ...(input.webhooks ? { webhooks: input.webhooks } : {}),
    ...(input.conditions ? { conditions: input.conditions } : {}),
  };
}

/** A selection never certifies: what would have been certified is `selection-passed`; failures stay failures. */
export function selectionVerdict(verdict: Verdict, selection: Selection | undefined): Verdict {
  if (!selection) return verdict;
  return verdict === 'certified' || verdict === 'certified-with-warnings' ? 'selection-passed' : verdict;
}

/** "2 of 163 checks selected" and how: the words every report uses for a selection. */
export function describeSelection(selection: Selection): string {
  const how = [
    selection.checks?.length ? `checks ${selection.checks.join(', ')}` : '',
    selection.suites?.length ? `suites ${selection.suites.join(', ')}` : '',
    selection.skipChecks?.length ? `${selection.skipChecks.length} skipped by conformance.skipChecks (${selection.skipChecks.join(', ')})` : '',
  ].filter(Boolean);
  return `${selection.selected} of ${selection.catalogue} checks selected${how.length ? ` (${how.join('; ')})` : ''}`;
}

/** Sortable and unique: 20261121T061502Z-3f9a1c. */
export function newRunId(now = new Date(), random = Math.random): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  const suffix = Math.floor(random() * 0xffffff).toString(16).padStart(6, '0');
  return `${stamp}-${suffix}`;
}
