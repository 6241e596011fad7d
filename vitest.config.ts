import { defineConfig } from 'vitest/config';
import LongFilesFirst from './test/setup/long-files-first.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Bounds, not assertions: a test that hangs still ends, and one on a loaded runner (two busy loops on both
    // cores make a whole embedded run take 2–3× longer) is not failed for the machine's load. No test asserts speed.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Many integration files spend their time waiting (rate-limit windows, whole conformance runs, webhook retries),
    // not computing: six files at a time let those waits overlap with the CPU-bound files on two cores (four left a
    // third of the two cores idle); the longest files start first so they are not the run's tail
    // (test/setup/long-files-first.ts). No test asserts speed.
    maxWorkers: 6,
    sequence: { sequencer: LongFilesFirst },
    // Each file's wall and CPU seconds, for the sequencer's next refresh and for finding where the time goes
    // (test/setup/file-timing.ts); and a check that each file leaves process.env as it found it, which the files of
    // a worker share (test/setup/env-unchanged.ts).
    setupFiles: ['test/setup/file-timing.ts', 'test/setup/env-unchanged.ts'],
    // A worker's files share its module graph: importing the sources again for every file cost more CPU than any
    // test file but a few. A test leaves no global state behind (listeners, env, registered kinds, timers).
    isolate: false,
    // Gives the run a temporary folder of its own, removed at its end (test/setup/temp-dir.ts). Installs Debian's
    // Chromium for the browser tests when it is missing (as root), or says what to install, then starts the one
    // Chromium they all connect to (test/setup/chromium-server.ts). And compiles the CLI once for the tests that
    // start it as a child process (test/setup/cli-build.ts).
    globalSetup: ['test/setup/temp-dir.ts', 'test/setup/chromium.ts', 'test/setup/chromium-server.ts', 'test/setup/cli-build.ts'],
    // The JSON results feed .ci/run's closing "tests: N passed, N failed[, N skipped (why)]" line; the last reporter
    // ends `npm test` with the same line (test/setup/summary-line.ts).
    reporters: ['default', ['json', { outputFile: 'test-output/vitest-results.json' }], './test/setup/summary-reporter.ts'],
  },
});
