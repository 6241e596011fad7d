/**
 * Issues are gathered by a loop, not an argument spread: `issues.push(...err.issues)` of 150 000 unknown check ids
 * (a 6.75 MB config, under the input cap) threw "Maximum call stack size exceeded" and ended validate with exit 70.
 */
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config/index.ts';
import type { FrozenConfig } from '../../../src/config/types.ts';
import type { CheckRegistry } from '../../../src/conformance/registry.ts';
import { ConfigError } from '../../../src/errors/harness-errors.ts';
import { runReadinessIssues } from '../../../src/job/run-readiness.ts';
import { createDefaultRegistry } from '../../../suites/index.ts';

describe('run readiness with very many issues', () => {
  it('150 000 issues from one source (unknown check ids): every one listed, no stack overflow', () => {
    const registry = createDefaultRegistry();
    // The registry's own check of 150 000 ids spends its time on "did you mean" suggestions; what is tested here
    // is how the issues are gathered, so the registry answers with them at once.
    const issues = Array.from({ length: 150_000 }, (_, i) => ({ path: `conformance.skipChecks[${i}]`, message: `unknown check id "nosuch.check-${i}"` }));
    const many = {
      select: (suites: string[]) => registry.select(suites),
      assertKnownChecks: () => {
        throw new ConfigError(issues);
      },
    } as unknown as CheckRegistry;
    const found = runReadinessIssues(defaultConfig() as unknown as FrozenConfig, many);
    expect(found).toHaveLength(150_000);
    expect(found.at(-1)!.message).toBe('unknown check id "nosuch.check-149999"');
  });
});
