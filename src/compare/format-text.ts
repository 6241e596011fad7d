/** The comparison on the console: aligned columns, then the gate's decision. */
import type { Comparison } from './model.ts';
import { comparisonTables, gateLines, type TableView } from './view.ts';

export function formatText(c: Comparison): string {
  const out: string[] = [`compare: ${c.runs.length} runs, baseline ${c.runs[c.baseline]?.label ?? '?'}`];
  for (const table of comparisonTables(c)) out.push('', table.title, ...textTable(table));
  const gate = gateLines(c);
  if (gate.length) out.push('', ...gate);
  return `${out.join('\n')}\n`;
}

export function textTable(table: TableView): string[] {
  if (table.rows.length === 0) return [`  ${table.empty ?? 'none'}`];
  const all = [table.headers, ...table.rows];
  const widths = table.headers.map((_, col) => all.reduce((widest, row) => Math.max(widest, (row[col] ?? '').length), 0));
  // The last column is not padded: it is often a long sentence.
  const line = (row: string[]) => `  ${row.map((cell, col) => (col === row.length - 1 ? cell : cell.padEnd(widths[col] ?? 0))).join('  ')}`.trimEnd();
  return [line(table.headers), ...table.rows.map(line)];
}
