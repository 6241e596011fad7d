/**
 * A flow (scenario `flow:`) compiled once per run: each step's method, templated path / headers / body, what it
 * captures and checks, its think time and repeat. The same walk over the steps collects every problem for
 * `harness validate` (flowIssues), with the path of the key it is about, so the loader places it at file:line.
 */
import type { ApiConfig, CredentialsConfig, DeepReadonly } from '../../config/types.ts';
import { ConfigError } from '../../errors/harness-errors.ts';
import { parseDuration } from '../duration.ts';
import { OPERATION_DEFAULTS, requestBase, type RequestMix } from '../request-mix.ts';
import type { Template } from '../template.ts';
import type { CaptureSpec, FlowSpec, StepSpec } from '../scenario/types.ts';
import { compileFlowTemplate, isVariableName, type Escape } from './template.ts';

export interface PreparedCapture {
  variable: string;
  kind: 'json' | 'header' | 'status';
  /** The JSON pointer or the (lower-case) header name. */
  arg: string;
}

export interface PreparedStep {
  nameIndex: number;
  name: string;
  method: string;
  path: Template;
  headers: Array<[string, Template]>;
  body?: Template;
  expected(status: number): boolean;
  captures: PreparedCapture[];
  expectJson: Array<{ pointer: string; value: Template | number | boolean | null }>;
  /** Whether the answer's body must be read (a JSON capture or expectJson). */
  readsBody: boolean;
  /** Think time after the step, ms: uniform in [min, max]. */
  think?: { min: number; max: number };
  repeat?: { while: string; max: number };
}

export interface PreparedFlow {
  steps: PreparedStep[];
  names: string[];
  vars: Array<[string, Template]>;
  abortOnFailure: boolean;
}

export interface FlowContext {
  api: DeepReadonly<ApiConfig>;
  credentials: Readonly<CredentialsConfig>;
  bearer?: string;
}

export interface FlowIssue {
  at: (string | number)[];
  message: string;
  atKey?: boolean;
}

function captureOf(spec: CaptureSpec): Omit<PreparedCapture, 'variable'> {
  if ('json' in spec) return { kind: 'json', arg: spec.json };
  if ('header' in spec) return { kind: 'header', arg: spec.header.toLowerCase() };
  return { kind: 'status', arg: '' };
}

function thinkOf(think: StepSpec['think']): { min: number; max: number } | undefined | string {
  if (think === undefined) return undefined;
  const min = parseDuration(typeof think === 'string' ? think : think.min);
  const max = parseDuration(typeof think === 'string' ? think : think.max);
  if (min === undefined || max === undefined) return 'must be a duration such as 500ms';
  if (max < min) return `max (${max} ms) is below min (${min} ms)`;
  if (max > 600_000) return 'must be at most 10m (a think time holds the iteration\'s VU)';
  return { min, max };
}

/**
 * Compiles the flow; every problem is collected in `issues` (paths from the scenario's root). Steps with an
 * operation take its method, path, query and body from OPERATION_DEFAULTS, as requests do; the scenario's
 * credential is the default `Authorization`, which a step's own `authorization` header replaces.
 */
export function compileFlow(flow: FlowSpec, ctx: FlowContext, issues: FlowIssue[] = []): PreparedFlow {
  const known = new Set<string>();
  const vars: Array<[string, Template]> = [];
  for (const [name, text] of Object.entries(flow.vars ?? {})) {
    const at = ['flow', 'vars', name];
    if (!isVariableName(name)) issues.push({ at, atKey: true, message: `"${name}" is a generator ({{${name}}}); choose another variable name` });
    const { template, problems } = compileFlowTemplate(text, known, 'raw');
    for (const message of problems) issues.push({ at, message });
    vars.push([name, template]);
    known.add(name);
  }
  const names: string[] = [];
  const steps = flow.steps.map((spec, i): PreparedStep => {
    const at = ['flow', 'steps', i];
    const compile = (text: string, where: (string | number)[], escape: Escape, scope = known): Template => {
      const { template, problems } = compileFlowTemplate(text, scope, escape);
      for (const message of problems) issues.push({ at: [...at, ...where], message });
      return template;
    };
    if (spec.operation && (spec.method || spec.path)) issues.push({ at: [...at, 'operation'], message: 'give either operation or method + path, not both' });
    if (!spec.operation && !spec.path) issues.push({ at, message: 'a step needs "operation" (send, list, account, login, inbound, webhooks) or "path"' });
    // A repeated step may use what it captures itself (the cursor it follows): known from its second run on,
    // and its first run happens only when the `while` variable is already set.
    const own = new Set(known);
    if (spec.repeat) {
      if (!known.has(spec.repeat.while) && !Object.hasOwn(spec.capture ?? {}, spec.repeat.while)) {
        issues.push({ at: [...at, 'repeat', 'while'], message: `"${spec.repeat.while}" is not set by vars, captured by an earlier step or by this step` });
      } else if (!known.has(spec.repeat.while)) {
        issues.push({ at: [...at, 'repeat', 'while'], message: `"${spec.repeat.while}" is captured only by this step, so the step would never run: capture it first in an earlier step (e.g. the first page) and repeat the next ones` });
      }
      for (const name of Object.keys(spec.capture ?? {})) own.add(name);
    }
    const op = spec.operation ? OPERATION_DEFAULTS[spec.operation] : undefined;
    const method = spec.method ?? op?.method ?? 'GET';
    const rawPath = spec.path ?? op?.path(ctx.api) ?? '/';
    const query = { ...(op?.query?.(ctx.api) ?? {}), ...(spec.query ?? {}) };
    let rawBody: unknown;
    try {
      rawBody = spec.body !== undefined ? spec.body : op?.body?.(ctx.credentials);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      issues.push({ at: [...at, 'operation'], message: err.issues[0]?.message ?? err.message });
    }
    const { headers: headerTexts, bodyText } = requestBase(rawBody, ctx.bearer);
    const body = bodyText !== undefined ? compile(bodyText, ['body'], typeof rawBody === 'string' ? 'raw' : 'json', own) : undefined;
    const headers: Array<[string, Template]> = [];
    const userHeaders = Object.fromEntries(Object.entries(spec.headers ?? {}).map(([k, v]) => [k.toLowerCase(), { k, v }]));
    for (const [k, v] of Object.entries(headerTexts)) if (!userHeaders[k]) headers.push([k, compile(v, [], 'raw', new Set())]);
    for (const [lower, { k, v }] of Object.entries(userHeaders)) headers.push([lower, compile(v, ['headers', k], 'raw', own)]);
    const queryTemplates = Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)]));
    for (const [k, v] of Object.entries(queryTemplates)) compile(v, ['query', k], 'raw', own);
    const path = flowPathWithQuery(compile(rawPath, ['path'], 'path', own), queryTemplates, own);
    const captures: PreparedCapture[] = [];
    for (const [variable, capture] of Object.entries(spec.capture ?? {})) {
      if (!isVariableName(variable)) issues.push({ at: [...at, 'capture', variable], atKey: true, message: `"${variable}" is a generator ({{${variable}}}); choose another variable name` });
      captures.push({ variable, ...captureOf(capture) });
    }
    const expectJson = Object.entries(spec.expectJson ?? {}).map(([pointer, value]) => ({
      pointer,
      value: typeof value === 'string' ? compile(value, ['expectJson', pointer], 'raw', new Set([...own, ...captures.map((c) => c.variable)])) : value,
    }));
    const think = thinkOf(spec.think);
    if (typeof think === 'string') issues.push({ at: [...at, 'think'], message: think });
    for (const c of captures) known.add(c.variable);
    let nameIndex = names.indexOf(spec.name);
    if (nameIndex < 0) nameIndex = names.push(spec.name) - 1;
    const expect = spec.expectStatus ? new Set(spec.expectStatus) : undefined;
    return {
      nameIndex,
      name: spec.name,
      method,
      path,
      headers,
      ...(body ? { body } : {}),
      expected: expect ? (status) => expect.has(status) : (status) => status >= 200 && status < 400,
      captures,
      expectJson,
      readsBody: expectJson.length > 0 || captures.some((c) => c.kind === 'json'),
      ...(think && typeof think !== 'string' ? { think } : {}),
      ...(spec.repeat ? { repeat: spec.repeat } : {}),
    };
  });
  return { steps, names, vars, abortOnFailure: (flow.onStepFailure ?? 'abort') === 'abort' };
}

/** The path plus the query, whose values may use variables (each rendered value URL-encoded once). */
function flowPathWithQuery(path: Template, query: Record<string, string>, known: ReadonlySet<string>): Template {
  const compiled = Object.entries(query).map(([k, v]) => [encodeURIComponent(k), compileFlowTemplate(v, known, 'raw').template] as const);
  if (compiled.length === 0) return path;
  const render = (state: Parameters<Template['render']>[0]): string => {
    let out = `${path.render(state)}?`;
    for (let i = 0; i < compiled.length; i++) {
      const [k, t] = compiled[i]!;
      out += `${i ? '&' : ''}${k}=${encodeURIComponent(t.render(state))}`;
    }
    return out;
  };
  if (path.constant && compiled.every(([, t]) => t.constant)) {
    const fixed = render(undefined as never);
    return { constant: true, render: () => fixed };
  }
  return { constant: false, render };
}

/** Compiles a flow for a run; a problem (which `harness validate` reports first) is a ConfigError. */
export function prepareFlow(flow: FlowSpec, ctx: FlowContext): PreparedFlow {
  const issues: FlowIssue[] = [];
  const prepared = compileFlow(flow, ctx, issues);
  if (issues.length) throw new ConfigError(issues.map((i) => ({ path: i.at.join('.'), message: i.message })));
  return prepared;
}

/** A flow's stand-in for a request mix: only its names (the recorder's); nothing picks requests from it. */
export function flowMix(flow: PreparedFlow): RequestMix {
  return {
    requests: [],
    names: flow.names,
    credentialCount: 1,
    next: () => {
      throw new Error('a flow scenario has no request mix');
    },
  };
}
