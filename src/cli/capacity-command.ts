/** `harness capacity`: the highest arrival rate a target sustains within an SLO and an error budget. */
import type { Command } from 'commander';
import { UsageError } from '../errors/harness-errors.ts';
import type { ExitCodeValue } from '../errors/exit-codes.ts';
import type { LoadJobFlags } from './load-job-flags.ts';
import { positiveNumberFlag, urlFlag, workersFlag } from './parse-flags.ts';

interface CapacityFlags extends LoadJobFlags {
  scenario: string;
  slo: string;
  errorBudget: string;
  start: number;
  max: number;
  stepDuration?: string;
}

export function registerCapacityCommand(program: Command, setExit: (code: ExitCodeValue) => void): void {
  program
    .command('capacity')
    .description('raise the arrival rate until an SLO or the error budget breaks, then bisect: the highest sustainable rate and the curve')
    .requiredOption('--scenario <name>', 'scenario whose request mix is used (scenarios/<name>.yaml or a file)')
    .requiredOption('--slo <expr>', "latency SLO on http_req_duration, e.g. 'p(99)<200'")
    .option('--error-budget <share>', 'largest share of failed + dropped requests, e.g. 1% or 0.01', '1%')
    .option('--start <rate>', 'first rate (requests/s)', positiveNumberFlag('--start'), 100)
    .option('--max <rate>', 'highest rate tried (requests/s)', positiveNumberFlag('--max'), 20_000)
    .option('--step-duration <d>', 'length of each step (default: the scenario duration, else 10s)')
    .option('--target <url>', 'base URL of the target (default: start the embedded reference target)', urlFlag('--target'))
    .option('--config <file>', 'config file (default: ./harness.config.yaml when present)')
    .option('--out <dir>', 'folder for reports/<run-id>/ (report.json with the capacity curve, report.html, junit.xml)')
    .option('--workers <n>', 'worker threads generating each step (a number or auto; default: load.workers in the config, else the scenario\'s workers, else auto); a step limited by the generator is never taken for the target\'s limit', workersFlag('--workers'))
    .option('--metrics-out <kind=url>', 'push live metrics while scenarios run: prometheus-rw=URL (Prometheus remote write, k6\'s metric names, testid = the run id; default: load.metricsOut in the config, else none)')
    .option('--no-progress', 'no live progress line')
    .action(async (flags: CapacityFlags) => {
      // Loaded here, not at the top: the other commands' starts would pay for the load engine and the config pipeline.
      const [{ runCapacityJob }, { commonLoadJobOptions, loadJobConfig }, { parseErrorBudget }, { parseDuration }, { loadScenarios }, { parseExpression }] = await Promise.all([
        import('../job/capacity-job.ts'),
        import('./load-job-flags.ts'),
        import('../load/capacity/search.ts'),
        import('../load/duration.ts'),
        import('../load/scenario/select.ts'),
        import('../load/thresholds/parse.ts'),
      ]);
      const slo = parseExpression(flags.slo, 'http_req_duration');
      if ('problem' in slo) throw new UsageError(`--slo: ${slo.problem}`);
      const errorBudget = parseErrorBudget(flags.errorBudget);
      if (errorBudget === undefined) throw new UsageError(`--error-budget: expected a share such as 1% or 0.01, got "${flags.errorBudget}"`);
      const stepDurationMs = flags.stepDuration === undefined ? undefined : parseDuration(flags.stepDuration);
      if (stepDurationMs === 0 || (flags.stepDuration !== undefined && stepDurationMs === undefined)) throw new UsageError(`--step-duration: "${flags.stepDuration}" is not a duration`);
      if (flags.start > flags.max) throw new UsageError(`--start (${flags.start}) is above --max (${flags.max})`);
      const config = loadJobConfig(flags);
      const [scenario] = loadScenarios([flags.scenario]);
      const outcome = await runCapacityJob({
        ...commonLoadJobOptions(flags, config),
        scenario: scenario!,
        slo: { expr: flags.slo.trim(), ...slo },
        errorBudget,
        start: flags.start,
        max: flags.max,
        ...(stepDurationMs !== undefined ? { stepDurationMs } : {}),
      });
      setExit(outcome.exitCode);
    });
}
