/**
 * report.json `coverage`: each SERVICE-SPEC clause with the checks of this run that test it. A clause no
 * selected check tests is `not-covered` (e.g. its suite was not selected); one no check can test is
 * `untestable`, with the reason.
 */
import type { Check } from './check.ts';
import { SPEC_CLAUSES } from './spec-clauses.ts';

export interface ClauseCoverage {
  id: string;
  title: string;
  status: 'covered' | 'not-covered' | 'untestable';
  checks: string[];
  reason?: string;
}

export interface Coverage {
  clauses: ClauseCoverage[];
  covered: number;
  notCovered: number;
  untestable: number;
}

export function coverageOf(checks: Iterable<Pick<Check, 'id' | 'clauses'>>): Coverage {
  const byClause = new Map<string, string[]>();
  for (const check of checks) {
    for (const clause of check.clauses) byClause.set(clause, [...(byClause.get(clause) ?? []), check.id]);
  }
  const clauses = SPEC_CLAUSES.map((clause): ClauseCoverage => {
    const ids = byClause.get(clause.id) ?? [];
    if (clause.untestable) return { id: clause.id, title: clause.title, status: 'untestable', checks: ids, reason: clause.untestable };
    return { id: clause.id, title: clause.title, status: ids.length > 0 ? 'covered' : 'not-covered', checks: ids };
  });
  const count = (status: ClauseCoverage['status']) => clauses.filter((c) => c.status === status).length;
  return { clauses, covered: count('covered'), notCovered: count('not-covered'), untestable: count('untestable') };
}
