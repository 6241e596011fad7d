/**
 * The CI gate does not flake and does not miss: scenarios/gate.yaml (shortened to 10 s, which still gives each
 * run the 200 requests p95 needs and 10 one-second blocks) against three real reference targets on port 0 — two
 * identical, one with 50 ms injected latency — measured at the same time, so a busy machine's stalls hit every run
 * alike (the README's advice for CI: measure baseline and candidate in the same job). The runs are collected once;
 * 20 comparisons each are then made from block-bootstrap resamples of the measured runs (whole seconds drawn with
 * replacement from the run's per-second histograms, so requests that stalled together stay together: the noise of
 * 20 fresh runs of the same length), through buildComparison, as `harness compare --budget 'p50:+10ms,p95:+10%'`
 * (README's CI budget) does. Identical: never "exceeded" (inconclusive allowed), loaded machine or not. 50 ms
 * slower: the gate fails in 20 of 20 on p50 — unless the run itself measured that its load generator stalled by
 * more than the slowdown (report.json `generatorBound`), when the only honest answer is "inconclusive", for a reason the
 * runs measured (the stall, or intervals the stalls widened over the limit), which the test then requires instead (on a
 * busy machine p95 is the machine's stalls and may honestly be "inconclusive" too).
 */
import { readFileSync } from 'node:fs';
import * as hdr from 'hdr-histogram-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBudgets } from '../../../src/compare/budget.ts';
import { buildComparison } from '../../../src/compare/build-comparison.ts';
import { decodeHistogram } from '../../../src/compare/percentile-interval.ts';
import { defaultConfig } from '../../../src/config/defaults.ts';
import { credentialsFromReference } from '../../../src/job/open-target.ts';
import type { ScenarioResult } from '../../../src/load/result.ts';
import { runScenario } from '../../../src/load/run-scenario.ts';
import { checkScenarioText } from '../../../src/load/scenario/load.ts';
import { buildReport, type Report } from '../../../src/report/report.ts';
import { startReferenceTarget } from '../../../src/target/index.ts';
import type { StartedReferenceTarget } from '../../../src/target/types.ts';
import { mulberry32 } from '../../helpers/mulberry32.ts';

const api = defaultConfig().api;
const BUDGET = 'p50:+10ms,p95:+10%';
let targets: StartedReferenceTarget[] = [];
let results: ScenarioResult[] = [];

beforeAll(async () => {
  targets = await Promise.all([{}, {}, { injectLatencyMs: 50 }].map((extra) => startReferenceTarget({ host: '127.0.0.1', port: 0, ...extra })));
  const text = readFileSync('scenarios/gate.yaml', 'utf8').replace(/^duration: .*$/m, 'duration: 10s');
  const { scenario, issues } = checkScenarioText(text, 'scenarios/gate.yaml', {});
  if (!scenario) throw new Error(issues.map((i) => i.message).join('\n'));
  // Bounded: 10 s of 50 requests/s per target, with a 5 s graceful stop at most.
  results = (await Promise.all(targets.map((t) => runScenario({ scenario, baseUrl: t.baseUrl, api, credentials: credentialsFromReference(t.credentials) })))).map((r) => r.result);
}, 60_000);

afterAll(async () => {
  await Promise.all(targets.map((t) => t.close()));
});

/**
 * A block-bootstrap resample of a measured run: as many seconds as it had, each drawn with replacement from its
 * per-second histograms (report.json `histograms.blocks`), whole; the run's histogram is their sum.
 */
function resample(result: ScenarioResult, seed: number): Report {
  const blocks = result.histograms!.blocks!;
  const random = mulberry32(seed);
  const indices = blocks.histograms.map(() => Math.floor(random() * blocks.histograms.length));
  const picked = indices.map((i) => blocks.histograms[i] as string);
  // The generator-bound seconds follow their histograms to where the resample put them (compare leaves them out).
  const bound = new Set(result.generatorBound?.seconds ?? []);
  const boundAt = indices.flatMap((i, at) => (bound.has(i) ? [at] : []));
  const h = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3, autoResize: true, useWebAssembly: false });
  for (const encoded of picked) h.add(hdr.decodeFromCompressedBase64(encoded, 'packed', false));
  const at = (p: number) => h.getValueAtPercentile(p) / 1000;
  const scenario = {
    ...result,
    requests: h.totalCount,
    latency: { p50: at(50), p95: at(95), p99: at(99), p90: at(90), p999: at(99.9), p9999: at(99.99), max: at(100) },
    histograms: { unit: 'us' as const, all: hdr.encodeIntoCompressedBase64(h), byName: {}, blocks: { seconds: blocks.seconds, histograms: picked } },
    ...(result.generatorBound ? { generatorBound: { ...result.generatorBound, seconds: boundAt } } : {}),
  };
  return buildReport({ runId: `run-${seed}`, startedAt: new Date().toISOString(), target: { baseUrl: 'http://127.0.0.1', embedded: true }, scenarios: [scenario] });
}

function gate(base: Report, cand: Report) {
  const comparison = buildComparison({ reports: [{ file: 'base.json', report: base }, { file: 'cand.json', report: cand }], budgets: parseBudgets(BUDGET) });
  return { gate: comparison.gate, budgets: comparison.budgets };
}

describe(`CI gate ${BUDGET} on scenarios/gate.yaml against real reference targets`, () => {
  it('measured enough requests for p95 in every run', () => {
    for (const r of results) expect(r.requests, JSON.stringify(r.statusCodes)).toBeGreaterThanOrEqual(200);
  });

  it('identical targets: never "exceeded" in 20 comparisons', () => {
    const outcomes = Array.from({ length: 20 }, (_, i) => gate(resample(results[0]!, 1000 + i), resample(results[1]!, 2000 + i)));
    const exceeded = outcomes.flatMap((o) => o.budgets).filter((b) => b.status === 'exceeded');
    expect(exceeded.map((b) => b.detail)).toEqual([]);
    expect(outcomes.every((o) => o.gate === 'passed' || o.gate === 'inconclusive')).toBe(true);
  });

  it('50 ms injected latency: exceeded in 20 of 20 comparisons, or inconclusive because a run measured its generator stalling', () => {
    const bound = [results[0]!, results[2]!].filter((r) => r.generatorBound).map((r) => r.generatorBound!.message);
    const outcomes = Array.from({ length: 20 }, (_, i) => gate(resample(results[0]!, 3000 + i), resample(results[2]!, 4000 + i)));
    for (const o of outcomes) {
      const p50 = o.budgets[0]!;
      if (p50.status === 'exceeded' || bound.length === 0) {
        expect(o.gate, JSON.stringify(o.budgets.map((b) => b.detail))).toBe('failed');
        expect(p50.detail).toMatch(/^p50:\+10ms: p50 of scenario "gate" in \S+ is [\d.]+ ms > limit [\d.]+ ms \(.*99 % intervals, \d+ and \d+ samples, over blocks of \d+ s and \d+ s/);
      } else {
        // The machine stalled the load generator itself (measured, in the report): inconclusive, for a reason the runs
        // measured — the stall itself, or, when a stalled run's seconds spread its interval over the limit, intervals
        // that overlap it and say how much wider than for independent requests the stalls made them (a loaded full
        // run of the suite: the baseline's p50 blocks reached 50 ms, its interval 4.96× as wide).
        expect(p50.status, bound.join('; ')).toBe('inconclusive');
        expect(p50.detail).toMatch(
          /^p50:\+10ms: inconclusive(, because (the load generator stalled: .*generator-bound in \d+ of \d+ s|of the machine's scheduling|the runs stalled unevenly)|: the 99 % intervals overlap the limit: .*as wide as for independent requests)/,
        );
      }
    }
  });
});
