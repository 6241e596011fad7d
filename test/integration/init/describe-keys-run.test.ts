/**
 * The run points back: a failed PROFILE check carries the config keys that describe it, as "describe it in
 * config" when the config leaves them at PROFILE's default, and as "a fault against your own description" when the
 * config already sets them and the target still differs.
 */
import { describe, expect, it } from 'vitest';
import { resultOf, runHarness } from '../../helpers/run-harness.ts';
import { startAltConventionTarget } from '../../targets/alt-convention.ts';
import { closeAfterEach } from '../../helpers/close-after-each.ts';

describe('describeIn on failed PROFILE checks', () => {
  const closing = closeAfterEach();

  it('names the key to describe a choice, and tells a fault against the description apart', async () => {
    const target = closing(await startAltConventionTarget());
    const plain = await runHarness({ baseUrl: target.baseUrl, credentials: target.credentials, suites: ['smoke'], config: { load: { scenarios: [] } } });
    const choice = resultOf(plain, 'smoke.send-created-status');
    expect(choice.status).toBe('failed');
    // The status it observed is the value that would describe it (read off the check's own evidence).
    expect(choice.describeIn).toEqual({ keys: ['api.successStatus.sendMessage'], described: false, values: { 'api.successStatus.sendMessage': 200 } });
    expect(plain.report.checks.filter((c) => c.level !== 'PROFILE' || c.status !== 'failed').every((c) => c.describeIn === undefined)).toBe(true);

    const wrong = await runHarness({ baseUrl: target.baseUrl, credentials: target.credentials, suites: ['smoke'], config: { load: { scenarios: [] }, api: { successStatus: { sendMessage: 202 } } } });
    expect(resultOf(wrong, 'smoke.send-created-status').describeIn).toEqual({ keys: ['api.successStatus.sendMessage'], described: true });
  }, 120_000);
});
