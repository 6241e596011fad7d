/**
 * Gives issues found after loading (unknown suite, unknown skipChecks id, an unreadable errorSchema) the file
 * and line of the key they are about, as the schema issues already have: `harness validate` and `harness run`
 * point at the same place.
 */
import type { ConfigIssue } from '../errors/harness-errors.ts';
import type { KeyPath } from './key-path.ts';
import { locate } from './locate.ts';
import { parseYaml } from './parse-yaml.ts';
import { displayPath, readTextFile } from './read-file.ts';

/** `api.rejectedStatus[1]` → ['api', 'rejectedStatus', 1]. */
export function parseKeyPath(text: string): KeyPath {
  const out: (string | number)[] = [];
  for (const match of text.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(match[2] !== undefined ? Number(match[2]) : match[1]!);
  return out;
}

export function locateIssues(file: string, issues: readonly ConfigIssue[]): ConfigIssue[] {
  const parsed = parseYaml(readTextFile(file), displayPath(file));
  return issues.map((issue) => {
    if (issue.line !== undefined || !issue.path) return issue;
    const position = parsed.ok ? locate(parsed.parsed.document, parsed.parsed.lines, parseKeyPath(issue.path)) : undefined;
    return { ...issue, file: displayPath(file), ...(position ?? {}) };
  });
}
