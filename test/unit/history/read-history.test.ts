/**
 * Reading a history folder: entries and bare reports are read oldest first; a file over the size bound is refused
 * by its size without being read whole; a report of a newer schema version and an invalid report are named with why.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBounded } from '../../../src/history/read-bounded.ts';
import { parseEntry, readHistory } from '../../../src/history/read-history.ts';
import { richReport } from '../../fixtures/reports/rich-report.ts';

describe('readHistory', () => {
  it('reads entries and bare reports oldest run first, and names what it skips', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'read-history-'));
    const older = richReport({ runId: 'run-older' });
    older.run.startedAt = '2026-11-01T00:00:00.000Z';
    const newer = richReport({ runId: 'run-newer' });
    newer.run.startedAt = '2026-11-02T00:00:00.000Z';
    // Named so the file order is the reverse of the run order: the start time decides.
    writeFileSync(join(dir, 'a.json'), JSON.stringify({ historyEntry: 1, meta: { label: 'main', commit: 'abc', recordedAt: 'x' }, report: newer }));
    writeFileSync(join(dir, 'b.json'), JSON.stringify(older));
    writeFileSync(join(dir, 'c.json'), JSON.stringify({ ...older, schemaVersion: 7 }));
    writeFileSync(join(dir, 'd.json'), JSON.stringify({ run: { id: 'x' } }));
    writeFileSync(join(dir, 'e.json'), '[1, 2]');
    const history = await readHistory(dir);
    expect(history.entries.map((e) => [e.report.run.id, e.meta.label ?? null])).toEqual([['run-older', null], ['run-newer', 'main']]);
    expect(history.skipped).toEqual([
      { file: 'c.json', why: 'future format: report schemaVersion 7, this harness reads 1' },
      { file: 'd.json', why: expect.stringMatching(/^not a valid report\.json: /) },
      { file: 'e.json', why: 'foreign: not a history entry or report.json' },
    ]);
  });

  it('refuses a file over the bound by its size', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'read-bounded-'));
    writeFileSync(join(dir, 'big.json'), 'x'.repeat(2048));
    expect(await readBounded(join(dir, 'big.json'), 1024)).toEqual({ why: 'larger than 1024 bytes (2048 bytes)' });
    expect(await readBounded(join(dir, 'big.json'), 4096)).toEqual({ text: 'x'.repeat(2048) });
    expect(await readBounded(join(dir, 'missing.json'))).toEqual({ why: 'cannot be read (ENOENT)' });
  });

  it('a history entry with a non-numeric version is corrupt', () => {
    expect(parseEntry('{"historyEntry": "one"}')).toEqual({ why: 'corrupt: historyEntry is not a number' });
  });
});
