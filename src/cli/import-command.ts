/**
 * `harness import k6 FILE... [--scenario S] [--out report.json]`:
 *  - several k6 runners' samples (`k6 run --out json=F.json.gz` / `--out csv=F.csv`, e.g. the pods of a k6-operator
 *    TestRun) → ONE report (report.json, report.html, junit.xml): counts summed, percentiles from merged histograms,
 *    a per-runner breakdown, the scenario's thresholds judged once on the union; exit 99 when one is crossed, as k6;
 *  - one k6 summary (`--summary-export`, handleSummary data) → a report.json for `harness compare` (what the summary
 *    holds, nothing merged).
 */
import { join } from 'node:path';
import type { Command } from 'commander';
import type { ExitCodeValue } from '../errors/exit-codes.ts';
import type { ScenarioReport } from '../report/report-load.ts';
import { reportFileOptions } from './report-file-options.ts';
import { positiveNumberFlag, urlFlag } from './parse-flags.ts';

interface ImportFlags {
  out?: string;
  name?: string;
  target?: string;
  scenario?: string;
  duration?: string;
  rate?: number;
}

const fmt = (n: number): string => (Math.round(n * 100) / 100).toString();

export function registerImportCommand(program: Command, setExit: (code: ExitCodeValue) => void = () => {}): void {
  const importCommand = program.command('import').description("turn another tool's results into a report.json that harness compare accepts");
  importCommand
    .command('k6')
    .description(
      "k6 runners' samples (k6 run --out json=F.json.gz or --out csv=F.csv, one file per runner) merged into one report judged once on the union (exit 99 when a threshold is crossed, as k6); or one k6 summary (--summary-export, handleSummary data) → report.json",
    )
    .argument('<files...>', 'the runners\' --out json / csv files (gzip\'d or not), or one k6 summary JSON file')
    .exitOverride()
    .option('--scenario <name>', 'samples: the scenario the script was exported from (scenarios/<name>.yaml or a file): its thresholds are judged on the union')
    .option('--duration <d>', 'samples: the --duration the script was exported with (for the report\'s config)')
    .option('--rate <r>', 'samples: the --rate the script was exported with (for the report\'s config)', positiveNumberFlag('--rate'))
    .option('--out <file>', 'report.json to write; samples: report.html and junit.xml beside it (default: reports/k6-<id>/report.json)')
    .option('--name <scenario>', 'scenario name, to line up with a harness scenario in compare (default: summary: the file name without .json; samples: the scenario\'s name)')
    .option('--target <url>', 'base URL the k6 test ran against (k6 output does not record it)', urlFlag('--target'))
    .action(async (files: string[], flags: ImportFlags) => {
      // Loaded here, not at the top: the other commands' starts would pay for this one's engines.
      const [{ importK6Runs }, { newRunId }] = await Promise.all([import('../job/import-k6.ts'), import('../report/report.ts')]);
      const out = flags.out ?? join('reports', `k6-${newRunId()}`, 'report.json');
      const outcome = await importK6Runs({
        files,
        out,
        reportFiles: reportFileOptions(undefined),
        log: (line) => process.stderr.write(`${line}\n`),
        ...(flags.scenario ? { scenario: flags.scenario } : {}),
        overrides: { ...(flags.duration ? { duration: flags.duration } : {}), ...(flags.rate ? { rate: flags.rate } : {}) },
        ...(flags.name ? { name: flags.name } : {}),
        ...(flags.target ? { target: flags.target } : {}),
      });
      const scenario = outcome.report.scenarios?.[0];
      if (outcome.kind === 'summary') {
        const crossed = scenario?.thresholds.filter((t) => !t.ok).length ?? 0;
        process.stdout.write(`imported ${files[0]} (${outcome.report.run.imported?.format}) as scenario "${scenario?.name}"${crossed ? `, ${crossed} threshold(s) crossed` : ''}\nreport.json: ${out}\n`);
        return;
      }
      process.stdout.write(mergeSummary(scenario as ScenarioReport, out));
      setExit(outcome.exitCode);
    });
}

/** The console's account of a merge: each runner, the union, and the thresholds judged on the union. */
function mergeSummary(s: ScenarioReport, out: string): string {
  const runners = s.k6?.runners ?? [];
  const lines = [`merged ${runners.length} k6 runner${runners.length === 1 ? '' : 's'} of scenario "${s.name}":`];
  for (const r of runners) {
    const crossed = r.thresholds.filter((t) => !t.ok && !t.notEvaluated).length;
    lines.push(`  ${r.runner.padEnd(14)} ${String(r.requests).padStart(9)} requests  p50 ${fmt(r.latency.p50)} ms  p99 ${fmt(r.latency.p99)} ms  failed ${r.failed}  dropped ${r.dropped}  alone: ${r.thresholds.length === 0 ? 'no thresholds' : crossed ? `${crossed} threshold(s) crossed` : 'thresholds held'}  (${r.file})`);
  }
  lines.push(`  ${'union'.padEnd(14)} ${String(s.requests).padStart(9)} requests  p50 ${fmt(s.latency.p50)} ms  p99 ${fmt(s.latency.p99)} ms  failed ${runners.reduce((a, r) => a + r.failed, 0)}  dropped ${s.dropped}  ${fmt(s.rps)}/s`);
  lines.push(`percentiles: ${s.k6?.precision.text}`);
  for (const t of s.thresholds) lines.push(`  ${t.ok ? '✓' : '✗'} ${t.metric} ${t.expr} ${t.notEvaluated ? `not evaluated: ${t.notEvaluated}` : `(union: ${fmt(t.actual)})`}`);
  const unjudged = s.thresholds.filter((t) => t.notEvaluated).length;
  const crossed = s.thresholds.filter((t) => !t.ok).length - unjudged;
  const of = `of ${s.thresholds.length} thresholds`;
  lines.push(
    s.thresholds.length === 0
      ? 'no thresholds in the scenario'
      : crossed || unjudged
        ? `${[crossed ? `${crossed} ${of} crossed on the union` : '', unjudged ? `${unjudged} ${crossed ? '' : `${of} `}not evaluated (no samples of their metric)` : ''].filter(Boolean).join(', ')} (exit 99)`
        : `all ${s.thresholds.length} thresholds held on the union`,
  );
  lines.push(`report.json: ${out}`);
  return `${lines.join('\n')}\n`;
}
