/**
 * Assertions shared by checks. Each failure message says what was expected and what came, in words a reader
 * of the report understands without opening the evidence.
 */
import type { Operation } from '../config/types.ts';
import type { HttpResponse } from '../http/client.ts';
import { fail } from './outcomes.ts';
import type { CheckContext } from './context.ts';
import { MAX_READ_DEPTH, tooDeep } from '../util/deep-json.ts';

/** Any 2xx: what a MUST check may demand when the spec shows no status code (SERVICE-SPEC §4 "not shown"). */
export function expect2xx(res: HttpResponse, what: string): void {
  if (res.status < 200 || res.status > 299) {
    fail(`${what}: expected a 2xx answer, got ${res.status}${problemSuffix(res)}`, { expected: '2xx', actual: res.status });
  }
}

/** One of the given statuses. */
export function expectStatus(res: HttpResponse, expected: readonly number[], what: string): void {
  if (!expected.includes(res.status)) {
    const wanted = expected.length === 1 ? String(expected[0]) : `one of ${expected.join(', ')}`;
    fail(`${what}: expected ${wanted}, got ${res.status}${problemSuffix(res)}`, { expected, actual: res.status });
  }
}

/** The configured success status of an operation (PROFILE level: 201 for creates unless the config says otherwise). */
export function expectSuccessStatus(ctx: CheckContext, res: HttpResponse, operation: Operation, what: string): void {
  expectStatus(res, [ctx.config.api.successStatus[operation]], what);
}

/** The body parsed as a JSON object; fails when it is not one. */
export function jsonObject(res: HttpResponse, what: string): Record<string, unknown> {
  const body = res.json();
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    const depth = tooDeep(res.text);
    if (depth !== undefined) fail(`${what}: the JSON body nests ${depth} levels deep; checks read JSON up to ${MAX_READ_DEPTH} levels`);
    fail(`${what}: expected a JSON object body, got ${res.text.length ? JSON.stringify(res.text.slice(0, 80)) : 'an empty body'}`);
  }
  return body as Record<string, unknown>;
}

/** ISO 8601 date-time in UTC ("Z" or +00:00), as SERVICE-SPEC §2.2 and §2.3 require. */
export function isIsoUtc(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const match = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|\+00:00|-00:00)$/i.exec(value);
  return match !== null && !Number.isNaN(Date.parse(value));
}

function problemSuffix(res: HttpResponse): string {
  const body = res.json<Record<string, unknown>>();
  const detail = body && typeof body === 'object' ? (body.detail ?? body.title ?? body.error ?? body.message) : undefined;
  return typeof detail === 'string' ? ` (${detail.slice(0, 200)})` : '';
}
