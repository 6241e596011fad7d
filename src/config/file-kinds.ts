/**
 * `harness validate [file]`: which kind of file is this, and what is wrong with it. Kinds register here (suite
 * files: src/suite-file/file-kind.ts; scenario files: src/load/scenario/file-kind.ts); a file no kind claims is validated as a
 * harness config, the most common case and the one whose errors (unknown keys) explain a wrong guess best.
 */
import type { Document, LineCounter } from 'yaml';
import type { ConfigIssue } from '../errors/harness-errors.ts';
import { checkParsedConfig, sortIssues } from './check-document.ts';
import type { Env } from './interpolate.ts';
import { parseYaml } from './parse-yaml.ts';
import { displayPath, readTextFile } from './read-file.ts';
import type { FrozenConfig } from './types.ts';

/** A parsed YAML file as kinds see it: the Document (with positions), its line table and its plain value. */
export interface ParsedFile {
  document: Document;
  lines: LineCounter;
  /** `document.toJS()`, before any ${VAR} interpolation. */
  data: unknown;
}

export interface FileKind {
  kind: string;
  /** Does this file look like this kind? Called on files that parsed; must not throw. */
  detect(doc: ParsedFile): boolean;
  /** Every problem of the file; an empty list when valid. */
  validate(doc: ParsedFile, file: string, text: string, env: Env): ConfigIssue[];
}

export const CONFIG_KIND = 'config';

const configKind: FileKind = {
  kind: CONFIG_KIND,
  detect: () => true,
  validate: (doc, file, _text, env) => checkParsedConfig({ document: doc.document, lines: doc.lines }, file, { env }).issues,
};

const kinds = new Map<string, FileKind>([[CONFIG_KIND, configKind]]);

/** Adds a kind (or replaces one of the same name). Kinds are tried in registration order, config last. */
export function registerFileKind(kind: FileKind): void {
  kinds.set(kind.kind, kind);
}

export function fileKinds(): FileKind[] {
  return [...kinds.values()];
}

function detectKind(doc: ParsedFile): FileKind {
  for (const kind of kinds.values()) {
    if (kind.kind !== CONFIG_KIND && kind.detect(doc)) return kind;
  }
  return kinds.get(CONFIG_KIND) ?? configKind;
}

/**
 * The kind of `file` and every issue in it, sorted by line. A file that is not valid YAML is reported as
 * kind "config" with its syntax errors (its kind cannot be told).
 * @throws FileNotFoundError when the file is missing, a directory or unreadable
 */
export function validateFile(file: string, options: { env?: Env } = {}): { kind: string; issues: ConfigIssue[] } {
  const { kind, issues } = checkFile(file, options);
  return { kind, issues };
}

/**
 * validateFile, and for a valid config also the config, as loadConfig would return it with the same env: so
 * `harness validate` need not read, parse and check the file a second time.
 */
export function checkFile(file: string, options: { env?: Env } = {}): { kind: string; issues: ConfigIssue[]; config?: FrozenConfig } {
  const text = readTextFile(file);
  const shown = displayPath(file);
  const parsed = parseYaml(text, shown);
  if (!parsed.ok) return { kind: CONFIG_KIND, issues: parsed.issues };
  const doc: ParsedFile = { ...parsed.parsed, data: parsed.parsed.document.toJS() };
  const kind = detectKind(doc);
  const env = options.env ?? process.env;
  if (kind === configKind) {
    const checked = checkParsedConfig({ document: doc.document, lines: doc.lines }, shown, { env });
    return { kind: CONFIG_KIND, issues: sortIssues(checked.issues), ...(checked.config && checked.issues.length === 0 && { config: checked.config }) };
  }
  return { kind: kind.kind, issues: sortIssues(kind.validate(doc, shown, text, env)) };
}
