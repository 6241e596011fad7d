/**
 * The ownership suite against real servers on port 0: the reference target (two accounts) passes every check; a
 * faulty proxy in front of it that lets account B act as account A in one place fails exactly the check for that
 * rule (NOT CERTIFIED); a target declaring one account gets "not applicable" in every report; a multi-account
 * target without a second credential is INCOMPLETE with the key to add. No report shows either account's key.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/errors/exit-codes.ts';
import { headlineOf } from '../../../src/report/headline.ts';
import { NO_OTHER_ACCOUNT, NOT_APPLICABLE } from '../../../suites/ownership/lib/accounts.ts';
import { failedIds, runHarness } from '../../helpers/run-harness.ts';
import { startFaultyTarget } from '../../targets/faulty-proxy.ts';
import { OWNERSHIP_FAULTS, REFUSES_WITH_403 } from '../../targets/faults/ownership.ts';

const written: Array<{ dir: string; secrets: string[] }> = [];
const OWNERSHIP_CHECKS = 8;

async function run(fault: Parameters<typeof startFaultyTarget>[0], options: { dropOther?: boolean; config?: Record<string, any> } = {}) {
  const target = await startFaultyTarget(fault);
  try {
    const { otherAccount, ...withoutOther } = target.credentials;
    const credentials = options.dropOther ? withoutOther : target.credentials;
    const outcome = await runHarness({ baseUrl: target.baseUrl, credentials, suites: ['ownership'], ...(options.config ? { config: options.config } : {}) });
    const other = target.reference.credentials.otherAccount;
    written.push({ dir: outcome.runDir, secrets: [target.reference.credentials.apiKeys.full, other.apiKey, other.login.password] });
    expect(otherAccount?.apiKey).toBe(other.apiKey);
    return outcome;
  } finally {
    await target.close();
  }
}

describe('ownership suite', () => {
  it('the reference target (two accounts) passes every ownership check, none vacuously', async () => {
    const outcome = await run({});
    expect(outcome.report.checks).toHaveLength(OWNERSHIP_CHECKS);
    expect(outcome.report.checks.filter((c) => c.status !== 'passed' || c.vacuous !== undefined).map((c) => `${c.id}: ${c.status} ${c.message ?? c.vacuous ?? ''}`)).toEqual([]);
    expect(outcome.report.verdict).toBe('selection-passed');
    for (const check of outcome.report.checks) expect(check.level === 'MUST' || check.id === 'ownership.refusal.status').toBe(true);
  }, 60_000);

  for (const faultCase of OWNERSHIP_FAULTS) {
    it(`${faultCase.name} → ${faultCase.failing.join(', ')} fails, NOT CERTIFIED`, async () => {
      const outcome = await run(faultCase.fault);
      expect(failedIds(outcome)).toEqual(faultCase.failing);
      expect(outcome.report.verdict).toBe('not-certified');
      const failed = outcome.report.checks.find((c) => c.id === faultCase.failing[0])!;
      expect(failed.message).toMatch(/^account [AB]/);
      // The evidence shows both accounts' requests, credentials redacted.
      const auth = failed.evidence!.exchanges.map((e) => e.request.headers.authorization ?? e.request.headers.Authorization);
      expect(auth.length).toBeGreaterThanOrEqual(2);
      expect(headlineOf(outcome.report).lines.find((l) => l.label === 'Ownership')).toMatchObject({ tone: 'fail', text: expect.stringContaining(faultCase.failing[0]!) });
    }, 60_000);
  }

  it('a target that refuses with 403 passes when its config says so; undescribed, only the PROFILE status check fails', async () => {
    const described = await run(REFUSES_WITH_403, { config: { api: { ownership: { refusal: 'forbidden' } } } });
    expect(failedIds(described)).toEqual([]);
    expect(described.report.verdict).toBe('selection-passed');
    const either = await run(REFUSES_WITH_403, { config: { api: { ownership: { refusal: 'either' } } } });
    expect(failedIds(either)).toEqual([]);
    const undescribed = await run(REFUSES_WITH_403);
    expect(failedIds(undescribed)).toEqual(['ownership.refusal.status']);
    expect(undescribed.report.checks.find((c) => c.id === 'ownership.refusal.status')!.level).toBe('PROFILE');
    expect(undescribed.report.verdict).toBe('selection-passed');
  }, 90_000);

  it('a target declaring one account: every ownership check is not applicable, said in every report, and the verdict stays complete', async () => {
    const outcome = await run({}, { config: { target: { accounts: 'single' } } });
    expect(outcome.report.checks.map((c) => [c.status, c.notApplicable, c.message])).toEqual(Array(OWNERSHIP_CHECKS).fill(['skipped', true, NOT_APPLICABLE]));
    expect(outcome.report.verdict).toBe('selection-passed');
    expect(outcome.exitCode).toBe(ExitCode.Certified);
    expect(headlineOf(outcome.report).lines).toContainEqual({ label: 'Ownership', text: NOT_APPLICABLE, tone: 'neutral' });
    const dir = join(outcome.runDir);
    for (const file of ['report.json', 'report.html', 'junit.xml']) expect(readFileSync(join(dir, file), 'utf8'), file).toContain(NOT_APPLICABLE);
  }, 60_000);

  it('a multi-account target without credentials.otherAccount: the MUST checks do not run, INCOMPLETE (exit 4), naming the key to add', async () => {
    const outcome = await run({}, { dropOther: true });
    const must = outcome.report.checks.filter((c) => c.level === 'MUST');
    expect(must.map((c) => [c.status, c.message])).toEqual(Array(must.length).fill(['skipped', NO_OTHER_ACCOUNT]));
    expect(NO_OTHER_ACCOUNT).toContain('credentials.otherAccount.apiKey (env HARNESS_OTHER_API_KEY)');
    expect(outcome.report.verdict).toBe('incomplete');
    expect(outcome.exitCode).toBe(ExitCode.Incomplete);
    expect(headlineOf(outcome.report).lines).toContainEqual({ label: 'Ownership', text: NO_OTHER_ACCOUNT, tone: 'incomplete' });
  }, 60_000);
});

afterAll(() => {
  for (const { dir, secrets } of written) {
    for (const name of readdirSync(dir)) {
      const text = readFileSync(join(dir, name), 'utf8');
      for (const secret of secrets) expect(text.includes(secret), `${name} contains a secret`).toBe(false);
    }
  }
});
