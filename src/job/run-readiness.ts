/**
 * What `harness run` checks about a config before any traffic, as a list of issues — so `harness validate`
 * checks exactly the same (suites exist, every conformance.skipChecks id exists, api.errorSchema and api.schemas
 * load as JSON Schemas, every scenario in load.scenarios loads) instead of accepting a config that run rejects.
 */
import type { FrozenConfig } from '../config/types.ts';
import type { CheckRegistry } from '../conformance/registry.ts';
import { SchemaValidator } from '../conformance/schema-validator.ts';
import { ConfigError, isHarnessError, type ConfigIssue } from '../errors/harness-errors.ts';
import { loadScenarios } from '../load/scenario/select.ts';

export function runReadinessIssues(config: FrozenConfig, registry: CheckRegistry): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const collect = (path: string, fn: () => unknown): void => {
    try {
      fn();
    } catch (err) {
      if (err instanceof ConfigError) for (const issue of err.issues) issues.push(issue);
      else if (isHarnessError(err)) issues.push({ path, message: err.message });
      else throw err;
    }
  };
  collect('conformance.suites', () => registry.select(config.conformance.suites));
  collect('conformance.skipChecks', () => registry.assertKnownChecks(config.conformance.skipChecks, 'conformance.skipChecks'));
  collect('api.errorSchema', () => new SchemaValidator({ replacements: config.api.schemas, errorSchema: config.api.errorSchema }));
  collect('load.scenarios', () => loadScenarios(config.load.scenarios));
  return issues;
}
