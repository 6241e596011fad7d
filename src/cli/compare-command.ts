/** `harness compare A.json B.json …`: reports side by side; with --budget a CI gate (exit 1 when exceeded). */
import { join } from 'node:path';
import type { Command } from 'commander';
import { parseBudgets, type Budget } from '../compare/budget.ts';
import { DEFAULT_LAST } from '../history/baseline-defaults.ts';
import { integerFlag } from './parse-flags.ts';
import { UsageError } from '../errors/harness-errors.ts';
import { ExitCode, type ExitCodeValue } from '../errors/exit-codes.ts';

interface CompareFlags {
  baseline?: string;
  budget?: Budget[];
  out?: string;
  summaryMd?: string;
  history?: string;
  label?: string;
  last?: number;
}

export function registerCompareCommand(program: Command, setExit: (code: ExitCodeValue) => void): void {
  program
    .command('compare')
    .description('compare two or more report.json files side by side; with --budget, exit 1 when a budget is exceeded')
    .argument('<reports...>', 'report.json files (the first is the baseline unless --baseline says otherwise; with --history, the one candidate)')
    .option('--baseline <report>', 'the report the others are compared with: one of the files, or its run id')
    .option('--budget <list>', "allowed regressions, e.g. 'p95:+10%,rps:-5%,failed:0' (p50/p95/p99 +N% or +Nms, rps -N%, failed/errors N, rate429/errorRate +Npp)", parseBudgets)
    .option('--out <dir>', 'folder for compare.json and compare.html (default: reports/compare-<id>)')
    .option('--summary-md <file>', 'append a Markdown summary to this file (e.g. "$GITHUB_STEP_SUMMARY")')
    .option('--history <dir>', 'compare one report with the runs of a history folder (harness history --add) instead of a baseline report')
    .option('--label <label>', 'with --history: compare with runs of this label only (default: every run)')
    .option('--last <n>', `with --history: how many of the newest runs make the baseline (default ${DEFAULT_LAST})`, integerFlag('--last', 1, 1000))
    .action(async (files: string[], flags: CompareFlags) => {
      // Loaded here, not at the top: the other commands' starts would pay for this one's engines.
      const [{ assertWritableFile, assertWritableOutDir }, { runCompare }, { assertOneCandidate, runHistoryCompare }, { newRunId }] = await Promise.all([
        import('../job/out-dir.ts'),
        import('../compare/run-compare.ts'),
        import('../history/history-compare.ts'),
        import('../report/report.ts'),
      ]);
      // Output paths first: an unwritable one is a usage error (exit 2) naming it, not an internal error at the end.
      const outDir = flags.out ?? join('reports', `compare-${newRunId()}`);
      await assertWritableOutDir(outDir, 5000, flags.out ? '--out' : 'the default compare folder');
      if (flags.summaryMd) await assertWritableFile(flags.summaryMd, '--summary-md');
      if (flags.history === undefined && (flags.label !== undefined || flags.last !== undefined)) throw new UsageError('--label and --last go with --history');
      if (flags.history !== undefined) {
        if (flags.baseline !== undefined) throw new UsageError('--baseline and --history cannot be combined: with --history the baseline is the history\'s runs');
        const outcome = await runHistoryCompare({
          historyDir: flags.history,
          candidate: assertOneCandidate(files),
          ...(flags.label !== undefined ? { label: flags.label } : {}),
          last: flags.last ?? DEFAULT_LAST,
          ...(flags.budget ? { budgets: flags.budget } : {}),
          outDir,
          ...(flags.summaryMd ? { summaryMd: flags.summaryMd } : {}),
          write: (text) => process.stdout.write(text),
        });
        setExit(outcome.passed ? ExitCode.Certified : ExitCode.MustFailed);
        return;
      }
      const outcome = await runCompare({
        files,
        ...(flags.baseline !== undefined ? { baseline: flags.baseline } : {}),
        ...(flags.budget ? { budgets: flags.budget } : {}),
        outDir,
        ...(flags.summaryMd ? { summaryMd: flags.summaryMd } : {}),
        write: (text) => process.stdout.write(text),
      });
      setExit(outcome.passed ? ExitCode.Certified : ExitCode.MustFailed);
    });
}
