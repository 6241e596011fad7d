/**
 * Standing checks: they send nothing themselves and judge the traffic of every check that ran before them
 * (ctx.traffic), so they belong to the suite that runs last.
 */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, passVacuously, skip } from '../../src/conformance/outcomes.ts';
import type { TaggedExchange } from '../../src/conformance/traffic.ts';
import { pathUnderBase, schemaForResponse } from './lib/response-schema-map.ts';
import { MAX_READ_DEPTH, tooDeep } from '../../src/util/deep-json.ts';

/** Mismatches listed in the message; the details keep more, the evidence the first dozen exchanges. */
const LISTED = 5;
const KEPT = 50;
const SHOWN = 12;

/**
 * ECHO: a field of a response that holds exactly what the request sent at the same place (a webhook URL
 * registered with an unpaired surrogate, handed back as sent) is the harness's own input, not the target's
 * making. Whether the target should have taken it is the input checks' question, at the level their source
 * gives; a standing check that blamed the echo would fail a target for the harness's hostile body.
 */
function echoes(body: unknown, sent: unknown, at: string): boolean {
  if (at === '' || sent === undefined) return false;
  const got = pointerInto(body, at);
  return got.found && pointerInto(sent, at).found && JSON.stringify(got.value) === JSON.stringify(pointerInto(sent, at).value);
}

function pointerInto(value: unknown, pointer: string): { found: boolean; value?: unknown } {
  let here = value;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (here === null || typeof here !== 'object' || !Object.hasOwn(here, key)) return { found: false };
    here = (here as Record<string, unknown>)[key];
  }
  return { found: true, value: here };
}

function requestJson(body: unknown): unknown {
  if (typeof body !== 'string' || body === '') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

function echoNote(echoed: ReadonlyArray<{ tagged: TaggedExchange }>): string {
  return echoed.length === 0 ? '' : ` (${echoed.length} more only hand back the harness's own input, left to the input checks)`;
}

function summary({ tagged, schema, errors }: { tagged: TaggedExchange; schema: string; errors: string[] }) {
  return {
    checkId: tagged.checkId,
    method: tagged.exchange.request.method,
    path: new URL(tagged.exchange.request.url).pathname,
    status: tagged.exchange.response?.status,
    schema,
    errors: errors.slice(0, 5),
  };
}

function describe(tagged: TaggedExchange): string {
  const { request, response } = tagged.exchange;
  const url = new URL(request.url);
  return `${request.method} ${url.pathname} → ${response?.status} (made by ${tagged.checkId})`;
}

export const responsesMatchSchemas = defineCheck({
  id: 'standing.responses-match-schemas',
  suite: 'standing',
  title: 'Every response of the run matches the schema of its operation and status (errors: the configured error schema)',
  level: 'PROFILE',
  specRef: 'PROFILE (response bodies of every operation; "Errors are application/problem+json"); schemas/api, api.schemas, api.errorSchema',
  clauses: [],
  async run(ctx) {
    if (ctx.traffic.exchanges.length === 0) skip('no traffic to judge: no check before this one sent a request');
    // Error bodies are always held to api.errorSchema: a target with its own error format re-describes it there.
    const options = { paths: ctx.config.api.paths };
    const mismatches: Array<{ tagged: TaggedExchange; schema: string; errors: string[] }> = [];
    // Fields whose only fault is the harness's own input handed back (ECHO below): the input checks judge accepting it.
    const echoed: typeof mismatches = [];
    let judged = 0;
    for (const tagged of ctx.traffic.exchanges) {
      const { request, response } = tagged.exchange;
      // A body cut at the read limit (http/body-reader.ts) cannot be judged: it is neither valid nor invalid.
      if (!response || response.truncatedFrom !== undefined) continue;
      const path = pathUnderBase(request.url, ctx.target.baseUrl);
      if (path === undefined) continue;
      const schema = schemaForResponse({ method: request.method, path, status: response.status, contentType: response.headers['content-type'] }, options);
      if (!schema) continue;
      judged++;
      const depth = tooDeep(response.body);
      if (depth !== undefined) {
        mismatches.push({ tagged, schema, errors: [`the JSON body nests ${depth} levels deep; checks read JSON up to ${MAX_READ_DEPTH} levels`] });
        continue;
      }
      let body: unknown;
      try {
        body = JSON.parse(response.body);
      } catch {
        mismatches.push({ tagged, schema, errors: ['the body is not JSON'] });
        continue;
      }
      const outcome = ctx.schemas.validate(schema, body);
      if (outcome.ok) continue;
      const sent = requestJson(request.body);
      const own = outcome.errors.filter((_, i) => !echoes(body, sent, outcome.at[i]!));
      if (own.length < outcome.errors.length) echoed.push({ tagged, schema, errors: outcome.errors.filter((e) => !own.includes(e)) });
      if (own.length > 0) mismatches.push({ tagged, schema, errors: own });
    }
    if (mismatches.length > 0) {
      const listed = mismatches.slice(0, LISTED).map((m) => `${describe(m.tagged)} does not match "${m.schema}": ${m.errors[0]}`);
      fail(`${mismatches.length} response(s) do not match their schema: ${listed.join(' | ')}${mismatches.length > LISTED ? ' | …' : ''}${echoNote(echoed)}`, {
        mismatches: mismatches.slice(0, KEPT).map(summary),
        ...(echoed.length > 0 ? { echoed: echoed.slice(0, KEPT).map(summary) } : {}),
      }, mismatches.slice(0, SHOWN).map((m) => m.tagged.exchange));
    }
    if (judged === 0) passVacuously(`none of the ${ctx.traffic.exchanges.length} responses of the run has a schema to match (no success of a known operation, no JSON error)`);
  },
});

export const noServerErrors = defineCheck({
  id: 'standing.no-server-errors',
  suite: 'standing',
  title: 'No request of the run was answered with a 5xx',
  level: 'SHOULD',
  specRef: 'RFC 9110 §15.6 (5xx: the server failed; no client input may cause one)',
  clauses: [],
  async run(ctx) {
    if (ctx.traffic.total === 0) skip('no traffic to judge: no check before this one sent a request');
    const errors = ctx.traffic.serverErrors;
    if (errors.length > 0) {
      fail(`${ctx.traffic.serverErrorCount} request(s) were answered with a server error: ${errors.slice(0, LISTED).map(describe).join('; ')}${errors.length > LISTED ? '; …' : ''}`, {
        serverErrors: errors.slice(0, KEPT).map((tagged) => ({
          checkId: tagged.checkId,
          method: tagged.exchange.request.method,
          path: new URL(tagged.exchange.request.url).pathname,
          status: tagged.exchange.response?.status,
        })),
      }, errors.slice(0, SHOWN).map((tagged) => tagged.exchange));
    }
  },
});
