/** The closing line of `npm test` and .ci/run (test/setup/summary-line.ts), from vitest's JSON results. */
import { describe, expect, it } from 'vitest';
import { summaryLine, tallyOfJson, type JsonResults } from '../../setup/summary-line.ts';

const file = (status: string, ...tests: Array<{ status: string; meta?: { skipReason?: string } }>): JsonResults['testResults'][number] => ({ status, assertionResults: tests });

describe('the closing line', () => {
  it('counts passed and failed tests, and names why tests were skipped', () => {
    const results: JsonResults = {
      numPassedTests: 2,
      numFailedTests: 1,
      success: false,
      testResults: [
        file('failed', { status: 'passed' }, { status: 'failed' }),
        file('passed', { status: 'passed' }, { status: 'skipped', meta: { skipReason: 'no k6: set HARNESS_K6' } }, { status: 'skipped' }),
      ],
    };
    expect(summaryLine(tallyOfJson(results))).toBe('tests: 2 passed, 1 failed, 2 skipped (1 no k6: set HARNESS_K6; 1 skipped in the test file)');
  });

  it('counts a file that failed outside its tests (a hook, its import) as one failure, a file with a failed test once', () => {
    const results: JsonResults = {
      numPassedTests: 3,
      numFailedTests: 1,
      success: false,
      testResults: [file('failed', { status: 'passed' }), file('failed'), file('failed', { status: 'failed' }, { status: 'passed' }), file('passed', { status: 'passed' })],
    };
    expect(summaryLine(tallyOfJson(results))).toBe('tests: 3 passed, 3 failed');
  });

  it('never reads "0 failed" for a run vitest failed (an unhandled error)', () => {
    expect(summaryLine(tallyOfJson({ numPassedTests: 4, numFailedTests: 0, success: false, testResults: [file('passed', { status: 'passed' })] }))).toBe('tests: 4 passed, 1 failed');
    expect(summaryLine(tallyOfJson({ numPassedTests: 4, numFailedTests: 0, success: true, testResults: [file('passed', { status: 'passed' })] }))).toBe('tests: 4 passed, 0 failed');
  });
});
