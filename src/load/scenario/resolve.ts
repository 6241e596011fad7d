/**
 * `--scenario smoke,baseline` or `--scenario path/to/x.yaml`: a name is looked up as scenarios/<name>.yaml in
 * the working directory, then among the scenarios shipped with the harness.
 */
import { existsSync } from 'node:fs';
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { FileNotFoundError } from '../../errors/harness-errors.ts';
import { suggestKey } from '../../util/suggest.ts';
import { packagePath } from '../../package-root.ts';

export const SHIPPED_SCENARIOS_DIR = packagePath('scenarios/');

export function shippedScenarioNames(): string[] {
  return readdirSync(SHIPPED_SCENARIOS_DIR).filter((f) => f.endsWith('.yaml')).map((f) => f.slice(0, -5)).sort();
}

export function resolveScenarioFile(nameOrPath: string, cwd = process.cwd()): string {
  const direct = resolve(cwd, nameOrPath);
  if (/\.ya?ml$/.test(nameOrPath)) {
    if (existsSync(direct)) return direct;
    throw new FileNotFoundError(nameOrPath, 'scenario file not found (--scenario)');
  }
  for (const candidate of [resolve(cwd, 'scenarios', `${nameOrPath}.yaml`), resolve(SHIPPED_SCENARIOS_DIR, `${nameOrPath}.yaml`)]) {
    if (existsSync(candidate)) return candidate;
  }
  const suggestion = suggestKey(nameOrPath, shippedScenarioNames());
  throw new FileNotFoundError(nameOrPath, `no such scenario (shipped: ${shippedScenarioNames().join(', ')})${suggestion ? `; did you mean "${suggestion}"?` : ''}`);
}
