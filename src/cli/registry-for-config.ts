/**
 * The check registry a command works with: the built-in suites, then the declarative suites the config names
 * (`conformance.suiteFiles`). `harness run` and `harness list` share it, so what `list` shows is what `run` runs.
 * A declarative suite or check that takes a name already registered is a config error at its file and line.
 */
import { existsSync } from 'node:fs';
import type { FrozenConfig } from '../config/types.ts';
import type { CheckRegistry } from '../conformance/registry.ts';
import { ConfigError, type ConfigIssue } from '../errors/harness-errors.ts';
import { loadDeclarativeSuites, suiteFromSpec } from '../suite-file/to-suite.ts';
import { createDefaultRegistry } from '../../suites/index.ts';

export function registryFor(config: FrozenConfig, env: NodeJS.ProcessEnv = process.env): CheckRegistry {
  const registry = createDefaultRegistry();
  // A missing file is a mistake in the config (exit 104 naming the key), not on the command line.
  const missing = config.conformance.suiteFiles
    .map((file, index) => ({ file, index }))
    .filter(({ file }) => !existsSync(file))
    .map(({ file, index }): ConfigIssue => ({ ...(config.source ? { file: config.source } : {}), path: `conformance.suiteFiles[${index}]`, message: `suite file not found: ${file}` }));
  if (missing.length > 0) throw new ConfigError(missing);
  const specs = loadDeclarativeSuites(config.conformance.suiteFiles, env);
  const issues: ConfigIssue[] = [];
  const taken = new Set(registry.suites.map((s) => s.name));
  const ids = new Set(registry.checkIds);
  for (const spec of specs) {
    const [file, line] = spec.where.split(/:(?=\d+$)/);
    if (taken.has(spec.name)) issues.push({ file: file!, ...(line ? { line: Number(line) } : {}), path: 'suite', message: `a suite named "${spec.name}" is already registered` });
    taken.add(spec.name);
    for (const check of spec.checks) {
      const [checkFile, checkLine] = check.where.split(/:(?=\d+$)/);
      if (ids.has(check.id)) issues.push({ file: checkFile!, ...(checkLine ? { line: Number(checkLine) } : {}), path: 'checks.id', message: `check id "${check.id}" is already registered` });
      ids.add(check.id);
    }
  }
  if (issues.length > 0) throw new ConfigError(issues);
  for (const spec of specs) registry.register(suiteFromSpec(spec));
  return registry;
}
