/** `harness run`: conformance suites against --target, or against the embedded reference target. */
import type { Command } from 'commander';
import { loadConfig } from '../config/index.ts';
import { runConformance } from '../job/run-conformance.ts';
import { ConsoleReporter } from '../reporters/console-reporter.ts';
import { createDefaultRegistry } from '../../suites/index.ts';
import type { ExitCodeValue } from '../exit-codes.ts';
import { integerFlag, listFlag, resolveConfigFile, urlFlag } from './parse-flags.ts';

interface RunFlags {
  target?: string;
  config?: string;
  suite?: string[];
  out?: string;
  timeout?: number;
  quiet?: boolean;
}

export function registerRunCommand(program: Command, setExit: (code: ExitCodeValue) => void): void {
  program
    .command('run')
    .description('run conformance suites against a target (default: the embedded reference target) and write reports')
    .option('--target <url>', 'base URL of the target, e.g. http://127.0.0.1:8080 (default: start the embedded reference target)', urlFlag('--target'))
    .option('--config <file>', 'config file (default: ./harness.config.yaml when present)')
    .option('--suite <names>', 'comma-separated suites to run (default: all)', listFlag)
    .option('--out <dir>', 'folder for reports/<run-id>/ (default: report.outDir, "reports")')
    .option('--timeout <ms>', 'per-request timeout in ms (default: target.timeoutMs, 10000)', integerFlag('--timeout', 1, 600_000))
    .option('-q, --quiet', 'list only failed, errored and skipped checks')
    .action(async (flags: RunFlags) => {
      const config = loadConfig(resolveConfigFile(flags.config), {
        env: process.env,
        overrides: {
          ...(flags.target ? { target: { baseUrl: flags.target, ...(flags.timeout ? { timeoutMs: flags.timeout } : {}) } } : {}),
          ...(!flags.target && flags.timeout ? { target: { timeoutMs: flags.timeout } } : {}),
          ...(flags.suite ? { conformance: { suites: flags.suite } } : {}),
          ...(flags.out ? { report: { outDir: flags.out } } : {}),
        },
        overrideSource: { 'target.baseUrl': '--target', 'target.timeoutMs': '--timeout', 'conformance.suites': '--suite', 'report.outDir': '--out' },
      });
      const interrupt = new AbortController();
      const onSignal = () => interrupt.abort();
      process.once('SIGINT', onSignal);
      try {
        const outcome = await runConformance({
          config,
          registry: createDefaultRegistry(),
          reporters: [new ConsoleReporter({ showPassed: !flags.quiet })],
          log: (line) => process.stdout.write(`${line}\n`),
          signal: interrupt.signal,
        });
        setExit(outcome.exitCode);
      } finally {
        process.off('SIGINT', onSignal);
      }
    });
}
