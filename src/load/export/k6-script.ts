/**
 * `harness export k6`: a scenario as a k6 script, so load that outgrows one machine runs on k6, k6-operator or
 * Grafana Cloud k6. Two languages from one generator:
 *  - `js` (the default): ES2017 JavaScript with no `??`, `?.` or object spread, which every k6 from 0.48 on parses
 *    as it is (run here on k6 v0.48.0: test/integration/k6/);
 *  - `ts`: the same code with types from @types/k6, for k6 ≥ 0.57, which runs TypeScript (type-checked with tsc
 *    here; no k6 ≥ 0.57 binary has run it in this project).
 * The mapping is one-to-one: options.scenarios[name] holds the same executor options, options.thresholds the same
 * keys and expressions; each request is tagged {name}, checked against its expected statuses, and 429s feed a
 * `rate_limited` Rate metric while not counting as http_req_failed (unless the scenario says rateLimitedAsFailure).
 * The weighted mix uses the same smooth weighted round-robin, per VU. A scenario with several `credentials` rotates
 * across them by the test's iteration number (TOKENS), as the harness's k % n. `rateLimit` has no k6 counterpart: compare rate_limited's rate with the
 * expected fraction by hand.
 *
 * Structure, for other exporters (e.g. multi-step flows): `exportK6Script` writes the frame (imports, env, options,
 * metrics, helpers) and asks `requestMixCode` for what one iteration does; a different iteration body only needs a
 * function of the same shape (`K6Code` in, `IterationCode` out).
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

export type K6Language = 'js' | 'ts';
export const K6_LANGUAGES: readonly K6Language[] = ['js', 'ts'];

const OPTION_KEYS = ['vus', 'duration', 'iterations', 'maxDuration', 'startVUs', 'stages', 'rate', 'startRate', 'timeUnit', 'preAllocatedVUs', 'maxVUs', 'gracefulStop'] as const;

/**
 * What an iteration-code generator gets: the scenario, the API paths, the language, `t(': number')` (the
 * annotation in TypeScript, nothing in JavaScript) and `use(helper)` to ask for one of HELPERS.
 */
export interface K6Code {
  scenario: Scenario;
  api: DeepReadonly<ApiConfig>;
  language: K6Language;
  t(annotation: string): string;
  use(helper: K6Helper): void;
}

/** What one iteration does: top-level declarations (functions, constants) and the exec function's body. */
export interface IterationCode {
  declarations: string[];
  body: string;
}

type K6Helper = 'seq' | 'phone' | 'uuid' | 'int' | 'string';

const HELPERS: Record<K6Helper, (t: K6Code['t']) => string> = {
  seq: (t) => `function seq()${t(': number')} {\n  return scenario.iterationInTest + 1;\n}`,
  phone: (t) =>
    `function phone()${t(': string')} {\n  const length = 10 + Math.floor(Math.random() * 3);\n  let out = String(1 + Math.floor(Math.random() * 9));\n  for (let i = 1; i < length; i++) out += String(Math.floor(Math.random() * 10));\n  return out;\n}`,
  uuid: (t) =>
    `function uuid()${t(': string')} {\n  return 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (c) => {\n    const r = Math.floor(Math.random() * 16);\n    return (c === 'x' ? r : 8 + (r % 4)).toString(16);\n  });\n}`,
  int: (t) => `function randomInt(min${t(': number')}, max${t(': number')})${t(': number')} {\n  return min + Math.floor(Math.random() * (max - min + 1));\n}`,
  string: (t) =>
    `function randomString(n${t(': number')})${t(': string')} {\n  const chars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';\n  let out = '';\n  for (let i = 0; i < n; i++) out += chars[Math.floor(Math.random() * chars.length)];\n  return out;\n}`,
};

function placeholderCode(p: Placeholder, code: K6Code): string {
  switch (p.name) {
    case 'seq':
    case 'phone':
    case 'uuid':
      code.use(p.name);
      return `${p.name}()`;
    case 'timestamp':
      return 'new Date().toISOString()';
    case 'epochMs':
      return 'Date.now()';
    case 'int':
      code.use('int');
      return `randomInt(${Number(p.args[0])}, ${Number(p.args[1])})`;
    case 'string':
      code.use('string');
      return `randomString(${Number(p.args[0])})`;
    default:
      throw new Error(`unknown placeholder {{${p.name}}}`);
  }
}

const escapeLiteral = (text: string): string => text.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${');

/** A template as a template literal; `wrap` is applied to each placeholder's code. */
function templateLiteral(text: string, code: K6Code, wrap = (c: string) => c, literal = (t: string) => t): string {
  return `\`${tokenizeTemplate(text).map((t) => (typeof t === 'string' ? escapeLiteral(literal(t)) : `\${${wrap(placeholderCode(t, code))}}`)).join('')}\``;
}

export function k6Identifier(name: string): string {
  const id = name.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[A-Za-z_]/.test(id) ? id : `_${id}`;
}

/**
 * A mix request's status check: passes exactly for the answers the harness does not count failed — its expected
 * statuses (200–399 unless expectStatus says), and a 429 unless the scenario says rateLimitedAsFailure (the harness
 * counts a 429 rate_limited, not failed) — which are the statuses the script's response callback calls expected,
 * so k6's checks and http_req_failed say what the harness's run says about the same answers.
 */
function statusCheckCode(accepted: readonly number[] | undefined, rateLimitedAsFailure: boolean): string {
  if (accepted) return `[${accepted.join(', ')}].indexOf(r.status) >= 0`;
  return rateLimitedAsFailure ? 'r.status >= 200 && r.status < 400' : '(r.status >= 200 && r.status < 400) || r.status === 429';
}

/** One request of the mix as a function `request<index>()`: the request, its tag, its expected statuses, its check. */
export function requestFunction(spec: RequestSpec, index: number, code: K6Code): string {
  const { scenario, api, t } = code;
  const op = spec.operation ? OPERATION_DEFAULTS[spec.operation] : undefined;
  const method = spec.method ?? op?.method ?? 'GET';
  const path = spec.path ?? op?.path(api) ?? '/';
  const query = { ...(op?.query?.(api) ?? {}), ...(spec.query ?? {}) };
  let url = `\`\${BASE_URL}${templateLiteral(path, code).slice(1, -1)}`;
  Object.entries(query).forEach(([k, v], i) => {
    url += `${i ? '&' : '?'}${encodeURIComponent(k)}=${templateLiteral(String(v), code, (c) => `encodeURIComponent(String(${c}))`, encodeURIComponent).slice(1, -1)}`;
  });
  url += '`';
  const headers: Record<string, string> = { accept: 'application/json' };
  let body = 'null';
  if (spec.operation === 'login' && spec.body === undefined) {
    headers['content-type'] = 'application/json';
    body = "JSON.stringify({ email: env('HARNESS_LOGIN_EMAIL', ''), password: env('HARNESS_LOGIN_PASSWORD', '') })";
  } else {
    const raw = spec.body !== undefined ? spec.body : op?.body?.({});
    if (raw !== undefined) {
      headers['content-type'] = typeof raw === 'string' ? 'text/plain' : 'application/json';
      body = templateLiteral(typeof raw === 'string' ? raw : JSON.stringify(raw), code);
    }
  }
  for (const [k, v] of Object.entries(spec.headers ?? {})) headers[k.toLowerCase()] = v;
  const headerCode = Object.entries(headers).map(([k, v]) => `${JSON.stringify(k)}: ${templateLiteral(v, code)}`);
  if (scenario.credentials && scenario.credentials.length > 1) headerCode.push('authorization: `Bearer ${nextToken()}`');
  else if (scenario.credential !== 'none') headerCode.push('authorization: `Bearer ${TOKEN}`');
  const expected = spec.expectStatus;
  const accepted = expected ? [...expected, ...(scenario.rateLimitedAsFailure || expected.includes(429) ? [] : [429])] : undefined;
  const callback = accepted ? `\n    responseCallback: http.expectedStatuses(${accepted.join(', ')}),` : '';
  const tag = JSON.stringify(spec.name);
  return `// ${spec.name}: ${method} ${path}${spec.operation ? ` (operation ${spec.operation})` : ''}
function request${index}()${t(': void')} {
  const res = http.request(${JSON.stringify(method)}, ${url}, ${body}, {
    headers: { ${headerCode.join(', ')} },
    tags: { name: ${tag} },
    timeout: ${JSON.stringify(scenario.timeout)},${callback}
  });
  rateLimited.add(res.status === 429, { name: ${tag} });
  check(res, { ${JSON.stringify(`${spec.name}: expected status`)}: (r) => ${statusCheckCode(accepted, scenario.rateLimitedAsFailure)} });
}`;
}

/** The scenario's weighted request mix: one request per iteration, picked by smooth weighted round-robin. */
export function requestMixCode(code: K6Code): IterationCode {
  const { scenario, t } = code;
  const functions = scenario.requests.map((r, i) => requestFunction(r, i, code));
  const mix = `const REQUESTS${t(': Array<() => void>')} = [${scenario.requests.map((_, i) => `request${i}`).join(', ')}];
const WEIGHTS${t(': number[]')} = [${scenario.requests.map((r) => r.weight).join(', ')}];
const TOTAL_WEIGHT = WEIGHTS.reduce((a, b) => a + b, 0);
const current${t(': number[]')} = WEIGHTS.map(() => 0);

/** Smooth weighted round-robin, as the harness picks: the mix holds exactly in every cycle. */
function pick()${t(': number')} {
  let best = 0;
  for (let i = 0; i < WEIGHTS.length; i++) {
    current[i] += WEIGHTS[i];
    if (current[i] > current[best]) best = i;
  }
  current[best] -= TOTAL_WEIGHT;
  return best;
}`;
  return { declarations: [...functions, mix], body: '  REQUESTS[pick()]();' };
}

export interface K6ExportOptions {
  api: DeepReadonly<ApiConfig>;
  /** Shown in the header comment. */
  sourceLabel?: string;
  /** How the header names the scenario for `harness import k6 --scenario`. @default scenario.name */
  scenarioRef?: string;
  /** @default "js" */
  language?: K6Language;
  /** What one iteration does. @default requestMixCode */
  iteration?: (code: K6Code) => IterationCode;
}

/** Options k6 reads as integers (Go int64): a fractional value makes k6 refuse the whole script. */
const INTEGER_KEYS = new Set(['vus', 'iterations', 'startVUs', 'rate', 'startRate', 'preAllocatedVUs', 'maxVUs']);

/**
 * options.scenarios[name]: the scenario's executor options as they are, except that a fraction (e.g. a stage
 * target scaled by --rate) is rounded, because k6 rejects it ("cannot unmarshal number … of type int64").
 * `rounded` says which, for the header comment.
 */
export function k6ScenarioOptions(scenario: Scenario): { options: Record<string, unknown>; rounded: string[] } {
  const options: Record<string, unknown> = { executor: scenario.executor };
  const rounded: string[] = [];
  const whole = (where: string, value: number): number => {
    if (Number.isInteger(value)) return value;
    rounded.push(`${where} ${value} → ${Math.round(value)}`);
    return Math.round(value);
  };
  for (const key of OPTION_KEYS) {
    const value = scenario[key];
    if (value === undefined) continue;
    if (key === 'stages' && Array.isArray(value)) options.stages = value.map((stage, i) => ({ ...stage, target: whole(`stages[${i}].target`, stage.target) }));
    else options[key] = typeof value === 'number' && INTEGER_KEYS.has(key) ? whole(key, value) : value;
  }
  options.exec = k6Identifier(scenario.name);
  return { options, rounded };
}

/** The file name the README and the header comment use: `<scenario>.k6.js` / `.k6.ts`. */
export function k6ScriptFileName(scenario: Scenario, language: K6Language = 'js'): string {
  return `${k6Identifier(scenario.name)}.k6.${language}`;
}

/** The `-e NAME=…` flags a run of the script needs for its credentials. */
export function credentialEnvNames(scenario: Scenario): string[] {
  if (scenario.credentials && scenario.credentials.length > 1) return scenario.credentials.map((c) => CREDENTIAL_ENV[c]);
  const names = scenario.credential === 'none' ? [] : [CREDENTIAL_ENV[scenario.credential]];
  if (scenario.requests.some((r) => r.operation === 'login' && r.body === undefined)) names.push('HARNESS_LOGIN_EMAIL', 'HARNESS_LOGIN_PASSWORD');
  return names;
}

export function exportK6Script(scenario: Scenario, options: K6ExportOptions): string {
  // Flow scenarios (journeys) have their own exporter: JavaScript for k6 >= 0.48 (src/load/export/k6-flow.ts).
  if (scenario.flow) return exportK6FlowScript(scenario, options);
  const language = options.language ?? 'js';
  const used = new Set<K6Helper>();
  const t = (annotation: string): string => (language === 'ts' ? annotation : '');
  const code: K6Code = { scenario, api: options.api, language, t, use: (h) => used.add(h) };
  const iteration = (options.iteration ?? requestMixCode)(code);
  const { options: k6Scenario, rounded } = k6ScenarioOptions(scenario);
  k6Scenario.exec = k6Identifier(scenario.name);
  const options6 = { scenarios: { [scenario.name]: k6Scenario }, thresholds: scenario.thresholds };
  const helpers = (Object.keys(HELPERS) as K6Helper[]).filter((name) => used.has(name)).map((name) => HELPERS[name](t));
  const callback = scenario.rateLimitedAsFailure ? 'http.expectedStatuses({ min: 200, max: 399 })' : 'http.expectedStatuses({ min: 200, max: 399 }, 429)';
  const rotating = scenario.credentials && scenario.credentials.length > 1 ? scenario.credentials : undefined;
  const tokenLine = rotating
    ? `/**\n * The scenario's credentials: the k-th iteration of the test takes credential k % n, as the harness does, so each\n * gets 1/n of the load. iterationInTest is unique over all VUs and all execution segments (k6-operator runners);\n * a counter per VU would start every VU on the first credential.\n */\nconst TOKENS${t(': string[]')} = [${rotating.map((c) => `env('${CREDENTIAL_ENV[c]}', '')`).join(', ')}];\nfunction nextToken()${t(': string')} {\n  return TOKENS[scenario.iterationInTest % TOKENS.length];\n}\n`
    : scenario.credential === 'none'
      ? ''
      : `const TOKEN${t(': string')} = env('${CREDENTIAL_ENV[scenario.credential]}', '');\n`;
  const envFlags = credentialEnvNames(scenario).map((name) => ` -e ${name}=…`).join('');
  const runLine =
    language === 'ts'
      ? '// Run (k6 >= 0.57 runs TypeScript; for older k6 export --lang js):'
      : '// Run (k6 >= 0.48; ES2017 JavaScript, no transpile needed):';
  return `// k6 script exported by \`harness export k6\`${options.sourceLabel ? ` from ${options.sourceLabel}` : ''}: scenario "${scenario.name}".
// Re-export rather than edit: options.scenarios and options.thresholds map one-to-one to the scenario file.
${rounded.length ? `// Rounded to whole numbers, as k6 takes them (its option fields are integers): ${rounded.join(', ')}.\n` : ''}// Not exported: the harness's \`workers\` / --workers (k6 spreads VUs over its own goroutines; the load is the same)
// and \`warmUp\` (k6 has no warm start: its first second includes opening the connections).
${runLine}
//   k6 run -e BASE_URL=https://api.example.com${envFlags} ${k6ScriptFileName(scenario, language)}
// Several k6 processes or k6-operator runners: add --out json=FILE.json.gz to each and merge them with
//   harness import k6 FILE... --scenario ${options.scenarioRef ?? scenario.name}   (one report, thresholds judged on the union)
import http from 'k6/http';
import { check } from 'k6';
${used.has('seq') || rotating ? "import { scenario } from 'k6/execution';\n" : ''}import { Rate } from 'k6/metrics';
${language === 'ts' ? "import type { Options } from 'k6/options';\n" : ''}
/** __ENV[name], or \`fallback\` when unset or empty. */
function env(name${t(': string')}, fallback${t(': string')})${t(': string')} {
  const value = __ENV[name];
  return value === undefined || value === '' ? fallback : value;
}

const BASE_URL${t(': string')} = env('BASE_URL', 'http://127.0.0.1:8080').replace(/\\/+$/, '');
${tokenLine}
/** 429 answers, apart from failures (harness: rateLimited). */
const rateLimited = new Rate('rate_limited');

// Expected statuses: 200–399${scenario.rateLimitedAsFailure ? '' : ', and 429 (counted as rate_limited, not http_req_failed)'}.
http.setResponseCallback(${callback});

export const options${t(': Options')} = ${JSON.stringify(options6, null, 2)};

${[...helpers, ...iteration.declarations].join('\n\n')}

export function ${k6Identifier(scenario.name)}()${t(': void')} {
${iteration.body}
}
`;
}
