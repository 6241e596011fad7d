/** The bearer tokens a scenario sends, from its `credential` / `credentials` and the target's credentials. */
import type { CredentialsConfig } from '../config/types.ts';
import { ConfigError } from '../errors/harness-errors.ts';
import type { Scenario } from './scenario/types.ts';

export function bearerFor(scenario: Pick<Scenario, 'credential' | 'name'>, credentials: Readonly<CredentialsConfig>): string | undefined {
  if (scenario.credential === 'none') return undefined;
  const value = credentials[scenario.credential];
  if (!value) {
    throw new ConfigError([{ path: `credentials.${scenario.credential}`, message: `scenario "${scenario.name}" sends credential ${scenario.credential}, but it is not set for this target (see harness.config.yaml; or set "credential:" in the scenario)` }]);
  }
  return value;
}

/** The bearers a scenario rotates across: one per `credentials` entry, else `credential`'s (none: []). */
export function bearersFor(scenario: Pick<Scenario, 'credential' | 'credentials' | 'name'>, credentials: Readonly<CredentialsConfig>): string[] {
  return (scenario.credentials ?? [scenario.credential]).flatMap((credential) => {
    const bearer = bearerFor({ credential, name: scenario.name }, credentials);
    return bearer === undefined ? [] : [bearer];
  });
}
