import { describe, expect, it } from 'vitest';
import { jsonSuccessProblem, mediaTypeOf, registeredJson, saysJson } from '../../../../suites/standing/media-types.ts';

describe('JSON media types', () => {
  it('reads the media type without parameters, lower-cased', () => {
    expect(mediaTypeOf('Application/JSON; charset=utf-8')).toBe('application/json');
    expect(mediaTypeOf(undefined)).toBeUndefined();
    expect(mediaTypeOf('  ')).toBeUndefined();
  });

  it('MUST level: any json subtype or +json suffix says JSON; text/plain and none do not', () => {
    for (const type of ['application/json', 'application/problem+json', 'application/vnd.api+json', 'text/json']) expect(saysJson(type), type).toBe(true);
    for (const type of ['text/plain', 'text/html', 'application/octet-stream', 'application/jsonp', undefined]) expect(saysJson(type), String(type)).toBe(false);
  });

  it('SHOULD level: only the registered application/json and application/…+json', () => {
    expect(registeredJson('application/json')).toBe(true);
    expect(registeredJson('application/problem+json')).toBe(true);
    expect(registeredJson('text/json')).toBe(false);
    expect(registeredJson('text/plain')).toBe(false);
  });

  it('a success the harness cut at its read limit is judged on its media type, not on the syntax of its first bytes', () => {
    const cut = '{"data":[{"id":"msg_1"},{"id":"ms';
    expect(jsonSuccessProblem({ headers: { 'content-type': 'application/json' }, body: cut, truncatedFrom: 10_485_760 })).toBeUndefined();
    expect(jsonSuccessProblem({ headers: { 'content-type': 'text/plain' }, body: cut, truncatedFrom: 10_485_760 })).toBe('is a body served as text/plain');
    expect(jsonSuccessProblem({ headers: { 'content-type': 'application/json' }, body: cut })).toBe('has a body that is not JSON');
    expect(jsonSuccessProblem({ headers: {}, body: '{}' })).toBe('is JSON served as no Content-Type at all');
  });
});
