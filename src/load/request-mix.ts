/**
 * The scenario's request mix, compiled once per run: each request's method, templated path (query included),
 * headers and body, plus a weighted picker. The picker is smooth weighted round-robin (nginx's algorithm):
 * deterministic and evenly interleaved, so a 3:1 send/list mix is exactly 3:1 in every window of four
 * requests, not only on average, and a short run still has the mix it asked for.
 */
import type { ApiConfig, CredentialsConfig, DeepReadonly } from '../config/types.ts';
import { ConfigError, type ConfigIssue } from '../errors/harness-errors.ts';
import { compileTemplate, type Template } from './template.ts';
import type { RequestOperation, RequestSpec, Scenario } from './scenario/types.ts';

export interface PreparedRequest {
  /** Position in `RequestMix.names` (metrics are kept per name). */
  nameIndex: number;
  name: string;
  method: string;
  /** Path with the query string, templated. */
  path: Template;
  headers: Record<string, string>;
  body?: Template;
  /** Does this status count as success (not a failure)? */
  expected(status: number): boolean;
}

export interface RequestMix {
  requests: PreparedRequest[];
  /** Distinct request names, in first-seen order. */
  names: string[];
  /** How many credentials `next()` rotates across (1 unless the scenario names `credentials`). */
  credentialCount: number;
  /** The next request: the weighted pick, carrying the next credential in round-robin order. */
  next(): PreparedRequest;
}

interface OperationDefaults {
  method: string;
  path: (api: DeepReadonly<ApiConfig>) => string;
  query?: (api: DeepReadonly<ApiConfig>) => Record<string, string | number>;
  body?: (credentials: Readonly<CredentialsConfig>) => unknown;
}

export const OPERATION_DEFAULTS: Record<RequestOperation, OperationDefaults> = {
  send: { method: 'POST', path: (api) => api.paths.sendMessage, body: () => ({ to: '{{phone}}', type: 'text', text: { body: 'load test {{seq}}' } }) },
  list: { method: 'GET', path: (api) => api.paths.listMessages, query: (api) => ({ [api.query.limit]: 20 }) },
  account: { method: 'GET', path: (api) => api.paths.account },
  login: {
    method: 'POST',
    path: (api) => api.paths.login,
    body: (credentials) => {
      if (!credentials.login) throw new ConfigError([{ path: 'credentials.login', message: 'the scenario has a login request, but no login credentials are configured' }]);
      return { email: credentials.login.email, password: credentials.login.password };
    },
  },
  inbound: { method: 'POST', path: (api) => api.paths.sandboxInbound, body: () => ({ from: '{{phone}}', text: 'load test {{seq}}' }) },
  webhooks: { method: 'GET', path: (api) => api.paths.listWebhooks },
};

/** The name a request gets when the file gives none. */
export function defaultRequestName(spec: Pick<RequestSpec, 'operation' | 'method' | 'path'>): string {
  if (spec.operation) return spec.operation;
  return `${(spec.method ?? 'GET').toLowerCase()}${(spec.path ?? '/').replace(/[^A-Za-z0-9]+/g, '_')}`.replace(/_$/, '');
}

/** Path template plus a query string whose values are templates too (each rendered value is URL-encoded). */
function pathWithQuery(path: Template, query: Record<string, string | number | boolean>, where: string): Template {
  const entries = Object.entries(query).map(([k, v]) => ({ key: encodeURIComponent(k), value: compileOrThrow(String(v), `${where}.query.${k}`) }));
  if (entries.length === 0) return path;
  if (path.constant && entries.every((e) => e.value.constant)) {
    const fixed = `${path.render(undefined as never)}?${entries.map((e) => `${e.key}=${encodeURIComponent(e.value.render(undefined as never))}`).join('&')}`;
    return { constant: true, render: () => fixed };
  }
  return {
    constant: false,
    render: (state) => {
      let out = `${path.render(state)}?`;
      for (let i = 0; i < entries.length; i++) {
        const e = entries[i]!;
        out += `${i ? '&' : ''}${e.key}=${encodeURIComponent(e.value.render(state))}`;
      }
      return out;
    },
  };
}

/** The texts of a request that are templates, keyed by where they are (for error positions). */
export function requestTemplates(spec: RequestSpec): Array<{ at: (string | number)[]; text: string }> {
  const out: Array<{ at: (string | number)[]; text: string }> = [];
  if (spec.path) out.push({ at: ['path'], text: spec.path });
  for (const [k, v] of Object.entries(spec.query ?? {})) if (typeof v === 'string') out.push({ at: ['query', k], text: v });
  for (const [k, v] of Object.entries(spec.headers ?? {})) out.push({ at: ['headers', k], text: v });
  const walk = (value: unknown, at: (string | number)[]): void => {
    if (typeof value === 'string') out.push({ at, text: value });
    else if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...at, i]));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, [...at, k]);
  };
  walk(spec.body, ['body']);
  return out;
}

function compileOrThrow(text: string, where: string): Template {
  const { template, problems } = compileTemplate(text);
  if (problems.length) throw new ConfigError(problems.map((message): ConfigIssue => ({ path: where, message })));
  return template;
}

export interface MixContext {
  api: DeepReadonly<ApiConfig>;
  credentials: Readonly<CredentialsConfig>;
  /** Value of `Authorization: Bearer …`, or undefined for `credential: none`. */
  bearer?: string;
  /** Several bearers (a scenario's `credentials`): requests rotate round-robin across them; overrides `bearer`. */
  bearers?: readonly string[];
}

/**
 * What a request of a scenario or a flow step starts from before templating: JSON accepted, the bearer, and a
 * body as text with its content type (a string is sent as it is, anything else as JSON).
 */
export function requestBase(rawBody: unknown, bearer: string | undefined): { headers: Record<string, string>; bodyText?: string } {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (bearer !== undefined) headers.authorization = `Bearer ${bearer}`;
  if (rawBody === undefined) return { headers };
  headers['content-type'] = typeof rawBody === 'string' ? 'text/plain' : 'application/json';
  return { headers, bodyText: typeof rawBody === 'string' ? rawBody : JSON.stringify(rawBody) };
}

export function prepareRequest(spec: RequestSpec, index: number, nameIndex: number, ctx: MixContext): PreparedRequest {
  const op = spec.operation ? OPERATION_DEFAULTS[spec.operation] : undefined;
  const method = spec.method ?? op?.method ?? 'GET';
  const path = spec.path ?? op?.path(ctx.api) ?? '/';
  const query = { ...(op?.query?.(ctx.api) ?? {}), ...(spec.query ?? {}) };
  const rawBody = spec.body !== undefined ? spec.body : op?.body?.(ctx.credentials);
  const { headers, bodyText } = requestBase(rawBody, ctx.bearer);
  const body = bodyText !== undefined ? compileOrThrow(bodyText, `requests[${index}].body`) : undefined;
  for (const [k, v] of Object.entries(spec.headers ?? {})) headers[k.toLowerCase()] = v;
  const expect = spec.expectStatus ? new Set(spec.expectStatus) : undefined;
  return {
    nameIndex,
    name: spec.name,
    method,
    path: pathWithQuery(compileOrThrow(path, `requests[${index}].path`), query, `requests[${index}]`),
    headers,
    ...(body ? { body } : {}),
    expected: expect ? (status) => expect.has(status) : (status) => status >= 200 && status < 400,
  };
}

/**
 * `requests` holds the mix prepared with the first credential. With several credentials (`ctx.bearers`) each
 * request is prepared once per credential, and `next()` makes the weighted pick, then takes the next credential
 * in turn: credential k % n for the k-th request, whatever the mix, so each credential gets 1/n of the load.
 */
export function createRequestMix(scenario: Pick<Scenario, 'requests'>, ctx: MixContext): RequestMix {
  const names: string[] = [];
  const nameIndexes = scenario.requests.map((spec) => {
    let nameIndex = names.indexOf(spec.name);
    if (nameIndex < 0) nameIndex = names.push(spec.name) - 1;
    return nameIndex;
  });
  const bearers: ReadonlyArray<string | undefined> = ctx.bearers && ctx.bearers.length > 0 ? ctx.bearers : [ctx.bearer];
  const sets = bearers.map((bearer) => {
    const { bearers: _all, bearer: _one, ...rest } = ctx;
    const perCredential: MixContext = bearer !== undefined ? { ...rest, bearer } : rest;
    return scenario.requests.map((spec, i) => prepareRequest(spec, i, nameIndexes[i] as number, perCredential));
  });
  const requests = sets[0] as PreparedRequest[];
  const weights = scenario.requests.map((r) => r.weight);
  if (sets.length === 1) return { requests, names, credentialCount: 1, next: weightedRoundRobin(requests, weights) };
  const pick = weightedRoundRobin(requests.map((_, i) => i), weights);
  let turn = 0;
  return {
    requests,
    names,
    credentialCount: sets.length,
    next: () => {
      const set = sets[turn] as PreparedRequest[];
      turn = (turn + 1) % sets.length;
      return set[pick()] as PreparedRequest;
    },
  };
}

/** Smooth weighted round-robin over `items`. */
export function weightedRoundRobin<T>(items: readonly T[], weights: readonly number[]): () => T {
  if (items.length === 1) return () => items[0] as T;
  const total = weights.reduce((a, b) => a + b, 0);
  const current = weights.map(() => 0);
  return () => {
    let best = 0;
    for (let i = 0; i < current.length; i++) {
      current[i] = (current[i] as number) + (weights[i] as number);
      if ((current[i] as number) > (current[best] as number)) best = i;
    }
    current[best] = (current[best] as number) - total;
    return items[best] as T;
  };
}
