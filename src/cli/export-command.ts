/**
 * `harness export k6 --scenario S [--out F.ts]`: a scenario as a typed k6 script.
 * `harness export openapi [--config F] [--out F] [--server URL]`: the API as the config describes it, OpenAPI 3.1.
 */
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { loadConfig } from '../config/index.ts';
import { ConfigError, UsageError } from '../errors.ts';
import { buildOpenApiDocument } from '../openapi/index.ts';
import { stringify as toYaml } from 'yaml';
import { exportK6Script } from '../load/export/k6-script.ts';
import { loadScenarios } from '../load/scenario/select.ts';
import { assertWritableFile } from '../job/out-dir.ts';
import { resolveConfigFile } from './parse-flags.ts';

interface ExportFlags {
  scenario: string;
  out?: string;
  config?: string;
}

export function registerExportCommand(program: Command): void {
  const exportCommand = program.command('export').description('export a scenario for another tool');
  exportCommand
    .command('k6')
    .description('write a scenario as a k6 TypeScript script (options.scenarios and thresholds map one-to-one)')
    .requiredOption('--scenario <name>', 'scenario name (scenarios/<name>.yaml) or file')
    .option('--out <file>', 'file to write (default: print to stdout)')
    .option('--config <file>', 'config whose api.paths the script uses (default: ./harness.config.yaml when present)')
    .action(async (flags: ExportFlags) => {
      if (flags.scenario.includes(',')) throw new UsageError('--scenario: export one scenario per script');
      // An unwritable --out is a usage error (exit 2) naming the path, found before any work.
      if (flags.out) await assertWritableFile(flags.out, 'export k6 --out');
      const config = loadConfig(resolveConfigFile(flags.config), { env: process.env });
      const [scenario] = loadScenarios([flags.scenario]);
      const script = exportK6Script(scenario!, { api: config.api, sourceLabel: scenario!.source ?? flags.scenario });
      if (flags.out) {
        writeFileSync(flags.out, script);
        process.stderr.write(`k6 script: ${flags.out}\n`);
      } else {
        process.stdout.write(script);
      }
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
      let document: Record<string, unknown>;
      try {
        document = buildOpenApiDocument({
          api: config.api,
          profile: config.conformance.profile,
          serverUrl: flags.server ?? config.target.baseUrl ?? '/',
        });
      } catch (err) {
        // A schema file named by api.errorSchema / api.schemas that cannot be read or does not fit.
        throw new ConfigError([{ path: 'api', message: `cannot describe the API: ${(err as Error).message}` }]);
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
