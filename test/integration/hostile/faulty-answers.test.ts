/**
 * A target lost in the middle of a run, answers HTTP does not expect, and a credential no client can send back:
 * each run ends with its report and a documented exit code, naming what went wrong.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.ts';
import { hostileTargets, runFile, setup, SUITES } from './lib/hostile-run.ts';

const hostile = hostileTargets();

/**
 * The ids of the checks a run of SUITES selects, as `harness list --json` names them (list and run share one
 * registry): from the CLI's build, which the runs start anyway, rather than the sources compiled into this file.
 */
let selectedIds: Promise<string[]> | undefined;
function selectedChecks(): Promise<string[]> {
  selectedIds ??= (async () => {
    const listed = await runCli(['list', '--json', '--config', setup().config]);
    expect(listed.code, listed.stderr).toBe(0);
    const suites = SUITES.split(',');
    const checks = (JSON.parse(listed.stdout).checks as { id: string; suite: string }[]).filter((c) => suites.includes(c.suite));
    expect(new Set(checks.map((c) => c.suite))).toEqual(new Set(suites));
    return checks.map((c) => c.id);
  })();
  return selectedIds;
}

describe('hostile targets: harness run --no-load ends, bounded, with a report', () => {
  it.each([
    ['stops answering at request 12', 'never-answers'],
    ['starts dripping at request 12', 'drip'],
    ['crashes at request 12', 'crash-at-n'],
  ] as const)('mid-run: %s → exit 3, "target lost", naming the check where it stopped', async (_name, kind) => {
    const { result, report, out } = await hostile.run(kind, { faultAt: 12 });
    expect(result.code).toBe(3);
    expect(report.run.aborted.code).toBe('HARNESS_ERR_TARGET_LOST');
    const notRun = (c: any): boolean => c.status === 'skipped' && /^not run: the target was lost during check /.test(c.message ?? '');
    const ran = report.checks.filter((c: any) => !notRun(c));
    const last = ran.at(-1).id;
    expect(report.run.aborted.message).toContain(`lost during check ${last}`);
    expect(result.stdout).toContain('lost during check');
    // The run stopped there, and every selected check it did not start is in the report as not run (junit.xml too),
    // so the verdict line counts them: "MUST … N not run" with N every MUST check that did not run.
    const selected = await selectedChecks();
    expect(ran.length).toBeLessThan(selected.length);
    expect(report.checks.map((c: any) => c.id).sort()).toEqual([...selected].sort());
    const mustNotRun = report.checks.filter((c: any) => c.level === 'MUST' && c.status === 'skipped').length;
    expect(mustNotRun).toBeGreaterThan(1);
    expect(result.stdout).toMatch(new RegExp(`MUST [^;]*\\b${mustNotRun} not run`));
    const junit = runFile(out, 'junit.xml');
    expect(junit).toContain(`not run: the target was lost during check ${last}`);
    // One testcase per selected check (and one for the run that was stopped).
    expect((junit.match(/<testcase /g) ?? []).length).toBeGreaterThanOrEqual(selected.length);
  });

  it.each([
    ['malformed JSON', 'malformed-json'],
    ['truncated JSON (Content-Length not met)', 'truncated-json'],
    ['HTTP/1.0 answers', 'http-1.0'],
    ['empty bodies', 'empty-body'],
    ['100 KB headers', 'huge-headers'],
  ] as const)('%s → a report and a documented exit code', async (_name, kind) => {
    const { result, report } = await hostile.run(kind);
    expect([1, 3, 4]).toContain(result.code);
    expect(['not-certified', 'incomplete']).toContain(report.verdict);
  });
});

describe('an unusable credential from the target is a finding about the target, not a lost target', () => {
  it('a login token with invalid UTF-8: checks that send it fail naming it; the run is not "target lost"', async () => {
    const { result, report } = await hostile.run('bad-token', { suites: 'smoke,auth' });
    expect(result.code).not.toBe(3);
    expect(report.run.aborted).toBeUndefined();
    const named = report.checks.filter((c: any) => c.status === 'failed' && /HTTP does not allow in a header/.test(c.message ?? ''));
    expect(named.length).toBeGreaterThan(0);
    expect(named[0].message).toMatch(/invalid UTF-8/);
    expect(report.checks.filter((c: any) => c.status === 'error' && /header/i.test(c.message ?? ''))).toEqual([]);
  });
});
