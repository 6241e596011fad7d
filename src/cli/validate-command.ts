/** `harness validate [file]`: checks a config (or suite / scenario) file and explains every problem. */
import type { Command } from 'commander';
import { DEFAULT_CONFIG_FILE, validateFile } from '../config/index.ts';
import { ConfigError } from '../errors.ts';
import { registerSuiteFileKind } from '../suite-file/file-kind.ts';

export function registerValidateCommand(program: Command): void {
  registerSuiteFileKind();
  program
    .command('validate')
    .description('check a config, suite or scenario file; prints every problem with file, line and path')
    .argument('[file]', 'file to check', DEFAULT_CONFIG_FILE)
    .action((file: string) => {
      const { kind, issues } = validateFile(file);
      if (issues.length > 0) throw new ConfigError(issues);
      process.stdout.write(`${file}: valid ${kind} file\n`);
    });
}
