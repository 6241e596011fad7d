/**
 * Standing checks on what the answers of the run say they are. SERVICE-SPEC §1: "Requests and responses are JSON
 * over HTTP". Over HTTP, what a response IS is what its Content-Type says (RFC 9110 §8.3: the media type tells
 * the recipient how to process the content), so a JSON text served as `text/plain`, or with no Content-Type, is
 * not a JSON response: a client that dispatches on the media type, as HTTP asks it to, never parses it. Hence:
 *
 * - MUST, for the successes of SERVICE-SPEC §4's operations: a body that is JSON, labelled with a JSON media type
 *   (any `…/json` or `…+json`, so an older `text/json` is not held against a target at this level);
 * - SHOULD, for every answer of the run whose body is a JSON object or array: the registered media type,
 *   `application/json` (RFC 8259 §11) or an `application/…+json` suffix type (RFC 6839 §3.1).
 */
import type { Operation } from '../../src/config/types.ts';
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, passVacuously, skip } from '../../src/conformance/outcomes.ts';
import type { TaggedExchange } from '../../src/conformance/traffic.ts';
import { operationOf, pathUnderBase } from './lib/response-schema-map.ts';

/** The operations of SERVICE-SPEC §4's table. */
const SPEC_OPERATIONS: ReadonlySet<Operation> = new Set(['sendMessage', 'listMessages', 'login', 'account', 'createCampaign', 'oauthToken']);
const LISTED = 5;
const SHOWN = 12;

/** The media type without parameters, lower-cased ("application/json"), or undefined. */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type ? type : undefined;
}

/** Any media type that says JSON: a `json` subtype or a `+json` suffix, whatever the top-level type. */
export function saysJson(type: string | undefined): boolean {
  return type !== undefined && /^[a-z0-9!#$&^_.+-]+\/(?:json|[a-z0-9!#$&^_.+-]+\+json)$/.test(type);
}

/** The registered forms: application/json, or application/<something>+json. */
export function registeredJson(type: string | undefined): boolean {
  return type !== undefined && /^application\/(?:json|[a-z0-9!#$&^_.+-]+\+json)$/.test(type);
}

function parsed(body: string): { ok: boolean; value?: unknown } {
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch {
    return { ok: false };
  }
}

function describe(tagged: TaggedExchange, what: string): string {
  const { request, response } = tagged.exchange;
  return `${request.method} ${new URL(request.url).pathname} → ${response?.status} ${what} (made by ${tagged.checkId})`;
}

/**
 * What makes one success not a JSON response, or undefined. A body the harness cut at its read limit
 * (`truncatedFrom`) is only its first bytes, which no JSON parser accepts: its media type is judged, its syntax is not.
 */
export function jsonSuccessProblem(response: { headers: Record<string, string | undefined>; body: string; truncatedFrom?: number }): string | undefined {
  const type = mediaTypeOf(response.headers['content-type']);
  if (response.truncatedFrom === undefined && !parsed(response.body).ok) return 'has a body that is not JSON';
  if (!saysJson(type)) return `is ${response.truncatedFrom === undefined ? 'JSON' : 'a body'} served as ${type ?? 'no Content-Type at all'}`;
  return undefined;
}

export const specResponsesAreJson = defineCheck({
  id: 'standing.json-responses',
  suite: 'standing',
  title: 'Every success of a SERVICE-SPEC §4 operation with a body is JSON and says so in its Content-Type',
  level: 'MUST',
  specRef: 'SERVICE-SPEC §1 ("Requests and responses are JSON over HTTP"), §4; RFC 9110 §8.3 (Content-Type states the media type)',
  clauses: ['§1.json'],
  async run(ctx) {
    if (ctx.traffic.exchanges.length === 0) skip('no traffic to judge: no check before this one sent a request');
    const wrong: Array<{ tagged: TaggedExchange; what: string }> = [];
    let judged = 0;
    for (const tagged of ctx.traffic.exchanges) {
      const { request, response } = tagged.exchange;
      if (!response || response.status < 200 || response.status > 299 || request.method === 'HEAD' || response.body.length === 0) continue;
      const path = pathUnderBase(request.url, ctx.target.baseUrl);
      const operation = path === undefined ? undefined : operationOf(ctx.config.api.paths, request.method, path);
      if (!operation || !SPEC_OPERATIONS.has(operation)) continue;
      judged++;
      const what = jsonSuccessProblem(response);
      if (what) wrong.push({ tagged, what });
    }
    if (wrong.length > 0) {
      fail(`${wrong.length} of ${judged} successes are not JSON responses: ${wrong.slice(0, LISTED).map((w) => describe(w.tagged, w.what)).join('; ')}`, {
        expected: 'a JSON body with a JSON media type (application/json, …+json)',
        actual: wrong.slice(0, 50).map(({ tagged, what }) => ({ checkId: tagged.checkId, method: tagged.exchange.request.method, path: new URL(tagged.exchange.request.url).pathname, status: tagged.exchange.response?.status, contentType: tagged.exchange.response?.headers['content-type'] ?? null, problem: what })),
      }, wrong.slice(0, SHOWN).map((w) => w.tagged.exchange));
    }
    if (judged === 0) passVacuously('no success of a SERVICE-SPEC §4 operation with a body was seen in the run');
  },
});

export const jsonMediaType = defineCheck({
  id: 'standing.json-media-type',
  suite: 'standing',
  title: 'Every answer whose body is a JSON object or array is labelled application/json or application/…+json',
  level: 'SHOULD',
  specRef: 'RFC 8259 §11 (application/json), RFC 6839 §3.1 (+json), RFC 9110 §8.3',
  clauses: [],
  async run(ctx) {
    if (ctx.traffic.exchanges.length === 0) skip('no traffic to judge: no check before this one sent a request');
    const wrong: TaggedExchange[] = [];
    let judged = 0;
    for (const tagged of ctx.traffic.exchanges) {
      const { request, response } = tagged.exchange;
      if (!response || request.method === 'HEAD' || response.body.length === 0) continue;
      if (pathUnderBase(request.url, ctx.target.baseUrl) === undefined) continue;
      const body = parsed(response.body);
      if (!body.ok || body.value === null || typeof body.value !== 'object') continue;
      judged++;
      if (!registeredJson(mediaTypeOf(response.headers['content-type']))) wrong.push(tagged);
    }
    if (wrong.length > 0) {
      const types = [...new Set(wrong.map((t) => mediaTypeOf(t.exchange.response?.headers['content-type']) ?? '(none)'))];
      fail(`${wrong.length} of ${judged} JSON answers carry another media type (${types.join(', ')}): ${wrong.slice(0, LISTED).map((t) => describe(t, '')).join('; ')}`, {
        expected: 'application/json or application/…+json',
        actual: types,
      }, wrong.slice(0, SHOWN).map((t) => t.exchange));
    }
    if (judged === 0) passVacuously('no answer of the run had a JSON object or array as its body');
  },
});
