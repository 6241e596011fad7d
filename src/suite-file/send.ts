/**
 * One step's request: templates rendered (`{{seq}}`, `{{phone}}` … and `{{var NAME}}` from earlier steps), the
 * credential turned into a Bearer token the way the built-in checks get theirs, sent through the run's client
 * (so it is recorded as evidence and redacted like every exchange).
 */
import { OPERATION_METHODS } from '../config/types.ts';
import { skip } from '../conformance/outcomes.ts';
import type { CheckContext } from '../conformance/context.ts';
import { obtainJwt } from '../conformance/operations.ts';
import type { HttpResponse } from '../http/client.ts';
import { seededRandom } from '../load/random.ts';
import { compileTemplate, type TemplateState } from '../load/template.ts';
import { VAR_PLACEHOLDER } from './load.ts';
import type { RequestSpec } from './types.ts';
import { issuedToken } from '../../suites/lib/oauth-client.ts';

/** Variables captured so far, and the template state shared by the steps of one check. */
export interface StepState {
  vars: Map<string, string>;
  template: TemplateState;
}

export function newStepState(): StepState {
  return { vars: new Map(), template: { seq: 0, random: seededRandom(), now: Date.now } };
}

function render(text: string, state: StepState): string {
  const withVars = text.replace(VAR_PLACEHOLDER, (_, name: string) => state.vars.get(name) ?? '');
  // Validated when the file was loaded: a template problem here cannot happen.
  return compileTemplate(withVars).template.render(state.template);
}

function renderDeep(value: unknown, state: StepState): unknown {
  if (typeof value === 'string') return render(value, state);
  if (Array.isArray(value)) return value.map((v) => renderDeep(v, state));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderDeep(v, state)]));
  return value;
}

async function bearerFor(ctx: CheckContext, credential: RequestSpec['credential']): Promise<string | undefined> {
  const name = credential ?? 'apiKey';
  switch (name) {
    case 'none':
      return undefined;
    case 'jwt':
      return obtainJwt(ctx);
    case 'oauth':
      if (!ctx.credentials.oauth) skip('needs an OAuth access token, but no credentials.oauth is configured');
      return (await issuedToken(ctx)).token;
    default:
      return ctx.credentials[name] ?? skip(`needs credentials.${name}, which is not configured for this target`);
  }
}

/** The method and path as sent, with `{{var}}`s filled, for messages. */
export function describeRequest(request: RequestSpec, ctx: CheckContext, state: StepState): string {
  const method = request.method ?? OPERATION_METHODS[request.operation!][0];
  const params = Object.fromEntries(Object.entries(request.params ?? {}).map(([k, v]) => [k, render(v, state)]));
  const path = request.operation ? ctx.path(request.operation, params) : render(request.path!, state);
  return `${method} ${path}`;
}

export async function sendStep(ctx: CheckContext, request: RequestSpec, state: StepState): Promise<HttpResponse> {
  const [method, path] = describeRequest(request, ctx, state).split(' ', 2) as [string, string];
  const bearer = await bearerFor(ctx, request.credential);
  const body = request.body === undefined ? undefined : renderDeep(request.body, state);
  const headers = renderDeep(request.headers ?? {}, state) as Record<string, string>;
  const query = renderDeep(request.query ?? {}, state) as Record<string, string>;
  return ctx.http.request({
    method,
    path,
    query,
    headers,
    ...(typeof body === 'string' ? { body } : body !== undefined ? { json: body } : {}),
    ...(bearer !== undefined ? { bearer } : {}),
  });
}
