/**
 * The comparison as GitHub-flavoured Markdown, for `$GITHUB_STEP_SUMMARY` (--summary-md): a heading with the gate,
 * the comparison tables, then the budgets as one table with one row per budget result (an inconclusive one says
 * why and what to change in its own row, never in a list that could read as another failure), and one closing
 * line. Every block is separated by a blank line, so a table or paragraph never runs into the next one.
 */
import type { BudgetResult, Comparison } from './model.ts';
import { comparisonTables, type TableView } from './view.ts';

const GATE_HEADING: Record<Exclude<Comparison['gate'], 'none'>, string> = {
  passed: ' — :white_check_mark: gate passed',
  failed: ' — :x: gate failed',
  inconclusive: ' — :warning: gate inconclusive (undecided budgets; not a failure)',
};

const RESULT: Record<BudgetResult['status'], string> = {
  exceeded: ':x: exceeded',
  within: ':white_check_mark: within',
  inconclusive: ':warning: inconclusive',
  'not-evaluated': 'not evaluated',
};

export function formatMarkdown(c: Comparison): string {
  const gate = c.gate === 'none' ? '' : GATE_HEADING[c.gate];
  const out: string[] = [`## Harness compare: ${c.runs.length} runs, baseline \`${mdCell(c.runs[c.baseline]?.label ?? '?')}\`${gate}`, ''];
  for (const table of comparisonTables(c).filter((t) => t.title !== 'Budgets')) out.push(`### ${mdCell(table.title)}`, '', ...mdTable(table), '');
  if (c.gate !== 'none') out.push('### Budgets', '', ...mdTable(budgetTable(c)), '', closingLine(c), '');
  return out.join('\n');
}

/** One row per budget result: what was decided, on which run and scenario, the sentence, and what to change. */
export function budgetTable(c: Comparison): TableView {
  return {
    title: 'Budgets',
    headers: ['result', 'budget', 'run', 'scenario', 'detail', 'to decide'],
    rows: c.budgets.map((b) => [RESULT[b.status], b.budget, b.run, b.scenario ?? '—', b.detail, b.status === 'inconclusive' ? (b.advice ?? 'measure more requests per run') : '']),
    empty: 'no budget applied',
  };
}

function closingLine(c: Comparison): string {
  const count = (status: BudgetResult['status']) => c.budgets.filter((b) => b.status === status).length;
  const parts = [`${count('exceeded')} exceeded`, `${count('within')} within`, `${count('inconclusive')} inconclusive`, ...(count('not-evaluated') ? [`${count('not-evaluated')} not evaluated`] : [])].join(', ');
  const word = c.gate === 'failed' ? 'FAILED' : c.gate === 'passed' ? 'PASSED' : 'INCONCLUSIVE';
  const exit = c.gate === 'failed' ? 'exit 1' : 'exit 0';
  return `**gate: ${word}** (${exit}): ${parts}${c.gate === 'inconclusive' ? '. Inconclusive is not a failure: the runs could not tell; the table says what to change.' : ''}`;
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
