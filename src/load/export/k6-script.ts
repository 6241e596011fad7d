/**
 * `harness export k6`: a scenario as a k6 TypeScript script (k6 ≥ 0.57 runs .ts; types from @types/k6), so
 * load that outgrows one machine runs on k6-operator or Grafana Cloud k6. The mapping is one-to-one:
 * options.scenarios[name] holds the same executor options, options.thresholds the same keys and expressions;
 * each request is tagged {name}, checked against its expected statuses, and 429s feed a `rate_limited` Rate
 * metric while not counting as http_req_failed (unless the scenario says rateLimitedAsFailure). The weighted
 * mix uses the same smooth weighted round-robin, per VU. A scenario with several `credentials` rotates across
 * them round-robin, per VU (TOKENS). `rateLimit` has no k6 counterpart: compare rate_limited's rate with the
 * expected fraction by hand.
 */
import type { ApiConfig, DeepReadonly } from '../../config/types.ts';
import { OPERATION_DEFAULTS } from '../request-mix.ts';
import type { RequestSpec, Scenario } from '../scenario/types.ts';
import { tokenizeTemplate, type Placeholder } from '../template.ts';
import { exportK6FlowScript } from './k6-flow.ts';

/** Environment variable the script reads each credential from (the same names harness.config.yaml uses). */
export const CREDENTIAL_ENV: Record<Exclude<Scenario['credential'], 'none'>, string> = {
  loadKey: 'HARNESS_LOAD_KEY',
  apiKey: 'HARNESS_API_KEY',
  secondKey: 'HARNESS_SECOND_KEY',
  restrictedKey: 'HARNESS_RESTRICTED_KEY',
};

const OPTION_KEYS = ['vus', 'duration', 'iterations', 'maxDuration', 'startVUs', 'stages', 'rate', 'startRate', 'timeUnit', 'preAllocatedVUs', 'maxVUs', 'gracefulStop'] as const;

const HELPERS: Record<string, string> = {
  seq: 'function seq(): number {\n  return scenario.iterationInTest + 1;\n}',
  phone:
    "function phone(): string {\n  const length = 10 + Math.floor(Math.random() * 3);\n  let out = String(1 + Math.floor(Math.random() * 9));\n  for (let i = 1; i < length; i++) out += String(Math.floor(Math.random() * 10));\n  return out;\n}",
  uuid:
    "function uuid(): string {\n  return 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (c) => {\n    const r = Math.floor(Math.random() * 16);\n    return (c === 'x' ? r : 8 + (r % 4)).toString(16);\n  });\n}",
  int: 'function randomInt(min: number, max: number): number {\n  return min + Math.floor(Math.random() * (max - min + 1));\n}',
  string:
    "function randomString(n: number): string {\n  const chars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';\n  let out = '';\n  for (let i = 0; i < n; i++) out += chars[Math.floor(Math.random() * chars.length)];\n  return out;\n}",
};

function placeholderCode(p: Placeholder, used: Set<string>): string {
  used.add(p.name);
  switch (p.name) {
    case 'seq':
      return 'seq()';
    case 'phone':
      return 'phone()';
    case 'uuid':
      return 'uuid()';
    case 'timestamp':
      return 'new Date().toISOString()';
    case 'epochMs':
      return 'Date.now()';
    case 'int':
      return `randomInt(${Number(p.args[0])}, ${Number(p.args[1])})`;
    case 'string':
      return `randomString(${Number(p.args[0])})`;
    default:
      throw new Error(`unknown placeholder {{${p.name}}}`);
  }
}

const escapeLiteral = (text: string): string => text.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${');

/** A template as a TypeScript template literal; `wrap` is applied to each placeholder's code. */
function templateLiteral(text: string, used: Set<string>, wrap = (code: string) => code, literal = (text: string) => text): string {
  return `\`${tokenizeTemplate(text).map((t) => (typeof t === 'string' ? escapeLiteral(literal(t)) : `\${${wrap(placeholderCode(t, used))}}`)).join('')}\``;
}

function identifier(name: string): string {
  const id = name.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[A-Za-z_]/.test(id) ? id : `_${id}`;
}

function requestFunction(spec: RequestSpec, index: number, scenario: Scenario, api: DeepReadonly<ApiConfig>, used: Set<string>): string {
  const op = spec.operation ? OPERATION_DEFAULTS[spec.operation] : undefined;
  const method = spec.method ?? op?.method ?? 'GET';
  const path = spec.path ?? op?.path(api) ?? '/';
  const query = { ...(op?.query?.(api) ?? {}), ...(spec.query ?? {}) };
  let url = `\`\${BASE_URL}${templateLiteral(path, used).slice(1, -1)}`;
  Object.entries(query).forEach(([k, v], i) => {
    url += `${i ? '&' : '?'}${encodeURIComponent(k)}=${templateLiteral(String(v), used, (code) => `encodeURIComponent(String(${code}))`, encodeURIComponent).slice(1, -1)}`;
  });
  url += '`';
  const headers: Record<string, string> = { accept: 'application/json' };
  let body = 'null';
  if (spec.operation === 'login' && spec.body === undefined) {
    headers['content-type'] = 'application/json';
    body = "JSON.stringify({ email: __ENV.HARNESS_LOGIN_EMAIL ?? '', password: __ENV.HARNESS_LOGIN_PASSWORD ?? '' })";
  } else {
    const raw = spec.body !== undefined ? spec.body : op?.body?.({});
    if (raw !== undefined) {
      headers['content-type'] = typeof raw === 'string' ? 'text/plain' : 'application/json';
      body = templateLiteral(typeof raw === 'string' ? raw : JSON.stringify(raw), used);
    }
  }
  for (const [k, v] of Object.entries(spec.headers ?? {})) headers[k.toLowerCase()] = v;
  const headerCode = Object.entries(headers).map(([k, v]) => `${JSON.stringify(k)}: ${templateLiteral(v, used)}`);
  if (scenario.credentials && scenario.credentials.length > 1) headerCode.push('authorization: `Bearer ${nextToken()}`');
  else if (scenario.credential !== 'none') headerCode.push('authorization: `Bearer ${TOKEN}`');
  const expected = spec.expectStatus;
  const okCode = expected ? `[${expected.join(', ')}].includes(r.status)` : 'r.status >= 200 && r.status < 400';
  const callback = expected
    ? `\n    responseCallback: http.expectedStatuses(${[...expected, ...(scenario.rateLimitedAsFailure || expected.includes(429) ? [] : [429])].join(', ')}),`
    : '';
  const tag = JSON.stringify(spec.name);
  return `// ${spec.name}: ${method} ${path}${spec.operation ? ` (operation ${spec.operation})` : ''}
function request${index}(): void {
  const res = http.request(${JSON.stringify(method)}, ${url}, ${body}, {
    headers: { ${headerCode.join(', ')} },
    tags: { name: ${tag} },
    timeout: ${JSON.stringify(scenario.timeout)},${callback}
  });
  rateLimited.add(res.status === 429, { name: ${tag} });
  check(res, { ${JSON.stringify(`${spec.name}: expected status`)}: (r) => ${okCode} });
}`;
}

export interface K6ExportOptions {
  api: DeepReadonly<ApiConfig>;
  /** Shown in the header comment. */
  sourceLabel?: string;
}

export function exportK6Script(scenario: Scenario, options: K6ExportOptions): string {
  // Flow scenarios (journeys) have their own exporter: JavaScript for k6 >= 0.48 (src/load/export/k6-flow.ts).
  if (scenario.flow) return exportK6FlowScript(scenario, options);
  const used = new Set<string>();
  const functions = scenario.requests.map((r, i) => requestFunction(r, i, scenario, options.api, used));
  const k6Scenario: Record<string, unknown> = { executor: scenario.executor };
  for (const key of OPTION_KEYS) if (scenario[key] !== undefined) k6Scenario[key] = scenario[key];
  k6Scenario.exec = identifier(scenario.name);
  const options6 = { scenarios: { [scenario.name]: k6Scenario }, thresholds: scenario.thresholds };
  const helpers = [...used].filter((name) => HELPERS[name]).map((name) => HELPERS[name]);
  const callback = scenario.rateLimitedAsFailure ? 'http.expectedStatuses({ min: 200, max: 399 })' : 'http.expectedStatuses({ min: 200, max: 399 }, 429)';
  const rotating = scenario.credentials && scenario.credentials.length > 1 ? scenario.credentials : undefined;
  const tokenLine = rotating
    ? `/** The scenario's credentials; requests rotate round-robin across them (per VU). */\nconst TOKENS: string[] = [${rotating.map((c) => `__ENV.${CREDENTIAL_ENV[c]} ?? ''`).join(', ')}];\nlet tokenTurn = 0;\nfunction nextToken(): string {\n  const token = TOKENS[tokenTurn % TOKENS.length] ?? '';\n  tokenTurn++;\n  return token;\n}\n`
    : scenario.credential === 'none'
      ? ''
      : `const TOKEN: string = __ENV.${CREDENTIAL_ENV[scenario.credential]} ?? '';\n`;
  const envFlags = rotating ? rotating.map((c) => ` -e ${CREDENTIAL_ENV[c]}=…`).join('') : scenario.credential === 'none' ? '' : ` -e ${CREDENTIAL_ENV[scenario.credential]}=…`;
  return `// k6 script exported by \`harness export k6\`${options.sourceLabel ? ` from ${options.sourceLabel}` : ''}: scenario "${scenario.name}".
// Re-export rather than edit: options.scenarios and options.thresholds map one-to-one to the scenario file.
// Not exported: the harness's \`workers\` / --workers (k6 spreads VUs over its own goroutines; the load is the same)
// and \`warmUp\` (k6 has no warm start: its first second includes opening the connections).
// Run (k6 >= 0.57 runs TypeScript):
//   k6 run -e BASE_URL=https://api.example.com${envFlags} ${identifier(scenario.name)}.k6.ts
import http from 'k6/http';
import { check } from 'k6';
${used.has('seq') ? "import { scenario } from 'k6/execution';\n" : ''}import { Rate } from 'k6/metrics';
import type { Options } from 'k6/options';

const BASE_URL: string = (__ENV.BASE_URL ?? 'http://127.0.0.1:8080').replace(/\\/+$/, '');
${tokenLine}
/** 429 answers, apart from failures (harness: rateLimited). */
const rateLimited = new Rate('rate_limited');

// Expected statuses: 200–399${scenario.rateLimitedAsFailure ? '' : ', and 429 (counted as rate_limited, not http_req_failed)'}.
http.setResponseCallback(${callback});

export const options: Options = ${JSON.stringify(options6, null, 2)};

${[...helpers, ...functions].join('\n\n')}

const REQUESTS: Array<() => void> = [${scenario.requests.map((_, i) => `request${i}`).join(', ')}];
const WEIGHTS: number[] = [${scenario.requests.map((r) => r.weight).join(', ')}];
const TOTAL_WEIGHT = WEIGHTS.reduce((a, b) => a + b, 0);
const current: number[] = WEIGHTS.map(() => 0);

/** Smooth weighted round-robin, as the harness picks: the mix holds exactly in every cycle. */
function pick(): number {
  let best = 0;
  for (let i = 0; i < WEIGHTS.length; i++) {
    current[i] = (current[i] ?? 0) + (WEIGHTS[i] ?? 0);
    if ((current[i] ?? 0) > (current[best] ?? 0)) best = i;
  }
  current[best] = (current[best] ?? 0) - TOTAL_WEIGHT;
  return best;
}

export function ${identifier(scenario.name)}(): void {
  const run = REQUESTS[pick()];
  if (run) run();
}
`;
}
