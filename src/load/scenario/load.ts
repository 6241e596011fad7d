/**
 * Scenario files: YAML with positions → ${ENV} → AJV (schemas/scenario.schema.json) → defaults → the
 * executor's validate → request templates → thresholds. Every problem is collected with file, line, path and
 * (for misspelt keys and metrics) a suggestion; the same pieces as the config pipeline (src/config).
 */
import { basename, extname } from 'node:path';
import type { Document, LineCounter } from 'yaml';
import { locate } from '../../config/locate.ts';
import { formatKeyPath, isRecord, type KeyPath } from '../../config/key-path.ts';
import { interpolateDocument, type Env } from '../../config/interpolate.ts';
import { parseYaml, topLevelIssue } from '../../config/parse-yaml.ts';
import { displayPath, readTextFile } from '../../config/read-file.ts';
import { schemaIssues, type RawIssue } from '../../config/schema-issues.ts';
import { sortIssues } from '../../config/check-document.ts';
import { ConfigError, type ConfigIssue } from '../../errors/harness-errors.ts';
import { suggestKey } from '../../util/suggest.ts';
import { getExecutor, withExecutorDefaults } from '../executors/registry.ts';
import { defaultRequestName, requestTemplates } from '../request-mix.ts';
import { compileTemplate } from '../template.ts';
import { parseThresholds } from '../thresholds/parse.ts';
import { scenarioSchemaErrors } from './schema.ts';
import type { FlowSpec, RequestSpec, Scenario } from './types.ts';
import { compileFlow, type FlowIssue } from '../flow/prepare.ts';
import { defaultConfig } from '../../config/defaults.ts';

export interface ScenarioCheck {
  scenario?: Scenario;
  issues: ConfigIssue[];
}

const NUMERIC_KEYS = new Set(['vus', 'iterations', 'startVUs', 'rate', 'startRate', 'preAllocatedVUs', 'maxVUs', 'target', 'weight', 'quota', 'windowSeconds', 'tolerance']);

/** `rate: ${RATE:-100}` gives a number, as `rate: 100` would. */
function coerce(path: KeyPath, text: string): unknown {
  const last = path[path.length - 1];
  return typeof last === 'string' && NUMERIC_KEYS.has(last) && text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
}

/** `stages[1].target: must be …` → the path and the text. */
export function splitPathMessage(message: string): { path: KeyPath; message: string } {
  const match = /^([A-Za-z_][\w]*(?:\[\d+\]|\.[A-Za-z_]\w*)*): (.*)$/s.exec(message);
  if (!match) return { path: [], message };
  const path: (string | number)[] = [];
  for (const part of (match[1] as string).matchAll(/([A-Za-z_]\w*)|\[(\d+)\]/g)) path.push(part[2] !== undefined ? Number(part[2]) : (part[1] as string));
  return { path, message: match[2] as string };
}

/** Applies the format's defaults to a schema-valid document. */
export function scenarioFromData(data: Record<string, unknown>, file?: string): Scenario {
  const flow = data.flow as FlowSpec | undefined;
  // A flow's steps, named, are also its `requests` (weight 1): thresholds' {name:x}, byName and the exporter's
  // request list see the same names either way.
  const steps = flow ? { ...flow, steps: flow.steps.map((s) => ({ ...s, name: s.name ?? defaultRequestName(s) })) } : undefined;
  const requests = steps
    ? steps.steps.map(({ capture: _c, expectJson: _e, think: _t, repeat: _r, ...r }) => ({ ...r, weight: 1 }))
    : ((data.requests ?? []) as RequestSpec[]).map((r) => ({ ...r, name: r.name ?? defaultRequestName(r), weight: r.weight ?? 1 }));
  const scenario = {
    ...data,
    name: (data.name as string | undefined) ?? (file ? basename(file, extname(file)) : 'scenario'),
    credential: data.credential ?? (data.credentials as Scenario['credentials'])?.[0] ?? 'loadKey',
    thresholds: data.thresholds ?? {},
    rateLimitedAsFailure: data.rateLimitedAsFailure ?? false,
    timeout: data.timeout ?? '10s',
    requests,
    ...(steps ? { flow: steps } : {}),
    ...(file ? { source: file } : {}),
  } as Scenario;
  return withExecutorDefaults(scenario);
}

/** `credential` and `credentials` both given; `rateLimit` where the offered rate is not constant or no credential is sent. */
function credentialIssues(data: Record<string, unknown>, scenario: Scenario): RawIssue[] {
  const issues: RawIssue[] = [];
  if (data.credential !== undefined && data.credentials !== undefined) issues.push({ path: ['credentials'], atKey: true, message: 'give either "credential" or "credentials", not both' });
  if (scenario.rateLimit && scenario.executor !== 'constant-arrival-rate') {
    issues.push({ path: ['rateLimit'], atKey: true, message: `applies to constant-arrival-rate only (the expected 429 fraction needs a constant offered rate; executor is ${scenario.executor})` });
  }
  if (scenario.rateLimit && !scenario.credentials && scenario.credential === 'none') issues.push({ path: ['rateLimit'], atKey: true, message: 'the limit is per credential, but the scenario sends none (set "credential" or "credentials")' });
  return issues;
}

/** Problems past the schema: executor options, requests, templates, thresholds. */
export function semanticScenarioIssues(scenario: Scenario, data: Record<string, unknown> = {}): RawIssue[] {
  const issues: RawIssue[] = getExecutor(scenario.executor).validate(scenario).map((m) => splitPathMessage(m));
  for (const issue of credentialIssues(data, scenario)) issues.push(issue);
  if (data.requests !== undefined && data.flow !== undefined) issues.push({ path: ['flow'], atKey: true, message: 'give either "requests" (a weighted mix) or "flow" (a journey), not both' });
  else if (!scenario.flow && scenario.requests.length === 0) issues.push({ path: [], message: 'a scenario needs "requests" (a weighted mix) or "flow" (a journey)' });
  if (scenario.flow) {
    for (const issue of flowIssues(scenario)) issues.push(issue);
    return issues.concat(thresholdIssues(scenario));
  }
  scenario.requests.forEach((r, i) => {
    const at = ['requests', i];
    if (r.operation && (r.method || r.path)) issues.push({ path: [...at, 'operation'], message: 'give either operation or method + path, not both' });
    if (!r.operation && !r.path) issues.push({ path: at, message: 'a request needs "operation" (send, list, account, login, inbound, webhooks) or "path"' });
    for (const t of requestTemplates(r)) for (const message of compileTemplate(t.text).problems) issues.push({ path: [...at, ...t.at], message });
  });
  return issues.concat(thresholdIssues(scenario));
}

/**
 * A flow's problems: its steps compiled against the default API paths with placeholder credentials (a run
 * compiles them again with the target's), so a variable used before it is captured, an unknown generator, a
 * repeat over nothing or a bad think time is named at its key.
 */
function flowIssues(scenario: Scenario): RawIssue[] {
  const issues: FlowIssue[] = [];
  const out: RawIssue[] = [];
  if (scenario.credentials) out.push({ path: ['credentials'], atKey: true, message: 'a flow sends one credential (use "credential"; a step may send its own Authorization header)' });
  if (scenario.rateLimit) out.push({ path: ['rateLimit'], atKey: true, message: 'applies to request mixes only (a flow\'s offered request rate depends on its repeats and failures)' });
  compileFlow(scenario.flow as FlowSpec, { api: defaultConfig().api, credentials: { login: { email: 'user@example.com', password: 'password' } } as never, bearer: 'validate' }, issues);
  return out.concat(issues.map((i) => ({ path: i.at, message: i.message, ...(i.atKey ? { atKey: true } : {}) })));
}

function thresholdIssues(scenario: Scenario): RawIssue[] {
  const issues: RawIssue[] = [];
  const { thresholds, problems } = parseThresholds(scenario.thresholds);
  for (const p of problems) issues.push({ path: ['thresholds', ...p.at], message: p.message, ...(p.suggestion ? { suggestion: p.suggestion } : {}), atKey: p.at.length === 1 });
  const names = [...new Set(scenario.requests.map((r) => r.name))];
  for (const t of thresholds) {
    if (t.name !== undefined && !names.includes(t.name)) {
      const suggestion = suggestKey(t.name, names);
      issues.push({ path: ['thresholds', t.key], atKey: true, message: `no request is named "${t.name}" (names: ${names.join(', ')})`, ...(suggestion ? { suggestion } : {}) });
    }
  }
  return issues;
}

/** Checks a parsed scenario document; `file` is how messages name it. */
export function checkScenarioDocument(document: Document, lines: LineCounter, file?: string, env: Env = process.env): ScenarioCheck {
  const place = (raw: RawIssue): ConfigIssue => ({
    ...(file !== undefined ? { file } : {}),
    ...(locate(document, lines, raw.path, raw.atKey) ?? locate(document, lines, raw.path.slice(0, -1), true)),
    path: formatKeyPath(raw.path),
    message: raw.message,
    ...(raw.suggestion !== undefined ? { suggestion: raw.suggestion } : {}),
  });
  const top = topLevelIssue({ document, lines }, file);
  if (top) return { issues: [top] };
  const interpolation = interpolateDocument(document, env, coerce);
  const data = (document.toJS() ?? {}) as unknown;
  const issues = [...interpolation, ...schemaIssues(scenarioSchemaErrors(data), data)].map(place);
  if (issues.length > 0 || !isRecord(data)) return { issues: sortIssues(issues) };
  const scenario = scenarioFromData(data, file);
  const semantic = semanticScenarioIssues(scenario, data).map(place);
  return semantic.length > 0 ? { issues: sortIssues(semantic) } : { scenario, issues: [] };
}

export function checkScenarioText(text: string, file?: string, env?: Env): ScenarioCheck {
  const parsed = parseYaml(text, file);
  if (!parsed.ok) return { issues: parsed.issues };
  return checkScenarioDocument(parsed.parsed.document, parsed.parsed.lines, file, env);
}

/**
 * Reads and checks a scenario file.
 * @throws FileNotFoundError, ConfigError (every problem, exit 104)
 */
export function loadScenarioFile(file: string, env?: Env): Scenario {
  const result = checkScenarioText(readTextFile(file), displayPath(file), env);
  if (!result.scenario) throw new ConfigError(result.issues);
  return result.scenario;
}
