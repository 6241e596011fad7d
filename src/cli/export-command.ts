/** `harness export k6 --scenario S [--out F.ts]`: a scenario as a typed k6 script. */
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { loadConfig } from '../config/index.ts';
import { UsageError } from '../errors.ts';
import { exportK6Script } from '../load/export/k6-script.ts';
import { loadScenarios } from '../load/scenario/select.ts';
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
    .action((flags: ExportFlags) => {
      if (flags.scenario.includes(',')) throw new UsageError('--scenario: export one scenario per script');
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
  exportCommand.exitOverride();
  for (const sub of exportCommand.commands) sub.exitOverride();
}
