/** `harness load`: throughput scenarios against --target, or against the embedded reference target. */
import type { Command } from 'commander';
import type { ExitCodeValue } from '../errors/exit-codes.ts';
import type { LoadJobFlags } from './load-job-flags.ts';
import { nonEmptyListFlag, positiveNumberFlag, urlFlag, workersFlag } from './parse-flags.ts';

interface LoadFlags extends LoadJobFlags {
  scenario: string[];
  duration?: string;
  rate?: number;
}

export function registerLoadCommand(program: Command, setExit: (code: ExitCodeValue) => void): void {
  program
    .command('load')
    .description('run throughput scenarios (scenarios/*.yaml) against a target (default: the embedded reference target); exits 99 when a threshold is crossed')
    .requiredOption('--scenario <names>', 'comma-separated scenario names (scenarios/<name>.yaml) or files', nonEmptyListFlag('--scenario'))
    .option('--target <url>', 'base URL of the target (default: start the embedded reference target)', urlFlag('--target'))
    .option('--config <file>', 'config file (default: ./harness.config.yaml when present)')
    .option('--out <dir>', 'folder for reports/<run-id>/ (report.json, report.html, junit.xml; default: report.outDir, "reports")')
    .option('--duration <d>', 'override the duration (e.g. 10s; ramping executors keep their shape)')
    .option('--rate <r>', 'override the arrival rate per timeUnit (arrival-rate executors; ramping: the peak)', positiveNumberFlag('--rate'))
    .option('--workers <n>', "worker threads generating each scenario's load: VUs divided, arrivals dealt out in turn, metrics merged exactly (a number or auto; default: load.workers in the config, else the scenario's workers, else auto: one per 10000 req/s or 100 VUs, at most the cores less one)", workersFlag('--workers'))
    .option('--metrics-out <kind=url>', 'push live metrics while scenarios run: prometheus-rw=URL (Prometheus remote write, k6\'s metric names, testid = the run id; default: load.metricsOut in the config, else none)')
    .option('--no-progress', 'no live progress line')
    .action(async (flags: LoadFlags) => {
      // Loaded here, not at the top: the other commands' starts would pay for the load engine and the config pipeline.
      const [{ runLoadJob }, { commonLoadJobOptions, loadJobConfig }, { loadScenarios }] = await Promise.all([
        import('../job/load-job.ts'),
        import('./load-job-flags.ts'),
        import('../load/scenario/select.ts'),
      ]);
      const config = loadJobConfig(flags);
      const scenarios = loadScenarios(flags.scenario, { ...(flags.duration ? { duration: flags.duration } : {}), ...(flags.rate ? { rate: flags.rate } : {}) });
      const outcome = await runLoadJob({
        ...commonLoadJobOptions(flags, config),
        scenarios,
      });
      setExit(outcome.exitCode);
    });
}
