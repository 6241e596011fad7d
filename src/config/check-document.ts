/**
 * The config pipeline, without I/O and without throwing: a parsed file (or a plain object) and the CLI
 * overrides in, the frozen config or every issue out. load.ts adds the file reading and the throw;
 * file-kinds.ts uses this for `harness validate`.
 *   top level is a mapping → ${VAR} → schema (file and overrides, all issues) → schema file paths made
 *   absolute (each layer against its own base) → merge over defaults → empty credentials dropped →
 *   cross-option rules → client-less oauth dropped, derived defaults → source → deep freeze
 */
import { dirname, resolve } from 'node:path';
import type { ConfigIssue } from '../errors/harness-errors.ts';
import { dropClientlessOAuth, dropEmptyCredentials, dropKeylessJwtSigning } from './credentials.ts';
import { applyDerivedDefaults, fileDefaults } from './defaults.ts';
import { deepFreeze } from './freeze.ts';
import { interpolateDocument, type Env } from './interpolate.ts';
import { formatKeyPath, getAt, isRecord, type KeyPath } from './key-path.ts';
import { hasNode, locate } from './locate.ts';
import { deepMerge, pruneUndefined, type DeepPartial } from './merge.ts';
import { topLevelIssue, type ParsedYaml } from './parse-yaml.ts';
import { resolveSchemaRefs } from './resolve-paths.ts';
import { coerceToSchemaType, harnessConfigSchema, schemaErrors } from './schema.ts';
import { schemaIssues, type RawIssue } from './schema-issues.ts';
import { semanticIssues } from './semantic.ts';
import type { FrozenConfig, HarnessConfig } from './types.ts';

export interface LoadOptions {
  /** Environment for ${VAR}. @default process.env */
  env?: Env;
  /** Values from command-line flags; they win over the file. `undefined` members mean "flag not given". */
  overrides?: DeepPartial<HarnessConfig>;
  /** Dotted option path → the flag that set it (`{'target.baseUrl': '--target'}`), for messages. */
  overrideSource?: Record<string, string>;
}

export interface ConfigCheck {
  /** Present exactly when `issues` is empty. */
  config?: FrozenConfig;
  issues: ConfigIssue[];
}

/** Where the file layer's values came from, so an issue can point into it. */
interface FileLayer {
  file?: string;
  data: Record<string, unknown>;
  position(path: KeyPath, atKey?: boolean): { line: number; column: number } | undefined;
  has(path: KeyPath): boolean;
}

/** `key:` with nothing after it means "use the default", like leaving the key out. */
function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, dropNulls(v)]));
}

function startsWith(path: KeyPath, prefix: KeyPath): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => segment === path[i]);
}

function flagFor(path: KeyPath, source: Record<string, string>): string | undefined {
  for (let n = path.length; n > 0; n--) {
    const flag = source[formatKeyPath(path.slice(0, n))];
    if (flag !== undefined) return flag;
  }
  return undefined;
}

function fileIssue(layer: FileLayer, raw: RawIssue, at: KeyPath = raw.path): ConfigIssue {
  const issue: ConfigIssue = { ...(layer.file !== undefined && { file: layer.file }), ...layer.position(at, raw.atKey), path: formatKeyPath(raw.path), message: raw.message };
  if (raw.suggestion !== undefined) issue.suggestion = raw.suggestion;
  return issue;
}

function overrideIssue(raw: RawIssue, source: Record<string, string>): ConfigIssue {
  const issue: ConfigIssue = { path: flagFor(raw.path, source) ?? formatKeyPath(raw.path), message: raw.message };
  if (raw.suggestion !== undefined) issue.suggestion = raw.suggestion;
  return issue;
}

/** Runs the pipeline on one file layer. */
function check(layer: FileLayer, interpolationIssues: RawIssue[], options: LoadOptions): ConfigCheck {
  const source = options.overrideSource ?? {};
  const overrides = pruneUndefined((options.overrides ?? {}) as Record<string, unknown>);
  // A value whose ${VAR} failed is already reported; its schema error would only repeat the problem.
  const failed = interpolationIssues.map((i) => i.path);
  const issues: ConfigIssue[] = [
    ...interpolationIssues.map((raw) => fileIssue(layer, raw)),
    ...schemaIssues(schemaErrors(layer.data), layer.data, harnessConfigSchema())
      .filter((raw) => !failed.some((p) => startsWith(raw.path, p)))
      .map((raw) => fileIssue(layer, raw)),
    ...schemaIssues(schemaErrors(overrides), overrides).map((raw) => overrideIssue(raw, source)),
  ];
  // Cross-option rules assume well-typed values: run them only on a config that passed the schema.
  if (issues.length > 0) return { issues };

  resolveSchemaRefs(layer.data, layer.file ? dirname(resolve(layer.file)) : process.cwd());
  resolveSchemaRefs(overrides, process.cwd());
  const config = deepMerge(deepMerge(fileDefaults(), layer.data), overrides);
  dropEmptyCredentials(config);

  for (const rule of semanticIssues(config)) {
    const candidates = [rule.path, ...(rule.at ?? [])];
    const inFile = candidates.find((p) => layer.has(p));
    const overridden = candidates.find((p) => getAt(overrides, p) !== undefined);
    // Blame the flag when it set the key itself, or when the file holds none of the keys involved.
    if (overridden && (overridden === rule.path || !inFile)) {
      const flag = flagFor(overridden, source);
      const own = overridden === rule.path;
      issues.push({
        path: flag ?? formatKeyPath(rule.path),
        message: own || !flag ? rule.message : `${formatKeyPath(rule.path)} ${rule.message}`,
      });
    } else {
      issues.push(fileIssue(layer, rule, inFile ?? rule.path));
    }
  }
  if (issues.length > 0) return { issues };

  dropClientlessOAuth(config.credentials);
  dropKeylessJwtSigning(config.credentials);
  applyDerivedDefaults(config);
  const withSource: HarnessConfig = layer.file ? { source: resolve(layer.file), ...config } : config;
  const given = [...new Set([...leafPaths(layer.data), ...leafPaths(overrides)])].sort();
  return { config: deepFreeze(given.length > 0 ? { ...withSource, given } : withSource), issues: [] };
}

/** Dotted paths of the values a layer sets (mappings walked, anything else a leaf): what its author stated. */
function leafPaths(value: unknown, prefix = ''): string[] {
  if (!isRecord(value)) return prefix ? [prefix] : [];
  return Object.entries(value).flatMap(([key, inner]) => (inner === undefined ? [] : leafPaths(inner, prefix ? `${prefix}.${key}` : key)));
}

/** A parsed YAML config file (or none: defaults and overrides only). */
export function checkParsedConfig(parsed: ParsedYaml | undefined, file: string | undefined, options: LoadOptions = {}): ConfigCheck {
  if (!parsed) return check({ file, data: {}, position: () => undefined, has: () => false }, [], options);
  const top = topLevelIssue(parsed, file);
  if (top) return { issues: [top] };
  const { document, lines } = parsed;
  const interpolation = interpolateDocument(document, options.env ?? process.env, coerceToSchemaType);
  const data = dropNulls(document.toJS() ?? {}) as Record<string, unknown>;
  return check(
    { file, data, position: (path, atKey) => locate(document, lines, path, atKey), has: (path) => hasNode(document, path) },
    interpolation,
    options,
  );
}

/** A config given as a plain object (library callers): same checks, no positions. */
export function checkConfigObject(data: unknown, options: LoadOptions & { file?: string } = {}): ConfigCheck {
  if (!isRecord(data)) {
    return { issues: [{ ...(options.file !== undefined && { file: options.file }), path: '', message: 'the config must be a mapping of options (key: value)' }] };
  }
  const copy = structuredClone(dropNulls(data)) as Record<string, unknown>;
  return check({ file: options.file, data: copy, position: () => undefined, has: (path) => getAt(copy, path) !== undefined }, [], options);
}

/** Issues sorted by file position (line, then column); issues without a line (flags) come last. */
export function sortIssues(issues: readonly ConfigIssue[]): ConfigIssue[] {
  const key = (i: ConfigIssue): [number, number] => [i.line ?? Infinity, i.column ?? 0];
  return [...issues].sort((a, b) => {
    const [la, ca] = key(a);
    const [lb, cb] = key(b);
    return la === lb ? ca - cb : la - lb;
  });
}
