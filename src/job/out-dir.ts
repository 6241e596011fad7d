/**
 * Before any traffic: can the reports be written where they will go? A run that measures for minutes and then
 * cannot write its report (the folder is below a regular file, read-only, or on a kernel pseudo-filesystem) has
 * wasted the run, so the folder is created and a probe file written and removed first, within a bounded time.
 */
import { mkdir, open, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { UsageError } from '../errors/harness-errors.ts';

/** Kernel pseudo-filesystems: writing there can hang or do something else entirely. */
const PSEUDO_FS = ['/proc', '/sys', '/dev'];

const REASONS: Record<string, string> = {
  ENOTDIR: 'a part of the path is a regular file, not a folder',
  EEXIST: 'it exists and is not a folder',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  ENOENT: 'the path cannot be created',
  EISDIR: 'it is a folder, not a file',
};

/** `source` names where the folder came from in the message: the flag and the config key. */
export async function assertWritableOutDir(dir: string, timeoutMs = 5000, source = '--out / report.outDir'): Promise<void> {
  const absolute = resolve(dir);
  const fail = (reason: string): never => {
    throw new UsageError(`cannot write reports to "${dir}" (${source}): ${reason}`);
  };
  if (PSEUDO_FS.some((root) => absolute === root || absolute.startsWith(root + sep))) fail('a kernel pseudo-filesystem, not a folder for files');
  const probe = async (): Promise<void> => {
    await mkdir(absolute, { recursive: true });
    const file = join(absolute, `.harness-write-probe-${process.pid}`);
    await writeFile(file, '');
    await rm(file, { force: true });
  };
  await probeWithin(probe, timeoutMs, fail);
}

/**
 * The same probe for an output FILE (`run --har`, `compare --summary-md`, `export … --out`), before any traffic or
 * work: not a folder, not on a pseudo-filesystem, its folder exists, and it can be opened for appending. An
 * existing file is opened in append mode and left as it was (a `--summary-md` file is appended to); a new one is
 * removed again. `flag` names the flag in the usage error (exit 2).
 */
export async function assertWritableFile(file: string, flag: string, timeoutMs = 5000): Promise<void> {
  const absolute = resolve(file);
  const fail = (reason: string): never => {
    throw new UsageError(`cannot write "${file}" (${flag}): ${reason}`);
  };
  if (PSEUDO_FS.some((root) => absolute === root || absolute.startsWith(root + sep))) fail('a kernel pseudo-filesystem, not a place for files');
  const probe = async (): Promise<void> => {
    const existing = await stat(absolute).catch(() => undefined);
    if (existing?.isDirectory()) fail('it is a folder, not a file');
    if (existing && !existing.isFile()) fail('it exists and is not a regular file');
    const folder = await stat(dirname(absolute)).catch((err: { code?: string }) => (err.code === 'ENOENT' ? fail(`its folder ${dirname(absolute)} does not exist`) : Promise.reject(err)));
    if (!folder.isDirectory()) fail(`${dirname(absolute)} is not a folder`);
    const handle = await open(absolute, 'a');
    await handle.close();
    if (!existing) await rm(absolute, { force: true });
  };
  await probeWithin(probe, timeoutMs, fail);
}

/**
 * Runs a file-system probe with a bound (a hung network mount must not hang the command): a usage error thrown by
 * the probe passes through, any other error is said in words through `fail` (a UsageError), and so is no answer.
 */
async function probeWithin(probe: () => Promise<void>, timeoutMs: number, fail: (reason: string) => never): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolveLate) => {
    timer = setTimeout(() => resolveLate('late'), timeoutMs);
    timer.unref();
  });
  try {
    if ((await Promise.race([probe(), late])) === 'late') fail(`no answer from the file system within ${timeoutMs} ms`);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const code = (err as { code?: string }).code ?? '';
    fail(REASONS[code] ?? `${code || (err as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}
