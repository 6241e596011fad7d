/**
 * A library call prints nothing unless asked: `runLoadJob` against the embedded reference target writes nothing to
 * stdout or stderr without a `log`, and hands the same job's lines (what it runs, the summary table, the files it
 * wrote) to a `log` when given one, which is how the CLI prints them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config/index.ts';
import { runLoadJob } from '../../../src/job/load-job.ts';
import { loadScenarios } from '../../../src/load/scenario/select.ts';

const dir = mkdtempSync(join(tmpdir(), 'harness-silent-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const job = () => ({
  config: loadConfig(undefined, { overrides: { report: { outDir: dir } } }),
  scenarios: loadScenarios(['smoke'], { duration: '1s' }),
  workers: 1 as const,
});

describe('runLoadJob as a library call', () => {
  it('prints nothing by default', async () => {
    const written: string[] = [];
    const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true));
    const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true));
    try {
      const outcome = await runLoadJob(job());
      expect(outcome.report.scenarios?.[0]?.requests).toBeGreaterThan(0);
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
    expect(written).toEqual([]);
  }, 60_000);

  it('hands its lines to a log when asked to print', async () => {
    const lines: string[] = [];
    await runLoadJob({ ...job(), log: (line) => lines.push(line) });
    const text = lines.join('\n');
    expect(text).toMatch(/^load: smoke against http:\/\/127\.0\.0\.1:\d+/m);
    expect(text).toMatch(/report\.json/);
    expect(lines.length).toBeGreaterThan(3);
  }, 60_000);
});
