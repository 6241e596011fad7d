import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig } from '/work/wt/spec/src/config/index.ts';
import { runConformance } from '/work/wt/spec/src/job/run-conformance.ts';
import { createDefaultRegistry } from '/work/wt/spec/suites/index.ts';
import { startSpecTarget } from '/work/wt/spec/test/targets/spec-target/index.ts';
import { specEnv } from '/work/wt/spec/test/targets/spec-target/env.ts';
const variant = (process.argv[2] ?? 'correct') as any;
const target = await startSpecTarget({ variant });
const config = loadConfig(resolve('/work/wt/spec/test/fixtures/spec-target/harness.config.yaml'), {
  env: specEnv(target.credentials),
  overrides: { target: { baseUrl: target.baseUrl }, report: { outDir: mkdtempSync(join(tmpdir(), 'spec-')) } },
});
const t0 = Date.now();
const outcome = await runConformance({ config, registry: createDefaultRegistry(), log: () => {} });
await target.close();
for (const c of outcome.report.checks) if (c.status !== 'passed' || c.vacuous) console.log(`${c.status}${c.vacuous ? '(vacuous)' : ''} ${c.level} ${c.id}: ${(c.vacuous ?? c.message ?? '').slice(0, 300)}`);
console.log(outcome.report.verdict, JSON.stringify(outcome.report.summary.byLevel), `${(Date.now() - t0) / 1000}s`);
