/**
 * Preconditions are wrappers around a check, not `if`s repeated inside checks (schemathesis does the same).
 * Each returns a check whose `run` first asks the precondition and skips with its reason when it fails.
 */
import type { CredentialsConfig, ProfileArea } from '../config/types.ts';
import type { Check } from './check.ts';
import { skip } from './outcomes.ts';
import type { CheckContext } from './context.ts';

/** Returns undefined when the check may run, or the reason it is skipped. */
export type Precondition = (ctx: CheckContext) => string | undefined;

export function withPrecondition(precondition: Precondition) {
  return (check: Check): Check => ({
    ...check,
    async run(ctx) {
      const reason = precondition(ctx);
      if (reason !== undefined) skip(reason);
      await check.run(ctx);
    },
  });
}

/** The PROFILE.md area is switched on for this target (conformance.profile.<area>). */
export const requiresProfile = (area: ProfileArea) =>
  withPrecondition((ctx) =>
    ctx.config.conformance.profile[area] ? undefined : `PROFILE area "${area}" is switched off in the config`,
  );

/** The target has the sandbox inbound endpoint (conformance.sandbox). */
export const requiresSandbox = withPrecondition((ctx) =>
  ctx.config.conformance.sandbox && ctx.config.conformance.profile.sandbox
    ? undefined
    : 'the target has no sandbox (conformance.sandbox: false)',
);

/** A credential is configured. */
export const requiresCredential = (name: keyof CredentialsConfig) =>
  withPrecondition((ctx) =>
    ctx.credentials[name] ? undefined : `no credentials.${name} configured for this target`,
  );

/** Applies several wrappers, first listed outermost. */
export function guarded(check: Check, ...wrappers: Array<(check: Check) => Check>): Check {
  return wrappers.reduceRight((wrapped, wrap) => wrap(wrapped), check);
}

/** Checks of the JWT login and what it issues: a login is configured and the PROFILE area jwt is on. */
export function jwtLoginCheck(check: Check): Check {
  return guarded(check, requiresCredential('login'), requiresProfile('jwt'));
}
