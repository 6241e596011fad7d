/**
 * report.json `security`: each item of the OWASP API Security Top 10 (2023) with the checks of this run that cover
 * it (`Check.owasp`) and what they found. `findings`: a covering check failed; `covered`: one passed for real
 * (not vacuously) and none failed; `not-covered`: no covering check ran, or none decided (skipped, errored,
 * undecided, vacuous), with the reason. An item a black-box run cannot reach says so in its reason.
 */
import type { Check, Level, OwaspItem } from './check.ts';
import { OWASP_ITEMS } from './check.ts';
import type { CheckResult } from './result.ts';

export const OWASP_TITLES: Record<OwaspItem, string> = {
  'API1:2023': 'Broken Object Level Authorization',
  'API2:2023': 'Broken Authentication',
  'API3:2023': 'Broken Object Property Level Authorization',
  'API4:2023': 'Unrestricted Resource Consumption',
  'API5:2023': 'Broken Function Level Authorization',
  'API6:2023': 'Unrestricted Access to Sensitive Business Flows',
  'API7:2023': 'Server Side Request Forgery',
  'API8:2023': 'Security Misconfiguration',
  'API9:2023': 'Improper Inventory Management',
  'API10:2023': 'Unsafe Consumption of APIs',
};

/** Why no check covers an item, where that is the nature of the item rather than this run's selection. */
const OUT_OF_REACH: Partial<Record<OwaspItem, string>> = {
  'API6:2023': 'which business flows are sensitive is the operator\'s judgement; a black-box run cannot tell',
  'API9:2023': 'an inventory of hosts and versions lies outside the one base URL a run is given',
  'API10:2023': 'how the target consumes third-party APIs cannot be seen from its own interface',
};

export interface OwaspFinding {
  check: string;
  level: Level;
  message: string;
}

export interface OwaspItemCoverage {
  id: OwaspItem;
  title: string;
  status: 'covered' | 'not-covered' | 'findings';
  /** The checks of this run that cover the item. */
  checks: string[];
  findings: OwaspFinding[];
  reason?: string;
}

export interface SecurityCoverage {
  items: OwaspItemCoverage[];
  covered: number;
  notCovered: number;
  withFindings: number;
}

export function securityOf(checks: Iterable<Pick<Check, 'id' | 'owasp'>>, results: readonly CheckResult[]): SecurityCoverage {
  const byItem = new Map<OwaspItem, string[]>();
  for (const check of checks) for (const item of check.owasp ?? []) byItem.set(item, [...(byItem.get(item) ?? []), check.id]);
  const resultOf = new Map(results.map((r) => [r.id, r]));
  const items = OWASP_ITEMS.map((id): OwaspItemCoverage => {
    const ids = byItem.get(id) ?? [];
    const ran = ids.map((c) => resultOf.get(c)).filter((r): r is CheckResult => r !== undefined);
    const findings = ran.filter((r) => r.status === 'failed').map((r) => ({ check: r.id, level: r.level, message: r.message ?? '' }));
    const base = { id, title: OWASP_TITLES[id], checks: ids };
    if (findings.length) return { ...base, status: 'findings', findings };
    if (ran.some((r) => r.status === 'passed' && r.vacuous === undefined)) return { ...base, status: 'covered', findings };
    const reason = ids.length === 0 ? (OUT_OF_REACH[id] ?? 'no check of this run covers it') : `its checks did not decide (${ids.map((c) => `${c}: ${describe(resultOf.get(c))}`).join('; ')})`;
    return { ...base, status: 'not-covered', findings, reason };
  });
  const count = (status: OwaspItemCoverage['status']) => items.filter((i) => i.status === status).length;
  return { items, covered: count('covered'), notCovered: count('not-covered'), withFindings: count('findings') };
}

function describe(result: CheckResult | undefined): string {
  if (!result) return 'not run';
  return result.vacuous !== undefined ? 'passed vacuously' : result.status;
}
