/**
 * YAML text → Document that keeps source positions. Syntax errors become issues with file:line:column and the
 * `yaml` package's own message; nothing after parsing runs on a document that has them.
 */
import { LineCounter, isMap, isScalar, isSeq, parseDocument, visit, type Document } from 'yaml';
import type { ConfigIssue } from '../errors/harness-errors.ts';
import { positionOf } from './locate.ts';

export interface ParsedYaml {
  document: Document;
  lines: LineCounter;
}

export type ParseResult = { ok: true; parsed: ParsedYaml } | { ok: false; issues: ConfigIssue[] };

/** Alias expansions allowed when the document becomes plain data (yaml's own default, stated: the bomb guard). */
export const MAX_ALIAS_COUNT = 100;
/** A config or scenario is a few levels deep; far deeper nesting is an attack or a mistake, not a config. */
const DEEP_NESTING = 'nested too deeply (thousands of levels); a config or scenario file is only a few levels deep';

export function parseYaml(text: string, file?: string): ParseResult {
  const lines = new LineCounter();
  let document: Document;
  try {
    // prettyErrors off: the message stays one line; positions are computed below from error.pos.
    document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  } catch (err) {
    if (err instanceof RangeError) return { ok: false, issues: [{ file, line: 1, column: 1, path: '', message: `invalid YAML: ${DEEP_NESTING}` }] };
    throw err;
  }
  if (document.errors.length === 0) return plainDataIssue(document, lines, file) ?? { ok: true, parsed: { document, lines } };
  const issues = document.errors.map((error): ConfigIssue => {
    const { line, column } = positionOf(lines, error.pos[0]);
    // The messages of the `yaml` package (and of V8, through it) that speak to programmers, not to the file's author.
    const text = error.code === 'MULTIPLE_DOCS'
      ? 'a config file holds one document; remove the second "---"'
      : /Maximum call stack/.test(error.message) ? DEEP_NESTING : error.message;
    return { file, line, column, path: '', message: `invalid YAML: ${text}` };
  });
  return { ok: false, issues };
}

/**
 * Turning the document into data is where an alias bomb ("billion laughs") explodes and where deep nesting
 * overflows the stack: try it once here, bounded, so every later toJS() is known to be safe.
 */
function plainDataIssue(document: Document, lines: LineCounter, file?: string): ParseResult | undefined {
  try {
    document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    return undefined;
  } catch (err) {
    const bomb = /alias count/i.test((err as Error)?.message ?? '');
    if (!bomb && !(err instanceof RangeError)) throw err;
    let offset = 0;
    if (bomb) {
      visit(document, {
        Alias(_key, node) {
          offset = node.range?.[0] ?? 0;
          return visit.BREAK;
        },
      });
    }
    const { line, column } = positionOf(lines, offset);
    const message = bomb
      ? `invalid YAML: aliases expand to more than ${MAX_ALIAS_COUNT} nodes (an "alias bomb"); write the values out instead of repeating anchors`
      : `invalid YAML: ${DEEP_NESTING}`;
    return { ok: false, issues: [{ file, line, column, path: '', message }] };
  }
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
