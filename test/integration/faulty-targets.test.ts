/**
 * Purpose-built faulty targets: each breaks one rule, and the harness must name exactly the check(s) for that
 * rule and reach the verdict the rule's level implies. Then the whole corpus's written reports are searched for
 * every secret the runs used: none may appear.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { failedIds, runHarness } from '../helpers/run-harness.ts';
import type { FaultCase } from '../targets/fault-case.ts';
import { startFaultyTarget } from '../targets/faulty-proxy.ts';
import { AUTH_FAULTS } from '../targets/faults/auth.ts';
import { DATA_FAULTS } from '../targets/faults/data.ts';
import { ERROR_FAULTS } from '../targets/faults/errors.ts';
import { INPUT_FAULTS } from '../targets/faults/inputs.ts';
import { WEBHOOK_FAULTS } from '../targets/faults/webhooks.ts';
import { RATELIMIT_FAULTS } from '../targets/faults/ratelimit.ts';
import { SECURITY_FAULTS } from '../targets/faults/security.ts';

const CASES: FaultCase[] = [...AUTH_FAULTS, ...DATA_FAULTS, ...ERROR_FAULTS, ...INPUT_FAULTS, ...RATELIMIT_FAULTS, ...WEBHOOK_FAULTS, ...SECURITY_FAULTS];
const written: Array<{ dir: string; secrets: string[] }> = [];

describe('faulty targets', () => {
  it('the corpus has at least 15 cases with unique names', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(15);
    expect(new Set(CASES.map((c) => c.name)).size).toBe(CASES.length);
  });

  for (const faultCase of CASES) {
    it(`${faultCase.name} → ${faultCase.failing.join(', ')} fail, ${faultCase.verdict}`, async () => {
      const target = await startFaultyTarget(faultCase.fault);
      try {
        const outcome = await runHarness({ baseUrl: target.baseUrl, credentials: target.credentials, suites: faultCase.suites, config: faultCase.config });
        written.push({ dir: outcome.runDir, secrets: [...referenceSecrets(target.reference.credentials), ...(target.credentials.jwtSigning ? [target.credentials.jwtSigning.key] : [])] });
        expect(failedIds(outcome)).toEqual([...faultCase.failing].sort());
        expect(outcome.report.verdict).toBe(faultCase.verdict);
        if (faultCase.vacuous) expect(outcome.report.checks.filter((c) => c.vacuous !== undefined).map((c) => c.id).sort()).toEqual([...faultCase.vacuous].sort());
      } finally {
        await target.close();
      }
      // A whole harness run per case (bounded by its own check deadlines): some cases wait out 9 s rate-limit
      // windows, and CI runs test files side by side on two cores.
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

function referenceSecrets(creds: { apiKeys: Record<string, string>; login: { password: string }; oauth: { clientSecret: string }; otherOAuthClient: { clientSecret: string }; otherAccount: { apiKey: string; login: { password: string } } }): string[] {
  return [...Object.values(creds.apiKeys), creds.login.password, creds.oauth.clientSecret, creds.otherOAuthClient.clientSecret, creds.otherAccount.apiKey, creds.otherAccount.login.password];
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}
