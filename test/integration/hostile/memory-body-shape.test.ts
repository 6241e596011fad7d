/**
 * Bodies whose shape, not size, is the attack, on every answer: a gzip bomb (never inflated) and JSON nested
 * 200 000 deep (no walk overflows the stack). Every suite runs; the child's peak RSS stays within the goal
 * (lib/memory-case.ts).
 */
import { describe, expect, it } from 'vitest';
import { hostileTargets, runFile } from './lib/hostile-run.ts';
import { everySuiteWithinGoal, expectEvidenceCut } from './lib/memory-case.ts';

const hostile = hostileTargets();

describe('hostile targets: harness run --no-load ends, bounded, with a report', () => {
  it('a gzip bomb (2 MB on the wire, 2 GiB inflated; never inflated) on every answer: every suite runs, peak RSS of the child at most 600 MB', async () => {
    const { report } = await everySuiteWithinGoal(hostile, 'gzip-bomb');
    expectEvidenceCut(report, 'gzip-bomb');
  }, 180_000);

  it('a JSON answer nested 200 000 deep (650 KB) on every answer: every suite runs, no stack overflow, peak RSS at most 600 MB', async () => {
    const { result, report, out } = await everySuiteWithinGoal(hostile, 'deep-json');
    // Every walk over the answer is iterative or cut with a note naming the depth: none overflowed the stack.
    const files = ['report.json', 'report.html', 'junit.xml'].map((file) => runFile(out, file));
    for (const text of [result.stdout, result.stderr, ...files]) expect(text).not.toMatch(/call stack/i);
    // Checks read JSON up to 1000 levels: the replay check (whose recursive canonical form threw before) fails with a
    // finding that names the depth, as does the standing schema check.
    const replay = report.checks.find((c: any) => c.id === 'idempotency.replay.same-response');
    expect(replay.status).toBe('failed');
    expect(replay.message).toMatch(/the JSON body nests 200001 levels deep; checks read JSON up to 1000 levels/);
    const schemas = report.checks.find((c: any) => c.id === 'standing.responses-match-schemas');
    expect(JSON.stringify(schemas.evidence?.details ?? schemas.message)).toMatch(/nests 200001 levels deep/);
    // A failure's details holding the answer keep its first levels and say how deep it went.
    const details = JSON.stringify(report.checks.map((c: any) => c.evidence?.details ?? null));
    if (details.includes('"msg_deep"')) expect(details).toMatch(/\[cut: JSON nested \d{6} levels deep; the first 64 are kept\]/);
  }, 180_000);
});
