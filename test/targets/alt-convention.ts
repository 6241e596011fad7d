/**
 * A second, CORRECT target with other conventions: it follows SERVICE-SPEC.md wherever the spec speaks and
 * chooses differently from PROFILE.md wherever the spec says "not shown". It is a translating adapter (built on
 * startFaultyTarget) in front of a reference target started with other limits; one function per convention:
 *
 *   convention                    PROFILE.md (reference)                 this target
 *   ----------------------------  -------------------------------------  ------------------------------------------
 *   create status                 201                                    200 (send, campaign, sandbox, webhook)
 *   rejected request              400 (validation, malformed JSON)       422 for both
 *   error body                    application/problem+json (RFC 9457)    application/json {"error": {code, message,
 *                                                                          details?: [{field, message}]}}
 *                                 (OAuth token-endpoint errors stay RFC 6749 on both)
 *   rate-limit headers            RateLimit-Policy / RateLimit (draft)   X-RateLimit-Limit / -Remaining / -Reset
 *                                                                          (reset in delta seconds); 429 + Retry-After
 *   rate limit                    100 per 1 s                            30 per 2 s
 *   page size                     default 20, max 100                    default 10, max 50 (above: 422)
 *   list query names              limit, cursor                          page_size, after
 *   OAuth authorization endpoint  /v1/oauth/authorize                    /v1/oauth2/authorize
 *
 * test/fixtures/alt-convention/harness.config.yaml describes exactly these choices.
 */
import { randomUUID } from 'node:crypto';
import { startFaultyTarget, type FaultTools, type FaultyTarget, type ProxyRequest, type ProxyResponse } from './faulty-proxy.ts';
import { pathOf, queryOf } from '../helpers/path-query.ts';

/** The reference target's own paths and names that this target spells differently. */
const REFERENCE_AUTHORIZE_PATH = '/v1/oauth/authorize';
const LIST_PATH = '/v1/whatsapp/messages';

/** This target's conventions (the config file repeats them). */
export const ALT = {
  authorizePath: '/v1/oauth2/authorize',
  query: { limit: 'page_size', cursor: 'after' },
  defaultPageSize: 10,
  maxPageSize: 50,
  rejectedStatus: 422,
  rateLimit: { quota: 30, windowSeconds: 2 },
  /** The reference target's short JWT lifetime, as `harness run` uses for its embedded target. */
  jwtTtlSeconds: 3,
} as const;

/** Starts the reference target (with this target's limits) behind the translating adapter. */
export function startAltConventionTarget(): Promise<FaultyTarget> {
  return startFaultyTarget({
    reference: {
      rateLimit: { algorithm: 'fixed-window', quota: ALT.rateLimit.quota, windowSeconds: ALT.rateLimit.windowSeconds },
      tokens: { jwtTtlSeconds: ALT.jwtTtlSeconds },
    },
    // The whole exchange is done here, so both the request as sent and as translated are at hand.
    onRequest: (req, tools) => handle(req, tools),
  });
}

async function handle(original: ProxyRequest, tools: FaultTools): Promise<ProxyResponse> {
  const path = pathOf(original.path);
  // The reference's authorization path does not exist on this target.
  if (path === REFERENCE_AUTHORIZE_PATH) return ownError(original, 404, 'not_found', `No resource at ${path}.`);

  const translated = translateRequest(original);
  let res = await tools.forward(translated);
  res = rejectOversizedPage(translated, res);
  res = createdAsOk(res);
  res = problemAsErrorObject(res);
  res = rateLimitAsXHeaders(res);
  res = consentFormAction(res);
  return res;
}

// ---- requests: this target's names → the reference's names ----------------------------------------------

function translateRequest(req: ProxyRequest): ProxyRequest {
  const path = pathOf(req.path);
  if (path === ALT.authorizePath) return { ...req, path: REFERENCE_AUTHORIZE_PATH + queryOf(req.path) };
  if (path === LIST_PATH && req.method === 'GET') return { ...req, path: LIST_PATH + listQuery(req.path) };
  return req;
}

/**
 * The list query: `page_size` → `limit`, `after` → `cursor`; the reference's own names mean nothing here and
 * are dropped (a client sending `limit` gets the default page, as from any server that ignores unknown
 * parameters); no `page_size` → this target's default of 10.
 */
function listQuery(pathWithQuery: string): string {
  const inbound = new URLSearchParams(queryOf(pathWithQuery));
  const outbound = new URLSearchParams();
  for (const [name, value] of inbound) {
    if (name === 'limit' || name === 'cursor') continue;
    if (name === ALT.query.limit) outbound.append('limit', value);
    else if (name === ALT.query.cursor) outbound.append('cursor', value);
    else outbound.append(name, value);
  }
  if (!outbound.has('limit')) outbound.set('limit', String(ALT.defaultPageSize));
  const text = outbound.toString();
  return text ? `?${text}` : '';
}

// ---- responses: the reference's conventions → this target's ------------------------------------------------

/**
 * The reference accepts page sizes up to 100; this target stops at 50 (and says so for any larger size). The
 * request was still served (and counted against the quota) upstream, so its headers — request id, rate limit —
 * are kept; 401, 403 and 429 answers take precedence, as they do upstream.
 */
function rejectOversizedPage(req: ProxyRequest, res: ProxyResponse): ProxyResponse {
  if (pathOf(req.path) !== LIST_PATH || req.method !== 'GET' || (res.status !== 200 && res.status !== 400)) return res;
  const limit = Number(new URLSearchParams(queryOf(req.path)).get('limit'));
  if (!(limit > ALT.maxPageSize)) return res;
  return {
    status: ALT.rejectedStatus,
    headers: { ...res.headers, 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify(errorObject('validation_failed', 'The query parameters are not valid.', [
      { field: `/query/${ALT.query.limit}`, message: `must be an integer from 1 to ${ALT.maxPageSize}` },
    ])),
  };
}

/** Creates answer 200 instead of 201 (an idempotent replay of a create too). */
function createdAsOk(res: ProxyResponse): ProxyResponse {
  return res.status === 201 ? { ...res, status: 200 } : res;
}

/**
 * Every problem+json answer becomes `{"error": {code, message, details?}}` as application/json, and a 400
 * becomes 422. OAuth token-endpoint errors are plain application/json `{error, error_description}` (RFC 6749
 * §5.2) and stay exactly as they are; so do the authorization endpoint's error redirects.
 */
function problemAsErrorObject(res: ProxyResponse): ProxyResponse {
  if (!(res.headers['content-type'] ?? '').startsWith('application/problem+json')) return res;
  const problem = JSON.parse(res.body) as { title: string; detail?: string; code: string; errors?: Array<{ path: string; message: string }> };
  const details = problem.errors?.map(queryDetail);
  return {
    status: res.status === 400 ? ALT.rejectedStatus : res.status,
    headers: { ...res.headers, 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify(errorObject(problem.code, problem.detail ?? problem.title, details)),
  };
}

/** `RateLimit-Policy: "default";q=30;w=2` + `RateLimit: "default";r=12;t=1` → X-RateLimit-Limit/-Remaining/-Reset. */
function rateLimitAsXHeaders(res: ProxyResponse): ProxyResponse {
  const { ratelimit: current, 'ratelimit-policy': policy, ...headers } = res.headers;
  if (current === undefined || policy === undefined) return res;
  const param = (field: string, name: string): string => new RegExp(`;${name}=(\\d+)`).exec(field)?.[1] ?? '0';
  headers['x-ratelimit-limit'] = param(policy, 'q');
  headers['x-ratelimit-remaining'] = param(current, 'r');
  headers['x-ratelimit-reset'] = param(current, 't');
  return { ...res, headers };
}

/** The consent page's form posts to this target's authorization path. */
function consentFormAction(res: ProxyResponse): ProxyResponse {
  if (!(res.headers['content-type'] ?? '').startsWith('text/html')) return res;
  return { ...res, body: res.body.replaceAll(`action="${REFERENCE_AUTHORIZE_PATH}"`, `action="${ALT.authorizePath}"`) };
}

// ---- helpers ------------------------------------------------------------------------------------------------

interface FieldDetail {
  field: string;
  message: string;
}

function errorObject(code: string, message: string, details?: FieldDetail[]): { error: Record<string, unknown> } {
  return { error: { code, message, ...(details && details.length > 0 ? { details } : {}) } };
}

/** An answer the adapter gives itself (never forwarded), with the request id every answer carries. */
function ownError(req: ProxyRequest, status: number, code: string, message: string): ProxyResponse {
  const sent = req.headers['x-request-id'];
  return {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'x-request-id': sent && /^[A-Za-z0-9._:@/+=-]{1,128}$/.test(sent) ? sent : `req_${randomUUID().replaceAll('-', '').slice(0, 16)}`,
    },
    body: JSON.stringify(errorObject(code, message)),
  };
}

/** A field error in this target's words: `/query/limit` → `/query/page_size` (with its range), `/query/cursor` → `/query/after`. */
function queryDetail(error: { path: string; message: string }): FieldDetail {
  if (error.path === '/query/limit') return { field: `/query/${ALT.query.limit}`, message: `must be an integer from 1 to ${ALT.maxPageSize}` };
  if (error.path === '/query/cursor') return { field: `/query/${ALT.query.cursor}`, message: error.message };
  return { field: error.path, message: error.message };
}
