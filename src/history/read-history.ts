/**
 * Reads a history folder: every `*.json` file that is a history entry (entry.ts) or a bare report.json, oldest run
 * first. Anything else — a foreign file, corrupt JSON, an entry or report from a newer harness, a file too large —
 * is named in `skipped` with why, and the rest of the history is still read. A missing folder is a usage error.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { FileNotFoundError, UsageError } from '../errors/harness-errors.ts';
import { reportIssues } from '../report/report-schema.ts';
import { REPORT_SCHEMA_VERSION, type ReadReport } from '../report/report.ts';
import { HISTORY_ENTRY_VERSION, type HistoryEntry, type RunMeta, type SkippedFile } from './entry.ts';
import { readBounded } from './read-bounded.ts';

/** Newest files kept when a folder holds more (names start with the run's start time, so they sort by it). */
export const MAX_FILES = 2000;

export interface History {
  dir: string;
  /** Oldest run first (by the report's start time, then file name). */
  entries: HistoryEntry[];
  skipped: SkippedFile[];
}

export async function readHistory(dir: string, flag = '--history'): Promise<History> {
  let names: string[];
  try {
    if (!(await stat(dir)).isDirectory()) throw new UsageError(`${flag}: ${dir} is not a folder`);
    names = (await readdir(dir)).sort();
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new FileNotFoundError(dir, `history folder not found (${flag})`);
  }
  const skipped: SkippedFile[] = [];
  const json = names.filter((name) => {
    if (name.endsWith('.json')) return true;
    skipped.push({ file: name, why: 'not a .json file' });
    return false;
  });
  if (json.length > MAX_FILES) {
    for (const name of json.splice(0, json.length - MAX_FILES)) skipped.push({ file: name, why: `older than the newest ${MAX_FILES} files` });
  }
  const entries: HistoryEntry[] = [];
  for (const name of json) {
    const read = await readBounded(join(dir, name));
    if ('why' in read) {
      skipped.push({ file: name, why: read.why });
      continue;
    }
    const parsed = parseEntry(read.text);
    if ('why' in parsed) skipped.push({ file: name, why: parsed.why });
    else entries.push({ file: name, ...parsed });
  }
  entries.sort((a, b) => a.report.run.startedAt.localeCompare(b.report.run.startedAt) || a.file.localeCompare(b.file));
  return { dir, entries, skipped };
}

/** One file's text → its metadata and report, or why it is not one this harness reads. */
export function parseEntry(text: string): { meta: RunMeta; report: ReadReport } | { why: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { why: `corrupt: not JSON (${(err as Error).message})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { why: 'foreign: not a history entry or report.json' };
  const record = value as Record<string, unknown>;
  let meta: RunMeta;
  let report: unknown;
  if ('historyEntry' in record) {
    if (typeof record.historyEntry !== 'number') return { why: 'corrupt: historyEntry is not a number' };
    if (record.historyEntry > HISTORY_ENTRY_VERSION) return { why: `future format: history entry version ${record.historyEntry}, this harness reads ${HISTORY_ENTRY_VERSION}` };
    meta = metaOf(record.meta);
    report = record.report;
  } else {
    // A bare report.json copied in by hand: a run without label or commit.
    meta = { recordedAt: '' };
    report = record;
  }
  if (typeof report !== 'object' || report === null || !('run' in report)) return { why: 'foreign: not a history entry or report.json' };
  const version = (report as { schemaVersion?: unknown }).schemaVersion;
  if (typeof version === 'number' && version > REPORT_SCHEMA_VERSION) return { why: `future format: report schemaVersion ${version}, this harness reads ${REPORT_SCHEMA_VERSION}` };
  const issues = reportIssues(report);
  if (issues.length > 0) {
    const first = issues[0]!;
    return { why: `not a valid report.json: ${first.path || '/'}: ${first.message}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''}` };
  }
  return { meta, report: report as ReadReport };
}

function metaOf(raw: unknown): RunMeta {
  const m = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const text = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v.slice(0, 200) : undefined);
  const label = text(m.label);
  const commit = text(m.commit);
  const branch = text(m.branch);
  return { recordedAt: text(m.recordedAt) ?? '', ...(label ? { label } : {}), ...(commit ? { commit } : {}), ...(branch ? { branch } : {}) };
}
