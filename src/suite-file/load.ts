/**
 * Declarative suite files: YAML with positions → ${ENV} → AJV (schemas/suite.schema.json) → semantic checks →
 * SuiteSpec. Every problem is collected with file, line, path and, for misspellings, a suggestion: the same
 * pieces as the config and scenario pipelines (src/config).
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Document, LineCounter } from 'yaml';
import { sortIssues } from '../config/check-document.ts';
import { interpolateDocument, type Env } from '../config/interpolate.ts';
import { formatKeyPath, isRecord, type KeyPath } from '../config/key-path.ts';
import { locate } from '../config/locate.ts';
import { parseYaml, topLevelIssue } from '../config/parse-yaml.ts';
import { displayPath, readTextFile } from '../config/read-file.ts';
import { schemaIssues, type RawIssue } from '../config/schema-issues.ts';
import { CLAUSE_IDS } from '../conformance/spec-clauses.ts';
import { ConfigError, type ConfigIssue } from '../errors/harness-errors.ts';
import { compileTemplate } from '../load/template.ts';
import { apiValidators } from '../config/fixed-schemas.ts';
import * as generatedApi from '../config/generated/api-validators.ts';
import { apiAjv, loadApiSchemas } from '../schemas/registry.ts';
import { suggestKey } from '../util/suggest.ts';
import { suiteSchemaErrors } from './schema.ts';
import type { CheckSpec, RequestSpec, StepSpec, SuiteSpec } from './types.ts';

/** `{{var NAME}}`: a value captured by an earlier step. */
export const VAR_PLACEHOLDER = /\{\{\s*var\s+([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const POINTER = /^(\/.*)?$/;

export interface SuiteCheck {
  suite?: SuiteSpec;
  issues: ConfigIssue[];
}

/** Schema names a suite may name besides files and $ids: schemas/api base names and the configured error schema. */
function schemaNames(): string[] {
  return [...loadApiSchemas().keys(), 'error'];
}

/** Every string inside a request that is a template (path, query, headers, body), with where it is. */
function templateStrings(request: RequestSpec): Array<{ at: KeyPath; text: string }> {
  const out: Array<{ at: KeyPath; text: string }> = [];
  const walk = (value: unknown, at: KeyPath): void => {
    if (typeof value === 'string') out.push({ at, text: value });
    else if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...at, i]));
    else if (isRecord(value)) for (const [k, v] of Object.entries(value)) walk(v, [...at, k]);
  };
  walk(request.path, ['path']);
  walk(request.params, ['params']);
  walk(request.query, ['query']);
  walk(request.headers, ['headers']);
  walk(request.body, ['body']);
  return out;
}

function stepIssues(step: StepSpec, at: KeyPath, known: Set<string>, baseDir: string): RawIssue[] {
  const issues: RawIssue[] = [];
  const r = step.request;
  const req = [...at, 'request'];
  if (r.operation && (r.method || r.path)) issues.push({ path: [...req, 'operation'], message: 'give either operation or method + path, not both' });
  if (!r.operation && !(r.method && r.path)) issues.push({ path: req, message: 'a request needs "operation" or both "method" and "path"' });
  if (r.params && !r.operation) issues.push({ path: [...req, 'params'], atKey: true, message: 'params fill an operation\'s path; with method + path write the value into the path' });
  for (const t of templateStrings(r)) {
    for (const match of t.text.matchAll(VAR_PLACEHOLDER)) {
      const name = match[1] as string;
      if (!known.has(name)) {
        const suggestion = suggestKey(name, known);
        issues.push({ path: [...req, ...t.at], message: `{{var ${name}}} is not captured by an earlier step${known.size ? ` (captured: ${[...known].join(', ')})` : ''}`, ...(suggestion ? { suggestion } : {}) });
      }
    }
    for (const message of compileTemplate(t.text.replace(VAR_PLACEHOLDER, 'x')).problems) issues.push({ path: [...req, ...t.at], message });
  }
  const e = step.expect;
  // Expected values may name captured variables too ({{var callId}}), from earlier steps only.
  for (const [kind, entries] of [['headers', e?.headers], ['json', e?.json]] as const) {
    for (const [key, value] of Object.entries(entries ?? {})) {
      for (const field of ['equals', 'matches'] as const) {
        const text = value[field];
        if (typeof text !== 'string') continue;
        for (const match of text.matchAll(VAR_PLACEHOLDER)) {
          if (!known.has(match[1] as string)) issues.push({ path: [...at, 'expect', kind, key, field], message: `{{var ${match[1]}}} is not captured by an earlier step` });
        }
      }
    }
  }
  if (e?.schema !== undefined && !/^(https?|urn):/.test(e.schema)) {
    if (e.schema.endsWith('.json')) {
      const file = resolve(baseDir, e.schema);
      if (!existsSync(file)) issues.push({ path: [...at, 'expect', 'schema'], message: `schema file not found: ${e.schema} (relative to the suite file)` });
      else e.schema = file;
    } else if (!schemaNames().includes(e.schema)) {
      const suggestion = suggestKey(e.schema, schemaNames());
      issues.push({ path: [...at, 'expect', 'schema'], message: `no schema named "${e.schema}" (a schemas/api name, "error", a $id or a .json file)`, ...(suggestion ? { suggestion } : {}) });
    }
  } else if (e?.schema !== undefined && !apiValidators(generatedApi).has(e.schema) && !apiAjv().getSchema(e.schema)) {
    issues.push({ path: [...at, 'expect', 'schema'], message: `no schema with $id "${e.schema}" is known` });
  }
  for (const [kind, entries] of [['headers', e?.headers], ['json', e?.json]] as const) {
    for (const [key, value] of Object.entries(entries ?? {})) {
      if (kind === 'json' && !POINTER.test(key)) issues.push({ path: [...at, 'expect', kind, key], atKey: true, message: `"${key}" is not a JSON pointer (e.g. /id, /data/0/id)` });
      if (value.matches !== undefined) {
        try {
          new RegExp(value.matches);
        } catch (err) {
          issues.push({ path: [...at, 'expect', kind, key, 'matches'], message: `not a regular expression: ${(err as Error).message}` });
        }
      }
    }
  }
  for (const [name, pointer] of Object.entries(step.capture ?? {})) {
    if (!VAR_NAME.test(name)) issues.push({ path: [...at, 'capture', name], atKey: true, message: `"${name}" is not a variable name (letters, digits, "_")` });
    if (!POINTER.test(pointer)) issues.push({ path: [...at, 'capture', name], message: `"${pointer}" is not a JSON pointer (e.g. /id)` });
    known.add(name);
  }
  return issues;
}

/** Problems past the schema; fills `checks` with the checks as steps. */
function semanticIssues(data: Record<string, unknown>, baseDir: string, checks: Array<Omit<CheckSpec, 'where'>>): RawIssue[] {
  const issues: RawIssue[] = [];
  const suite = data.suite as string;
  const seen = new Map<string, number>();
  (data.checks as Array<Record<string, unknown>>).forEach((raw, i) => {
    const at: KeyPath = ['checks', i];
    const id = raw.id as string;
    if (!id.startsWith(`${suite}.`)) issues.push({ path: [...at, 'id'], message: `must start with the suite name: "${suite}."` });
    if (seen.has(id)) issues.push({ path: [...at, 'id'], message: `repeats the id of checks[${seen.get(id)}]` });
    seen.set(id, i);
    const clauses = (raw.clauses as string[] | undefined) ?? [];
    clauses.forEach((clause, j) => {
      if (!CLAUSE_IDS.has(clause)) {
        const suggestion = suggestKey(clause, CLAUSE_IDS);
        issues.push({ path: [...at, 'clauses', j], message: `unknown SERVICE-SPEC clause "${clause}" (src/conformance/spec-clauses.ts)`, ...(suggestion ? { suggestion } : {}) });
      }
    });
    let steps: StepSpec[];
    if (raw.steps !== undefined) {
      if (raw.request !== undefined || raw.expect !== undefined) issues.push({ path: [...at, 'steps'], atKey: true, message: 'give either steps or request (+ expect), not both' });
      steps = raw.steps as StepSpec[];
    } else if (raw.request !== undefined) {
      steps = [{ request: raw.request as RequestSpec, ...(raw.expect ? { expect: raw.expect as StepSpec['expect'] } : {}) }];
    } else {
      issues.push({ path: at, message: 'a check needs "request" (+ "expect") or "steps"' });
      return;
    }
    const known = new Set<string>();
    steps.forEach((step, s) => {
      for (const issue of stepIssues(step, raw.steps !== undefined ? [...at, 'steps', s] : at, known, baseDir)) issues.push(issue);
    });
    checks.push({ id, title: raw.title as string, level: raw.level as CheckSpec['level'], specRef: raw.specRef as string, clauses, steps });
  });
  return issues;
}

/** Checks a parsed suite document; `file` is how messages name it, `path` where relative schema files are. */
export function checkSuiteDocument(document: Document, lines: LineCounter, file: string, path: string, env: Env = process.env): SuiteCheck {
  const position = (p: KeyPath, atKey = false) => locate(document, lines, p, atKey) ?? locate(document, lines, p.slice(0, -1), true);
  const place = (raw: RawIssue): ConfigIssue => ({
    file,
    ...position(raw.path, raw.atKey),
    path: formatKeyPath(raw.path),
    message: raw.message,
    ...(raw.suggestion !== undefined ? { suggestion: raw.suggestion } : {}),
  });
  const top = topLevelIssue({ document, lines }, file);
  if (top) return { issues: [top] };
  const interpolation = interpolateDocument(document, env);
  const data = (document.toJS() ?? {}) as unknown;
  const issues = [...interpolation, ...schemaIssues(suiteSchemaErrors(data), data)].map(place);
  if (issues.length > 0 || !isRecord(data)) return { issues: sortIssues(issues) };
  const checks: Array<Omit<CheckSpec, 'where'>> = [];
  const semantic = semanticIssues(data, dirname(path), checks).map(place);
  if (semantic.length > 0) return { issues: sortIssues(semantic) };
  const where = (p: KeyPath) => {
    const pos = position(p);
    return `${file}${pos?.line ? `:${pos.line}` : ''}`;
  };
  return {
    suite: {
      name: data.suite as string,
      title: data.title as string,
      file,
      where: where(['suite']),
      checks: checks.map((c, i) => ({ ...c, where: where(['checks', i, 'id']) })),
    },
    issues: [],
  };
}

/**
 * Reads and checks a suite file.
 * @throws FileNotFoundError, ConfigError (every problem, exit 104)
 */
export function loadSuiteFile(path: string, env?: Env): SuiteSpec {
  const file = displayPath(path);
  const parsed = parseYaml(readTextFile(path), file);
  if (!parsed.ok) throw new ConfigError(parsed.issues);
  const result = checkSuiteDocument(parsed.parsed.document, parsed.parsed.lines, file, path, env);
  if (!result.suite) throw new ConfigError(result.issues);
  return result.suite;
}
