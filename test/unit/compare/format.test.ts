import { describe, expect, it } from 'vitest';
import { parseBudgets } from '../../../src/compare/budget.ts';
import { buildComparison } from '../../../src/compare/build-comparison.ts';
import { formatMarkdown, mdCell, mdTable } from '../../../src/compare/format-markdown.ts';
import { formatText, textTable } from '../../../src/compare/format-text.ts';
import { comparisonTables, gateLines, ppDelta, relDelta } from '../../../src/compare/view.ts';
import { richReport } from '../../fixtures/reports/rich-report.ts';

const reports = [
  { file: 'a.json', report: richReport({ runId: 'A' }) },
  { file: 'b.json', report: richReport({ runId: 'B', latencyFactor: 1.2, mustStatus: 'passed' }) },
];
const gated = buildComparison({ reports, budgets: parseBudgets('p95:+10%,failed:1'), now: new Date(0) });
const plain = buildComparison({ reports, now: new Date(0) });

describe('comparison tables', () => {
  it('has runs, changed checks, each scenario and rate limits; budgets only with a gate', () => {
    expect(comparisonTables(plain).map((t) => t.title)).toEqual(['Runs', 'Checks whose status changed', 'Scenario send-steady', 'Scenario list-ramp', 'Rate limits']);
    const tables = comparisonTables(gated);
    expect(tables.at(-1)!.title).toBe('Budgets');
    expect(tables[0]!.headers).toEqual(['', 'A (baseline)', 'B']);
    expect(tables[1]!.rows).toEqual([['smoke.list-messages-envelope', 'MUST', 'failed', 'passed']]);
    expect(tables[2]!.rows[1]).toEqual(['p95', '10 ms', '12 ms (+20 %)']);
    expect(tables[2]!.rows[5]).toEqual(['429 rate', '1 %', '1 % (+0 pp)']);
  });

  it('deltas', () => {
    expect(relDelta(12, 10)).toBe('+20 %');
    expect(relDelta(0, 0)).toBe('±0 %');
    expect(relDelta(3, 0)).toBe('new');
    expect(ppDelta(0.05, 0.01)).toBe('+4 pp');
    expect(ppDelta(0.01, 0.02)).toBe('-1 pp');
  });

  it('the gate lines name each exceeded budget', () => {
    expect(gateLines(plain)).toEqual([]);
    const lines = gateLines(gated);
    expect(lines[0]).toBe('gate: FAILED — 2 budgets exceeded:');
    expect(lines[1]).toContain('p95 of scenario "send-steady" in B is 12 ms > limit 11 ms');
    expect(gateLines(buildComparison({ reports, budgets: parseBudgets('failed:5') }))).toEqual(['gate: PASSED — 1 budget checks within limits']);
  });
});

describe('console text', () => {
  it('aligns columns and ends with the gate', () => {
    const text = formatText(gated);
    expect(text.startsWith('compare: 2 runs, baseline A\n')).toBe(true);
    expect(text).toContain('  verdict      not-certified  certified-with-warnings');
    expect(text.trimEnd().split('\n').at(-1)).toContain('p95 of scenario "list-ramp"');
    expect(textTable({ title: 't', headers: ['a'], rows: [], empty: 'nothing' })).toEqual(['  nothing']);
  });
});

describe('markdown summary', () => {
  it('has a heading with the gate and GitHub tables', () => {
    const md = formatMarkdown(gated);
    expect(md.split('\n')[0]).toBe('## Harness compare: 2 runs, baseline `A` — :x: gate failed');
    expect(md).toContain('| check | level | A (baseline) | B |\n|---|---|---|---|');
    expect(md).toContain('**gate: FAILED — 2 budgets exceeded:**');
    expect(formatMarkdown(plain)).not.toContain('gate');
  });

  it('escapes cells', () => {
    expect(mdCell('a|b\nc <script>')).toBe('a\\|b c &lt;script&gt;');
    expect(mdTable({ title: 't', headers: ['a'], rows: [] })).toEqual(['_none_']);
  });
});
