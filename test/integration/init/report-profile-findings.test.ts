/** report.html groups failed PROFILE checks by describeIn: "describe it in config" vs "a fault against your own description". */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckResult } from '../../../src/conformance/result.ts';
import { SecretRegistry } from '../../../src/http/redact.ts';
import { reportHtml } from '../../../src/reporters/html-reporter.ts';
import { richReport } from '../../fixtures/reports/rich-report.ts';
import { launchBrowser, openPage, type Browser } from '../../helpers/browser.ts';

function profileFailure(id: string, keys: string[], described: boolean): CheckResult {
  return { id, suite: 'smoke', title: id, level: 'PROFILE', specRef: 'PROFILE.md', status: 'failed', durationMs: 1, message: 'differs', describeIn: { keys, described } };
}

describe('report.html PROFILE findings', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => browser?.close());

  it('lists each failed PROFILE check under its group with the keys that describe it', async () => {
    const report = richReport();
    report.checks.push(profileFailure('smoke.send-created-status', ['api.successStatus.sendMessage'], false), profileFailure('pagination.walk.documented-order', ['api.pagination.order'], true));
    const file = join(mkdtempSync(join(tmpdir(), 'report-profile-')), 'report.html');
    writeFileSync(file, reportHtml(report, new SecretRegistry()));
    const { page, problems } = await openPage(browser.context, file);
    expect(problems).toEqual([]);
    const describe = await page.textContent('#profile-findings [data-described="false"]');
    const fault = await page.textContent('#profile-findings [data-described="true"]');
    expect(describe).toContain('Describe it in config');
    expect(describe).toContain('smoke.send-created-status: api.successStatus.sendMessage');
    expect(fault).toContain('A fault against your own description');
    expect(fault).toContain('pagination.walk.documented-order: api.pagination.order');
  }, 60_000);
});
