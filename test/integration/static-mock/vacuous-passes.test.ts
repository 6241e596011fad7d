/**
 * A static mock answers every send with one canned body (the same id and timestamp each time). The checks that
 * accept generated bodies pass there — the mock refuses nothing valid — but they can see that nothing varied, so
 * they pass vacuously and say why (and a vacuous MUST pass leaves a certification incomplete).
 */
import { describe, expect, it } from 'vitest';
import { resultOf, runHarness } from '../../helpers/run-harness.ts';
import { MOCK_MESSAGE, startStaticMock } from '../../targets/static-mock.ts';

describe('passes a static mock allows are vacuous', () => {
  it('the valid-body checks see the one canned answer and say so', async () => {
    const mock = await startStaticMock();
    try {
      const outcome = await runHarness({ baseUrl: mock.baseUrl, credentials: { apiKey: 'mock-key-1', login: { email: 'mock@example.com', password: 'mock-password-1' } }, suites: ['inputs'] });
      for (const id of ['inputs.send-message.long-form-text-accepted', 'inputs.send-message.valid-accepted', 'inputs.campaign.valid-accepted', 'inputs.login.valid-accepted']) {
        const result = resultOf(outcome, id);
        expect(result.status, `${id}: ${result.message}`).toBe('passed');
        expect(result.vacuous, id).toMatch(/were answered 20[01] with the same body, the same (id|token) .* included: the answer depends on nothing that was sent/);
      }
      expect(resultOf(outcome, 'inputs.send-message.valid-accepted').vacuous).toContain(JSON.stringify(MOCK_MESSAGE.id));
      // Counted apart in the summary, as every vacuous pass is.
      expect(outcome.report.summary.vacuous).toBeGreaterThanOrEqual(4);
    } finally {
      await mock.close();
    }
  }, 120_000);
});
