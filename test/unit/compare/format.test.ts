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
    expect(md).toContain('**gate: FAILED** (exit 1): 2 exceeded, 1 within, 0 inconclusive');
    expect(formatMarkdown(plain)).not.toContain('gate');
    expectValidTables(md);
  });

  it('one row per budget; an inconclusive budget is a row that says why and what to change, not a second failure', () => {
    const mixed = {
      ...gated,
      budgets: [
        { budget: 'p50:+10ms', run: 'B', scenario: 'send-steady', status: 'exceeded' as const, detail: 'p50:+10ms: p50 of scenario "send-steady" in B is 60 ms > limit 12 ms' },
        {
          budget: 'p95:+10%', run: 'B', scenario: 'send-steady', status: 'inconclusive' as const,
          detail: 'p95:+10%: inconclusive, because the load generator stalled: B was generator-bound in 3 of 30 s',
          reason: 'the load generator stalled', advice: 'use a quieter runner (free cores)',
        },
        { budget: 'failed:0', run: 'B', status: 'within' as const, detail: 'failed:0: B has 0 failed checks' },
      ],
    };
    const md = formatMarkdown(mixed);
    expectValidTables(md);
    const section = md.slice(md.indexOf('### Budgets'));
    const rows = section.split('\n').filter((l) => l.startsWith('| :') || l.startsWith('| not'));
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/^\| :x: exceeded \| p50:\+10ms \| B \| send-steady \| p50:\+10ms: p50 of scenario "send-steady" in B is 60 ms &gt; limit 12 ms \|  \|$/);
    expect(rows[1]).toMatch(/^\| :warning: inconclusive \| p95:\+10% \| B \| send-steady \| p95:\+10%: inconclusive, because the load generator stalled: .* \| use a quieter runner \(free cores\) \|$/);
    expect(rows[2]).toMatch(/^\| :white_check_mark: within \| failed:0 \| B \| — \|/);
    // The inconclusive budget is not listed among failures anywhere (the old summary glued a warning list to them).
    expect(md).not.toMatch(/warning: 1 budget/);
    expect(section.trimEnd().split('\n').at(-1)).toBe('**gate: FAILED** (exit 1): 1 exceeded, 1 within, 1 inconclusive');
    expect(formatMarkdown({ ...mixed, gate: 'inconclusive', budgets: mixed.budgets.slice(1) })).toMatch(/gate inconclusive \(undecided budgets; not a failure\)[\s\S]*\*\*gate: INCONCLUSIVE\*\* \(exit 0\): 0 exceeded, 1 within, 1 inconclusive\. Inconclusive is not a failure/);
  });

  it('escapes cells', () => {
    expect(mdCell('a|b\nc <script>')).toBe('a\\|b c &lt;script&gt;');
    expect(mdTable({ title: 't', headers: ['a'], rows: [] })).toEqual(['_none_']);
  });
});

/**
 * GitHub-flavoured Markdown's table rules, checked line by line: a table starts after a blank line (or a heading),
 * ends before one, and every row has as many cells as its header (escaped pipes do not count).
 */
function expectValidTables(md: string): void {
  const lines = md.split('\n');
  const cells = (line: string) => line.replace(/\\\|/g, '').split('|').length;
  lines.forEach((line, i) => {
    if (!line.startsWith('|')) return;
    const prev = lines[i - 1] ?? '';
    const next = lines[i + 1] ?? '';
    if (!prev.startsWith('|')) {
      expect(prev, `line ${i + 1} starts a table`).toBe('');
      expect(next, `line ${i + 2} is the delimiter row`).toMatch(/^\|(---\|)+$/);
    }
    if (!next.startsWith('|')) expect(next, `line ${i + 2} follows a table`).toBe('');
    let header = i;
    while (header > 0 && (lines[header - 1] ?? '').startsWith('|')) header--;
    expect(cells(line), `line ${i + 1}: ${line}`).toBe(cells(lines[header] as string));
  });
}
