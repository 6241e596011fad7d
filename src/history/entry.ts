/**
 * One run in a history folder (docs/decisions/2026-11-27-history-folder.md): the run's report.json, wrapped with
 * what CI knew about it (label, commit, branch). One file per run, never rewritten: the folder is append-only, so
 * a CI cache or artifact that is restored, added to and saved again cannot lose or change an earlier run.
 */
import type { ReadReport } from '../report/report.ts';

/** The entry format this harness writes and reads; a file with a higher number was written by a newer harness. */
export const HISTORY_ENTRY_VERSION = 1;

export interface RunMeta {
  /** What the run was of: `--label`, else the CI branch. Baselines are drawn from runs of the same label. */
  label?: string;
  commit?: string;
  branch?: string;
  /** When the run was added to the history (the run's own start time is in the report). */
  recordedAt: string;
}

export interface HistoryFile {
  historyEntry: typeof HISTORY_ENTRY_VERSION;
  meta: RunMeta;
  report: ReadReport;
}

/** A history file once read: its name in the folder, its metadata and its report. */
export interface HistoryEntry {
  file: string;
  meta: RunMeta;
  report: ReadReport;
}

/** A file in the folder that is not a run this harness can read: named and skipped, never fatal. */
export interface SkippedFile {
  file: string;
  why: string;
}

/** A run's short name in every sentence: its label, commit (7 characters) and run id. */
export function runName(entry: HistoryEntry): string {
  const parts = [entry.meta.label, entry.meta.commit?.slice(0, 7)].filter((p): p is string => p !== undefined && p.length > 0);
  return parts.length > 0 ? `${entry.report.run.id} (${parts.join(' @ ')})` : entry.report.run.id;
}
