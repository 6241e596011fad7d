/** What `harness list` prints: the suites, their checks and the shipped scenarios, as tables or as JSON. */
import { resolve } from 'node:path';
import type { Level } from '../conformance/check.ts';
import type { CheckRegistry } from '../conformance/registry.ts';
import { loadScenarioFile } from '../load/scenario/load.ts';
import { SHIPPED_SCENARIOS_DIR, shippedScenarioNames } from '../load/scenario/resolve.ts';

export interface Listing {
  suites: Array<{ name: string; title: string; checks: number }>;
  checks: Array<{ id: string; suite: string; level: Level; specRef: string; title: string }>;
  scenarios: Array<{ name: string; executor: string; description?: string }>;
}

export function buildListing(registry: CheckRegistry, scenarioNames: readonly string[] = shippedScenarioNames()): Listing {
  return {
    suites: registry.suites.map((s) => ({ name: s.name, title: s.title, checks: s.checks.length })),
    checks: registry.suites.flatMap((s) => s.checks.map((c) => ({ id: c.id, suite: c.suite, level: c.level, specRef: c.specRef, title: c.title }))),
    scenarios: scenarioNames.map((name) => {
      const scenario = loadScenarioFile(resolve(SHIPPED_SCENARIOS_DIR, `${name}.yaml`));
      return { name, executor: scenario.executor, ...(scenario.description ? { description: scenario.description } : {}) };
    }),
  };
}

/** Columns padded to their widest cell; the last column is left as is. */
function table(rows: readonly string[][]): string {
  const widths = rows[0]?.map((_, col) => rows.reduce((widest, row) => Math.max(widest, (row[col] ?? '').length), 0)) ?? [];
  return rows.map((row) => `  ${row.map((cell, col) => (col === row.length - 1 ? cell : cell.padEnd(widths[col] ?? 0))).join('  ')}`).join('\n');
}

export function formatListing(listing: Listing): string {
  return [
    `suites (${listing.suites.length}):`,
    table(listing.suites.map((s) => [s.name, `${s.checks} check${s.checks === 1 ? '' : 's'}`, s.title])),
    '',
    `checks (${listing.checks.length}):`,
    table(listing.checks.map((c) => [c.id, c.level, c.specRef])),
    '',
    `scenarios (${listing.scenarios.length}, shipped):`,
    table(listing.scenarios.map((s) => [s.name, s.executor, s.description ?? ''])),
    '',
    'Run one suite with `harness run --suite NAME`, one check with `harness run --check ID`, a scenario with `--scenario NAME`.',
    '',
  ].join('\n');
}
