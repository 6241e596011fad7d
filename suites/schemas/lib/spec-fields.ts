/**
 * MUST-level shape checks: only what SERVICE-SPEC.md's field tables say, nothing PROFILE.md added. The full
 * schemas under schemas/api also carry PROFILE choices (a trailing "Z", a phone pattern for `from`, length
 * limits), so a MUST check that validated against them could fail a target that follows the spec and chose
 * differently; those schemas are checked at PROFILE level (`ctx.schemas.expect`), and a config can replace them.
 */
import { fail } from '../../../src/conformance/outcomes.ts';
import { isIsoUtc } from '../../../src/conformance/expect.ts';
import type { HttpResponse } from '../../../src/http/client.ts';

export type FieldRule =
  | 'string'
  | 'non-empty-string'
  | 'integer'
  | 'iso-utc'
  | 'array'
  | 'object'
  /** A JWS compact token: three base64url parts. */
  | 'jwt'
  | { const: unknown }
  /** A string, null, or absent (a cursor on the last page). */
  | 'optional-string';

function violates(rule: FieldRule, value: unknown): string | undefined {
  if (typeof rule === 'object') return value === rule.const ? undefined : `must be ${JSON.stringify(rule.const)}`;
  switch (rule) {
    case 'string':
      return typeof value === 'string' ? undefined : 'must be a string';
    case 'non-empty-string':
      return typeof value === 'string' && value.length > 0 ? undefined : 'must be a non-empty string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) ? undefined : 'must be an integer';
    case 'iso-utc':
      return isIsoUtc(value) ? undefined : 'must be an ISO 8601 UTC date-time';
    case 'array':
      return Array.isArray(value) ? undefined : 'must be an array';
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value) ? undefined : 'must be an object';
    case 'jwt':
      return typeof value === 'string' && /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(value) ? undefined : 'must be a JWT (three dot-separated base64url parts)';
    case 'optional-string':
      return value === undefined || value === null || typeof value === 'string' ? undefined : 'must be a string (or null on the last page)';
  }
}

/** Every field rule that `value` breaks, as "path: problem (got …)"; paths are dotted ("pagination.limit"). */
export function fieldProblems(value: unknown, rules: Readonly<Record<string, FieldRule>>, prefix = ''): string[] {
  const problems: string[] = [];
  for (const [path, rule] of Object.entries(rules)) {
    const got = path.split('.').reduce<unknown>((at, key) => (at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), value);
    const problem = violates(rule, got);
    if (problem) problems.push(`${prefix}${path} ${problem} (got ${got === undefined ? 'nothing' : JSON.stringify(got)?.slice(0, 60)})`);
  }
  return problems;
}

/** Fails with every problem found, naming the spec section. */
export function expectFields(value: unknown, rules: Readonly<Record<string, FieldRule>>, what: string, section: string): void {
  const problems = fieldProblems(value, rules);
  if (problems.length > 0) fail(`${what} does not have the fields of SERVICE-SPEC ${section}: ${problems.slice(0, 6).join('; ')}`, { problems });
}

/** The body as JSON (any value), failing when it is not JSON. */
export function jsonBody(res: HttpResponse, what: string): unknown {
  const body = res.json();
  if (body === undefined) fail(`${what}: expected a JSON body, got ${res.text.length ? JSON.stringify(res.text.slice(0, 80)) : 'an empty body'}`);
  return body;
}

/** The §2.3 fields of a listed message. */
export const LISTED_MESSAGE_FIELDS: Readonly<Record<string, FieldRule>> = {
  id: 'non-empty-string',
  from: 'string',
  text: 'string',
  timestamp: 'iso-utc',
};

/** The §2.2 fields of the send response. */
export const SEND_RESPONSE_FIELDS: Readonly<Record<string, FieldRule>> = {
  id: 'non-empty-string',
  status: { const: 'sent' },
  timestamp: 'iso-utc',
};

/** The §2.4 envelope. */
export const LIST_ENVELOPE_FIELDS: Readonly<Record<string, FieldRule>> = {
  data: 'array',
  pagination: 'object',
  'pagination.limit': 'integer',
  'pagination.next': 'optional-string',
};
