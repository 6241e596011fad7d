/**
 * The layer table, read from ARCHITECTURE.md's "Layers" section so that the page a newcomer reads and the rule
 * this test keeps are one text. Two tables: floors (`| floor | folders and files | … |`, highest first) and
 * narrower rules (`| folder | imports only | … |`) for folders that must not use all of the floors below them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './import-graph.ts';

/** A folder (ends with `/`) or one file, repository-relative. */
export type PathPrefix = string;

export interface LayerTable {
  floors: ReadonlyArray<{ floor: number; paths: readonly PathPrefix[] }>;
  narrower: ReadonlyArray<{ folder: PathPrefix; only: readonly PathPrefix[] }>;
}

const sectionStart = '<!-- layer-table:start -->';
const sectionEnd = '<!-- layer-table:end -->';

function codeSpans(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
}

function rows(block: string): string[][] {
  return block
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
    .map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()));
}

export function parseLayerTable(markdown: string): LayerTable {
  const start = markdown.indexOf(sectionStart);
  const end = markdown.indexOf(sectionEnd);
  if (start < 0 || end < start) throw new Error(`ARCHITECTURE.md: no ${sectionStart} … ${sectionEnd} section`);
  const floors: Array<{ floor: number; paths: PathPrefix[] }> = [];
  const narrower: Array<{ folder: PathPrefix; only: PathPrefix[] }> = [];
  for (const [first = '', second = ''] of rows(markdown.slice(start, end))) {
    if (/^\d+$/.test(first)) floors.push({ floor: Number(first), paths: codeSpans(second) });
    else if (codeSpans(first).length === 1) narrower.push({ folder: codeSpans(first)[0] as string, only: codeSpans(second) });
  }
  if (floors.length === 0) throw new Error('ARCHITECTURE.md: the layer table has no floor rows');
  return { floors, narrower };
}

export function readLayerTable(): LayerTable {
  return parseLayerTable(readFileSync(join(repoRoot, 'ARCHITECTURE.md'), 'utf8'));
}

/** Whether a repository path is the prefix's file or lies in the prefix's folder. */
export function within(path: string, prefix: PathPrefix): boolean {
  return prefix.endsWith('/') ? path.startsWith(prefix) : path === prefix;
}
