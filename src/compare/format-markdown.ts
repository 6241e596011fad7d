/** The comparison as GitHub-flavoured Markdown, for `$GITHUB_STEP_SUMMARY` (--summary-md). */
import type { Comparison } from './model.ts';
import { comparisonTables, gateLines, type TableView } from './view.ts';

export function formatMarkdown(c: Comparison): string {
  const gate = c.gate === 'none' ? '' : c.gate === 'passed' ? ' — :white_check_mark: gate passed' : c.gate === 'inconclusive' ? ' — :warning: gate inconclusive (too few samples; not a failure)' : ' — :x: gate failed';
  const out: string[] = [`## Harness compare: ${c.runs.length} runs, baseline \`${mdCell(c.runs[c.baseline]?.label ?? '?')}\`${gate}`, ''];
  for (const table of comparisonTables(c)) out.push(`### ${mdCell(table.title)}`, '', ...mdTable(table), '');
  const lines = gateLines(c);
  if (lines.length) out.push(...lines.map((l) => (l.startsWith('  ') ? `- ${mdCell(l.trim())}` : `**${mdCell(l)}**`)), '');
  return out.join('\n');
}

export function mdTable(table: TableView): string[] {
  if (table.rows.length === 0) return [`_${mdCell(table.empty ?? 'none')}_`];
  const row = (cells: string[]) => `| ${cells.map(mdCell).join(' | ')} |`;
  return [row(table.headers), `|${table.headers.map(() => '---').join('|')}|`, ...table.rows.map(row)];
}

/** Pipes would split a cell, newlines would end the table, and `<` could open HTML in GitHub's renderer. */
export function mdCell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
