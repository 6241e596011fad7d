/**
 * A step's expectations against its answer: status set, schema, headers, JSON-pointer values, latency. The first
 * broken one fails the check, naming the step and what differed; nothing is retried or relaxed.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { fail, undecided } from '../conformance/outcomes.ts';
import { describeConditions } from '../conformance/conditions.ts';
import type { CheckContext } from '../conformance/context.ts';
import type { HttpResponse } from '../http/client.ts';
import { apiValidators } from '../config/fixed-schemas.ts';
import * as generatedApi from '../config/generated/api-validators.ts';
import { createAjv } from '../schemas/registry.ts';
import type { ExpectSpec, ValueExpectation } from './types.ts';

/** Value at a JSON pointer (RFC 6901), or `missing`: shared with the load flows' captures (src/util/json-pointer.ts). */
export { atPointer, MISSING } from '../util/json-pointer.ts';
import { atPointer, MISSING } from '../util/json-pointer.ts';

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Undefined when `value` meets `expected`, else what is wrong. */
function valueProblem(value: unknown, expected: ValueExpectation, asText: boolean): string | undefined {
  const present = value !== MISSING;
  if (expected.present === false) return present ? `is present (${JSON.stringify(value)}), expected absent` : undefined;
  if (!present) return 'is missing';
  if (expected.type !== undefined) {
    const actual = typeOf(value);
    if (!(actual === expected.type || (expected.type === 'number' && actual === 'integer'))) return `is ${actual}, expected ${expected.type}`;
  }
  if (expected.equals !== undefined) {
    const same = asText ? String(value) === String(expected.equals) : JSON.stringify(value) === JSON.stringify(expected.equals);
    if (!same) return `is ${JSON.stringify(value)}, expected ${JSON.stringify(expected.equals)}`;
  }
  if (expected.matches !== undefined && !new RegExp(expected.matches).test(typeof value === 'string' ? value : JSON.stringify(value))) {
    return `is ${JSON.stringify(value)}, expected to match /${expected.matches}/`;
  }
  return undefined;
}

const fileSchemas = new Map<string, ReturnType<ReturnType<typeof createAjv>['compile']>>();
/** One Ajv with the API schemas for every suite-file schema and $id (creating one compiles them all). */
let shared: ReturnType<typeof createAjv> | undefined;
const ajv = () => (shared ??= createAjv());

function schemaProblems(ctx: CheckContext, schema: string, body: unknown): string[] {
  if (schema.endsWith('.json')) {
    let validate = fileSchemas.get(schema);
    if (!validate) {
      const doc = JSON.parse(readFileSync(schema, 'utf8')) as { $id?: string };
      // Compiled with the API schemas present, so a file may $ref into schemas/api.
      const id = doc.$id ?? pathToFileURL(schema).toString();
      validate = ajv().getSchema(id) ?? ajv().compile({ ...doc, $id: id });
      fileSchemas.set(schema, validate);
    }
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
  }
  if (/^(https?|urn):/.test(schema)) {
    // An API schema's $id: its validator generated ahead of time (src/config/fixed-schemas.ts), no Ajv needed.
    const validate = apiValidators(generatedApi).get(schema) ?? ajv().getSchema(schema);
    return !validate || validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
  }
  const outcome = ctx.schemas.validate(schema, body);
  return outcome.ok ? [] : outcome.errors;
}

/**
 * A latency over the budget, judged against the harness's own stalls: the measured time includes every stall of
 * this process's event loop while the request was open (measured: conditions.ts). Over the budget even without
 * the longest stall → a failure, tolerance stated; within the budget once that stall is taken off → this run cannot
 * tell the target's share from its own (could not decide).
 */
function judgeLatency(ctx: CheckContext, step: string, res: HttpResponse, maxMs: number): never {
  const start = ctx.conditions.markOfWallClock(Date.parse(res.exchange.startedAt));
  const conditions = ctx.conditions.between(start, start + res.durationMs);
  const stallMs = conditions.loopDelayMs?.max ?? 0;
  const details = { expected: maxMs, actual: res.durationMs, harnessStallMs: stallMs, conditions };
  if (res.durationMs - stallMs <= maxMs) {
    undecided(`${step}: answered in ${res.durationMs} ms, over the ${maxMs} ms expected, but the harness's own event loop stalled up to ${stallMs} ms `
      + `while the request was open (${describeConditions(conditions)}): the target's share cannot be told from the harness's`, details);
  }
  fail(`${step}: answered in ${res.durationMs} ms, expected within ${maxMs} ms (still over it without the harness's own longest stall during the request, ${stallMs} ms)`, details);
}

export function checkExpectations(ctx: CheckContext, step: string, res: HttpResponse, expect: ExpectSpec = {}): void {
  const statuses = expect.status === undefined ? undefined : Array.isArray(expect.status) ? expect.status : [expect.status];
  if (statuses ? !statuses.includes(res.status) : res.status < 200 || res.status > 299) {
    fail(`${step}: answered ${res.status}, expected ${statuses ? statuses.join(' or ') : 'a 2xx status'}`, { expected: statuses ?? '2xx', actual: res.status });
  }
  if (expect.maxLatencyMs !== undefined && res.durationMs > expect.maxLatencyMs) judgeLatency(ctx, step, res, expect.maxLatencyMs);
  for (const [name, expected] of Object.entries(expect.headers ?? {})) {
    const value = res.header(name);
    const problem = valueProblem(value === undefined ? MISSING : value, expected, true);
    if (problem) fail(`${step}: header ${name} ${problem}`, { header: name, expected, actual: value ?? null });
  }
  const needsBody = expect.schema !== undefined || Object.keys(expect.json ?? {}).length > 0;
  const body = needsBody ? res.json() : undefined;
  if (needsBody && body === undefined) fail(`${step}: the body is not JSON`, { actual: res.text.slice(0, 200) });
  if (expect.schema !== undefined) {
    const problems = schemaProblems(ctx, expect.schema, body);
    if (problems.length > 0) fail(`${step}: the body does not match schema "${expect.schema.replace(/^.*\//, '')}": ${problems.slice(0, 5).join('; ')}`, { schema: expect.schema, errors: problems });
  }
  for (const [pointer, expected] of Object.entries(expect.json ?? {})) {
    const value = atPointer(body, pointer);
    const problem = valueProblem(value, expected, false);
    if (problem) fail(`${step}: ${pointer || 'the body'} ${problem}`, { pointer, expected, actual: value === MISSING ? null : value });
  }
}
