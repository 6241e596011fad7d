/** `--scenario a,b` → loaded, validated scenarios with the command's overrides applied. */
import { applyOverrides, type ScenarioOverrides } from './overrides.ts';
import { loadScenarioFile } from './load.ts';
import { resolveScenarioFile } from './resolve.ts';
import type { Scenario } from './types.ts';

export function loadScenarios(names: readonly string[], overrides: ScenarioOverrides = {}, cwd = process.cwd()): Scenario[] {
  return names.map((name) => applyOverrides(loadScenarioFile(resolveScenarioFile(name, cwd)), overrides));
}
