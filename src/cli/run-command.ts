/**
 * `harness run`: conformance suites, then throughput scenarios (`load.scenarios`, default smoke; `--scenario`,
 * `--no-load`), against --target or against the embedded reference target.
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { interruptSignal } from './interrupt.ts';
import { ConfigError } from '../errors/harness-errors.ts';
import type { ExitCodeValue } from '../errors/exit-codes.ts';
import { reportFileOptions } from './report-file-options.ts';
import { integerFlag, listFlag, nonEmptyListFlag, resolveConfigFile, urlFlag } from './parse-flags.ts';

interface RunFlags {
  target?: string;
  config?: string;
  suite?: string[];
  /** --check, repeatable or comma-separated */
  check?: string[];
  out?: string;
  timeout?: number;
  quiet?: boolean;
  junitWarningsAsFailures?: boolean;
  scenario?: string[];
  har?: string;
  /** false with --no-load */
  load?: boolean;
  metricsOut?: string;
}

export function registerRunCommand(program: Command, setExit: (code: ExitCodeValue) => void): void {
  program
    .command('run')
    .description('run conformance suites against a target (default: the embedded reference target) and write reports')
    .option('--target <url>', 'base URL of the target, e.g. http://127.0.0.1:8080 (default: start the embedded reference target)', urlFlag('--target'))
    .option('--config <file>', 'config file (default: ./harness.config.yaml when present)')
    .option('--suite <names>', 'comma-separated suites to run (default: all)', nonEmptyListFlag('--suite'))
    .option('--check <ids>', 'run only these checks (repeatable or comma-separated ids; `harness list` shows them)', (raw: string, previous: string[] = []) => [...previous, ...listFlag(raw)])
    .option('--out <dir>', 'folder for reports/<run-id>/ (default: report.outDir, "reports")')
    .option('--timeout <ms>', 'per-request timeout in ms (default: target.timeoutMs, 10000)', integerFlag('--timeout', 1, 600_000))
    .option('--scenario <names>', 'comma-separated throughput scenarios to run after the suites: names (scenarios/<name>.yaml) or files (default: load.scenarios, "smoke")', nonEmptyListFlag('--scenario'))
    .option('--no-load', 'run no throughput scenario (conformance only)')
    .option('--metrics-out <kind=url>', 'push live metrics while scenarios run: prometheus-rw=URL (Prometheus remote write, k6\'s metric names, testid = the run id; default: load.metricsOut in the config, else none)')
    .option('--har <file>', "write the conformance checks' traffic to this file as HAR 1.2, secrets redacted")
    .option('-q, --quiet', 'list only failed, errored and skipped checks')
    .option('--junit-warnings-as-failures', 'junit.xml: SHOULD/PROFILE findings as <failure>/<error> instead of <skipped> warnings (same as HARNESS_JUNIT_WARNINGS_AS_FAILURES=1)')
    .action(async (flags: RunFlags) => {
      // Loaded here, not at the top: every other command's start would pay for the suites, the engines and the reporters.
      const [{ loadConfig }, { locateIssues }, { runJob }, { ConsoleReporter }, { createProgress }, { loadScenarios }, { registryFor }] = await Promise.all([
        import('../config/index.ts'),
        import('../config/locate-issues.ts'),
        import('../job/run-job.ts'),
        import('../reporters/console-reporter.ts'),
        import('../load/progress.ts'),
        import('../load/scenario/select.ts'),
        import('./registry-for-config.ts'),
      ]);
      const configFile = resolveConfigFile(flags.config);
      const config = loadConfig(configFile, {
        env: process.env,
        overrides: {
          ...(flags.target ? { target: { baseUrl: flags.target, ...(flags.timeout ? { timeoutMs: flags.timeout } : {}) } } : {}),
          ...(!flags.target && flags.timeout ? { target: { timeoutMs: flags.timeout } } : {}),
          ...(flags.suite ? { conformance: { suites: flags.suite } } : {}),
          ...(flags.out ? { report: { outDir: flags.out } } : {}),
          ...(flags.load === false || flags.scenario || flags.metricsOut
            ? { load: { ...(flags.load === false ? { scenarios: [] } : flags.scenario ? { scenarios: flags.scenario } : {}), ...(flags.metricsOut ? { metricsOut: flags.metricsOut } : {}) } }
            : {}),
        },
        overrideSource: { 'target.baseUrl': '--target', 'target.timeoutMs': '--timeout', 'conformance.suites': '--suite', 'report.outDir': '--out', 'load.scenarios': flags.load === false ? '--no-load' : '--scenario', 'load.metricsOut': '--metrics-out' },
      });
      // Scenario files are read and validated before any traffic (a bad one exits 104, an unknown name 2).
      const scenarios = loadScenarios(config.load.scenarios);
      // SIGINT/SIGTERM abort this signal: the job stops, writes its partial report, and main exits 105.
      const signal = interruptSignal();
      const consoleReporter = new ConsoleReporter({ showPassed: !flags.quiet });
      const outcome = await runJob({
        config,
        registry: flags.check ? registryFor(config).restrictTo(flags.check) : registryFor(config),
        reporters: [consoleReporter],
        // Through the console reporter, so a log line never lands on the live progress line.
        log: (line) => consoleReporter.print(line),
        signal,
        scenarios,
        reportFiles: reportFileOptions(flags.junitWarningsAsFailures),
        ...(flags.har ? { harFile: resolve(flags.har) } : {}),
        // Scenarios named on the command line must run: a missing loadKey is then a config error, not a skip.
        missingCredential: flags.scenario && flags.load !== false ? 'error' : 'skip',
        // A live progress line on a terminal; CI logs get the summary each scenario prints when it ends.
        ...(process.stderr.isTTY ? { progress: createProgress(process.stderr) } : {}),
      }).catch((err: unknown) => {
        // Problems found after loading (skipChecks ids, errorSchema) point into the file, as `harness validate` does.
        throw err instanceof ConfigError && configFile ? new ConfigError(locateIssues(configFile, err.issues)) : err;
      });
      setExit(outcome.exitCode);
    });
}
