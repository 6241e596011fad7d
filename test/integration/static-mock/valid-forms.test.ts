/**
 * Against a static mock that validates the send by SERVICE-SPEC §2.1's two text forms (the short form with `type`
 * omitted), every generated "valid" send body must be valid by the source its form comes from: the valid-accepted
 * check passes, and the short-form bodies it sent carry no `type`.
 */
import { describe, expect, it } from 'vitest';
import { resultOf, runHarness } from '../../helpers/run-harness.ts';
import { sendBodyProblem, startStaticMock } from '../../targets/static-mock.ts';

describe('generated valid send bodies against a static mock', () => {
  it('the mock refuses a short form that carries type (so a generator that adds it would fail here)', () => {
    expect(sendBodyProblem({ to: '15551234567', text: 'hi' })).toBeUndefined();
    expect(sendBodyProblem({ to: '15551234567', type: 'text', text: 'hi' })).toMatch(/type must be omitted/);
    expect(sendBodyProblem({ to: '15551234567', type: 'text', text: { body: 'hi' } })).toBeUndefined();
  });

  it('inputs.send-message.valid-accepted passes, and its short-form bodies omit type', async () => {
    const mock = await startStaticMock();
    try {
      const outcome = await runHarness({ baseUrl: mock.baseUrl, credentials: { apiKey: 'mock-key-1' }, suites: ['inputs'] });
      const valid = resultOf(outcome, 'inputs.send-message.valid-accepted');
      expect(valid.status, valid.message).toBe('passed');
      const shortForms = mock.asked.filter((r) => r.method === 'POST' && r.path === '/v1/whatsapp/messages' && r.status === 201 && typeof (JSON.parse(r.body) as { text?: unknown }).text === 'string');
      expect(shortForms.length).toBeGreaterThan(0);
    } finally {
      await mock.close();
    }
  }, 120_000);
});
