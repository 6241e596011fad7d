/**
 * Runs a list of purpose-built faulty targets, one test each: the harness must name exactly the check(s) for the
 * rule each breaks and reach the verdict the rule's level implies. After the file's cases, every report they wrote
 * is searched for every secret its run used: none may appear. Each area of the corpus has a file of its own
 * (test/integration/faulty/*.test.ts) so that vitest can run the areas side by side.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { failedIds, runHarness } from '../../helpers/run-harness.ts';
import type { FaultCase } from '../../targets/fault-case.ts';
import { startFaultyTarget } from '../../targets/faulty-proxy.ts';

/** One describe of `cases`, one test per case, and the secret scan of their reports after the last one. */
export function describeFaultCases(area: string, cases: readonly FaultCase[]): void {
  const written: Array<{ dir: string; secrets: string[] }> = [];

  describe(`faulty targets: ${area}`, () => {
    for (const faultCase of cases) {
      it(`${faultCase.name} → ${faultCase.failing.join(', ')} fail, ${faultCase.verdict}`, async () => {
        const target = await startFaultyTarget(faultCase.fault);
        try {
          const outcome = await runHarness({ baseUrl: target.baseUrl, credentials: target.credentials, suites: faultCase.suites, config: faultCase.config });
          written.push({ dir: outcome.runDir, secrets: [...referenceSecrets(target.reference.credentials), ...(target.credentials.jwtSigning ? [target.credentials.jwtSigning.key] : [])] });
          // On a mismatch, what each check the case names (and each other failed one) said: the evidence to judge by.
          const said = outcome.report.checks.filter((c) => faultCase.failing.includes(c.id) || c.status === 'failed').map((c) => `${c.id}: ${c.status}: ${c.message ?? ''}`);
          expect(failedIds(outcome), said.join('\n')).toEqual([...faultCase.failing].sort());
          expect(outcome.report.verdict).toBe(faultCase.verdict);
          if (faultCase.vacuous) expect(outcome.report.checks.filter((c) => c.vacuous !== undefined).map((c) => c.id).sort()).toEqual([...faultCase.vacuous].sort());
        } finally {
          await target.close();
        }
        // A whole harness run per case (bounded by its own check deadlines): some cases wait out rate-limit
        // windows of several seconds, and CI runs test files side by side on two cores.
      }, 180_000);
    }
  });

  afterAll(() => {
    // Not a test of its own so it cannot run before the cases; a leak fails the file here.
    for (const { dir, secrets } of written) {
      for (const file of filesUnder(dir)) {
        const text = readFileSync(file, 'utf8');
        for (const secret of secrets) expect(text.includes(secret), `${file} contains a secret`).toBe(false);
      }
    }
  });
}

function referenceSecrets(creds: { apiKeys: Record<string, string>; login: { password: string }; oauth: { clientSecret: string }; otherOAuthClient: { clientSecret: string }; otherAccount: { apiKey: string; login: { password: string } } }): string[] {
  return [...Object.values(creds.apiKeys), creds.login.password, creds.oauth.clientSecret, creds.otherOAuthClient.clientSecret, creds.otherAccount.apiKey, creds.otherAccount.login.password];
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}
