/**
 * `harness validate [file]`: checks a config (or suite / scenario) file and explains every problem. A config is
 * also checked the way `harness run` checks it before any traffic (run-readiness.ts), so the two never disagree.
 */
import type { Command } from 'commander';
import { DEFAULT_CONFIG_FILE } from '../config/config-file.ts';

export function registerValidateCommand(program: Command): void {
  program
    .command('validate')
    .description('check a config, suite or scenario file; prints every problem with file, line and path')
    .argument('[file]', 'file to check', DEFAULT_CONFIG_FILE)
    .action(async (file: string) => {
      // Loaded here, not at the top: every other command's start would pay for the validator and the suites.
      const [{ CONFIG_KIND, loadConfig, checkFile }, { locateIssues }, { ConfigError }, { registerSuiteFileKind }, { registerScenarioFileKind }, { runReadinessIssues }, { registryFor }] = await Promise.all([
        import('../config/index.ts'),
        import('../config/locate-issues.ts'),
        import('../errors/harness-errors.ts'),
        import('../suite-file/file-kind.ts'),
        import('../load/scenario/file-kind.ts'),
        import('../job/run-readiness.ts'),
        import('./registry-for-config.ts'),
      ]);
      registerSuiteFileKind();
      registerScenarioFileKind();
      const { kind, issues, config: checked } = checkFile(file, { env: process.env });
      if (issues.length > 0) throw new ConfigError(issues);
      if (kind === CONFIG_KIND) {
        // The config checkFile checked is the one loadConfig would return: the file is read and parsed once.
        const config = checked ?? loadConfig(file, { env: process.env });
        // The same registry `run` uses, so the config's declarative suites (conformance.suiteFiles) are followed too.
        const readiness = runReadinessIssues(config, registryFor(config));
        if (readiness.length > 0) throw new ConfigError(locateIssues(file, readiness));
      }
      process.stdout.write(`${file}: valid ${kind} file\n`);
    });
}
