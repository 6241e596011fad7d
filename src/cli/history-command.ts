/**
 * `harness history DIR`: lists a history folder's series and the runs where p50, p95, rps, error rate or the
 * conformance verdict changed, and writes trend.json and trend.html. `--add REPORT` first appends a run to the
 * folder (with `--label`, and the commit and branch of the CI environment).
 */
import { join } from 'node:path';
import type { Command } from 'commander';

interface HistoryFlags {
  add?: string;
  label?: string;
  out?: string;
}

export function registerHistoryCommand(program: Command): void {
  program
    .command('history')
    .description('list the runs of a history folder where p50, p95, rps, error rate or the verdict changed, and write trend.html; --add appends a run')
    .argument('<dir>', 'the history folder (one file per run; created by --add)')
    .option('--add <report>', 'append this report.json to the history first (append-only; commit and branch from the CI environment)')
    .option('--label <label>', 'with --add: what the run was of, e.g. main (default: the CI branch)')
    .option('--out <dir>', 'folder for trend.json and trend.html (default: reports/history-<id>)')
    .action(async (dir: string, flags: HistoryFlags) => {
      // Loaded here, not at the top: the other commands' starts would pay for this one's engines.
      const [{ addRun }, { readHistory }, { buildTrend, formatTrend, writeTrend }, { assertWritableOutDir }, { newRunId }] = await Promise.all([
        import('../history/add-run.ts'),
        import('../history/read-history.ts'),
        import('../history/trend.ts'),
        import('../job/out-dir.ts'),
        import('../report/report.ts'),
      ]);
      if (flags.add !== undefined) {
        const added = await addRun({ dir, reportFile: flags.add, ...(flags.label !== undefined ? { label: flags.label } : {}) });
        const meta = [added.meta.label ? `label ${added.meta.label}` : '', added.meta.commit ? `commit ${added.meta.commit}` : '', added.meta.branch ? `branch ${added.meta.branch}` : ''].filter(Boolean).join(', ');
        process.stdout.write(`history: added run ${added.runId} as ${added.file}${meta ? ` (${meta})` : ''}\n`);
      }
      const outDir = flags.out ?? join('reports', `history-${newRunId()}`);
      await assertWritableOutDir(outDir, 5000, flags.out ? '--out' : 'the default history folder');
      const trend = buildTrend(await readHistory(dir, 'history'));
      process.stdout.write(formatTrend(trend));
      const written = await writeTrend(trend, outDir);
      process.stdout.write(`trend.json: ${written.json}\ntrend.html: ${written.html}\n`);
    });
}
