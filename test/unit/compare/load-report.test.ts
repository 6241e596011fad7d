import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadReport } from '../../../src/compare/load-report.ts';
import { baselineIndex } from '../../../src/compare/run-compare.ts';
import { FileNotFoundError, InvalidReportError, UsageError } from '../../../src/errors/harness-errors.ts';
import { richReport } from '../../fixtures/reports/rich-report.ts';

const dir = mkdtempSync(join(tmpdir(), 'load-report-'));
const write = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

describe('loadReport', () => {
  it('reads a valid report', async () => {
    const report = richReport();
    expect(await loadReport(write('ok.json', JSON.stringify(report)))).toEqual(report);
  });

  it('a missing file is a usage error', async () => {
    await expect(loadReport(join(dir, 'nope.json'))).rejects.toThrow(FileNotFoundError);
    await expect(loadReport(join(dir, 'nope.json'))).rejects.toThrow(/nope\.json: report file not found/);
    await expect(loadReport(dir)).rejects.toThrow(/cannot read report file \(EISDIR\)/);
  });

  it('a file that is not JSON, or not a report, lists its problems', async () => {
    await expect(loadReport(write('bad.json', '{oops'))).rejects.toThrow(InvalidReportError);
    await expect(loadReport(write('bad.json', '{oops'))).rejects.toThrow(/bad\.json: not a valid report\.json:\n {2}not JSON/);
    const err = await loadReport(write('other.json', JSON.stringify({ schemaVersion: 1, verdict: 'maybe' }))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidReportError);
    expect((err as InvalidReportError).problems).toEqual(expect.arrayContaining(['/: must have required property \'run\'', expect.stringMatching(/^\/verdict: must be equal to one of the allowed values/)]));
  });
});

describe('baselineIndex', () => {
  const reports = [
    { file: 'reports/a/report.json', report: richReport({ runId: 'A' }) },
    { file: 'reports/b/report.json', report: richReport({ runId: 'B' }) },
  ];
  it('defaults to the first, accepts a file (as typed or resolved) or a run id', () => {
    expect(baselineIndex(reports, undefined)).toBe(0);
    expect(baselineIndex(reports, 'reports/b/report.json')).toBe(1);
    expect(baselineIndex(reports, './reports/b/report.json')).toBe(1);
    expect(baselineIndex(reports, 'B')).toBe(1);
  });
  it('anything else is a usage error naming --baseline', () => {
    expect(() => baselineIndex(reports, 'C')).toThrow(UsageError);
    expect(() => baselineIndex(reports, 'C')).toThrow(/^--baseline: "C" is not one of the compared reports/);
  });
});
