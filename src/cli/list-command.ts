/**
 * `harness list`: what a run can select — suites, their checks (id, level, specRef) and the shipped throughput
 * scenarios — as a table or, with --json, as one JSON document for scripts. Nothing is sent anywhere.
 */
import type { Command } from 'commander';
import { resolveConfigFile } from './parse-flags.ts';

export function registerListCommand(program: Command): void {
  program
    .command('list')
    .description('list the suites, checks (id, level, specRef) and shipped scenarios a run can select')
    .option('--config <file>', 'config file whose declarative suites (conformance.suiteFiles) are listed too (default: ./harness.config.yaml when present)')
    .option('--json', 'print one JSON document instead of tables')
    .action(async (flags: { config?: string; json?: boolean }) => {
      // Loaded here, not at the top: the other commands' starts would pay for the suites and the scenario reader.
      const [{ loadConfig }, { registryFor }, { buildListing, formatListing }] = await Promise.all([
        import('../config/index.ts'),
        import('./registry-for-config.ts'),
        import('./listing.ts'),
      ]);
      const config = loadConfig(resolveConfigFile(flags.config), { env: process.env });
      const listing = buildListing(registryFor(config));
      process.stdout.write(flags.json ? `${JSON.stringify(listing, null, 2)}\n` : formatListing(listing));
    });
}
