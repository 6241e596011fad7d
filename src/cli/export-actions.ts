/**
 * What the `harness export` commands do once their flags are read (export-command.ts registers them): a scenario
 * as a k6 script, the k6-operator bundle around it, the API as an OpenAPI document.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify as toYaml } from 'yaml';
import { loadConfig } from '../config/index.ts';
import { ConfigError, UsageError } from '../errors/harness-errors.ts';
import { assertWritableFile, assertWritableOutDir } from '../job/out-dir.ts';
import { k6OperatorBundle } from '../load/export/k6-operator.ts';
import { exportK6Script, K6_LANGUAGES, type K6Language } from '../load/export/k6-script.ts';
import { loadScenarios } from '../load/scenario/select.ts';
import type { Scenario } from '../load/scenario/types.ts';
import { buildOpenApiDocument } from '../openapi/index.ts';
import { resolveConfigFile } from './parse-flags.ts';

export interface ExportFlags {
  scenario: string;
  out?: string;
  config?: string;
  lang?: string;
  duration?: string;
  rate?: number;
}

export interface OperatorFlags extends Omit<ExportFlags, 'out'> {
  outDir: string;
  parallelism: number;
  target: string;
  secret?: string;
  image?: string;
  namespace?: string;
  storageClass?: string;
}

export interface OpenApiFlags {
  out?: string;
  config?: string;
  server?: string;
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

/**
 * The server of a document whose target is unknown. "/" is the best of the forms for generated clients:
 * openapi-typescript + openapi-fetch never read `servers`, and @hey-api/openapi-ts types `baseUrl` as any absolute
 * URL and sets none, while a `{baseUrl}` variable or no `servers` at all gives @hey-api a `baseUrl` type no URL fits.
 */
const RELATIVE_SERVER = 'the host that serves this document; no base URL was given (--server, target.baseUrl), so a generated client needs one set';

export async function exportK6(flags: ExportFlags): Promise<void> {
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
}

export async function exportK6Operator(flags: OperatorFlags): Promise<void> {
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
}

export async function exportOpenApi(flags: OpenApiFlags): Promise<void> {
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
}
