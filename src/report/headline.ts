/**
 * What a report says first, in the same words everywhere: report.html's banner, the console's verdict line and
 * junit.xml's top-level name all come from headlineOf(report). It names the kind of run, the exit code the run's
 * command returned for this report (so a run that exits 99 never reads as a plain green CERTIFIED), and one line
 * per fact the run measured: conformance level counts, thresholds, generator-bound, capacity, the rate-limit probe.
 *
 * Adding a report kind or a kind-specific line: add a function to KIND_LINES (one per kind); the banner, the
 * console and JUnit pick it up.
 */
import { ExitCode, type ExitCodeValue } from '../errors/exit-codes.ts';
import { describeConditions } from '../conformance/conditions.ts';
import { interruptedText } from '../util/capacity-words.ts';
import { levelCounts } from './level-counts.ts';
import { ownershipLine } from './ownership-line.ts';
import { describeSelection, type Report, type ScenarioReport } from './report.ts';
import { probeFindings } from './probe-findings.ts';
import type { HeadlineLine, Tone } from './headline-line.ts';

export type ReportKind = 'conformance' | 'load' | 'capacity' | 'probe';
export type { HeadlineLine, Tone } from './headline-line.ts';

export interface Headline {
  kind: ReportKind;
  /** The exit code the command returned for this report (src/errors/exit-codes.ts). */
  exitCode: ExitCodeValue;
  /** "CERTIFIED — thresholds crossed (exit 99)": the verdict as the exit code has it. */
  title: string;
  tone: Tone;
  /** "harness run (conformance + 2 scenarios)", "harness load (1 scenario)" … */
  what: string;
  lines: HeadlineLine[];
}

/** Which command's report this is, from what it holds. */
export function reportKind(report: Report): ReportKind {
  const scenarios = report.scenarios ?? [];
  if (report.checks.length > 0) return 'conformance';
  if (scenarios.some((s) => s.capacity)) return 'capacity';
  if (scenarios.length > 0) return 'load';
  if (report.rateLimit) return 'probe';
  return 'conformance';
}

/**
 * The exit code a command returns for this report (src/job/run-job.ts exitCodeOf delegates here, so the banner and
 * the process agree): interrupted > unreachable or lost > MUST failed > incomplete > thresholds crossed > 0.
 * Capacity steps carry no thresholds, and a probe none, so both end 0 unless stopped.
 */
export function exitCodeOfReport(report: Report): ExitCodeValue {
  const code = report.run.aborted?.code;
  if (code === 'HARNESS_ABORTED') return ExitCode.Interrupted;
  if (code === 'HARNESS_ERR_TARGET_UNREACHABLE' || code === 'HARNESS_ERR_TARGET_LOST') return ExitCode.TargetUnreachable;
  if (report.verdict === 'not-certified') return ExitCode.MustFailed;
  if (report.verdict === 'incomplete') return ExitCode.Incomplete;
  return crossedThresholds(report).length > 0 ? ExitCode.ThresholdsCrossed : ExitCode.Certified;
}

function crossedThresholds(report: Report): Array<{ scenario: string; metric: string; expr: string; actual: number; notEvaluated?: string }> {
  return (report.scenarios ?? []).flatMap((s) => s.thresholds.filter((t) => !t.ok).map((t) => ({ scenario: s.name, ...t })));
}

const VERDICT_TONE: Record<Report['verdict'], Tone> = {
  certified: 'pass',
  'certified-with-warnings': 'warn',
  // The selected checks passed; the tone does not say "certified" (the words do not either).
  'selection-passed': 'pass',
  incomplete: 'incomplete',
  'not-certified': 'fail',
  'not-evaluated': 'neutral',
};

export function headlineOf(report: Report): Headline {
  const kind = reportKind(report);
  const exitCode = exitCodeOfReport(report);
  const lines = [...commonLines(report), ...KIND_LINES[kind](report)];
  const { title, tone } = titleOf(report, kind, exitCode, lines);
  return { kind, exitCode, title, tone, what: whatRan(report, kind), lines };
}

function titleOf(report: Report, kind: ReportKind, exitCode: number, lines: HeadlineLine[]): { title: string; tone: Tone } {
  const exit = ` (exit ${exitCode})`;
  if (exitCode === ExitCode.Interrupted) return { title: `INTERRUPTED — partial report${exit}`, tone: 'incomplete' };
  if (exitCode === ExitCode.TargetUnreachable) {
    const lost = report.run.aborted?.code === 'HARNESS_ERR_TARGET_LOST';
    return { title: `${lost ? 'TARGET LOST during the run' : 'TARGET UNREACHABLE'}${exit}`, tone: 'fail' };
  }
  if (report.verdict !== 'not-evaluated') {
    // A selection is said in the title itself, so no report can read as a certification of the whole catalogue.
    const selected = report.selection ? `${report.selection.selected} of ${report.selection.catalogue} checks selected` : '';
    const verdict = report.verdict === 'selection-passed'
      ? `PASSED — ${selected}; not a certification`
      : `${report.verdict.toUpperCase()}${selected ? ` — ${selected}` : ''}`;
    if (exitCode === ExitCode.ThresholdsCrossed) return { title: `${verdict} — thresholds crossed${exit}`, tone: 'fail' };
    const warned = report.verdict === 'selection-passed' && LEVELS_WARN.some((l) => report.summary.byLevel[l].failed + report.summary.byLevel[l].errors > 0);
    return { title: `${verdict}${exit}`, tone: warned ? 'warn' : VERDICT_TONE[report.verdict] };
  }
  // No checks ran: the kind's own outcome is the verdict.
  if (exitCode === ExitCode.ThresholdsCrossed) return { title: `THRESHOLDS CROSSED${exit}`, tone: 'fail' };
  const worst = lines.some((l) => l.tone === 'fail') ? 'fail' : lines.some((l) => l.tone === 'warn') ? 'warn' : undefined;
  if (kind === 'load') {
    const any = (report.scenarios ?? []).some((s) => s.thresholds.length > 0);
    return { title: any ? `THRESHOLDS PASSED${exit}` : `LOAD RUN — no thresholds set${exit}`, tone: any ? 'pass' : 'neutral' };
  }
  if (kind === 'capacity') {
    const line = lines.find((l) => l.label === 'Capacity');
    return { title: `CAPACITY: ${line ? line.text.replace(/ \(SLO .*\)$/, '') : 'not measured'}${exit}`, tone: line?.tone ?? 'neutral' };
  }
  if (kind === 'probe') {
    const findings = lines.filter((l) => l.tone === 'fail' || l.tone === 'warn').map((l) => `${l.label} ${l.text.split(/[:—]/)[0]!.trim()}`);
    return { title: findings.length ? `RATE LIMIT: ${findings.join(', ')}${exit}` : `RATE LIMIT AS CLAIMED${exit}`, tone: worst ?? 'pass' };
  }
  return { title: `NOT EVALUATED — no checks ran${exit}`, tone: 'neutral' };
}

const LEVELS_WARN = ['SHOULD', 'PROFILE'] as const;

function whatRan(report: Report, kind: ReportKind): string {
  const n = (report.scenarios ?? []).length;
  const scenarios = `${n} scenario${n === 1 ? '' : 's'}`;
  switch (kind) {
    case 'conformance':
      return `harness run: ${report.checks.length ? `${report.selection ? `${report.selection.selected} of ${report.selection.catalogue}` : report.checks.length} conformance checks` : 'no check ran'}${n ? ` and ${scenarios}` : ''}`;
    case 'load': {
      // Runners' samples merged by `harness import k6`: k6 measured them, the harness judged the union.
      const runners = (report.scenarios ?? []).reduce((a, s) => a + (s.k6?.runners.length ?? 0), 0);
      return report.run.imported?.format === 'samples' ? `harness import k6: ${runners} k6 runner${runners === 1 ? '' : 's'} merged, thresholds judged on the union` : `harness load: ${scenarios}`;
    }
    case 'capacity':
      return 'harness capacity: a capacity search';
    case 'probe':
      return 'harness probe ratelimit: the rate-limit probe';
  }
}

/** Lines every kind shows when the report has the facts: stopped early, conformance, thresholds, generator-bound. */
function commonLines(report: Report): HeadlineLine[] {
  const lines: HeadlineLine[] = [];
  // First: what the run covered, when it was not the whole catalogue.
  if (report.selection) lines.push({ label: 'Selection', text: `${describeSelection(report.selection)}: not a certification, which needs every catalogue check`, tone: 'neutral' });
  const aborted = report.run.aborted;
  if (aborted) lines.push({ label: 'Stopped early', text: `${aborted.code}: ${aborted.message}`, tone: 'fail' });
  if (report.checks.length > 0) lines.push({ label: 'Conformance', text: levelCounts(report.summary), tone: VERDICT_TONE[report.verdict] });
  // Ownership says itself what kept it from running (a key to add) or why it does not apply: never silent.
  const ownership = ownershipLine(report.checks);
  if (ownership) lines.push(ownership);
  // Where a verdict depended on the run's conditions (a check could not decide under them), say what they were.
  const undecided = report.checks.filter((c) => c.status === 'undecided').length;
  if (undecided > 0 && report.conditions) {
    lines.push({ label: 'Run conditions', text: `${undecided} check(s) could not decide under them: ${describeConditions(report.conditions)}`, tone: 'incomplete' });
  }
  const scenarios = report.scenarios ?? [];
  const all = scenarios.flatMap((s) => s.thresholds);
  if (all.length > 0) {
    const crossed = crossedThresholds(report);
    lines.push(crossed.length === 0
      ? { label: 'Thresholds', text: `all ${all.length} passed`, tone: 'pass' }
      : { label: 'Thresholds', text: `${crossed.length} of ${all.length} ${crossed.some((t) => t.notEvaluated) ? 'crossed or not evaluated' : 'crossed'}: ${crossed.map((t) => `${t.scenario} ${t.metric} ${t.expr} (${t.notEvaluated ? `not evaluated: ${t.notEvaluated}` : `measured ${round(t.actual)}`})`).join('; ')}`, tone: 'fail' });
  }
  for (const s of scenarios) {
    const bound = generatorBound(s);
    if (bound) lines.push({ label: 'Generator-bound', text: `${s.name}: ${bound}`, tone: 'warn' });
  }
  return lines;
}

/** `generatorBound` (optional on ScenarioResult): set by the load engine when the generator, not the target, limited the run. */
function generatorBound(s: ScenarioReport): string | undefined {
  return s.generatorBound?.message;
}

const KIND_LINES: Record<ReportKind, (report: Report) => HeadlineLine[]> = {
  conformance: () => [],
  load: (report) =>
    (report.scenarios ?? []).flatMap((s) => [
      {
        label: 'Scenario',
        text: `${s.name}: ${s.requests} requests at ${round(s.rps)}/s, p95 ${round(s.latency.p95)} ms, p99 ${round(s.latency.p99)} ms, ${s.dropped} dropped`,
        tone: 'neutral' as Tone,
      },
      // The per-runner breakdown of a merged k6 import: each runner's own numbers and its verdict alone (information).
      ...(s.k6?.runners ?? []).map((r) => {
        const crossed = r.thresholds.filter((t) => !t.ok).length;
        return {
          label: 'Runner',
          text: `${s.name} ${r.runner}: ${r.requests} requests, p99 ${round(r.latency.p99)} ms, ${r.failed} failed, ${r.dropped} dropped; alone it ${r.thresholds.length === 0 ? 'had no thresholds' : crossed ? `would cross ${crossed} threshold${crossed === 1 ? '' : 's'}` : 'would hold every threshold'} (${r.file})`,
          tone: 'neutral' as Tone,
        };
      }),
    ]),
  capacity: (report) => (report.scenarios ?? []).filter((s) => s.capacity).map((s) => capacityLine(s)),
  probe: (report) => (report.rateLimit ? probeFindings(report.rateLimit) : []),
};

function capacityLine(s: ScenarioReport): HeadlineLine {
  const cap = s.capacity!;
  const budget = `SLO ${cap.slo}, error budget ${round(cap.errorBudget * 100)} %`;
  // Never a sustainable rate the search did not finish measuring (the interrupted step is not among the steps).
  if (cap.ceiling === 'interrupted') return { label: 'Capacity', text: `${interruptedText(cap)} (${budget})`, tone: 'warn' };
  if (cap.ceiling === 'generator-bound') {
    return { label: 'Capacity', text: `not measured past ${round(cap.sustainableRps)} req/s: the load generator, not the target, broke the next step (${budget})`, tone: 'warn' };
  }
  // Every step held: the search stopped at its highest rate, so the target's ceiling lies above what was tried.
  const allHeld = cap.steps.length > 0 && cap.steps.every((step) => step.ok);
  if (cap.ceiling === 'not-reached' || (cap.ceiling === undefined && allHeld)) {
    return { label: 'Capacity', text: `ceiling not reached: ${round(cap.sustainableRps)} req/s held, the highest rate tried (${budget})`, tone: 'warn' };
  }
  if (cap.sustainableRps <= 0) return { label: 'Capacity', text: `no sustainable rate: the start rate already broke the ${budget}`, tone: 'fail' };
  return { label: 'Capacity', text: `${round(cap.sustainableRps)} req/s sustainable (${budget})`, tone: 'pass' };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
