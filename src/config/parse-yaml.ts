/**
 * YAML text → Document that keeps source positions. Syntax errors become issues with file:line:column and the
 * `yaml` package's own message; nothing after parsing runs on a document that has them.
 */
import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Document } from 'yaml';
import type { ConfigIssue } from '../errors.ts';
import { positionOf } from './locate.ts';

export interface ParsedYaml {
  document: Document;
  lines: LineCounter;
}

export type ParseResult = { ok: true; parsed: ParsedYaml } | { ok: false; issues: ConfigIssue[] };

export function parseYaml(text: string, file?: string): ParseResult {
  const lines = new LineCounter();
  // prettyErrors off: the message stays one line; positions are computed below from error.pos.
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (document.errors.length === 0) return { ok: true, parsed: { document, lines } };
  const issues = document.errors.map((error): ConfigIssue => {
    const { line, column } = positionOf(lines, error.pos[0]);
    // The one message of the `yaml` package that speaks to programmers rather than to the file's author.
    const text = error.code === 'MULTIPLE_DOCS' ? 'a config file holds one document; remove the second "---"' : error.message;
    return { file, line, column, path: '', message: `invalid YAML: ${text}` };
  });
  return { ok: false, issues };
}

/** A file's top level must be a mapping (or empty, which means "all defaults"). */
export function topLevelIssue(parsed: ParsedYaml, file?: string): ConfigIssue | undefined {
  const contents = parsed.document.contents;
  if (contents === null || isMap(contents)) return undefined;
  if (isScalar(contents) && contents.value === null) return undefined;
  const found = isSeq(contents) ? 'a list' : isScalar(contents) ? `the value ${JSON.stringify(contents.value)}` : 'something else';
  const offset = contents.range?.[0] ?? 0;
  const { line, column } = positionOf(parsed.lines, offset);
  return { file, line, column, path: '', message: `the top level must be a mapping of options (key: value), found ${found}` };
}
