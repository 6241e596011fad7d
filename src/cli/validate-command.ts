/**
 * `harness validate [file]`: checks a config (or suite / scenario) file and explains every problem. A config is
 * also checked the way `harness run` checks it before any traffic (run-readiness.ts), so the two never disagree.
 */
import type { Command } from 'commander';
import { CONFIG_KIND, DEFAULT_CONFIG_FILE, loadConfig, validateFile } from '../config/index.ts';
import { locateIssues } from '../config/locate-issues.ts';
import { ConfigError } from '../errors/harness-errors.ts';
import { registerSuiteFileKind } from '../suite-file/file-kind.ts';
import { runReadinessIssues } from '../job/run-readiness.ts';
import { registryFor } from './registry-for-config.ts';

export function registerValidateCommand(program: Command): void {
  registerSuiteFileKind();
  program
    .command('validate')
    .description('check a config, suite or scenario file; prints every problem with file, line and path')
    .argument('[file]', 'file to check', DEFAULT_CONFIG_FILE)
    .action((file: string) => {
      const { kind, issues } = validateFile(file);
      if (issues.length > 0) throw new ConfigError(issues);
      if (kind === CONFIG_KIND) {
        // The same registry `run` uses, so the config's declarative suites (conformance.suiteFiles) are followed too.
        const config = loadConfig(file, { env: process.env });
        const readiness = runReadinessIssues(config, registryFor(config));
        if (readiness.length > 0) throw new ConfigError(locateIssues(file, readiness));
      }
      process.stdout.write(`${file}: valid ${kind} file\n`);
    });
}
