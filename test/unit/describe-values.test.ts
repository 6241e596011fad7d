/**
 * The value that would describe what a failed PROFILE check observed is read off its evidence only when the evidence
 * is unambiguous, and never for a key whose value is not a status, a refusal kind or the problem+json switch.
 */
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/index.ts';
import { describedValues } from '../../src/conformance/describe-values.ts';
import type { Exchange } from '../../src/http/exchange.ts';

const answered = (status: number, contentType = 'application/json'): Exchange => ({
  startedAt: '2026-11-27T00:00:00.000Z',
  durationMs: 1,
  request: { method: 'POST', url: 'http://127.0.0.1:1/v1/messages', headers: {} },
  response: { status, headers: { 'content-type': contentType }, body: '{}' },
});
const config = defaultConfig();

describe('describedValues', () => {
  it('offers the one success status seen when the config expects another', () => {
    expect(describedValues(['api.successStatus.sendMessage'], [answered(200)], config)).toEqual({ 'api.successStatus.sendMessage': 200 });
    expect(describedValues(['api.successStatus.sendMessage'], [answered(config.api.successStatus.sendMessage)], config)).toEqual({});
  });

  it('offers nothing when the evidence holds two statuses of the class, or none', () => {
    expect(describedValues(['api.successStatus.sendMessage'], [answered(200), answered(202)], config)).toEqual({});
    expect(describedValues(['api.successStatus.sendMessage'], [answered(500)], config)).toEqual({});
  });

  it('adds a rejection status the config does not allow yet to the list, and ignores 401/403/404/429', () => {
    expect(describedValues(['api.rejectedStatus'], [answered(401), answered(409), answered(429)], config)).toEqual({ 'api.rejectedStatus': [...config.api.rejectedStatus, 409] });
    expect(describedValues(['api.rejectedStatus'], [answered(config.api.rejectedStatus[0]!)], config)).toEqual({});
  });

  it('names the ownership refusal kind and the plain-JSON error switch', () => {
    const refusal = config.api.ownership.refusal === 'not-found' ? 403 : 404;
    const kinds: Record<number, string> = { 403: 'forbidden', 404: 'not-found' };
    expect(describedValues(['api.ownership.refusal'], [answered(refusal)], config)).toEqual({ 'api.ownership.refusal': kinds[refusal] });
    expect(describedValues(['conformance.profile.problemJson'], [answered(400, 'application/json')], config)).toEqual({ 'conformance.profile.problemJson': false });
    expect(describedValues(['conformance.profile.problemJson'], [answered(400, 'application/problem+json')], config)).toEqual({});
  });

  it('never offers a value for a schema, a path or a switch', () => {
    expect(describedValues(['api.errorSchema', 'api.paths.sendMessage', 'conformance.profile.webhooks'], [answered(200), answered(422)], config)).toEqual({});
  });
});
