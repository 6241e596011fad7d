import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Installs Debian's Chromium for the browser tests when it is missing (as root), or says what to install.
    globalSetup: ['test/setup/chromium.ts'],
    // The JSON results feed .ci/run's closing "tests: N passed, N failed" line.
    reporters: ['default', ['json', { outputFile: 'test-output/vitest-results.json' }]],
  },
});
