/**
 * Vitest reporter (last in vitest.config.ts): ends `npm test` with the closing line .ci/run prints too
 * (summary-line.ts), so a newcomer's run names what it skipped and why, e.g.
 * `tests: 1576 passed, 0 failed, 13 skipped (no k6: set HARNESS_K6)`.
 */
import type { Reporter, TestModule } from 'vitest/node';
import { summaryLine, type TestTally } from './summary-line.ts';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const tally: TestTally = { passed: 0, failed: 0, skipped: [] };
    for (const module of testModules) {
      const before = tally.failed;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') tally.passed += 1;
        else if (state === 'failed') tally.failed += 1;
        else tally.skipped.push(test.meta().skipReason);
      }
      // A file that failed outside its tests (its import, a hook) fails the run: one failure.
      if (tally.failed === before && module.state() === 'failed') tally.failed += 1;
    }
    // Errors no test caught fail the run too.
    tally.failed += unhandledErrors.length;
    process.stdout.write(`\n${summaryLine(tally)}\n`);
  }
}
