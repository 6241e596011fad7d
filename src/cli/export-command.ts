/**
 * `harness export k6 --scenario S [--out F.js|F.ts] [--lang js|ts]`: a scenario as a k6 script (src/load/export/).
 * `harness export k6-operator --scenario S --parallelism N --target URL --out-dir D`: the same script with the
 * manifests that run it on N k6-operator runners, each writing its samples where `harness import k6` merges them.
 * `harness export openapi [--config F] [--out F] [--server URL]`: the API as the config describes it, OpenAPI 3.1.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../config/index.ts';
import { ConfigError, UsageError } from '../errors/harness-errors.ts';
import { buildOpenApiDocument } from '../openapi/index.ts';
import { stringify as toYaml } from 'yaml';
import { DEFAULT_K6_IMAGE, k6OperatorBundle } from '../load/export/k6-operator.ts';
import { exportK6Script, K6_LANGUAGES, type K6Language } from '../load/export/k6-script.ts';
import type { Scenario } from '../load/scenario/types.ts';
import { loadScenarios } from '../load/scenario/select.ts';
import { assertWritableFile, assertWritableOutDir } from '../job/out-dir.ts';
import { integerFlag, positiveNumberFlag, resolveConfigFile, urlFlag } from './parse-flags.ts';

interface ExportFlags {
  scenario: string;
  out?: string;
  config?: string;
  lang?: string;
  duration?: string;
  rate?: number;
}

interface OperatorFlags extends Omit<ExportFlags, 'out'> {
  outDir: string;
  parallelism: number;
  target: string;
  secret?: string;
  image?: string;
  namespace?: string;
  storageClass?: string;
}

/** --lang, else the --out file's extension (.ts → ts), else js: the language every k6 from 0.48 on runs. */
function languageOf(flags: { lang?: string; out?: string }): K6Language {
  if (flags.lang !== undefined) {
    if (!(K6_LANGUAGES as readonly string[]).includes(flags.lang)) throw new UsageError(`--lang: "${flags.lang}" is not one of ${K6_LANGUAGES.join(', ')} (js runs on k6 >= 0.48, ts on k6 >= 0.57)`);
    return flags.lang as K6Language;
  }
  return flags.out && /\.ts$/.test(flags.out) ? 'ts' : 'js';
}

/** The scenario with --duration / --rate applied, and the config whose api.paths the script uses. */
function exportInput(flags: ExportFlags): { scenario: Scenario; config: ReturnType<typeof loadConfig> } {
  if (flags.scenario.includes(',')) throw new UsageError('--scenario: export one scenario per script');
  const config = loadConfig(resolveConfigFile(flags.config), { env: process.env });
  const [scenario] = loadScenarios([flags.scenario], { ...(flags.duration ? { duration: flags.duration } : {}), ...(flags.rate ? { rate: flags.rate } : {}) });
  return { scenario: scenario!, config };
}

const scenarioOptions = (command: Command): Command =>
  command
    .requiredOption('--scenario <name>', 'scenario name (scenarios/<name>.yaml) or file')
    .option('--lang <js|ts>', 'js: ES2017 JavaScript, runs on k6 >= 0.48 as written; ts: TypeScript, k6 >= 0.57 (default: ts when --out ends in .ts, else js)')
    .option('--duration <d>', 'override the duration, as harness load --duration (ramping executors keep their shape)')
    .option('--rate <r>', 'override the arrival rate per timeUnit, as harness load --rate', positiveNumberFlag('--rate'))
    .option('--config <file>', 'config whose api.paths the script uses (default: ./harness.config.yaml when present)');

/**
 * The server of a document whose target is unknown. "/" is the best of the forms for generated clients:
 * openapi-typescript + openapi-fetch never read `servers`, and @hey-api/openapi-ts types `baseUrl` as any absolute
 * URL and sets none, while a `{baseUrl}` variable or no `servers` at all gives @hey-api a `baseUrl` type no URL fits.
 */
const RELATIVE_SERVER = 'the host that serves this document; no base URL was given (--server, target.baseUrl), so a generated client needs one set';

export function registerExportCommand(program: Command): void {
  const exportCommand = program.command('export').description('export a scenario for another tool');
  scenarioOptions(
    exportCommand
      .command('k6')
      .description('write a scenario as a k6 script (options.scenarios and thresholds map one-to-one; JavaScript for k6 >= 0.48 by default, TypeScript with --lang ts)'),
  )
    .option('--out <file>', 'file to write (default: print to stdout)')
    .action(async (flags: ExportFlags) => {
      // An unwritable --out is a usage error (exit 2) naming the path, found before any work.
      if (flags.out) await assertWritableFile(flags.out, 'export k6 --out');
      const { scenario, config } = exportInput(flags);
      const script = exportK6Script(scenario, { api: config.api, sourceLabel: flags.scenario, scenarioRef: flags.scenario, language: languageOf(flags) });
      if (flags.out) {
        writeFileSync(flags.out, script);
        process.stderr.write(`k6 script: ${flags.out}\n`);
      } else {
        process.stdout.write(script);
      }
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
      // An unwritable --out-dir is a usage error (exit 2) naming the path, found before any work.
      await assertWritableOutDir(flags.outDir, 5000, 'export k6-operator --out-dir');
      const { scenario, config } = exportInput(flags);
      const language = languageOf(flags);
      const script = exportK6Script(scenario, { api: config.api, sourceLabel: flags.scenario, scenarioRef: flags.scenario, language });
      const bundle = k6OperatorBundle(
        scenario,
        {
          parallelism: flags.parallelism,
          baseUrl: flags.target,
          script,
          language,
          scenarioRef: flags.scenario,
          ...(flags.secret ? { secretName: flags.secret } : {}),
          ...(flags.image ? { image: flags.image } : {}),
          ...(flags.namespace ? { namespace: flags.namespace } : {}),
          ...(flags.storageClass ? { storageClass: flags.storageClass } : {}),
        },
        (value) => toYaml(value, { lineWidth: 0 }),
      );
      mkdirSync(flags.outDir, { recursive: true });
      for (const [name, text] of Object.entries(bundle.files)) writeFileSync(join(flags.outDir, name), text);
      process.stderr.write(`k6-operator files: ${Object.keys(bundle.files).map((n) => join(flags.outDir, n)).join(', ')}\n`);
      process.stdout.write(bundle.files['STEPS.txt']!);
    });
  exportCommand
    .command('openapi')
    .description('write the API as the config describes it as an OpenAPI 3.1 document (JSON; YAML when --out ends in .yaml/.yml)')
    .option('--out <file>', 'file to write (default: print JSON to stdout)')
    .option('--config <file>', 'config whose api section the document describes (default: ./harness.config.yaml when present)')
    .option('--server <url>', 'the server URL in the document (default: target.baseUrl, else "/")')
    .action(async (flags: { out?: string; config?: string; server?: string }) => {
      if (flags.out) await assertWritableFile(flags.out, 'export openapi --out');
      const config = loadConfig(resolveConfigFile(flags.config), { env: process.env });
      const serverUrl = flags.server ?? config.target.baseUrl;
      let document: Record<string, unknown>;
      try {
        document = buildOpenApiDocument({
          api: config.api,
          profile: config.conformance.profile,
          serverUrl: serverUrl ?? '/',
          ...(serverUrl === undefined ? { serverDescription: RELATIVE_SERVER } : {}),
        });
      } catch (err) {
        // A schema file named by api.errorSchema / api.schemas that cannot be read or does not fit.
        throw new ConfigError([{ path: 'api', message: `cannot describe the API: ${(err as Error).message}` }]);
      }
      if (serverUrl === undefined) {
        process.stderr.write('note: servers is "/" (no --server, no target.baseUrl): generated clients get no default base URL; give them one, or export with --server URL\n');
      }
      const text = flags.out && /\.ya?ml$/.test(flags.out) ? toYaml(document) : `${JSON.stringify(document, null, 2)}\n`;
      if (flags.out) {
        writeFileSync(flags.out, text);
        process.stderr.write(`OpenAPI document: ${flags.out}\n`);
      } else {
        process.stdout.write(text);
      }
    });
  exportCommand.exitOverride();
  for (const sub of exportCommand.commands) sub.exitOverride();
}
