import { describe, expect, it } from 'vitest';
import { isReport, reportIssues } from '../../../src/report/report-schema.ts';
import { richReport } from '../../fixtures/reports/rich-report.ts';

describe('schemas/report.schema.json', () => {
  it('accepts the rich fixture with scenarios, capacity and the rate-limit probe', () => {
    expect(reportIssues(richReport({ hostile: true, secret: 'sk_test_secret_123' }))).toEqual([]);
    expect(isReport(richReport())).toBe(true);
  });

  it('names the path and the problem of an invalid report', () => {
    const report = richReport() as unknown as Record<string, any>;
    report.verdict = 'maybe';
    report.checks[0].statuz = 'passed';
    delete report.scenarios[0].latency.p95;
    report.rateLimit.observed.algorithm = 'leaky';
    const issues = reportIssues(report);
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '/verdict', message: expect.stringContaining('"certified"') }),
        expect.objectContaining({ path: '/checks/0', message: expect.stringContaining('"statuz"') }),
        expect.objectContaining({ path: '/scenarios/0/latency', message: expect.stringContaining('p95') }),
        expect.objectContaining({ path: '/rateLimit/observed/algorithm' }),
      ]),
    );
    expect(isReport(report)).toBe(false);
  });

  it('rejects what is not a report at all', () => {
    expect(reportIssues({ hello: 'world' }).length).toBeGreaterThan(0);
    expect(isReport([])).toBe(false);
  });
});
