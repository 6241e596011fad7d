/** `harness import k6 SUMMARY.json [--out report.json]`: a k6 summary as a report.json for `harness compare`. */
import { join } from 'node:path';
import type { Command } from 'commander';
import { importK6 } from '../job/import-k6.ts';
import { newRunId } from '../reporters/report.ts';
import { urlFlag } from './parse-flags.ts';

export function registerImportCommand(program: Command): void {
  const importCommand = program.command('import').description("turn another tool's results into a report.json that harness compare accepts");
  importCommand
    .command('k6')
    .description('a k6 summary (k6 run --summary-export FILE, or handleSummary data written as JSON) → report.json with one scenarios[] entry')
    .argument('<summary>', 'the k6 summary JSON file')
    .exitOverride()
    .option('--out <file>', 'report.json to write (default: reports/k6-<id>/report.json)')
    .option('--name <scenario>', 'scenario name, to line up with a harness scenario in compare (default: the file name without .json)')
    .option('--target <url>', 'base URL the k6 test ran against (a summary does not record it)', urlFlag('--target'))
    .action(async (file: string, flags: { out?: string; name?: string; target?: string }) => {
      const out = flags.out ?? join('reports', `k6-${newRunId()}`, 'report.json');
      const report = await importK6({ file, out, ...(flags.name ? { name: flags.name } : {}), ...(flags.target ? { target: flags.target } : {}) });
      const scenario = report.scenarios?.[0];
      const crossed = scenario?.thresholds.filter((t) => !t.ok).length ?? 0;
      process.stdout.write(`imported ${file} (${report.run.imported?.format}) as scenario "${scenario?.name}"${crossed ? `, ${crossed} threshold(s) crossed` : ''}\nreport.json: ${out}\n`);
    });
}
