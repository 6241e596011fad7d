/** Every built-in suite, in the order a run takes them. Later suites register here. */
import { CheckRegistry, type Suite } from '../src/conformance/registry.ts';
import { smokeSuite } from './smoke/index.ts';

export const BUILT_IN_SUITES: readonly Suite[] = [smokeSuite];

export function createDefaultRegistry(): CheckRegistry {
  const registry = new CheckRegistry();
  for (const suite of BUILT_IN_SUITES) registry.register(suite);
  return registry;
}
