/**
 * `harness export k6 --scenario S [--out F.js|F.ts] [--lang js|ts]`: a scenario as a k6 script (src/load/export/).
 * `harness export k6-operator --scenario S --parallelism N --target URL --out-dir D`: the same script with the
 * manifests that run it on N k6-operator runners, each writing its samples where `harness import k6` merges them.
 * `harness export openapi [--config F] [--out F] [--server URL]`: the API as the config describes it, OpenAPI 3.1.
 */
import type { Command } from 'commander';
import { DEFAULT_K6_IMAGE } from '../load/export/k6-operator.ts';
import type { ExportFlags, OpenApiFlags, OperatorFlags } from './export-actions.ts';
import { integerFlag, positiveNumberFlag, urlFlag } from './parse-flags.ts';

const scenarioOptions = (command: Command): Command =>
  command
    .requiredOption('--scenario <name>', 'scenario name (scenarios/<name>.yaml) or file')
    .option('--lang <js|ts>', 'js: ES2017 JavaScript, runs on k6 >= 0.48 as written; ts: TypeScript, k6 >= 0.57 (default: ts when --out ends in .ts, else js)')
    .option('--duration <d>', 'override the duration, as harness load --duration (ramping executors keep their shape)')
    .option('--rate <r>', 'override the arrival rate per timeUnit, as harness load --rate', positiveNumberFlag('--rate'))
    .option('--config <file>', 'config whose api.paths the script uses (default: ./harness.config.yaml when present)');

export function registerExportCommand(program: Command): void {
  const exportCommand = program.command('export').description('export a scenario for another tool');
  scenarioOptions(
    exportCommand
      .command('k6')
      .description('write a scenario as a k6 script (options.scenarios and thresholds map one-to-one; JavaScript for k6 >= 0.48 by default, TypeScript with --lang ts)'),
  )
    .option('--out <file>', 'file to write (default: print to stdout)')
    .action(async (flags: ExportFlags) => {
      // Loaded here, not at the top: the other commands' starts would pay for the exporters and the config pipeline.
      await (await import('./export-actions.ts')).exportK6(flags);
    });
  scenarioOptions(
    exportCommand
      .command('k6-operator')
      .description('write what to apply to run a scenario on N k6-operator runners: the script, a ConfigMap, a results PersistentVolumeClaim, a TestRun whose runners each write every sample there, a reader pod, and STEPS.txt (harness import k6 then merges the runners into one verdict)'),
  )
    .requiredOption('--out-dir <dir>', 'folder to write the files into (created when missing)')
    .requiredOption('--parallelism <n>', 'runner pods (the TestRun parallelism)', integerFlag('--parallelism', 1, 1000))
    .requiredOption('--target <url>', 'BASE_URL the runners send to, as seen from inside the cluster', urlFlag('--target'))
    .option('--secret <name>', 'Secret holding the credentials (one key per HARNESS_* variable)', 'harness-credentials')
    .option('--image <image>', 'runner image', DEFAULT_K6_IMAGE)
    .option('--namespace <ns>', 'namespace for every object (default: kubectl\'s current one)')
    .option('--storage-class <name>', 'StorageClass of the results claim (must offer ReadWriteMany when runners land on several nodes)')
    .action(async (flags: OperatorFlags) => {
      // Loaded here, not at the top: the other commands' starts would pay for the exporters and the config pipeline.
      await (await import('./export-actions.ts')).exportK6Operator(flags);
    });
  exportCommand
    .command('openapi')
    .description('write the API as the config describes it as an OpenAPI 3.1 document (JSON; YAML when --out ends in .yaml/.yml)')
    .option('--out <file>', 'file to write (default: print JSON to stdout)')
    .option('--config <file>', 'config whose api section the document describes (default: ./harness.config.yaml when present)')
    .option('--server <url>', 'the server URL in the document (default: target.baseUrl, else "/")')
    .action(async (flags: OpenApiFlags) => {
      // Loaded here, not at the top: the other commands' starts would pay for the exporters and the config pipeline.
      await (await import('./export-actions.ts')).exportOpenApi(flags);
    });
  exportCommand.exitOverride();
  for (const sub of exportCommand.commands) sub.exitOverride();
}
