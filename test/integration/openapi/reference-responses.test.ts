/**
 * Every response of a conformance run against the reference target matches the exported OpenAPI document: the
 * harness runs its suites through a recording proxy (real HTTP on 127.0.0.1), and each recorded response to an
 * operation the document describes must have a documented status and a body that validates (AJV) against the
 * documented schema. Requests to undocumented routes (the errors suite's unknown paths and wrong methods) are
 * counted, not validated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config/index.ts';
import { buildOpenApiDocument } from '../../../src/openapi/index.ts';
import { OpenApiResponseValidator, type ResponseToCheck } from '../../helpers/openapi-validator.ts';
import { runHarness } from '../../helpers/run-harness.ts';
import { startFaultyTarget, type FaultyTarget } from '../../targets/faulty-proxy.ts';

const recorded: ResponseToCheck[] = [];
let target: FaultyTarget;

beforeAll(async () => {
  target = await startFaultyTarget({
    onResponse(req, res) {
      recorded.push({ method: req.method, path: req.path, status: res.status, contentType: res.headers['content-type'], body: res.body });
      return res;
    },
  });
  // Every suite but the long rate-limit and standing ones: they add waiting, not new shapes of response.
  await runHarness({
    baseUrl: target.baseUrl,
    credentials: target.credentials,
    suites: ['smoke', 'auth', 'schemas', 'pagination', 'email', 'idempotency', 'inputs', 'errors', 'webhooks'],
    config: { load: { scenarios: [] } },
  });
}, 240_000);

afterAll(async () => {
  await target?.close();
});

describe('the exported OpenAPI document against a reference run', () => {
  it('documents the status and the body schema of every response', () => {
    const validator = new OpenApiResponseValidator(buildOpenApiDocument({ api: defaultConfig().api }));
    const documented = recorded.filter((r) => validator.operationOf(r.method, r.path));
    expect(documented.length).toBeGreaterThan(100);
    const problems = [...new Set(documented.flatMap((r) => validator.problems(r)))];
    expect(problems).toEqual([]);
    // The run reached every documented operation, and errors as well as successes.
    const operations = new Set(documented.map((r) => `${r.method} ${validator.operationOf(r.method, r.path)}`));
    expect(operations.size).toBeGreaterThanOrEqual(12);
    for (const status of [200, 201, 204, 302, 400, 401, 403, 404, 415]) expect(documented.map((r) => r.status)).toContain(status);
  });
});
