/** `harness probe ratelimit`: discover a target's real rate limit and hold its headers and Retry-After to it. */
import type { Command } from 'commander';
import { UsageError } from '../errors/harness-errors.ts';
import type { ExitCodeValue } from '../errors/exit-codes.ts';
import { PROBE_CREDENTIALS, type ProbeCredentialName } from '../job/probe-credentials.ts';
import { reportFileOptions } from './report-file-options.ts';
import { integerFlag, positiveNumberFlag, resolveConfigFile, urlFlag } from './parse-flags.ts';
import { interruptSignal } from './interrupt.ts';

interface ProbeFlags {
  target?: string;
  config?: string;
  credential: string;
  maxRps: number;
  budgetRequests: number;
  budgetSeconds: number;
  out?: string;
}

export function registerProbeCommand(program: Command, setExit: (code: ExitCodeValue) => void): void {
  const probe = program.command('probe').description('probe a target\'s behaviour (see: probe ratelimit)');
  probe
    .command('ratelimit')
    .description('discover the real rate limit (quota, window, algorithm), compare it with the headers, and check Retry-After and isolation')
    .option('--target <url>', 'base URL of the target (default: start the embedded reference target)', urlFlag('--target'))
    .option('--config <file>', 'config file (default: ./harness.config.yaml when present)')
    .option('--credential <name>', `credential to probe: ${PROBE_CREDENTIALS.join(', ')} (none: the per-address limit)`, 'apiKey')
    .option('--max-rps <n>', 'never send faster than this (requests/s)', positiveNumberFlag('--max-rps'), 200)
    .option('--budget-requests <n>', 'never send more requests than this', integerFlag('--budget-requests', 1, 1_000_000), 2000)
    .option('--budget-seconds <s>', 'never probe longer than this', positiveNumberFlag('--budget-seconds'), 60)
    .option('--out <dir>', 'folder for reports/<run-id>/report.json (default: report.outDir, "reports")')
    .exitOverride()
    .action(async (flags: ProbeFlags) => {
      if (!(PROBE_CREDENTIALS as readonly string[]).includes(flags.credential)) {
        throw new UsageError(`--credential: expected one of ${PROBE_CREDENTIALS.join(', ')}, got "${flags.credential}"`);
      }
      // Loaded here, not at the top: the other commands' starts would pay for this one's engines.
      const [{ loadConfig }, { runProbeJob }] = await Promise.all([import('../config/index.ts'), import('../job/probe-job.ts')]);
      const config = loadConfig(resolveConfigFile(flags.config), {
        env: process.env,
        overrides: { ...(flags.target ? { target: { baseUrl: flags.target } } : {}), ...(flags.out ? { report: { outDir: flags.out } } : {}) },
        overrideSource: { 'target.baseUrl': '--target', 'report.outDir': '--out' },
      });
      // SIGINT/SIGTERM abort this signal: the probe stops, writes its partial report, and main exits 105.
      const signal = interruptSignal();
      const { exitCode } = await runProbeJob({
        reportFiles: reportFileOptions(undefined),
        signal,
        log: (line) => process.stdout.write(`${line}\n`),
        config,
        credential: flags.credential as ProbeCredentialName,
        maxRps: flags.maxRps,
        budgetRequests: flags.budgetRequests,
        budgetSeconds: flags.budgetSeconds,
      });
      // 3 when the target was unreachable or lost (the report says so), as `run` and `load` end.
      setExit(exitCode);
    });
}
