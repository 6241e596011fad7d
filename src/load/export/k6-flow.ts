/**
 * `harness export k6` for a flow scenario: one k6 iteration is one pass through the flow, as in the harness.
 * Each step is a function that sends its request tagged {name: <step>} (so k6's http_req_duration{name:…} and the
 * harness's byName line up), checks its expected statuses, reads its captures into the iteration's `vars`
 * (JSON pointer, header, status — the same rules: a missing JSON value fails the step, null ends a repeat), and
 * checks expectJson. A failed step ends the iteration (onStepFailure: abort) and counts in `iterations_failed`
 * {step}; think times are k6 `sleep`s; a repeat is a bounded `while` over its variable. k6's own
 * iteration_duration is the harness's iterations.duration.
 *
 * `js` (the default) is plain JavaScript that k6 v0.48 parses (ES2017: no `??`, no `?.`, no types), so the same
 * file runs on k6-operator's images and on newer k6 alike; `ts` is the same code with types from @types/k6, for
 * k6 >= 0.57 (type-checked with tsc --strict in the tests). Kept apart from k6-script.ts (request mixes) so either
 * can change alone; k6-script.ts hands flow scenarios here.
 */
import type { ApiConfig, DeepReadonly } from '../../config/types.ts';
import { OPERATION_DEFAULTS } from '../request-mix.ts';
import type { Scenario, StepSpec } from '../scenario/types.ts';
import { tokenizeTemplate, TEMPLATE_VARIABLES } from '../template.ts';
import { flowHelpers, type Annotate } from './k6-flow-helpers.ts';

/** Environment variable each credential is read from (the names harness.config.yaml uses). */
const CREDENTIAL_ENV: Record<Exclude<Scenario['credential'], 'none'>, string> = {
  loadKey: 'HARNESS_LOAD_KEY',
  apiKey: 'HARNESS_API_KEY',
  secondKey: 'HARNESS_SECOND_KEY',
  restrictedKey: 'HARNESS_RESTRICTED_KEY',
};

const OPTION_KEYS = ['vus', 'duration', 'iterations', 'maxDuration', 'startVUs', 'stages', 'rate', 'startRate', 'timeUnit', 'preAllocatedVUs', 'maxVUs', 'gracefulStop'] as const;

type Escape = 'path' | 'query' | 'json' | 'raw';

function generatorCode(name: string, args: string[]): string {
  switch (name) {
    case 'seq':
      return 'String(exec.scenario.iterationInTest + 1)';
    case 'phone':
      return 'phone()';
    case 'uuid':
      return 'uuid()';
    case 'timestamp':
      return 'new Date().toISOString()';
    case 'epochMs':
      return 'String(Date.now())';
    case 'int':
      return `String(randomInt(${Number(args[0])}, ${Number(args[1])}))`;
    case 'string':
      return `randomString(${Number(args[0])})`;
    default:
      throw new Error(`unknown placeholder {{${name}}}`);
  }
}

const escapeLiteral = (s: string): string => s.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${');

/** A template as a JavaScript template literal: variables from `vars`, escaped for where they land. */
function literal(textIn: string, escape: Escape): string {
  const wrapVar = (code: string): string =>
    escape === 'path' || escape === 'query' ? `encodeURIComponent(text(${code}))` : escape === 'json' ? `jsonText(${code})` : `text(${code})`;
  const wrapGen = (code: string): string => (escape === 'path' || escape === 'query' ? `encodeURIComponent(${code})` : code);
  const parts = tokenizeTemplate(textIn).map((t) => {
    if (typeof t === 'string') return escapeLiteral(escape === 'query' ? encodeURIComponent(t) : t);
    if (!(TEMPLATE_VARIABLES as readonly string[]).includes(t.name)) return `\${${wrapVar(`vars[${JSON.stringify(t.name)}]`)}}`;
    return `\${${wrapGen(generatorCode(t.name, t.args))}}`;
  });
  return `\`${parts.join('')}\``;
}

function stepFunction(step: StepSpec, index: number, scenario: Scenario, api: DeepReadonly<ApiConfig>, t: Annotate): string {
  const op = step.operation ? OPERATION_DEFAULTS[step.operation] : undefined;
  const method = step.method ?? op?.method ?? 'GET';
  const path = step.path ?? op?.path(api) ?? '/';
  const query = { ...(op?.query?.(api) ?? {}), ...(step.query ?? {}) };
  let url = `BASE_URL + ${literal(path, 'path')}`;
  const q = Object.entries(query).map(([k, v], i) => `${i ? '&' : '?'}${encodeURIComponent(k)}=${literal(String(v), 'query').slice(1, -1)}`);
  if (q.length) url += ` + \`${q.join('')}\``;
  const headers: Record<string, string> = { accept: '`application/json`' };
  if (scenario.credential !== 'none') headers.authorization = '`Bearer ${TOKEN}`';
  let body = 'null';
  if (step.operation === 'login' && step.body === undefined) {
    headers['content-type'] = '`application/json`';
    body = "JSON.stringify({ email: __ENV.HARNESS_LOGIN_EMAIL || '', password: __ENV.HARNESS_LOGIN_PASSWORD || '' })";
  } else {
    const raw = step.body !== undefined ? step.body : op?.body?.({});
    if (raw !== undefined) {
      headers['content-type'] = typeof raw === 'string' ? '`text/plain`' : '`application/json`';
      body = literal(typeof raw === 'string' ? raw : JSON.stringify(raw), typeof raw === 'string' ? 'raw' : 'json');
    }
  }
  for (const [k, v] of Object.entries(step.headers ?? {})) headers[k.toLowerCase()] = literal(v, 'raw');
  const tag = JSON.stringify(step.name);
  const expected = step.expectStatus;
  const okCode = expected ? `[${expected.join(', ')}].indexOf(r.status) >= 0` : 'r.status >= 200 && r.status < 400';
  const callback = expected ? `\n    responseCallback: http.expectedStatuses(${[...expected, ...(scenario.rateLimitedAsFailure || expected.includes(429) ? [] : [429])].join(', ')}),` : '';
  const lines: string[] = [];
  const readsBody = Object.values(step.capture ?? {}).some((c) => 'json' in c) || Object.keys(step.expectJson ?? {}).length > 0;
  if (readsBody) {
    lines.push(`  var body${t(': unknown')};`, '  try {', '    body = res.json();', '  } catch (e) {', '    return false;', '  }');
  }
  Object.entries(step.capture ?? {}).forEach(([name, capture], j) => {
    const key = JSON.stringify(name);
    if ('json' in capture) lines.push(`  var c${j} = pointer(body, ${JSON.stringify(capture.json)});`, `  if (c${j} === MISSING) return false;`, `  vars[${key}] = c${j};`);
    else if ('header' in capture) lines.push(`  var c${j} = header(res, ${JSON.stringify(capture.header.toLowerCase())});`, `  if (c${j} === undefined) return false;`, `  vars[${key}] = c${j};`);
    else lines.push(`  vars[${key}] = res.status;`);
  });
  for (const [p, want] of Object.entries(step.expectJson ?? {})) {
    const label = JSON.stringify(`${step.name}: ${p || 'the body'}`);
    const cond =
      typeof want === 'string'
        ? `(function (v${t(': unknown')}) { return v !== MISSING && v !== null && text(v) === ${literal(want, 'raw')}; })(pointer(body, ${JSON.stringify(p)}))`
        : `pointer(body, ${JSON.stringify(p)}) === ${JSON.stringify(want)}`;
    lines.push(`  if (!check(res, { ${label}: function () { return ${cond}; } })) return false;`);
  }
  return `// step ${index} ${step.name}: ${method} ${path}${step.operation ? ` (operation ${step.operation})` : ''}
function step${index}(vars${t(': Record<string, unknown>')})${t(': boolean')} {
  var res = http.request(${JSON.stringify(method)}, ${url}, ${body}, {
    headers: { ${Object.entries(headers).map(([k, v]) => `${JSON.stringify(k)}: ${v}`).join(', ')} },
    tags: { name: ${tag} },
    timeout: ${JSON.stringify(scenario.timeout)},${callback}
  });
  rateLimited.add(res.status === 429, { name: ${tag} });
  if (!check(res, { ${JSON.stringify(`${step.name}: expected status`)}: function (r) { return ${okCode}; } })) return false;
${lines.join('\n')}${lines.length ? '\n' : ''}  return true;
}`;
}

function thinkCode(think: StepSpec['think']): string {
  if (think === undefined) return '';
  const [min, max] = typeof think === 'string' ? [think, think] : [think.min, think.max];
  return `think(${durationMsOf(min)}, ${durationMsOf(max)});`;
}

function durationMsOf(text: string): number {
  let ms = 0;
  const t = text.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t) * 1000;
  for (const m of t.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) ms += Number(m[1]) * ({ ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const)[m[2] as 'ms' | 's' | 'm' | 'h'];
  return ms;
}

function identifier(name: string): string {
  const id = name.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[A-Za-z_]/.test(id) ? id : `_${id}`;
}

export interface K6FlowExportOptions {
  api: DeepReadonly<ApiConfig>;
  sourceLabel?: string;
  /** js: for k6 >= 0.48 as written; ts: the same code with types, for k6 >= 0.57. @default "js" */
  language?: 'js' | 'ts';
}

/** The flow scenario as a k6 script: JavaScript for k6 >= 0.48, or TypeScript for k6 >= 0.57. */
export function exportK6FlowScript(scenario: Scenario, options: K6FlowExportOptions): string {
  const language = options.language ?? 'js';
  const t: Annotate = (annotation) => (language === 'ts' ? annotation : '');
  const flow = scenario.flow;
  if (!flow) throw new Error(`scenario ${scenario.name} has no flow`);
  const k6Scenario: Record<string, unknown> = { executor: scenario.executor };
  for (const key of OPTION_KEYS) if (scenario[key] !== undefined) k6Scenario[key] = scenario[key];
  const fn = identifier(scenario.name);
  k6Scenario.exec = fn;
  const k6Options = { scenarios: { [scenario.name]: k6Scenario }, thresholds: scenario.thresholds };
  const abort = (flow.onStepFailure ?? 'abort') === 'abort';
  const body: string[] = [`  var vars${t(': Record<string, unknown>')} = {};`];
  for (const [name, text] of Object.entries(flow.vars ?? {})) body.push(`  vars[${JSON.stringify(name)}] = ${literal(text, 'raw')};`);
  // The first failed step, for a flow that goes on after one (onStepFailure: continue).
  if (!abort) body.push(`  var failed${t(': string | null')} = null;`);
  flow.steps.forEach((step, i) => {
    const onFail = abort
      ? `{\n${' '.repeat(4)}iterationsFailed.add(1, { step: ${JSON.stringify(step.name)} });\n${' '.repeat(4)}return;\n  }`
      : `{\n    if (failed === null) failed = ${JSON.stringify(step.name)};\n  }`;
    const think = thinkCode(step.think);
    if (step.repeat) {
      body.push(
        `  for (var runs${i} = 0; runs${i} < ${step.repeat.max} && present(vars[${JSON.stringify(step.repeat.while)}]); runs${i}++) {`,
        `    if (!step${i}(vars)) ${onFail.replace(/\n/g, '\n  ')}`,
        ...(think ? [`    ${think}`] : []),
        '  }',
      );
    } else {
      body.push(`  if (!step${i}(vars)) ${onFail}`);
      if (think) body.push(`  ${think}`);
    }
  });
  if (!abort) body.push('  if (failed !== null) iterationsFailed.add(1, { step: failed });');
  const envFlags = scenario.credential === 'none' ? '' : ` -e ${CREDENTIAL_ENV[scenario.credential]}=…`;
  const login = flow.steps.some((s) => s.operation === 'login' && s.body === undefined) ? ' -e HARNESS_LOGIN_EMAIL=… -e HARNESS_LOGIN_PASSWORD=…' : '';
  const steps = flow.steps.map((s, i) => stepFunction(s, i, scenario, options.api, t)).join('\n\n');
  const exec = `export function ${fn}()${t(': void')} {\n${body.join('\n')}\n}`;
  const helpers = flowHelpers(`${steps}\n${exec}`, t);
  const code = [...helpers, steps].join('\n\n');
  // Only what the code uses is imported: TypeScript with noUnusedLocals refuses an unused import.
  const k6Imports = ['check', ...(/\bsleep\(/.test(code) ? ['sleep'] : [])];
  const usesExec = /\bexec\./.test(`${code}\n${exec}`);
  const usesResponse = language === 'ts' && /: Response\b/.test(code);
  return `// k6 script exported by \`harness export k6\`${options.sourceLabel ? ` from ${options.sourceLabel}` : ''}: flow scenario "${scenario.name}".
// One k6 iteration = one pass through the flow, as in the harness. Each step's requests are tagged {name: step};
// captures are read into the iteration's \`vars\`; a failed step ${abort ? 'ends the iteration' : 'is counted and the iteration goes on'} (iterations_failed{step}).
// k6's iteration_duration is the harness's iterations.duration. ${language === 'ts' ? 'TypeScript: k6 >= 0.57 runs it (for older k6, export --lang js).' : 'Plain JavaScript: k6 >= 0.48 runs it.'}
// Not exported: \`workers\` and \`warmUp\` (k6 has neither).
// Run:
//   k6 run -e BASE_URL=https://api.example.com${envFlags}${login} ${fn}.k6.${language}
import http from 'k6/http';
${language === 'ts' && usesResponse ? "import type { Response } from 'k6/http';\n" : ''}import { ${k6Imports.join(', ')} } from 'k6';
${usesExec ? "import exec from 'k6/execution';\n" : ''}import { Counter, Rate } from 'k6/metrics';
${language === 'ts' ? "import type { Options } from 'k6/options';\n" : ''}
var BASE_URL${t(': string')} = (__ENV.BASE_URL || 'http://127.0.0.1:8080').replace(/\\/+$/, '');
${scenario.credential === 'none' ? '' : `var TOKEN${t(': string')} = __ENV.${CREDENTIAL_ENV[scenario.credential]} || '';\n`}
/** 429 answers, apart from failures (harness: rateLimited). */
var rateLimited = new Rate('rate_limited');
/** Iterations a step failed (harness: iterations.failed, iterations.failedBy). */
var iterationsFailed = new Counter('iterations_failed');

http.setResponseCallback(${scenario.rateLimitedAsFailure ? 'http.expectedStatuses({ min: 200, max: 399 })' : 'http.expectedStatuses({ min: 200, max: 399 }, 429)'});

export var options${t(': Options')} = ${JSON.stringify(k6Options, null, 2)};

${code}

${exec}
`;
}
