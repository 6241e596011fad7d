/**
 * A third CORRECT target, one that publishes its OpenAPI document (GET /openapi.json) and makes PROFILE choices
 * other than both the reference's and alt-convention's. A translating adapter in front of a reference target:
 *
 *   convention            PROFILE.md (reference)                  this target
 *   --------------------  --------------------------------------  -------------------------------------------------
 *   send status           201                                     202 (accepted for sending); other creates 201
 *   validation failure    400 problem+json                        422 problem+json (a body that is not JSON: 400)
 *   list query names      limit, cursor                           per_page, page_token
 *   page size             default 20, max 100                     default 15, max 40 (above: 422)
 *   rate-limit headers    RateLimit-Policy / RateLimit (-09)      draft -07: RateLimit: limit=, remaining=, reset=
 *                                                                 and RateLimit-Policy: q;w=w
 *
 * Its document states every one of these, so `harness init --openapi <url>/openapi.json` can describe it.
 */
import { startFaultyTarget, type FaultTools, type FaultyTarget, type ProxyRequest, type ProxyResponse } from './faulty-proxy.ts';
import { openApiConventionDocument } from './openapi-convention-document.ts';
import { pathOf, queryOf } from '../helpers/path-query.ts';

const LIST_PATH = '/v1/whatsapp/messages';

export const OAC = {
  query: { limit: 'per_page', cursor: 'page_token' },
  defaultPageSize: 15,
  maxPageSize: 40,
  sendStatus: 202,
  rejectedStatus: 422,
  rateLimit: { quota: 60, windowSeconds: 2 },
  jwtTtlSeconds: 3,
} as const;

export interface OpenApiConventionOptions {
  /** A fault on top of the conventions: the request rewritten, or undefined to go on as usual. */
  fault?: (req: ProxyRequest, tools: FaultTools) => ProxyRequest | undefined;
}

export function startOpenApiConventionTarget(options: OpenApiConventionOptions = {}): Promise<FaultyTarget> {
  return startFaultyTarget({
    reference: {
      rateLimit: { algorithm: 'fixed-window', quota: OAC.rateLimit.quota, windowSeconds: OAC.rateLimit.windowSeconds },
      tokens: { jwtTtlSeconds: OAC.jwtTtlSeconds },
    },
    onRequest: (req, tools) => handle(options.fault?.(req, tools) ?? req, tools),
  });
}

async function handle(req: ProxyRequest, tools: FaultTools): Promise<ProxyResponse> {
  const path = pathOf(req.path);
  if (path === '/openapi.json' && req.method === 'GET') {
    return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(openApiConventionDocument()) };
  }
  const translated = path === LIST_PATH && req.method === 'GET' ? { ...req, path: LIST_PATH + listQuery(req.path) } : req;
  let res = await tools.forward(translated);
  if (path === LIST_PATH && req.method === 'GET') res = rejectOversizedPage(translated, res);
  if (path === LIST_PATH && req.method === 'POST' && res.status === 201) res = { ...res, status: OAC.sendStatus };
  res = validationAs422(res);
  return draft07Headers(res);
}

function listQuery(pathWithQuery: string): string {
  const inbound = new URLSearchParams(queryOf(pathWithQuery));
  const outbound = new URLSearchParams();
  for (const [name, value] of inbound) {
    if (name === 'limit' || name === 'cursor') continue;
    outbound.append(name === OAC.query.limit ? 'limit' : name === OAC.query.cursor ? 'cursor' : name, value);
  }
  if (!outbound.has('limit')) outbound.set('limit', String(OAC.defaultPageSize));
  return `?${outbound.toString()}`;
}

function rejectOversizedPage(req: ProxyRequest, res: ProxyResponse): ProxyResponse {
  if (res.status !== 200 && res.status !== 400) return res;
  const limit = Number(new URLSearchParams(queryOf(req.path)).get('limit'));
  if (!(limit > OAC.maxPageSize)) return res;
  const problem = { type: 'about:blank', title: 'Validation failed', status: 422, code: 'validation_failed', detail: 'The query is not valid.', errors: [{ path: `/query/${OAC.query.limit}`, message: `must be an integer from 1 to ${OAC.maxPageSize}` }] };
  return { status: 422, headers: { ...res.headers, 'content-type': 'application/problem+json' }, body: JSON.stringify(problem) };
}

/** A rejected request (validation_failed) answers 422; a body that is not JSON keeps its 400. */
function validationAs422(res: ProxyResponse): ProxyResponse {
  if (res.status !== 400 || !(res.headers['content-type'] ?? '').startsWith('application/problem+json')) return res;
  const problem = JSON.parse(res.body) as { code?: string; status?: number; errors?: Array<{ path: string; message: string }> };
  if (problem.code !== 'validation_failed') return res;
  const errors = problem.errors?.map((e) => ({ ...e, path: e.path === '/query/limit' ? `/query/${OAC.query.limit}` : e.path === '/query/cursor' ? `/query/${OAC.query.cursor}` : e.path }));
  return { ...res, status: 422, body: JSON.stringify({ ...problem, status: 422, ...(errors ? { errors } : {}) }) };
}

/** `RateLimit-Policy: "default";q=60;w=2` + `RateLimit: "default";r=12;t=1` → draft -07's dictionary form. */
function draft07Headers(res: ProxyResponse): ProxyResponse {
  const { ratelimit: current, 'ratelimit-policy': policy, ...headers } = res.headers;
  if (current === undefined || policy === undefined) return res;
  const param = (field: string, name: string): string => new RegExp(`;${name}=(\\d+)`).exec(field)?.[1] ?? '0';
  headers['ratelimit'] = `limit=${param(policy, 'q')}, remaining=${param(current, 'r')}, reset=${param(current, 't')}`;
  headers['ratelimit-policy'] = `${param(policy, 'q')};w=${param(policy, 'w')}`;
  return { ...res, headers };
}
