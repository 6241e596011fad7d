/**
 * The closing line of a test run, `tests: N passed, N failed[, N skipped (why)]`, the same for `npm test` (the
 * summary reporter, last in vitest.config.ts) and .ci/run (`tsx test/setup/summary-line.ts FILE [EXTRA_FAILED]`,
 * from vitest's JSON results). A skipped test names its reason in `meta.skipReason` (test/helpers/k6.ts: a tool no
 * registry ships); one skipped without a reason is counted as "skipped in the test file".
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface TestTally {
  passed: number;
  failed: number;
  /** One entry per skipped test: its reason, when it gave one. */
  skipped: Array<string | undefined>;
}

const UNNAMED = 'skipped in the test file';

export function summaryLine(tally: TestTally): string {
  const head = `tests: ${tally.passed} passed, ${tally.failed} failed`;
  if (tally.skipped.length === 0) return head;
  const byReason = new Map<string, number>();
  for (const reason of tally.skipped) byReason.set(reason ?? UNNAMED, (byReason.get(reason ?? UNNAMED) ?? 0) + 1);
  const why = byReason.size === 1 ? [...byReason.keys()][0]! : [...byReason].map(([reason, n]) => `${n} ${reason}`).join('; ');
  return `${head}, ${tally.skipped.length} skipped (${why})`;
}

export interface JsonResults {
  numPassedTests: number;
  numFailedTests: number;
  /** False also when a test file failed outside its tests, or an error was not handled. */
  success?: boolean;
  testResults: Array<{ status?: string; assertionResults: Array<{ status: string; meta?: { skipReason?: string } }> }>;
}

/**
 * The tally of vitest's JSON reporter output (test-output/vitest-results.json). A test file that failed outside its
 * tests (its import, a hook: vitest fails the run for it) counts as one failure, and a failed run never reads
 * "0 failed".
 */
export function tallyOfJson(results: JsonResults): TestTally {
  const skipped = results.testResults
    .flatMap((file) => file.assertionResults)
    .filter((test) => test.status === 'skipped' || test.status === 'pending' || test.status === 'todo')
    .map((test) => test.meta?.skipReason);
  const fileFailures = results.testResults.filter((file) => file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed')).length;
  const failed = results.numFailedTests + fileFailures;
  return { passed: results.numPassedTests, failed: results.success === false ? Math.max(1, failed) : failed, skipped };
}

// .ci/run: print the line from the JSON results; a failed type-check is one more failure.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [file, extra] = process.argv.slice(2);
  const tally = tallyOfJson(JSON.parse(readFileSync(file!, 'utf8')) as JsonResults);
  process.stdout.write(`${summaryLine({ ...tally, failed: tally.failed + Number(extra ?? 0) })}\n`);
}
