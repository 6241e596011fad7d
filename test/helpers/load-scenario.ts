/** Scenarios for the load tests, checked by the same loader a user's scenario file goes through. */
import { checkScenarioText } from '../../src/load/scenario/load.ts';
import type { Scenario } from '../../src/load/scenario/types.ts';

/** A checked scenario from YAML text; one the loader refuses throws with the loader's messages. */
export function scenarioFromYaml(yaml: string): Scenario {
  const { scenario, issues } = checkScenarioText(yaml, 'test.yaml', {});
  if (!scenario) throw new Error(issues.map((i) => i.message).join('\n'));
  return scenario;
}

/**
 * The same from fields, one YAML line each (`key: <JSON>`, JSON being YAML too), so a test names only what it
 * sets; the executor is constant-arrival-rate unless the fields name another.
 */
export function scenarioOf(fields: Record<string, unknown>): Scenario {
  const lines = Object.entries({ executor: 'constant-arrival-rate', ...fields }).map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`);
  return scenarioFromYaml(lines.join('\n'));
}
