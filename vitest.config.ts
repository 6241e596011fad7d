import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Bounds, not assertions: a test that hangs still ends, and one on a loaded runner (two busy loops on both
    // cores make a whole embedded run take 2–3× longer) is not failed for the machine's load. No test asserts speed.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Most integration files spend their time waiting (rate-limit windows, webhook retries, check deadlines), not
    // computing: on the 2-core machines vitest's default (one worker) ran them one after another for 20 minutes.
    // Three files at a time keeps both cores busy without starving timers; no test asserts speed (bench/ does).
    maxWorkers: 4,
    // Test files share each worker's module graph instead of importing the sources again for every file: the
    // imports were a tenth of the suite's CPU. Tests therefore leave no global state behind (a registered kind, a
    // signal handler, an environment variable) that another file could see.
    isolate: false,
    // Installs Debian's Chromium for the browser tests when it is missing (as root), or says what to install.
    // And compiles the CLI once for the tests that start it as a child process (test/setup/cli-build.ts).
    globalSetup: ['test/setup/chromium.ts', 'test/setup/cli-build.ts'],
    // The JSON results feed .ci/run's closing "tests: N passed, N failed[, N skipped (why)]" line; the last reporter
    // ends `npm test` with the same line (test/setup/summary-line.ts).
    reporters: ['default', ['json', { outputFile: 'test-output/vitest-results.json' }], './test/setup/summary-reporter.ts'],
  },
});
