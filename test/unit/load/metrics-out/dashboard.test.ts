/** The shipped Grafana dashboard reads only series the harness pushes (k6-series.ts), with the labels they carry. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Recorder } from '../../../../src/load/metrics/recorder.ts';
import { k6Series } from '../../../../src/load/metrics-out/k6-series.ts';

const REPO = resolve(import.meta.dirname, '../../../..');

describe('dashboards/harness-load.json', () => {
  it('every metric and label its queries name is one the harness pushes', () => {
    const dashboard = JSON.parse(readFileSync(resolve(REPO, 'dashboards/harness-load.json'), 'utf8')) as { panels: Array<{ targets: Array<{ expr: string }> }> };
    const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr));
    expect(exprs.length).toBeGreaterThan(5);
    const r = new Recorder(['a']);
    r.record(0, 200, true, 1, 1);
    r.recordIteration(5, 'a');
    const series = k6Series(r, 's', 't', 0);
    const metrics = new Set(series.map((s) => s.labels.__name__));
    const labels = new Set(series.flatMap((s) => Object.keys(s.labels)));
    for (const expr of exprs) {
      const used = [...expr.matchAll(/\b(k6_[a-z0-9_]+)\b/g)].map((m) => m[1]!);
      expect(used.length, expr).toBeGreaterThan(0);
      for (const m of used) expect(metrics, `${m} in ${expr}`).toContain(m);
      for (const m of expr.matchAll(/by \(([a-z_, ]+)\)|\{([a-z_]+)[=!~]/g)) for (const l of (m[1] ?? m[2]!).split(/,\s*/)) expect(labels, `${l} in ${expr}`).toContain(l);
    }
  });
});
