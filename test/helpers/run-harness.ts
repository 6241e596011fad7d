/**
 * Runs the conformance harness as a library against a URL — the way the faulty-target tests ask "which check
 * fails, and what is the verdict?" — and hands back the report (also written to a temporary folder).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configFromObject } from '../../src/config/index.ts';
import type { CredentialsConfig } from '../../src/config/types.ts';
import type { CheckResult } from '../../src/conformance/result.ts';
import { credentialsFromReference } from '../../src/job/open-target.ts';
import { runJob, type JobOutcome } from '../../src/job/run-job.ts';
import type { StartedReferenceTarget } from '../../src/target/types.ts';
import { createDefaultRegistry } from '../../suites/index.ts';

export interface RunHarnessOptions {
  baseUrl: string;
  credentials: CredentialsConfig;
  /** Suites to run (default: all). */
  suites?: string[];
  /** Any other config, as it would appear in harness.config.yaml (deep-merged under target/credentials/suites). */
  config?: Record<string, any>;
  /** Config file the run pretends to come from (relative schema paths resolve against it). */
  file?: string;
}

export async function runHarness(options: RunHarnessOptions): Promise<JobOutcome & { runDir: string }> {
  const extra = options.config ?? {};
  const config = configFromObject(
    {
      ...extra,
      target: { ...extra.target, baseUrl: options.baseUrl },
      credentials: { ...options.credentials, ...extra.credentials },
      conformance: { ...extra.conformance, ...(options.suites ? { suites: options.suites } : {}) },
      report: { outDir: mkdtempSync(join(tmpdir(), 'harness-report-')) },
    },
    options.file ? { file: options.file } : {},
  );
  return runJob({ config, registry: createDefaultRegistry(), log: () => {} });
}

/** The address and credentials of a started reference target, as runHarness takes them. */
export function onReference(target: StartedReferenceTarget): Pick<RunHarnessOptions, 'baseUrl' | 'credentials'> {
  return { baseUrl: target.baseUrl, credentials: credentialsFromReference(target.credentials) };
}

export function resultOf(outcome: JobOutcome, id: string): CheckResult {
  const result = outcome.report.checks.find((check) => check.id === id);
  if (!result) throw new Error(`no check "${id}" in the report; ids: ${outcome.report.checks.map((c) => c.id).join(', ')}`);
  return result;
}

/** Ids of the checks that failed or errored, sorted. */
export function failedIds(outcome: JobOutcome): string[] {
  return outcome.report.checks.filter((c) => c.status === 'failed' || c.status === 'error').map((c) => c.id).sort();
}
