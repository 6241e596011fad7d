/**
 * Runs the harness against the spec-only target (test/targets/spec-target/) with the config its operators wrote
 * (test/fixtures/spec-target/harness.config.yaml), the way a user certifies an implementation we did not write.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { configFromObject, loadConfig } from '../../../src/config/index.ts';
import type { CheckResult } from '../../../src/conformance/result.ts';
import { runJob, type JobOutcome } from '../../../src/job/run-job.ts';
import { createDefaultRegistry } from '../../../suites/index.ts';
import { specEnv } from '../../targets/spec-target/env.ts';
import { startSpecTarget, type SpecTargetOptions } from '../../targets/spec-target/index.ts';

export const SPEC_CONFIG = resolve(import.meta.dirname, '../../fixtures/spec-target/harness.config.yaml');
export const RUN_TIMEOUT_MS = 600_000;

export interface SpecRun {
  outcome: JobOutcome;
  /** "status LEVEL id" of every check that did not simply pass (failed, error, skipped, vacuous). */
  findings: string[];
}

/**
 * Starts the variant, runs every suite (no throughput scenarios) with the target's config plus `extra` overrides,
 * closes the target. `env` adds or blanks variables (e.g. SPEC_JWT_SIGNING_KEY: '' for a deployment that shares no key).
 */
export async function runSpecTarget(options: SpecTargetOptions & { env?: Record<string, string>; overrides?: Record<string, unknown> } = {}): Promise<SpecRun> {
  const target = await startSpecTarget(options);
  try {
    const config = loadConfig(SPEC_CONFIG, {
      env: { ...specEnv(target.credentials), ...options.env },
      overrides: { ...options.overrides, target: { baseUrl: target.baseUrl }, report: { outDir: mkdtempSync(join(tmpdir(), 'harness-spec-')) }, load: { scenarios: [] } },
    });
    const outcome = await runJob({ config, registry: createDefaultRegistry(), log: () => {} });
    return { outcome, findings: findingsOf(outcome.report.checks) };
  } finally {
    await target.close();
  }
}

type RunOptions = Parameters<typeof runSpecTarget>[0];

/**
 * A quicker limit for runs about other rules: at the target's own 40 per 2 s a whole run spends most of its time
 * waiting out 429s. The config states the pair, as an operator would. correct.test.ts keeps the fixture's own
 * 40 per 2 s: at 100 per 2 s a counting run of the probe spans more of the window, and on a loaded machine the
 * policy checks then say "could not decide" more often — a warning, which these runs allow and that one should not.
 */
export const QUICK_POLICY = { quota: 100, windowSeconds: 2 } as const;

/** `options` with QUICK_POLICY for the target and its config. */
export function quick(options: NonNullable<RunOptions> = {}): NonNullable<RunOptions> {
  const overrides = options.overrides ?? {};
  const api = (overrides.api ?? {}) as Record<string, unknown>;
  return { ...options, rateLimit: { ...QUICK_POLICY }, overrides: { ...overrides, api: { ...api, rateLimitPolicy: { ...QUICK_POLICY } } } };
}

/** One test: a single run of the target as `options` say, its outcome handed to `judge`, under the run's time limit. */
export function itOnVariant(name: string, options: RunOptions, judge: (outcome: JobOutcome) => void): void {
  it(name, async () => judge((await runSpecTarget(options)).outcome), RUN_TIMEOUT_MS);
}

/** The check `id` of a finished run (the test fails on a missing one where it reads a field of it). */
export function checkOf(outcome: JobOutcome, id: string): CheckResult {
  return outcome.report.checks.find((c) => c.id === id)!;
}

/** The same target under the harness's DEFAULT config: only its credentials and address are given. */
export async function runSpecTargetWithDefaults(options: SpecTargetOptions = {}): Promise<SpecRun> {
  const target = await startSpecTarget(options);
  try {
    const c = target.credentials;
    const config = configFromObject({
      target: { baseUrl: target.baseUrl },
      credentials: {
        apiKey: c.apiKey,
        restrictedKey: c.restrictedKey,
        secondKey: c.secondKey,
        login: { email: c.email, password: c.password },
        oauth: { clientId: c.oauth.clientId, clientSecret: c.oauth.clientSecret, redirectUri: c.oauth.redirectUri, scope: 'messages:send messages:read', otherClient: c.otherClient },
      },
      report: { outDir: mkdtempSync(join(tmpdir(), 'harness-spec-')) },
      load: { scenarios: [] },
    });
    const outcome = await runJob({ config, registry: createDefaultRegistry(), log: () => {} });
    return { outcome, findings: findingsOf(outcome.report.checks) };
  } finally {
    await target.close();
  }
}

export function findingsOf(checks: readonly CheckResult[]): string[] {
  return checks.filter((c) => c.status !== 'passed' || c.vacuous !== undefined).map((c) => `${c.vacuous !== undefined ? 'vacuous' : c.status} ${c.level} ${c.id}`);
}

/** Failed or errored checks, "LEVEL id", sorted: what a seeded fault must show, exactly. */
export function brokenOf(outcome: JobOutcome): string[] {
  return outcome.report.checks.filter((c) => c.status === 'failed' || c.status === 'error').map((c) => `${c.level} ${c.id}`).sort();
}

/** One line per check that did not pass, with its message, for assertion messages. */
export function explain(outcome: JobOutcome): string {
  return outcome.report.checks
    .filter((c) => c.status !== 'passed' || c.vacuous !== undefined)
    .map((c) => `  ${c.status}${c.vacuous !== undefined ? ' (vacuous)' : ''} ${c.level} ${c.id}: ${(c.vacuous ?? c.message ?? '').slice(0, 240)}`)
    .join('\n');
}

/** The run found exactly `broken` (level and id) and so is not certified. */
export function expectNotCertified(outcome: JobOutcome, broken: string[]): void {
  expect(brokenOf(outcome), explain(outcome)).toEqual(broken);
  expect(outcome.report.verdict).toBe('not-certified');
}
