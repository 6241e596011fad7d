/**
 * Appends one run to a history folder: a new file named by the run's start time and id, written exclusively (an
 * existing name is never overwritten; the same report added twice is refused, naming the file that holds it).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadReport } from '../compare/load-report.ts';
import { UsageError } from '../errors/harness-errors.ts';
import { ciMeta, cleanText } from './ci-env.ts';
import { HISTORY_ENTRY_VERSION, type HistoryFile, type RunMeta } from './entry.ts';

export interface AddOptions {
  dir: string;
  reportFile: string;
  label?: string;
  env?: NodeJS.ProcessEnv;
  now?: Date;
}

export interface Added {
  file: string;
  meta: RunMeta;
  runId: string;
}

export async function addRun(options: AddOptions): Promise<Added> {
  const report = await loadReport(options.reportFile);
  const ci = ciMeta(options.env ?? process.env);
  const label = options.label !== undefined ? cleanText(options.label) : ci.branch;
  const meta: RunMeta = { recordedAt: (options.now ?? new Date()).toISOString(), ...(label ? { label } : {}), ...ci };
  const entry: HistoryFile = { historyEntry: HISTORY_ENTRY_VERSION, meta, report };
  const stamp = report.run.startedAt.replace(/[^0-9TZ]/g, '');
  const name = `${stamp}-${report.run.id.replace(/[^A-Za-z0-9_-]/g, '_')}.json`;
  await mkdir(options.dir, { recursive: true });
  try {
    await writeFile(join(options.dir, name), `${JSON.stringify(entry)}\n`, { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new UsageError(`history: run ${report.run.id} is already in ${options.dir} (${name}); a history is append-only`);
    throw err;
  }
  return { file: join(options.dir, name), meta, runId: report.run.id };
}
